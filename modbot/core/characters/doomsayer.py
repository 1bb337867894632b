"""Theory of operation: the Doomsayer's call and the Spirit of Ivory's cap (official Fabled the
Storytellers run; what the bot does for them).

The Doomsayer: "If 4 or more players live, each living player may publicly choose (once per
game) that a player of their own alignment dies." A call is a line `/doomsayer` in the game
thread (`DoomsayerCalled`, kept in `CALLED`); the Storytellers are told at once, with the
caller's alignment as the grimoire has it, and choose who dies (`!kill NAME`). Refused, with
the reason, by night, from a dead player, a second time, with fewer than four alive, or with no
Doomsayer in play: all public facts.

The Spirit of Ivory: "There can't be more than 1 extra evil player." When a change of alignment
(at dawn, or a Storyteller's `!alignment`) makes a second extra evil player (one holding a
Townsfolk or an Outsider: a good character turned evil), the Storytellers are told
(`_told_ivory`); undoing or keeping it is theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..deciding.rules import reject
from ..state.actions import Context, DoomsayerCall
from ..state.events import Event
from ..state.feature import Feature, Notice, to_storytellers
from ..state.grimoire import alignment_of, is_evil, living_residents, true_character
from ..state.model import GameState, iso
from ..state.private_events import EffectApplied
from ..state.rejection import Rejection
from ..state.slots import Slot
from ..state.staff_events import GrimoireChanged
from ..wording import say

CALLED: Slot[tuple[str, ...]] = Slot("doomsayer_called", ())  # who called, once each
GOOD_TEAMS = ("townsfolk", "outsider")  # an evil player holding one is an extra evil player


@dataclass(frozen=True, slots=True)
class DoomsayerCalled:
    player: str
    post_number: int | None
    at: datetime


def _call(state: GameState, _action: DoomsayerCall, ctx: Context) -> Sequence[Event] | Rejection:
    if "doomsayer" not in state.setup.fabled:
        return reject(ctx, "no_doomsayer")
    if state.today is None:
        return reject(ctx, "wrong_phase", what="/doomsayer", phase=state.phase.value)
    if not state.seat(ctx.author).alive:
        return reject(ctx, "dead_no_ability")
    if ctx.author in CALLED.of(state):
        return reject(ctx, "doomsayer_called")
    if len(living_residents(state)) < 4:
        return reject(ctx, "doomsayer_too_few")
    return (DoomsayerCalled(ctx.author, ctx.post_number, ctx.at),)


def _called(state: GameState, e: DoomsayerCalled) -> GameState:
    return CALLED.put(state, (*CALLED.of(state), e.player))


def _told_call(state: GameState, event: DoomsayerCalled, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    team = alignment_of(state, event.player) or "good"
    terms = state.setup.script.terms if state.setup.script else None
    return (to_storytellers("st_note", f"doomsayer:{event.player}:{iso(event.at)}",
                            text=say("st.doomsayer", player=event.player, post=event.post_number,
                                     team=terms.alignment(team) if terms else team)),)


def _told_ivory(state: GameState, event: EffectApplied | GrimoireChanged, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    field = event.effect.field if isinstance(event, EffectApplied) else event.field
    if "spiritofivory" not in state.setup.fabled or field != "alignment":
        return ()
    extra = [s.name for s in state.seats if not s.traveller and is_evil(state, s.name)
             and (c := true_character(state, s.name)) is not None and c.team in GOOD_TEAMS]
    if len(extra) <= 1:
        return ()
    return (to_storytellers("st_note", f"ivory:{len(extra)}:{iso(event.at)}",
                            text=say("st.spirit_of_ivory", players=extra)),)


FEATURE = Feature("doomsayer", appliers={DoomsayerCalled: _called}, rules={DoomsayerCall: _call},
                  notices={DoomsayerCalled: _told_call, EffectApplied: _told_ivory,
                           GrimoireChanged: _told_ivory},
                  slots=(CALLED,))

__all__ = ["CALLED", "DoomsayerCalled"]

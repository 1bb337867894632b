"""Theory of operation: the Gossip's public statement (Bad Moon Rising).

"Each day, you may make a public statement. Tonight, if it was true, a player dies." On the
forum a statement is a line `/gossip TEXT` in the game thread. Anyone may post one, and every
one is kept the same way (`StatementMade`, in `STATEMENTS`: the day, the author, the words, the
post), first of the day for each player: the bot never answers a statement, so nothing says
who the Gossip is, and a player who only believes they are the Gossip (the Drunk) is treated
as any other. The Storytellers are told at once of a statement by the player who acts as the
Gossip (with the post's number); that night the Gossip's step (the Storytellers' own, which
wakes nobody) shows yesterday's statement: whether it was true, and whom it kills (`!dies
NAME`), is their call. A statement by night, or by a dead player, is refused as any day action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..deciding.rules import reject
from ..state.actions import Context, PublicStatement
from ..state.events import Event
from ..state.feature import CharacterRules, Feature, Notice, to_storytellers
from ..state.grimoire import acting_character, is_malfunctioning
from ..state.model import GameState, iso
from ..state.night_model import Info, NightChoice
from ..state.rejection import Rejection
from ..state.slots import Slot
from ..wording import say

# (day, player, text, post number) of each statement, the first of each player's day
STATEMENTS: Slot[tuple[tuple[int, str, str, int | None], ...]] = Slot("statements", ())


@dataclass(frozen=True, slots=True)
class StatementMade:
    player: str
    day: int
    text: str
    post_number: int | None
    at: datetime


def _state(state: GameState, action: PublicStatement, ctx: Context) -> Sequence[Event] | Rejection:
    if not action.text:
        return ()  # `/gossip` alone says nothing
    if state.today is None:
        return reject(ctx, "wrong_phase", what="/gossip", phase=state.phase.value)
    if not state.seat(ctx.author).alive:
        return reject(ctx, "dead_no_ability")
    if any(d == state.cycle and p == ctx.author for d, p, _, _ in STATEMENTS.of(state)):
        return ()  # the day's first statement stands
    return (StatementMade(ctx.author, state.cycle, action.text, ctx.post_number, ctx.at),)


def _made(state: GameState, e: StatementMade) -> GameState:
    return STATEMENTS.put(state, (*STATEMENTS.of(state), (e.day, e.player, e.text, e.post_number)))


def _is_gossip(state: GameState, player: str) -> bool:
    character = acting_character(state, player)
    return character is not None and character.id == "gossip"


def _told(state: GameState, event: StatementMade, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    if not _is_gossip(state, event.player):
        return ()
    return (to_storytellers("st_note", f"gossip:{event.player}:{iso(event.at)}",
                           text=say("st.gossip", player=event.player, post=event.post_number,
                                    said=event.text)),)


def _gossip(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    said = next(((text, post) for day, who, text, post in STATEMENTS.of(state)
                 if day == state.cycle - 1 and who == player), None)
    if said is None:
        return Info(note=say("info.gossip_none"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.gossip_malfunctions", said=said[0], post=said[1]))
    return Info(note=say("info.gossip", said=said[0], post=said[1]))


FEATURE = Feature("gossip", appliers={StatementMade: _made}, rules={PublicStatement: _state},
                  notices={StatementMade: _told}, slots=(STATEMENTS,))
CHARACTERS: tuple[CharacterRules, ...] = (CharacterRules("gossip", night=_gossip),)

__all__ = ["CHARACTERS", "STATEMENTS", "StatementMade"]

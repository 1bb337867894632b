"""Theory of operation: who is told what of the deal (a `Feature` of notices only).

Before the deal the Storytellers see the set-up's check, the grimoire proposed and its
acceptance, or why the deal waits. At the deal each player is told, in their grimoire PM, the
character they believe they are (`role_view`): its ability and how to choose at night, and,
for a player who starts evil, their team (a Minion does not learn which of them is the
Marionette; the Marionette learns nothing, seed 002) and, for a Demon, the bluffs. A
traveller on the evil side learns who the Demon is (seed 001).

A substitute (`!sub OLD NEW`) after the deal takes over the seat's conversation: the thread
hears who replaced whom (a public fact), the replaced player is told there first, then the
substitute gets the seat's role PM there (what the seat believes it is, its team and bluffs)
and whether a choice sent for tonight stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..characters.helpers import HELPED
from ..characters.records import RECORDS
from ..characters.triggers import UNTOLD, ScarletWomanPromoted, UntoldDelivered
from ..characters.wins import unaware_marionette
from ..setup.composition import dealt_text
from ..state.events import Event
from ..state.feature import Feature, Notice, to_player, to_storytellers, to_thread
from ..state.grimoire import players_of_team, true_character
from ..state.model import GameState, iso
from ..state.private_events import CharactersDealt, DealWaiting, EffectApplied
from ..state.script import ActionSpec, Character
from ..state.staff_events import PlayerSubstituted
from .commands import SetupAccepted, SetupChecked, SetupProposed


def role_view(state: GameState, player: str) -> dict[str, Any]:
    """What one player is told at the deal (the character they believe they are)."""
    script, entry = state.setup.private_script, state.grimoire_of(player)
    believed = entry.thinks or entry.character or "?"
    shown = script.get(believed) or Character(
        believed, believed, "unknown", "(not on this game's script: ask the Storyteller)")
    alignment = entry.alignment if entry.alignment and not entry.thinks else \
        ("good" if shown.is_good else "evil" if shown.is_evil else entry.alignment)
    view: dict[str, Any] = {
        "player": player, "character": shown.name, "team": shown.team,
        "ability": shown.ability, "alignment": script.terms.alignment(alignment),
        "cultists": [], "bluffs": [], "good_bluffs": True, "demon": None,
        "evil_term": script.terms.evil, "good_term": script.terms.good, "demon_verbs": [],
        "lil_monsta": False, "choose": _choose_form(shown.spec), "wakes": shown.spec.wakes,
        "storytellers_run": not shown.automated, "wiki": shown.wiki,
        "public_choice": _chooses_in_public(shown),
        "changed": False, "substitute_for": None, "choice_stands": False,
        # a character whose ability gives a player another character or ability during a
        # night (the record's `gives_ability`): the role PM says how to choose for it
        "contingency": any(c.spec.gives_ability for c in script.characters)}
    real = true_character(state, player)
    if real is not None and real.is_evil and not entry.thinks:
        view.update(_evil_view(state, player, real))
    if state.seat(player).traveller and alignment == "evil":
        view["demon"] = ", ".join(players_of_team(state, "demon", False)) or None
    return view


def _evil_view(state: GameState, player: str, real: Character) -> dict[str, Any]:
    """A player who starts evil: their team; a Demon, its bluffs (seed 002's may be evil)
    and whether the Barber or the Fiddler may change things; a Minion, Lil' Monsta."""
    script, entry = state.setup.private_script, state.grimoire_of(player)
    view: dict[str, Any] = {"cultists": _team_view(state, player, real.team == "demon"),
                            "lil_monsta": real.team == "minion" and state.setup.lil_monsta}
    if real.team == "demon":
        bluffs = [c for c in (script.get(b) for b in entry.bluffs or state.bluffs) if c]
        view.update({"bluffs": [c.name for c in bluffs],
                     "good_bluffs": all(c.is_good for c in bluffs),
                     "demon_verbs": _demon_verbs(state)})
    return view


def _demon_verbs(state: GameState) -> list[str]:
    """The choices a Demon may make for another's ability in this game (helpers.py): `swap`
    with the Barber on the script, `fiddle` with the Fiddler in play."""
    script = state.setup.private_script
    return [verb for verb, (step, team, _) in HELPED.items() if team == "demon"
            and (script.get(step) is not None or step in state.setup.fabled)]


def _chooses_in_public(character: Character) -> bool:
    """Its ability is a `/choose X` in the game thread (the Slayer, the Psychopath)."""
    record = RECORDS.get(character.id)
    return record is not None and record.public_choice is not None


def _choose_form(spec: ActionSpec) -> str | None:
    """The one `/choose` form this character uses (None: it never chooses)."""
    if not spec.chooses:
        return None
    names = " ".join(["NAME"] * spec.players)
    if spec.players and spec.characters:
        return f"/choose {names} as CHARACTER"
    return f"/choose {names}" if spec.players else "/choose CHARACTER"


def _team_view(state: GameState, player: str, is_demon: bool) -> list[dict[str, Any]]:
    """The other starting evil players of the player's team and their types. The Marionette
    does not know it is evil and the Minions do not learn it; the Demon does."""
    out, team = [], state.grimoire_of(player).evil_team
    for other in players_of_team(state, "minion", False) + players_of_team(state, "demon", False):
        character = true_character(state, other)
        marionette = character is not None and character.spec.believes == "good"
        if character is None or other == player or (marionette and not is_demon) or \
                state.grimoire_of(other).evil_team != team:  # several teams: only your own
            continue
        out.append({"player": other, "team": character.team, "is_marionette": marionette})
    return out


def _changed(state: GameState, event: EffectApplied, batch: Sequence[Event]) -> tuple[Notice, ...]:
    """Whoever changes character, alignment or team at dawn is told what they now are and the
    commands their ability uses (Oops All Evil: "If their alignment or team changed, they are
    informed"), as a role PM shows them, without the deal's team list or bluffs (what else
    they learn is the Storytellers'); a sober and healthy Marionette is never told."""
    effect = event.effect
    if effect.field not in ("character", "alignment", "evil_team") or \
            unaware_marionette(state, effect.player) or \
            _told_already(effect.player, event, batch):
        return ()
    return (_role_changed(state, effect.player, event.at),)


def _role_changed(state: GameState, player: str, at: datetime) -> Notice:
    """The role PM of a player whose character, alignment or team changed."""
    role = {**role_view(state, player), "changed": True, "cultists": [], "bluffs": [],
            "demon_verbs": [], "lil_monsta": False}
    return to_player(player, "role", f"role-changed:{player}:{iso(at)}", role=role,
                     game=state.setup)


def _promoted(state: GameState, event: ScarletWomanPromoted, batch: Sequence[Event]) -> tuple[Notice, ...]:
    """The Scarlet Woman who became the Demon: her new ability and commands at once at night;
    by day at dusk, with the message held till then (Oops All Evil: "only at night")."""
    held = any(isinstance(e, UntoldDelivered) and event.player in dict(e.messages)
               for e in batch)
    if state.phase.is_day or held or any(p == event.player for p, _ in UNTOLD.of(state)):
        return ()
    return (_role_changed(state, event.player, event.at),)


def _untold(state: GameState, event: UntoldDelivered, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return tuple(_role_changed(state, player, event.at)
                 for player in dict.fromkeys(p for p, _ in event.messages))


def _told_already(player: str, event: EffectApplied, batch: Sequence[Event]) -> bool:
    """One notice a player a dawn: only for the first of their changes in the batch."""
    changes = [e for e in batch if isinstance(e, EffectApplied) and e.effect.player == player
               and e.effect.field in ("character", "alignment", "evil_team")]
    return bool(changes) and changes[0] is not event


def _dealt(state: GameState, _event: CharactersDealt, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return tuple(to_player(seat.name, "role", f"role:{seat.name}",
                           role=role_view(state, seat.name), game=state.setup)
                 for seat in state.seats)


def _substituted(state: GameState, event: PlayerSubstituted, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    public = to_thread("substituted", f"sub:{event.old}:{event.new}", old=event.old,
                       new=event.new, dealt=state.dealt)
    if not state.dealt:
        return (public,)  # the deal tells the substitute their character
    tonight = state.night is not None and not state.night.locked and \
        state.night.choice_of(event.new) is not None
    role = {**role_view(state, event.new), "substitute_for": event.old, "choice_stands": tonight}
    return (public,
            to_player(event.old, "substituted_out", f"sub-out:{event.old}", new=event.new,
                      game=state.setup),
            to_player(event.new, "role", f"role:{event.new}:sub:{iso(event.at)}", role=role,
                      game=state.setup))


def _deal_waiting(_state: GameState, event: DealWaiting, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("deal_waiting", f"deal-waiting:{iso(event.at)}",
                            problems=event.problems),)


def _setup_checked(_state: GameState, event: SetupChecked, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("setup_check", f"setup:{iso(event.at)}", problems=event.problems,
                            accepted=False),)


def _setup_proposed(state: GameState, event: SetupProposed, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    grimoire, script = dict(event.grimoire), state.setup.private_script
    rows = [{"player": seat.name, "text": dealt_text(script, grimoire[seat.name])
             if seat.name in grimoire else None} for seat in state.seats]
    return (to_storytellers("setup_proposed", f"setup-proposed:{iso(event.at)}", rows=rows,
                            bluffs=[script.name_of(b) for b in event.bluffs]),)


def _setup_accepted(_state: GameState, event: SetupAccepted, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("setup_check", f"setup-accepted:{iso(event.at)}", problems=(),
                            accepted=True),)


FEATURE = Feature(
    "the deal's notices",
    notices={CharactersDealt: _dealt, EffectApplied: _changed, DealWaiting: _deal_waiting,
             ScarletWomanPromoted: _promoted, UntoldDelivered: _untold,
             PlayerSubstituted: _substituted,
             SetupChecked: _setup_checked,
             SetupProposed: _setup_proposed, SetupAccepted: _setup_accepted},
)

__all__ = ["FEATURE", "role_view"]

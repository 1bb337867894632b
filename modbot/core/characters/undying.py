"""Theory of operation: abilities that keep a player alive, or take one along (Bad Moon Rising).

A record's `"cannot_die"` (its catalogue `action`) says whom its ability keeps alive, from a
death by any cause (the Demon's kill or another's, an execution), while its player lives and
works (neither drunk nor poisoned):
- "self": the Sailor ("the Sailor cannot die");
- "good_neighbours": the Tea Lady ("if both your alive neighbours are good, they can't die":
  their true alignment, read when the death would happen);
- "once": the Fool ("the first time you die, you don't"): the death it averts spends the
  ability, marked on the Fool by the reminder `FOOL_SPENT` (the official token's words).
The Assassin's kill goes through all of them (its record's `kills_through_protection`: "even if
for some reason they could not"). `death_averted(state, victim)` says who keeps the victim
alive: the night sheet asks it for each death (`NightSheet.dies`), the day's end for an
execution (triggers.py's `protected_from_execution`); `averting_spends(state, victim)` is the
effect a Fool's averted death proposes (at night, on the sheet) or applies (an execution).

The Zombuul (`"cannot_die": "lives_on"`): "the 1st time you die, you live but register as
dead": that death happens in public (the thread is told it, its seat is dead), and the reminder
`LIVES_ON` keeps it the living Demon (state/grimoire.py: `players_of_team` counts it, so no
win is detected and no Scarlet Woman takes over; `keeps_ability` lets it choose at night).
`lives_on_mark` is that reminder, put before the death is applied; executed again, it dies
for good (`true_death` takes the reminder away).

The Grandmother learns her grandchild on the first night (bad_moon_rising.py), marked by the
reminder `GRANDCHILD`; when the Demon kills the grandchild, she dies too (`dies_with`, asked by
the sheet after each death, as the Lleech's host is).
"""

from __future__ import annotations

from ..state.grimoire import LIVES_ON, is_evil, is_malfunctioning, living_neighbours, true_character, working_holders
from ..state.model import GameState
from ..state.night_model import Effect
from ..wording import Say, say

FOOL_SPENT = "no ability"  # the reminder on a Fool whose first death was averted
GRANDCHILD = "grandchild"  # the reminder on the Grandmother's grandchild


def death_averted(state: GameState, victim: str) -> Say | None:
    """Who keeps `victim` alive from a death by any cause now, or None."""
    for seat in state.seats:
        character = true_character(state, seat.name)
        kind = character.spec.cannot_die if character is not None else ""
        if not kind or not seat.alive or is_malfunctioning(state, seat.name):
            continue
        if _keeps(state, kind, seat.name, victim):
            return say("by.character", character=character.name) if character else None
    return None


def _keeps(state: GameState, kind: str, holder: str, victim: str) -> bool:
    if kind == "self":
        return victim == holder
    if kind == "once":
        return victim == holder and FOOL_SPENT not in state.grimoire_of(holder).reminders
    if kind == "good_neighbours":
        neighbours = living_neighbours(state, holder)
        return victim in neighbours and len(set(neighbours)) == 2 and \
            not any(is_evil(state, n) for n in neighbours)
    return False


def averting_spends(state: GameState, victim: str) -> Effect | None:
    """The mark a death averted leaves: the Fool's ability spent (None for the others)."""
    character = true_character(state, victim)
    if character is None or character.spec.cannot_die != "once" or \
            death_averted(state, victim) is None:
        return None
    reminders = state.grimoire_of(victim).reminders
    return Effect(victim, "reminders", (*reminders, FOOL_SPENT),
                  say("by.character", character=character.name))


def dies_with(state: GameState, victim: str, by_demon: bool) -> list[str]:
    """Who dies with a player the Demon killed: a working Grandmother whose grandchild it was."""
    if not by_demon or GRANDCHILD not in state.grimoire_of(victim).reminders:
        return []
    return [g for g in working_holders(state, "grandmother") if g != victim]


def lives_on_mark(state: GameState, victim: str) -> Effect | None:
    """The Zombuul's first death, about to happen: the mark that it lives on (None: anyone
    else, a Zombuul impaired, or one that died once already)."""
    character = true_character(state, victim)
    if character is None or character.spec.cannot_die != "lives_on" or \
            not state.seat(victim).alive or is_malfunctioning(state, victim):
        return None
    reminders = state.grimoire_of(victim).reminders
    return Effect(victim, "reminders", (*reminders, LIVES_ON),
                  say("by.character", character=character.name))


def true_death(state: GameState, victim: str) -> Effect | None:
    """A Zombuul living on, executed again: the mark taken away, and it is dead for good."""
    reminders = state.grimoire_of(victim).reminders
    if LIVES_ON not in reminders:
        return None
    return Effect(victim, "reminders", tuple(r for r in reminders if r != LIVES_ON),
                  say("by.zombuul_dies"))


__all__ = ["FOOL_SPENT", "GRANDCHILD", "averting_spends", "death_averted", "dies_with",
           "lives_on_mark", "true_death"]

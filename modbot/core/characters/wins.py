"""Theory of operation: noticing that the game is over, for the Storytellers to confirm.

`detect(state, day_ended)` checks the win conditions of seed 001 on the grimoire: good wins
when every Demon is dead; evil wins when only two players live (travellers not counted); if
both hold, good wins (a tie goes to good). A working Vortox adds one: a day that ended without
an execution is an evil win; Trouble Brewing's Saint executed loses for its team, and its
Mayor wins for its team a day that ends with three alive and no execution; Bad Moon Rising's
Mastermind turns the Demon's execution into one more day (mastermind.py). The engine records
a `WinDetected` once per reason; the bot then asks the Storytellers to confirm with `!win`,
and only that announces the winner publicly.
With several evil teams (seed 002's Djinn), an evil team without a living Demon loses and its
players turn good while another evil team plays on; good wins when every evil team has lost;
an evil team wins when only two players live and one is its Demon (two teams' Demons: a tie,
good wins); a working Vortox's team wins a day without an execution. The Klutz, the Damsel
and the Fearmonger report their wins from where they happen (public_abilities.py,
triggers.py); other routes are the Storytellers' to call with `!win`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ..state.events import Event
from ..state.feature import Feature, Notice, to_player, to_storytellers
from ..state.grimoire import (
    alignment_of,
    babysitter,
    character_id,
    is_malfunctioning,
    is_puzzled,
    living_residents,
    players_of_team,
    true_character,
)
from ..state.ids import MARIONETTE
from ..state.model import GameState, iso
from ..state.slots import Slot
from ..wording import Say, say
from . import mastermind

# several evil teams: why good lost to an ability (the game went on)
GOOD_LOST: Slot[Say | None] = Slot("good_lost", None)
# (winner, reason) of each win the Storytellers were told of
WINS_DETECTED: Slot[tuple[tuple[str, Say], ...]] = Slot("wins_detected", ())


@dataclass(frozen=True, slots=True)
class WinDetected:
    winner: str  # good | evil
    reason: Say  # a `win.*` code: why the game looks over
    at: datetime


def detect(state: GameState, day_ended: bool = False) -> tuple[str, Say] | None:
    if not state.dealt or state.winner is not None or state.setup.script is None:
        return None
    residents = [s for s in state.seats if not s.traveller]
    if not any(true_character(state, s.name) for s in residents):
        return None
    if state.setup.private_script.terms.evil_teams:
        return _detect_teams(state, day_ended)
    demons = players_of_team(state, "demon")  # with Lil' Monsta's living babysitter
    living = len(living_residents(state))
    by_character = _saint_executed(state) or (_mayor_wins(state) if day_ended else None)
    if by_character is not None:
        return by_character
    if not demons and not _twins_alive(state) and not _lil_monsta_unheld(state):
        extra = mastermind.extra_day(state)  # the Demon executed: one more day (mastermind.py)
        if extra is not None:
            return mastermind.verdict(state, extra) if day_ended else None
        return "good", say("win.demons_dead") if not state.setup.lil_monsta else \
            say("win.babysitter_dead")
    if living <= 2:
        return "evil", say("win.two_alive")
    if day_ended and _no_execution_under_vortox(state, demons):
        return "evil", say("win.vortox")
    return None


def has_reminder(state: GameState, player: str, word: str) -> bool:
    return any(word in r.casefold() for r in state.grimoire_of(player).reminders)


def _lil_monsta_unheld(state: GameState) -> bool:
    """Lil' Monsta is in play but nobody has babysat it yet (before the first night's
    approval): there is a Demon, just not on a player."""
    return state.setup.lil_monsta and babysitter(state) is None


def twin_of(state: GameState) -> tuple[str, str] | None:
    """(Doppelgänger, its good twin), the twin recorded with `!reminder PLAYER twin`."""
    doubles = [s.name for s in state.seats
               if state.grimoire_of(s.name).character == "doppelganger"]
    twins = [s.name for s in state.seats if has_reminder(state, s.name, "twin")]
    return (doubles[0], twins[0]) if doubles and twins else None


def _twins_alive(state: GameState) -> bool:
    """Seed 001, Doppelgänger: "Loyals can't win if you both live." """
    pair = twin_of(state)
    return pair is not None and all(state.seat(p).alive for p in pair) and \
        not is_malfunctioning(state, pair[0])


def _saint_executed(state: GameState) -> tuple[str, Say] | None:
    """The Saint (Trouble Brewing): "If you die by execution, your team loses"."""
    day = state.today or (state.past_days[-1] if state.past_days else None)
    saint = day.executed_and_died if day is not None else None
    if saint is None or character_id(state, saint) != "saint" or is_malfunctioning(state, saint):
        return None
    team = alignment_of(state, saint) or "good"
    return ("evil" if team == "good" else "good"), say("win.saint", player=saint)


def _mayor_wins(state: GameState) -> tuple[str, Say] | None:
    """The Mayor (Trouble Brewing): "If only 3 players live & no execution occurs, your team
    wins" (read as the day ends)."""
    day = state.past_days[-1] if state.past_days else None
    if day is None or day.executed is not None or len(living_residents(state)) != 3:
        return None
    mayors = [s.name for s in state.seats if s.alive and character_id(state, s.name) == "mayor"
              and not is_malfunctioning(state, s.name)]
    if not mayors:
        return None
    return alignment_of(state, mayors[0]) or "good", say("win.mayor", player=mayors[0])


def _no_execution_under_vortox(state: GameState, demons: list[str]) -> bool:
    day = state.past_days[-1] if state.past_days else None
    working = [d for d in demons if character_id(state, d) == "vortox"
               and not is_malfunctioning(state, d)]
    return bool(working) and day is not None and day.executed is None


# -- several evil teams (seed 002's Djinn) -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class EvilTeamLost:
    """An evil team without a living Demon, while another evil team plays on: its players
    become good (seed 002)."""

    team: int
    players: tuple[str, ...]
    at: datetime


def evil_teams(state: GameState) -> dict[int, list[str]]:
    teams: dict[int, list[str]] = {}
    for seat in state.seats:
        entry = state.grimoire_of(seat.name)
        if entry.evil_team is not None and alignment_of(state, seat.name) == "evil":
            teams.setdefault(entry.evil_team, []).append(seat.name)
    return teams


def _live_teams(state: GameState) -> dict[int, list[str]]:
    return {team: members for team, members in evil_teams(state).items()
            if any(state.seat(p).alive and (c := true_character(state, p)) is not None
                   and c.team == "demon" for p in members)}


@dataclass(frozen=True, slots=True)
class GoodLost:
    """Several evil teams (seed 002): good lost to an ability, and the game goes on; the last
    evil team eligible wins, but a tie still goes to good."""

    reason: Say
    at: datetime


def good_loses(state: GameState, reason: Say, at: datetime) -> tuple[Event, ...]:
    """What an ability that makes good lose emits: the evil win to confirm, or, while several
    evil teams play on, that good lost (the winner is the last team eligible)."""
    if state.setup.private_script.terms.evil_teams and len(_live_teams(state)) > 1:
        return (GoodLost(reason, at),)
    return (WinDetected("evil", reason, at),)


def _detect_teams(state: GameState, day_ended: bool) -> tuple[str, Say] | None:
    live = _live_teams(state)
    living = living_residents(state)
    if not live:
        return "good", say("win.teams_lost")
    good_lost = GOOD_LOST.of(state)
    if good_lost and len(live) == 1:
        return "evil", say("win.last_team", why=good_lost, team=next(iter(live)))
    if day_ended:
        day = state.past_days[-1] if state.past_days else None
        for team, members in live.items():
            vortox = [p for p in members if character_id(state, p) == "vortox"
                      and state.seat(p).alive and not is_malfunctioning(state, p)]
            if vortox and day is not None and day.executed is None:
                return "evil", say("win.vortox_team", team=team)
    if len(living) <= 2:
        winners = [team for team, members in live.items()
                   if any(p in living and _team(state, p) == "demon"
                          for p in members)]
        if len(winners) == 1:
            return "evil", say("win.two_alive_team", team=winners[0])
        return "good", say("win.two_alive_tie")
    return None


def _losing_teams(state: GameState, at: datetime) -> tuple[EvilTeamLost, ...]:
    if not state.dealt or state.setup.script is None or \
            not state.setup.private_script.terms.evil_teams:
        return ()
    live = _live_teams(state)
    if not live:
        return ()  # the last team lost: good wins (detect)
    return tuple(EvilTeamLost(team, tuple(members), at)
                 for team, members in sorted(evil_teams(state).items()) if team not in live)


def _team_lost(state: GameState, e: EvilTeamLost) -> GameState:
    grimoire = dict(state.grimoire)
    for player in e.players:
        grimoire[player] = replace(grimoire[player], alignment="good", evil_team=None)
    return state.evolve(grimoire=tuple(grimoire.items()))


def check(state: GameState, at: datetime, day_ended: bool = False) -> tuple[Event, ...]:
    """The events owed now: evil teams that lost (several teams), and a WinDetected if the
    game looks over (each reason once)."""
    lost = _losing_teams(state, at)
    for event in lost:
        state = _team_lost(state, event)
    extra = mastermind.called(state, at)  # the Demon's execution calls one more day
    for called in extra:
        state = mastermind.keep_day(state, called)
    found = detect(state, day_ended)
    if found is None or found in WINS_DETECTED.of(state):
        return (*lost, *extra)
    return (*lost, *extra, WinDetected(found[0], found[1], at))


def _win_detected(state: GameState, e: WinDetected) -> GameState:
    return WINS_DETECTED.put(state, (*WINS_DETECTED.of(state), (e.winner, e.reason)))


def _good_lost(state: GameState, e: GoodLost) -> GameState:
    return GOOD_LOST.put(state, e.reason)


def _told_win(state: GameState, event: WinDetected, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    terms = state.setup.private_script.terms if state.setup.script else None
    team = terms.alignment(event.winner) if terms else event.winner
    return (to_storytellers("win_detected", f"win:{event.winner}:{iso(event.at)}",
                            winner=event.winner, team=team, reason=event.reason,
                            held=state.cycle if state.night_held else None),)


def _told_team_lost(state: GameState, event: EvilTeamLost, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """Each player of the team is told, but a sober and healthy Marionette (seed 002: "never
    informed of changes to their alignment/team, unless they are drunk or poisoned")."""
    good = state.setup.private_script.terms.good
    players = tuple(
        to_player(p, "night_results", f"team-lost:{event.team}:{p}", night=None,
                  lines=[say("tell.team_lost", good=good)])
        for p in event.players if not unaware_marionette(state, p))
    return (*players, to_storytellers(
        "st_note", f"team-lost-st:{event.team}",
        text=say("st.team_lost", team=event.team, players=event.players, good=good)))


def _team(state: GameState, player: str) -> str | None:
    real = true_character(state, player)
    return real.team if real is not None else None


def unaware_marionette(state: GameState, player: str) -> bool:
    """A sober and healthy Marionette: not told that it is evil, nor of changes to its team
    (seed 002: "unless they are drunk or poisoned at the time": the Puzzlemaster's drunk too)."""
    real, entry = true_character(state, player), state.grimoire_of(player)
    return real is not None and real.id == MARIONETTE and \
        not (entry.poisoned or entry.drunk or is_puzzled(state, player))


FEATURE = Feature(
    "wins", appliers={WinDetected: _win_detected, GoodLost: _good_lost, EvilTeamLost: _team_lost},
    notices={WinDetected: _told_win, EvilTeamLost: _told_team_lost},
    slots=(GOOD_LOST, WINS_DETECTED))

__all__ = [
    "EvilTeamLost",
    "GoodLost",
    "WinDetected",
    "check",
    "detect",
    "evil_teams",
    "good_loses",
    "twin_of",
]

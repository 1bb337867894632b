"""Theory of operation: the instants of a dealt night, and what happens at each.

Once characters are dealt, a night is not a plain deadline. Its milestones, all derived from
the phase's end (so pausing or extending moves them): reminders to players who owe a choice
(`remind_before_lock` hours before the lock), the lock (`night_action_lock` hours before dawn:
the night sheet is built and sent to the Storytellers), a reminder to the Storytellers one
hour before dawn if they have not approved, and dawn itself, which waits for approval: if the
Storytellers have not approved by then, the delay is announced and the day opens when they
do. `due(state)` returns the next milestone as (instant, name); `fire` emits its events.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..characters import madness, triggers
from ..characters.bad_moon_rising import at_dusk
from ..state.events import Event, PhaseChanged, PlayerDied
from ..state.feature import Feature, Timer
from ..state.grimoire import is_malfunctioning, players_of_team, true_character
from ..state.model import GameState, Phase
from ..state.night_model import REVIVED, NightState
from ..state.private_events import (
    EXPIRING,
    ApprovalReminded,
    CharactersDealt,
    DawnDelayed,
    DealWaiting,
    EffectApplied,
    EffectsExpired,
    FearmongerChoseNew,
    NightLocked,
    NightReminded,
    NightResolved,
    night_of,
)
from ..state.staff_events import PlayerRevived
from ..wording import Say, say
from .choices import APPROVAL_REMINDER, lock_at, owes_choice
from .sheet import build_sheet


def is_managed(state: GameState) -> bool:
    """A night run by the bot's night sheet (characters dealt; not one held for the
    Storytellers' decision on a win)."""
    return state.dealt and state.phase is Phase.NIGHT and not state.night_held


def due(state: GameState) -> tuple[datetime, str] | None:
    """The next milestone of a dealt night, or None when it waits for approval."""
    night = night_of(state, state.cycle)
    lock = lock_at(state)
    candidates = []
    remind = lock - timedelta(hours=state.setup.remind_before_lock)
    started = state.phase_ends_at - state.setup.lengths.of(Phase.NIGHT)
    if state.setup.remind_before_lock > 0 and not night.reminded and not night.locked \
            and remind > started:
        candidates.append((remind, "remind"))
    if not night.locked:
        candidates.append((lock, "lock"))
    elif night.approved_by is None and not night.st_reminded and not night.delayed:
        candidates.append((state.phase_ends_at - APPROVAL_REMINDER, "remind_st"))
    if night.approved_by is not None and night.locked and night.approved_at is not None:
        candidates.append((max(state.phase_ends_at, night.approved_at), "dawn"))
    elif not night.delayed:
        candidates.append((state.phase_ends_at, "delay"))
    return min(candidates) if candidates else None


def fire(state: GameState, name: str, at: datetime) -> list[Event]:
    """The events of one milestone (the caller applies them in order)."""
    number = state.cycle
    if name == "remind":
        owing = tuple(s.name for s in state.seats if owes_choice(state, s.name))
        return [NightReminded(number, owing, at)]
    if name == "lock":
        sheet, deaths, results, tells, effects = build_sheet(state)
        return [NightLocked(number, sheet, deaths, results, tells, at, effects)]
    if name == "remind_st":
        return [ApprovalReminded(number, at)]
    if name == "delay":
        return [DawnDelayed(number, at)]
    return dawn(state, at)


def dawn(state: GameState, at: datetime) -> list[Event]:
    night = night_of(state, state.cycle)
    deaths = tuple(p for p in night.deaths if state.seat(p).alive)
    killed = _killed_tonight(state, deaths)  # already dead: named at dawn with the others
    events: list[Event] = [NightResolved(night.number, deaths + killed, night.results,
                                         night.tells, at)]
    events += _fear_announced(state, night, at)
    events += [PlayerRevived(effect.player, at) if effect.field == REVIVED else EffectApplied(effect, at)
               for effect in night.effects]  # the Professor's choice lives again
    events += [PlayerDied(p, "night", at) for p in deaths]
    events.append(PhaseChanged(Phase.DISCUSSION, state.cycle, at,
                               at + state.setup.lengths.of(Phase.DISCUSSION)))
    return events + madness.noted(state, night, deaths, at)


def _killed_tonight(state: GameState, deaths: tuple[str, ...]) -> tuple[str, ...]:
    """The players the Storytellers killed since tonight began (`!kill` at night), still dead:
    night deaths like the sheet's, which the dawn names together."""
    began = state.past_days[-1].ended_at if state.past_days else None
    return tuple(dict.fromkeys(
        p for p, cause, when in state.deaths_log
        if (began is None or when >= began) and cause not in ("execution", "exile", "night")
        and p not in deaths and not state.seat(p).alive))


def _fear_announced(state: GameState, night: NightState, at: datetime) -> list[Event]:
    """All players know when the Fearmonger chooses a new player (seed 002; its record's
    `announces_new_choice`)."""
    for player in players_of_team(state, "minion"):
        character = true_character(state, player)
        if character is None or not character.spec.announces_new_choice or \
                is_malfunctioning(state, player):
            continue
        tonight = night.choice_of(player)
        earlier = [n.choice_of(player) for n in state.past_nights]
        previous = next((c.players[0] for c in reversed(earlier) if c and c.players), None)
        if tonight is not None and tonight.players and tonight.players[0] != previous:
            return [FearmongerChoseNew(night.number, at)]
    return []


def dusk(state: GameState, at: datetime) -> list[Event]:
    """A night began: effects that lasted until dusk end (the Courtier's after its third day;
    then the Minstrel's begin, to last until the next); messages held by day go out."""
    expiring = EXPIRING.of(state)
    expired: list[Event] = [EffectsExpired(expiring, at)] if expiring else []
    return expired + at_dusk(state, at) + triggers.deliver_untold(state, at)


def deal_problems(state: GameState) -> list[Say]:
    """What stops the deal: players without a character, a Demon without its bluffs."""
    problems = []
    missing = [s.name for s in state.seats if not state.grimoire_of(s.name).character]
    if missing:
        problems.append(say("setup.deal_no_character", players=missing))
    wanted = state.setup.private_script.terms.demon_bluffs
    short = [d for d in players_of_team(state, "demon")
             if len(state.grimoire_of(d).bluffs or state.bluffs) < wanted]
    if short and not state.setup.lil_monsta:  # Lil' Monsta skips Demon info
        problems.append(say("setup.deal_bluffs", wanted=wanted, demon=short[0]))
    return problems


def deal_at_first_night(state: GameState, at: datetime) -> list[Event]:
    """Night 1 began: deal if the grimoire is complete, else tell the Storytellers."""
    if state.setup.script is None or state.dealt:
        return []
    problems = deal_problems(state)
    return [DealWaiting(tuple(problems), at)] if problems else [CharactersDealt(None, at)]


__all__ = ["dawn", "deal_at_first_night", "deal_problems", "due", "dusk", "fire", "is_managed"]


def _milestone_due(state: GameState) -> datetime | None:
    milestone = due(state) if is_managed(state) else None
    return milestone[0] if milestone else None


def _milestone(state: GameState, at: datetime) -> list[Event]:
    milestone = due(state)
    return fire(state, milestone[1], at) if milestone else []


FEATURE = Feature("the night's milestones",
                  timers=(Timer("a dealt night's milestone", _milestone_due, _milestone),))

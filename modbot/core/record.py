"""Theory of operation: the whole game as one record, for the reveal and the export.

`game_record(state)` reads a game's state (the grimoire as dealt and its log of changes, the
nights with their choices and what each player learned, the days with their nominations and
every vote, the deaths, the winner, the seal) and returns it as plain values: names, numbers,
moments (`datetime`), and `Say` codes where the game said something. The app words the codes
and writes the moments: `modbot export` as versioned JSON (docs/export.md), the reveal posts
(reveal.py) through templates. Nothing here is public by itself: the reveal and the export are
the Storytellers' to publish, once the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .seal import commitment, parsed, sealed_as_dealt
from .state.model import DayState, GameState, GrimoireEntry, Nomination
from .state.night_model import NightState
from .state.script import Script

SCHEMA_VERSION = 1
CHARACTER_FIELDS = ("character", "thinks", "mad_as", "ability_of")  # values that name a character


def game_record(state: GameState, ids: Mapping[str, int] | None = None) -> dict[str, Any]:
    """`ids`: forum user ids by name beyond the game file's (a substitute's, which the shell
    binds when the substitution is folded)."""
    setup = state.setup
    return {
        "schema": SCHEMA_VERSION,
        "game": {"name": setup.name, "topic_id": setup.topic_id,
                 "script": setup.script.name if setup.script else None,
                 "storytellers": list(setup.storytellers), "bot": setup.bot_username,
                 "first_night_starts": setup.first_night_starts,
                 "terms": {"good": setup.terms.good, "evil": setup.terms.evil}},
        "seats": seat_rows(state, {**dict(setup.user_ids), **(ids or {})}),
        "bluffs": [_name(setup.script, b) for b in state.dealt_bluffs],
        "changes": change_rows(state),
        "nights": [night_row(state, n) for n in nights(state)],
        "days": [day_row(state, d) for d in state.days],
        "deaths": [{"player": p, "cause": cause, "at": at} for p, cause, at in state.deaths_log],
        "votes": vote_history(state),
        "winner": {"team": state.winner, "name": setup.terms.alignment(state.winner),
                   "reason": state.winner_reason} if state.winner else None,
        "seal": seal_row(state),
    }


# -- the seats ----------------------------------------------------------------------------------

def seat_rows(state: GameState, ids: Mapping[str, int]) -> list[dict[str, Any]]:
    dealt = dict(state.dealt_grimoire)
    return [{"seat": number, "player": seat.name, "user_id": ids.get(seat.name),
             "held_by": [{"player": p, "user_id": ids.get(p), "from": start, "until": end}
                         for p, start, end in seat_holders(state, seat.name)],
             "traveller": seat.traveller, "alive": seat.alive, "ghost_vote": seat.ghost_vote,
             "dealt": entry_row(state.setup.script, dealt.get(seat.name, GrimoireEntry())),
             "final": entry_row(state.setup.script, state.grimoire_of(seat.name))}
            for number, seat in enumerate(state.seats, start=1)]


def seat_holders(state: GameState, seat: str) -> list[tuple[str, datetime | None,
                                                          datetime | None]]:
    """(player, from, until) for everyone who held the seat now called `seat`, first to
    last (`!sub`: state.substitutions); None: from the start, or until now."""
    holders: list[tuple[str, datetime | None, datetime | None]] = []
    name, until = seat, None
    for old, new, at in reversed(state.substitutions):
        if new == name:
            holders.append((name, at, until))
            name, until = old, at
    holders.append((name, None, until))
    return holders[::-1]


def holder_at(state: GameState, seat: str, at: datetime | None) -> str:
    """Who held the seat at `at` (its current name when no moment is known)."""
    if at is None or not state.substitutions:
        return seat
    return next((p for p, start, end in seat_holders(state, seat)
                 if (start is None or start <= at) and (end is None or at < end)), seat)


def entry_row(script: Script | None, entry: GrimoireEntry) -> dict[str, Any]:
    character = script.get(entry.character) if script else None
    return {"character": _name(script, entry.character), "character_id": entry.character,
            "team": character.team if character else None,
            "alignment": entry.alignment or (
                "good" if character and character.is_good else
                "evil" if character and character.is_evil else None),
            "evil_team": entry.evil_team, "thinks": _name(script, entry.thinks),
            "reminders": list(entry.reminders), "poisoned": entry.poisoned,
            "drunk": entry.drunk}


def change_rows(state: GameState) -> list[dict[str, Any]]:
    script = state.setup.script
    return [{"player": c.player, "field": c.field,
             "before": _value(script, c.field, c.before), "after": _value(script, c.field, c.after),
             "at": c.at, "phase": "night" if c.night else "day", "cycle": c.cycle,
             "by": "storytellers" if c.by_storytellers else "rules", "cause": c.cause,
             "why": c.why}
            for c in state.grimoire_log]


# -- the nights and the days ------------------------------------------------------------------------

def nights(state: GameState) -> tuple[NightState, ...]:
    """Every night that reached its sheet, the one under way last."""
    tonight = (state.night,) if state.night is not None and state.night.locked and \
        state.night not in state.past_nights else ()
    return (*state.past_nights, *tonight)


def night_row(state: GameState, night: NightState) -> dict[str, Any]:
    names = _names(state.setup.script)
    return {
        "number": night.number,
        "choices": [{"player": holder_at(state, c.player, c.at), "character": names.get(c.character, c.character),
                     "choice": c.describe(names), "for": c.helps, "post_number": c.post_number,
                     "at": c.at} for c in night.choices],
        "learned": [{"player": p, "said": s} for p, s in night.results if s is not None],
        "told": [{"player": p, "said": s} for p, s in night.tells],
        "effects": [{"player": e.player, "field": e.field,
                     "value": _value(state.setup.script, e.field, e.value), "why": e.why}
                    for e in night.effects],
        "deaths": list(night.deaths),
        "approved_by": night.approved_by, "approved_at": night.approved_at,
    }


def day_row(state: GameState, day: DayState) -> dict[str, Any]:
    return {"number": day.number, "started_at": day.started_at, "ended_at": day.ended_at,
            "executed": day.executed,
            "nominations": [nomination_row(state, n) for n in day.nominations + day.exiles],
            "deaths": [{"player": d.player, "cause": d.cause} for d in day.deaths]}


def nomination_row(state: GameState, nomination: Nomination) -> dict[str, Any]:
    """Who nominated is who held the seat then; a vote is credited to who held it when the
    clock hand locked it."""
    return {"kind": nomination.kind,
            "nominator": holder_at(state, nomination.nominator, nomination.at),
            "nominee": nomination.nominee, "post_number": nomination.post_number,
            "at": nomination.at, "closed_at": nomination.closed_at,
            "threshold": nomination.threshold_at_close, "yes": nomination.yes,
            "votes": [{"player": holder_at(state, v.player, v.locked_at), "vote": v.vote,
                       "cast": v.cast,
                       "post_number": v.post_number, "locked_at": v.locked_at,
                       "ghost_vote_spent": v.ghost_vote_spent} for v in nomination.locked]}


def vote_history(state: GameState) -> list[dict[str, Any]]:
    """Each seat's locked votes across the days, in order."""
    rows: dict[str, list[dict[str, Any]]] = {s.name: [] for s in state.seats}
    for day in state.days:
        for n in day.nominations + day.exiles:
            for v in n.locked:
                rows.setdefault(holder_at(state, v.player, v.locked_at), []).append(
                    {"day": day.number, "kind": n.kind, "nominee": n.nominee, "vote": v.vote,
                     "post_number": v.post_number, "locked_at": v.locked_at})
    return [{"player": player, "votes": votes} for player, votes in rows.items()]


# -- the seal ------------------------------------------------------------------------------------

def seal_row(state: GameState) -> dict[str, Any] | None:
    """The sealed grimoire, its salt and the commitment posted at the deal (None: no seal)."""
    if not state.dealt or not state.setup.seal_salt:
        return None
    text = sealed_as_dealt(state)
    grimoire = parsed(text)
    return {"grimoire": grimoire, "text": text, "salt": state.setup.seal_salt,
            "commitment": commitment(state.setup.seal_salt, text)}


# -- helpers --------------------------------------------------------------------------------------

def _names(script: Script | None) -> dict[str, str]:
    return script.names if script else {}


def _name(script: Script | None, character_id: str | None) -> str | None:
    if character_id is None:
        return None
    return script.name_of(character_id) if script else character_id


def _value(script: Script | None, field: str, value: Any) -> Any:
    if field in CHARACTER_FIELDS and isinstance(value, str):
        return _name(script, value)
    return list(value) if isinstance(value, tuple) else value

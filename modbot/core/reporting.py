"""Theory of operation: replay a thread and describe the game as plain JSON-ready data.

`Replay` folds posts through `engine.handle_post`, one at a time, keeping only the current
state and the rejections (grouped by the day they happened in). `report(state, ...)` turns a
state into the stable dictionary printed by `modbot replay` (keys documented in the README).
Nothing here reads files or clocks; `at` is always given.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .deciding.voting import (
    about_to_die,
    is_decided,
    living_count,
    max_possible,
    needs,
    population,
    threshold_now,
)
from .engine import Outcome, Post, advance, handle_post
from .registry import notices_of, states_after
from .state.feature import THREAD
from .state.model import DayState, GameState, GrimoireEntry, LockedVote, Nomination, Seat, WhisperRequest, iso
from .state.night_model import NightState
from .state.rejection import Rejection


class Replay:
    """The live fold: feed posts in post-number order, read the state at any time."""

    def __init__(self, state: GameState, *, notices: bool = False) -> None:
        self.state = state
        self.notices = notices  # collect `told` (what `modbot replay` compares with the thread)
        self.rejections: dict[int, list[Rejection]] = defaultdict(list)
        self.posts_seen = 0
        self.told: set[str] = set()  # the keys of the thread posts the fold owes (no counts)

    def feed(self, post: Post) -> Outcome:
        outcome = handle_post(self.state, post)
        self._fold(outcome)
        self.posts_seen += 1
        for rejection in outcome.rejections:
            self.rejections[self.state.cycle].append(rejection)
        return outcome

    def advance_to(self, now: datetime) -> Outcome:
        outcome = advance(self.state, now)
        self._fold(outcome)
        return outcome

    def _fold(self, outcome: Outcome) -> None:
        before, self.state = self.state, outcome.state
        if not self.notices:
            return
        batch = tuple(outcome.events)
        self.told.update(n.key for e, now in zip(batch, states_after(before, batch), strict=True)
                         for n in notices_of(now, e, batch)
                         if n.to == THREAD and n.template and not n.count and not n.echo)

    def report(self) -> dict[str, Any]:
        return report(self.state, self.rejections)


def replay(state: GameState, posts: Iterable[Post], at: datetime | None = None, *,
           notices: bool = False) -> Replay:
    """Feed `posts` (sorted by post number) created at or before `at`; advance to `at`
    (`notices`: also collect the keys of the thread posts the fold owes, `Replay.told`)."""
    run = Replay(state, notices=notices)
    last = None
    for post in sorted(posts, key=lambda p: p.post_number):
        if at is not None and post.created_at > at:
            continue
        run.feed(post)
        last = post.created_at if last is None else max(last, post.created_at)
    end = at if at is not None else last
    if end is not None:
        run.advance_to(end)
    return run


def report(state: GameState, rejections: dict[int, list[Rejection]] | None = None) -> dict[str, Any]:
    rejections = rejections or {}
    days = list(state.past_days) + ([state.today] if state.today is not None else [])
    out: dict[str, object] = {
        "phase": state.phase_label,
        "phase_ends_at": iso(state.phase_ends_at),
        "living": living_count(state),
        "seats": [_seat(s) for s in state.seats],
        "winner": state.winner,
        "grimoire": {player: _grimoire(entry) for player, entry in state.grimoire},
        "days": [_day(state, d, rejections.get(d.number, [])) for d in days],
    }
    if state.dealt:  # the private side (for the Storytellers: !status, audit, replay)
        out["bluffs"] = list(state.bluffs)
        out["nights"] = [_night(state, n) for n in state.past_nights + (
            (state.night,) if state.night is not None else ())]
    return out


def holder_at(state: GameState, name: str, at: datetime | None) -> str:
    """Who held the seat now called `name` at `at`: a `!sub` renames the seat through the
    whole state, so what its earlier holder did is credited back to them (the latest
    substitution first; without a time, the seat's name now)."""
    if at is None:
        return name
    for old, new, when in reversed(state.substitutions):
        if name == new and at < when:
            name = old
    return name


def _night(state: GameState, night: NightState) -> dict[str, Any]:
    return {"night": night.number, "locked": night.locked, "approved_by": night.approved_by,
            "choices": {holder_at(state, c.player, c.at) + (f" for {c.helps}" if c.helps else ""):
                        c.describe() for c in night.choices},
            "deaths": list(night.deaths), "results": dict(night.results),
            "tells": [list(t) for t in night.tells]}


def _seat(seat: Seat) -> dict[str, Any]:
    out = {"player": seat.name, "alive": seat.alive}
    if not seat.alive:
        out["ghost_vote"] = seat.ghost_vote
    if seat.traveller:
        out["traveller"] = True
    return out


def _grimoire(entry: GrimoireEntry) -> dict[str, Any]:
    return {k: v for k, v in (("character", entry.character), ("alignment", entry.alignment),
                              ("poisoned", entry.poisoned), ("drunk", entry.drunk),
                              ("mad_as", entry.mad_as), ("reminders", list(entry.reminders)),
                              ("thinks", entry.thinks), ("evil_team", entry.evil_team))
            if v}


def _day(state: GameState, day: DayState, rejections: list[Rejection]) -> dict[str, Any]:
    current = day is state.today
    return {
        "day": day.number,
        "living": living_count(state) if current else day.living_at_end,
        "nominations": [_nomination(state, n, current) for n in day.nominations],
        "exiles": [_nomination(state, n, current) for n in day.exiles],
        "about_to_die": about_to_die(day),
        "executed": day.executed,
        "ended_at": iso(day.ended_at),
        "decided": is_decided(state) if current else True,
        "ghost_votes_spent": list(day.ghost_votes_spent),
        "deaths": [{"player": d.player, "cause": d.cause, "at": iso(d.at)} for d in day.deaths],
        "skipped_nomination": list(day.skipped),
        "whispers": [_whisper(w) for w in day.whispers],
        "storyteller_consults": list(day.consults),
        "rejections": [_rejection(r) for r in rejections],
    }


def _rejection(r: Rejection) -> dict[str, Any]:
    """A rejection as data: its code and details (the shell's catalogue adds the words)."""
    return {"post_number": r.post_number, "code": r.code, "player": r.player, "at": iso(r.at),
            "details": dict(r.params)}


def _nomination(state: GameState, n: Nomination, current: bool) -> dict[str, Any]:
    out = {
        "kind": n.kind,
        "nominator": holder_at(state, n.nominator, n.at),
        "nominee": n.nominee,
        "post_number": n.post_number,
        "at": iso(n.at),
        "order": list(n.order),
        "locked": [_locked(v) for v in n.locked],
        "cast": {voter: v.value for voter, v in n.cast.items()},
        "yes": n.yes,
        "threshold": n.threshold_at_close if not n.is_open else threshold_now(state, n),
        "living": n.living_at_close if not n.is_open else population(state, n),
        "status": "open" if n.is_open else "closed",
        "closed_at": iso(n.closed_at),
    }
    if n.is_open and current:
        need = needs(state, n)
        out.update({
            "hand": n.hand,
            "not_voted": [p for p in n.unlocked() if p not in n.cast],
            "needed_to_execute": need.to_execute,
            "needed_to_tie": need.to_tie,
            "max_possible": max_possible(state, n),
        })
    return out


def _locked(vote: LockedVote) -> dict[str, Any]:
    out: dict[str, Any] = {"player": vote.player, "vote": vote.vote,
                           "post_number": vote.post_number, "locked_at": iso(vote.locked_at)}
    if vote.cast != vote.vote:
        out["cast"] = vote.cast
    if vote.ghost_vote_spent:
        out["ghost_vote_spent"] = True
    if vote.note:
        out["note"] = vote.note
    return out


def _whisper(w: WhisperRequest) -> dict[str, Any]:
    return {"from": w.requester, "with": list(w.with_), "post_number": w.post_number,
            "accepted": sorted(w.accepted), "declined": sorted(w.declined),
            "active": w.is_active, "broken_by": w.broken_by}

"""Theory of operation: the day's vote count, numbered and throttled in forum time.

The core says when a post carries the vote count (a `Notice` whose `count` is COUNT, CARRIED
or DAY_END) and when votes changed (CHANGED); this module remembers what the forum has been
shown: each day's count number, whether votes changed since the last count, when it was
posted (forum time, `created_at`, never the clock of the bot), the edits to mention, the last
post read and today's voting deadline. A count is owed at most every `vote_count_minutes`
while votes change; with `vote_counts = "edit"` the day's later counts edit its first one.
It answers what to post (`CountPost`: a key in the game, the words to render); the reactor
addresses it.
Its memory is rebuilt by the same fold of inputs that rebuilds the game, so the keys come out
the same after a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from ...adapters.outgoing import Body, Rendered
from ...core import GameState, Notice, Phase
from ..picture import Picture, vote_picture
from .render import render
from .views import vote_count_view


class CountOptions(Protocol):
    """What a count needs of its game's options (reactions.GameOptions)."""

    topic_id: int
    pictures: bool
    vote_counts: str


@dataclass(frozen=True)
class CountPost:
    """A post the count owes, by its key in the game (the reactor addresses it): with
    `vote_counts = "edit"`, a later count of the day rewrites the first (`edit_of`)."""

    key: str
    body: Body
    edit_of: str | None = None


@dataclass
class VoteCounts:
    numbers: dict[int, int] = field(default_factory=dict)  # day -> its counts so far
    dirty: bool = False  # votes changed since the last count
    last_at: datetime | None = None  # the forum time of the last count
    edits: list[dict[str, Any]] = field(default_factory=list)  # edited posts to mention in the next count
    as_of: int | None = None  # the last thread post read
    voting_ends: datetime | None = None  # today's voting deadline, as of the last reaction
    running: dict[int, str] = field(default_factory=dict)  # day -> its running count's key

    def due(self, state: GameState, at: datetime, minutes: float) -> bool:
        """Votes changed since the last count, and the next count is due by `at`."""
        return state.today is not None and self.owed(at, minutes)

    def owed(self, at: datetime, minutes: float) -> bool:
        return self.dirty and self._interval_passed(at, minutes)

    def current(self, state: GameState, at: datetime, minutes: float) -> bool:
        """Today's last count still stands (no vote changed, no edit to mention) and is less
        than `minutes` old: a count asked for now would repeat it."""
        day = state.today.number if state.today else None
        return day is not None and self.numbers.get(day, 0) > 0 and not self.dirty \
            and not self.edits and not self._interval_passed(at, minutes)

    def next_due(self, state: GameState, minutes: float) -> datetime | None:
        if not (self.dirty and state.today is not None and self.last_at):
            return None
        return self.last_at + timedelta(minutes=minutes)

    def follow(self, state: GameState) -> None:
        """After a reaction: today's voting deadline, for how the day ends."""
        self.voting_ends = state.phase_ends_at if state.phase is Phase.VOTING else None

    # -- the posts --------------------------------------------------------------------------

    def count(self, state: GameState, at: datetime, reason: str, options: CountOptions,
              facts: dict[str, Any] | None = None) -> CountPost:
        """A vote count post of its own (`reason` ends its key: "open:execution:Derek";
        `facts`: the core's, as its notice carries them)."""
        day = state.today.number if state.today else state.cycle
        view = self._view(state, self._next_number(state), options.topic_id, facts=facts, at=at)
        self._counted(at)
        pictured = options.pictures

        def body() -> Rendered:
            vc = view()
            picture = vote_picture(state, vc) if pictured else None
            return _embedding(render("votecount.md.j2", vc=vc, picture=picture), picture)

        key = f"vc:{day}.{self.numbers[day]}:{reason}"
        running = self.running.setdefault(day, key) if options.vote_counts == "edit" else key
        return CountPost(key, body, edit_of=running if running != key else None)

    def carried(self, state: GameState, notice: Notice, options: CountOptions) -> list[CountPost]:
        """The voting phase's opening post, with the count as of now (none when the day
        opened and ended in one batch); its deadline is remembered for how the day ends."""
        self.voting_ends = notice.view["voting_ends"]
        if not notice.template:
            return []
        view = self._view(state, self._next_number(state), options.topic_id,
                          facts=notice.view.get("count"))
        self._counted(notice.moment)
        return [CountPost(notice.key, lambda: render(f"{notice.template}.md.j2", vc=view()))]

    def day_end(self, state: GameState, notice: Notice, options: CountOptions, *, by_command: bool,
                context: dict[str, Any]) -> CountPost:
        """How the day ended (an ability's execution, the Storytellers, every vote locked early,
        or the deadline),
        the execution, then the day's final tables."""
        view = self._view(state, self._next_number(state, notice.day), options.topic_id,
                          day=notice.day, facts=notice.view.get("count"))
        self._counted(notice.moment)
        pictured = options.pictures
        deadline = self.voting_ends
        ended_by = "ability" if notice.view.get("by_ability") else "storytellers" if by_command \
            else "deadline" if deadline is not None and notice.moment >= deadline else "all_locked"

        def body() -> Rendered:
            vc = view()
            picture = vote_picture(state, vc) if pictured else None
            return _embedding(render(f"{notice.template}.md.j2", vc=vc, picture=picture,
                                     ended_by=ended_by, **context), picture)

        return CountPost(notice.key, body)

    # -- helpers ----------------------------------------------------------------------------

    def _interval_passed(self, at: datetime, minutes: float) -> bool:
        return self.last_at is None or at - self.last_at >= timedelta(minutes=minutes)

    def _next_number(self, state: GameState, day: int | None = None) -> int:
        day = day if day is not None else (state.today.number if state.today else state.cycle)
        self.numbers[day] = self.numbers.get(day, 0) + 1
        return self.numbers[day]

    def _counted(self, at: datetime) -> None:
        self.dirty = False
        self.last_at = at
        self.edits = []

    def _view(self, state: GameState, number: int, topic_id: int | None,
              day: int | None = None, facts: dict[str, Any] | None = None,
              at: datetime | None = None) -> Callable[[], dict[str, Any]]:
        """The count's view, built when the post is first read, of the values as of now (the
        core's facts as the notice carried them, else computed then)."""
        as_of, edits = self.as_of, list(self.edits)
        return lambda: vote_count_view(state, number=number, as_of=as_of, day=day,
                                       topic_id=topic_id, edits=edits, facts=facts, at=at)


def _embedding(raw: str, picture: Picture | None) -> Rendered:
    """The post carries its picture's bytes to the store; the outbox uploads them once."""
    return Rendered(raw, ((picture.sha1, picture.png),) if picture is not None else ())

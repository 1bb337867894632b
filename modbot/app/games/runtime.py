"""Theory of operation: one game, live. Its state is the fold of its input log.

`GameRuntime.load(inputs)` folds the stored inputs (posts as first seen, PMs with their
participants, clock ticks, edit notices) through the pure core and the reactor, discarding
what they would post: everything derived from a stored input was committed with it. After
that, `on_post` (the game thread), `on_pm` (a PM: Storytellers' commands, players' night
commands, whispers), `on_tick` (the clock) and `on_edit` (a counted post changed) handle one
new input each and return a `Step`: the input row to store, the events for the audit log and
the posts owed, for the caller to commit in one transaction.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from ...adapters.outgoing import Outgoing
from ...core import (
    BOOKKEEPING,
    CommandReport,
    Event,
    GameSetup,
    GameState,
    Outcome,
    Post,
    advance,
    handle_pm,
    handle_post,
    is_lone_confirm,
    iso,
    next_due,
)
from ..posting.event_words import described
from ..posting.reactions import GameOptions, Reactor
from ..posting.render import later
from ..reading import hidden, late
from ..recovery.upgrade import Held, version_cursor
from . import renames, undoing
from .steps import Step, sha1
from .steps import events_of as _events
from .steps import pm_row as _pm_row
from .steps import post_row as _post_row

SELF_DELETED = "(post deleted by author)"
log = logging.getLogger("modbot.app.games.runtime")



class GameRuntime:
    def __init__(self, setup: GameSetup, options: GameOptions, game_id: int) -> None:
        self.setup = setup
        self.options = options
        self.game_id = game_id
        self.state = GameState.from_setup(setup)
        self.reactor = Reactor(options)
        self.last_post_number = 0
        # post id -> (number, author, sha1, raw, whether it asked for something when counted)
        self.seen: dict[int, tuple[int, str, str, str, bool]] = {}
        self.posts_by_day: dict[int, set[int]] = {}
        self.seen_pms: set[int] = set()
        self.again: list[Any] = []  # held posts derived again by `load`, to render anew
        self.history: list[dict[str, Any]] = []  # every event with the input that caused it, for !log
        # what was folded, in order: (kind, value, forum post id or None for the clock)
        self.inputs: list[tuple[Any, ...]] = []
        self.undone: set[int] = set()  # the post ids of undone inputs
        self.accepted: set[int] = set()  # the post ids of late posts counted by `!accept`
        self.late_ids: set[int] = set()  # the post ids of the late posts held (late.py)
        self.read_ids: set[int] = set()  # every thread post id read, input or not (intake.py)
        self.hidden_ids: set[int] = set()  # thread posts hidden by flags, not read yet (hidden.py)
        self.upgrade: Held | None = None  # an upgrade.Held while the stored history stands (upgrade.py)
        # (state, post, participants, outcome): the core's decision `decide` keeps
        self.decided: tuple[GameState, Post, tuple[str, ...] | None, Outcome] | None = None

    @property
    def today_posts(self) -> set[int]:
        """Ids of the posts of the day under way, or of the day that ended until the next
        dawn, whose first version carried actions: the only ones an edit could matter in (an
        edit made after the day ended is reported, never applied)."""
        state = self.state
        day = state.today or (state.past_days[-1] if state.past_days else None)
        return self.posts_by_day.get(day.number, set()) if day else set()

    @property
    def sweep_posts(self) -> set[int]:
        """What the edit sweep reads again: `today_posts`, and the hidden posts not read yet
        (hidden.py: read once they are visible again)."""
        return self.today_posts | self.hidden_ids

    @property
    def topic_id(self) -> int:
        return self.options.topic_id

    def load(self, inputs: Iterable[Any], collect: bool = False,
             again: set[str] | frozenset[str] = frozenset()) -> dict[int, list[tuple[str, dict[str, Any]]]]:
        """Fold the stored inputs (at start-up): their posts went out long ago, so nothing
        is rendered; only the keys and the reactor's memory are rebuilt. With `collect`, the
        events each input derives now, by input id (for the upgrade check); the posts whose
        keys are in `again` (held: their words failed to render) are kept in `self.again`."""
        derived: dict[int, list[tuple[str, dict[str, Any]]]] = {}
        for row in inputs:  # the posts each derives are never read, so never rendered
            step = self.apply_input(row)
            self.again.extend(out for out in step.outgoing if out.key in again)
            if collect:
                derived[row.id] = step.events
        return derived

    def hold(self, held: Held) -> None:
        """The rules changed this game's history: until a Storyteller confirms, the stored
        history stands (see upgrade.py)."""
        self.upgrade = held
        if held.held is not None:
            self.state = held.held

    def apply_input(self, row: Any) -> Step:
        """Fold one stored input (as `load` does); return what it derived."""
        at = datetime.fromisoformat(row.at)
        if row.kind == "post":
            return self.on_post(_stored_post(row, at))
        if row.kind == "pm":
            people = tuple(filter(None, (row.participants or "").split(",")))
            return self.on_pm(_stored_post(row, at), row.topic_id, shared=bool(row.shared),
                              participants=people)
        if row.kind == "tick":
            return self.on_tick(at)
        if row.kind == "rename":
            return self.on_rename(row.raw or "", row.author, at)
        if row.kind == "lapse":
            return self.on_name_taken(row.author, at)
        if row.kind == "late":
            return self.on_late(_stored_post(row, at))
        if row.kind == "hidden":
            return hidden.hold(self, _stored_post(row, at))
        return self.on_edit(row.post_id, row.raw or "", row.raw_sha1 or "", at)

    def on_post(self, post: Post) -> Step:
        """A thread post (its forum id in `post.post_id`)."""
        post_id, post_number, author, at, raw = post.post_id or 0, post.post_number, \
            post.author, post.created_at, post.raw
        self.inputs.append(("post", post, post_id))
        self.hidden_ids.discard(post_id)
        if self._confirms_upgrade(author, raw):
            return self._adopt_upgrade(_post_row(post))
        outcome, before = self.decide(post), self.state
        if outcome.ignored_commands:
            log.warning("game %s post #%s: %s is not a Storyteller; its ! commands are ignored",
                        self.topic_id, post_number, author)
        self.state = outcome.state
        undo = self._undo(outcome.command)
        self.remember(outcome.events, "thread", post_number, author, at)
        self.last_post_number = max(self.last_post_number, post_number)
        self.seen[post_id] = (post_number, author, sha1(raw), raw, outcome.carried_actions)
        if self.state.today is not None and outcome.carried_actions:  # what an edit could change
            self.posts_by_day.setdefault(self.state.today.number, set()).add(post_id)
        accepted, accept_events = self._accept(outcome.command)
        outgoing = self.reactor.react(self.state, outcome.events, outcome.rejections, at=at,
                                      post=post, command=outcome.command,
                                      source={"channel": "thread", "id": post_id},
                                      log=self._log_for(outcome.command), undo=undo,
                                      before=before)
        return Step(_post_row(post),
                    _events(outcome.events) + undoing.undo_events(undo) + accept_events,
                    outgoing + accepted)

    def names_someone_unknown(self, post: Post,
                              participants: tuple[str, ...] | None = None) -> bool:
        """Would this post or PM (`participants`) be refused for naming no seated player? The
        core is pure: asked without changing anything (the service then learns the seats'
        names now before handling it: the name may be a seat's new one). The outcome is kept:
        if nothing changed in between, handling the same input uses it (`decide`)."""
        outcome = self.decide(post, participants)
        self.decided = (self.state, post, participants, outcome)
        return any(r.code == "unknown_player" for r in outcome.rejections)

    def decide(self, post: Post, participants: tuple[str, ...] | None = None) -> Outcome:
        """The core's decision on a thread post (`participants` None) or a PM, made once: the
        one `names_someone_unknown` made for this very input on this very state is reused."""
        kept, self.decided = self.decided, None
        if kept is not None and kept[0] is self.state and kept[1] == post and kept[2] == participants:
            return kept[3]
        if participants is None:
            return handle_post(self.state, post)
        return handle_pm(self.state, post, participants)

    def on_pm(self, post: Post, topic_id: int, *, shared: bool = False,
              participants: tuple[str, ...] = ()) -> Step:
        """A PM in conversation `topic_id`: a Storyteller's commands (the answer goes to that
        PM, unless players take part in it (`shared`): then to the Storytellers'
        conversation), or a player's night commands or whisper. `participants`: the
        conversation's lower-case usernames."""
        post_id, post_number, author, at, raw = post.post_id or 0, post.post_number, \
            post.author, post.created_at, post.raw
        self.inputs.append(("pm", (post, participants), post_id))
        if self._confirms_upgrade(author, raw):
            return self._adopt_upgrade(_pm_row(post, topic_id, shared, participants))
        outcome, before = self.decide(post, participants), self.state
        self.state = outcome.state
        self.seen_pms.add(post_id)
        undo = self._undo(outcome.command)
        self.remember(outcome.events, "pm", post_number, author, at)
        accepted, accept_events = self._accept(outcome.command)
        outgoing = self.reactor.react(self.state, outcome.events, outcome.rejections, at=at,
                                      post=post, command=outcome.command,
                                      source={"channel": "pm", "id": post_id,
                                              "topic_id": topic_id, "shared": shared},
                                      log=self._log_for(outcome.command), undo=undo,
                                      before=before)
        return Step(_pm_row(post, topic_id, shared, participants),
                    _events(outcome.events) + undoing.undo_events(undo) + accept_events,
                    outgoing + accepted)

    def on_tick(self, now: datetime) -> Step:
        """The clock: the core's timed rules due by `now` (phase ends, locks, a reminder to a
        player the clock hand has waited on too long), and a vote count that has become due
        (votes changed and `vote_count_minutes` passed since the last count) even when nobody
        posts. A tick that
        changes anything is stored like an input, so a restart derives the same posts under the
        same keys (and remembers the nudges sent)."""
        outcome = advance(self.state, now)
        if not outcome.events and not self.reactor.count_due(self.state, now):
            return Step()
        self.inputs.append(("tick", now, None))
        before, self.state = self.state, outcome.state
        self.remember(outcome.events, "clock", None, None, now)
        outgoing = self.reactor.react(self.state, outcome.events, at=now, before=before)
        return Step({"kind": "tick", "at": iso(now)}, _events(outcome.events), outgoing)

    def on_rename(self, old: str, new: str, at: datetime) -> Step:
        """A seat's or a Storyteller's forum account is now called `new` (renames.py)."""
        return renames.rename(self, old, new, at)

    def on_name_taken(self, name: str, at: datetime) -> Step:
        """Someone who is none of the game's goes by `name`, a seat's alias (renames.py)."""
        return renames.lapse(self, name, at)

    def on_late(self, post: Post) -> Step:
        """A thread post whose time lies before a moment already applied: held (late.py)."""
        return late.hold(self, post)

    def _accept(self, report: CommandReport | None) -> tuple[list[Outgoing], list[tuple[str, dict[str, Any]]]]:
        """`!accept id:N`: the held post N counted in its place (late.py)."""
        return late.accept(self, report)

    def follow_renames(self) -> None:
        """The reactor's options after the renames folded so far (renames.py)."""
        renames.follow(self)

    def next_due(self) -> datetime | None:
        """The next moment the clock matters: the core's one table of timed rules (phase ends,
        milestones, countdowns, reminders), or the next vote count while votes changed since
        the last one (how often the forum is shown a count is the shell's publishing rate,
        like the outbox's: vote_counts.py)."""
        moments = [next_due(self.state),
                   self.reactor.counts.next_due(self.state, self.options.vote_count_minutes)]
        return min((m for m in moments if m is not None), default=None)

    def ticks_until(self, until: datetime) -> list[Step]:
        """A tick at each moment something falls due, up to `until`, as if the clock had been
        read at that very moment. The live loop ticks so before each post it handles and at the
        end of a cycle, and a rebuild from the forum does the same, so both derive the same
        posts under the same keys whatever moments the clock happened to be read at."""
        steps = []
        while (due := self.next_due()) is not None and due <= until:
            step = self.on_tick(max(due, self.clock_at or due))
            if step.input is None:  # nothing changed at that moment: stop rather than spin
                break
            steps.append(step)
        return steps

    @property
    def clock_at(self) -> datetime | None:
        """The forum time of the latest input folded (a post's created_at, or a tick)."""
        for kind, value, _ in reversed(self.inputs):
            if kind in ("post", "pm"):
                post: Post = value if kind == "post" else value[0]
                return post.created_at
            if kind == "tick":
                tick: datetime = value
                return tick
        return None

    def on_edit(self, post_id: int, new_raw: str, new_sha1: str, at: datetime) -> Step:
        """A counted post changed on the forum. Flag it if it carried actions; count nothing."""
        number, author, _first_sha1, original, carried = self.seen[post_id]
        self.seen[post_id] = (number, author, new_sha1, original, carried)
        self.inputs.append(("edit", None, None))
        step = Step({"kind": "edit", "post_id": post_id, "post_number": number,
                     "author": author, "at": iso(at), "raw": new_raw,
                     "raw_sha1": new_sha1})
        if carried:  # the post asked for something when it was counted
            ended = next((day for day, ids in self.posts_by_day.items() if post_id in ids
                          and (self.state.today is None or day != self.state.today.number)), None)
            step.outgoing = self.reactor.note_edit(
                author, number, post_id, original, new_raw.strip() == SELF_DELETED, new_sha1,
                self.setup.storytellers, ended_day=ended)
        return step

    def _confirms_upgrade(self, author: str, raw: str) -> bool:
        """A Storyteller's lone `!confirm` while the game is held after an upgrade, and no
        command of theirs waits for a confirmation (that one is confirmed first)."""
        if self.upgrade is None or self.upgrade.held is None or \
                not self.setup.is_storyteller(author) or \
                any(p.by == author for p in self.state.pending):
            return False
        return is_lone_confirm(raw, self.state.setup.roster)

    def _adopt_upgrade(self, row: dict[str, Any]) -> Step:
        """Adopt the history the current rules derive: every input replayed with them, the
        ones since the upgrade included; the version recorded, so a restart agrees."""
        assert self.upgrade is not None  # `_confirms_upgrade` asked
        version = self.upgrade.version
        self.state = self.refold(self.undone)
        self.upgrade = None
        raw = later("upgrade_adopted.md.j2")
        note = self.reactor.note_to_storytellers(self.setup.storytellers,
                                                 f"upgrade-adopted:{version}", raw)
        return Step(row, [("UpgradeAdopted", {"version": version})], [note],
                    {version_cursor(self.options.key): version})

    def remember(self, events: Sequence[Event], channel: str, post_number: int | None,
                  author: str | None, at: datetime) -> None:
        for event in events:
            if type(event).__name__ in BOOKKEEPING:
                continue
            self.history.append({"input": self.inputs[-1][2], "channel": channel,
                                 "post_number": post_number, "author": author, "at": iso(at),
                                 "event": described(type(event).__name__,
                                                    dataclasses.asdict(event))})

    # -- undo (undoing.py) -------------------------------------------------------------------

    def _undo(self, report: CommandReport | None) -> dict[str, Any] | None:
        """`!undo`: what the game would be without the post it names (applied once confirmed)."""
        if report is None or report.undo is None:
            return None
        found = undoing.undo(self.setup, self.inputs, self.undone, self.accepted, report.undo,
                             self.state)
        if found.get("done"):
            self.undone.add(found["post_id"])
            self.state = found.pop("state")
        found.pop("state", None)
        return found

    def refold(self, excluded: set[int], accepted: set[int] | None = None) -> GameState:
        """The core state from the inputs folded so far, without the `excluded` ones (post
        ids), with the `accepted` late posts in their place (by default, those `!accept`ed)."""
        return undoing.refold(self.setup, self.inputs, excluded, accepted or self.accepted)

    def _log_for(self, report: CommandReport | None) -> list[dict[str, Any]]:
        if report is None or not report.log:
            return []
        return self.history[-report.log:]

    def has_read(self, post_id: int) -> bool:
        """The thread post was read already (handled, held late, or not an input): a post is
        its id, never its number, which a split topic reuses."""
        return post_id in self.seen or post_id in self.late_ids or post_id in self.read_ids

    def changed(self, post_id: int, raw: str) -> bool:
        """The post's text is not what it was when counted."""
        known = self.seen.get(post_id)
        return known is not None and sha1(raw) != known[2]


def _stored_post(row: Any, at: datetime) -> Post:
    """A post or PM as its input row stored it."""
    return Post(row.post_number or 0, row.author or "", at, row.raw or "", row.post_id)

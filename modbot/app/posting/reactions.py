"""Theory of operation: turn what happened in a game into the posts the bot owes the forum.

A `Reactor` watches one game's outcomes (events and rejections, in input order) and returns
`Outgoing` messages with deterministic keys, so that folding the same inputs again (after a
restart) derives the same keys and nothing is posted twice. Who is told what of an event is
the core's to say: `notices_of` gives each event's `Notice` values (an address, a template's
code, a key, a view of codes and values), and the Reactor only addresses and renders them:
the thread, a player's grimoire PM, the Storytellers' conversation. It knows no event type.
The vote count's notices go to `VoteCounts` (vote_counts.py), which numbers the counts and
throttles them in forum time (`created_at`), never in wall-clock time.

Besides the events: the Storytellers' answer to a command, a reply to a post with rejected
actions (refusals.py says when), edit and delete flags and the posts the forum
refused, to the Storytellers. The thread gets only the templates in `PUBLIC_TEMPLATES`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from ...adapters.outgoing import Body, Outgoing
from ...core import (
    CARRIED,
    CHANGED,
    COUNT,
    COUNT_ASK_GAP,
    DAY_END,
    EXILE,
    OBSERVERS,
    PLAYER,
    STORYTELLERS,
    THREAD,
    CommandReport,
    Event,
    GameSetup,
    GameState,
    Notice,
    Post,
    Rejection,
    Say,
    notices_of,
    observers_of,
    say,
    states_after,
)
from .catalogue import words
from .countdowns import Countdowns, deadline_of
from .grimoire_status import status_text
from .refusals import answers_refusal, refusal_words
from .render import dated, later, render, render_notice
from .titles import game_name, grimoire_title, storytellers_title, title_forms
from .views import date_tag as dated_moment
from .vote_counts import CountPost, VoteCounts

# The only templates ever posted in the game thread. None receives the grimoire: their views
# are built from public facts (seats, votes, phases, deaths); the leak test checks both.
PUBLIC_TEMPLATES = frozenset({
    "phase_night.md.j2", "phase_discussion.md.j2", "phase_nomination.md.j2", "night_begins.md.j2",
    "phase_voting.md.j2", "votecount.md.j2", "day_end.md.j2", "public_life.md.j2",
    "game_over.md.j2", "dawn_delayed.md.j2", "fear_announced.md.j2", "silence.md.j2",
    "boom.md.j2", "fiddle.md.j2", "deviant.md.j2",
    "butcher.md.j2", "substituted.md.j2", "seats_swapped.md.j2", "vote_token_given.md.j2", "scapegoat_executed.md.j2",
    "thread_index.md.j2",  # kept by thread_index.py, of public facts only
    # the seal (a commitment that tells nothing) and the reveal, refused until the game is over
    "seal.md.j2", "reveal_grimoire.md.j2", "reveal_nights.md.j2", "reveal_timeline.md.j2",
    "reveal_votes.md.j2",
})


WELCOME = "st:welcome"  # the key of the Storytellers' conversation's first note


@dataclass
class GameOptions:
    topic_id: int
    key: str  # prefix of every outbox key of this game
    vote_count_minutes: float = 60
    close_topic_at_night: bool = False
    storytellers: tuple[str, ...] = ()  # they take part in every player's grimoire PM
    pictures: bool = True  # the town square in vote counts and the day-end post
    vote_counts: str = "post"  # "edit": one running count a day, edited in place
    threads: tuple[tuple[str, str], ...] = ()  # a renamed player -> their first name (lower)
    name: str = ""  # the game's name, in the Storytellers' conversation's title


@dataclass
class Reactor:
    options: GameOptions
    counts: VoteCounts = field(default_factory=VoteCounts)
    hinted: dict[str, datetime] = field(default_factory=dict)  # player -> last soft answer
    welcomed: bool = False  # the Storytellers' conversation opened (its first note)
    substituted: dict[str, str] = field(default_factory=dict)  # substitute -> replaced (lower)
    vc_told: dict[str, datetime] = field(default_factory=dict)  # player -> count they were
    # told about (its forum time): a `/vc` asked too soon is answered once between two counts
    held_posts: Callable[[], list[str]] = list  # the game's posts held (their words failed)
    quarantined: Callable[[], list[dict[str, Any]]] = list  # the game's inputs it could not handle
    plan: Callable[[], dict[str, Any] | None] = lambda: None  # the key's request plan, for !status
    countdowns: Countdowns = field(default_factory=Countdowns)  # thread posts with a deadline
    newest_raw: Callable[[str], str | None] = lambda _key: None  # a post's words in the store

    # -- public -----------------------------------------------------------------------------

    def react(self, state: GameState, events: Sequence[Event], rejections: Sequence[Rejection] = (), *,
              at: datetime, post: Post | None = None, command: CommandReport | None = None, source: dict[str, Any] | None = None,
              log: list[dict[str, Any]] | None = None, undo: dict[str, Any] | None = None,
              before: GameState | None = None) -> list[Outgoing]:
        """`source`: where the post came from: {"id", "channel": thread|pm, "topic_id"}."""
        source = source or {"channel": "thread"}
        self.substituted = {new.lower(): old.lower() for old, new, _ in state.substitutions}
        if post is not None and source["channel"] == "thread":
            self.counts.as_of = post.post_number
        out: list[Outgoing] = []
        if not self.welcomed:  # the game's first reaction opens the Storytellers' conversation
            self.welcomed = True
            out.append(self.welcome(state.setup))
        if command is not None and (command.says_anything or undo):
            out.append(self.command_answer(state, command, source, log or [], undo))
            if undo and undo.get("done") and state.today is not None:
                out.append(self.vote_count(state, at, f"undo:{undo['input']}"))
        batch = tuple(events)
        ended = False
        after = states_after(before, batch) if before is not None else [state] * len(batch)
        for event, now in zip(batch, after, strict=True):
            for notice in notices_of(now, event, batch):
                ended = ended or notice.count == DAY_END
                # countdowns to what will not come are edited (countdowns.py)
                out.extend(self.countdowns.no_longer(notice, self.counts.voting_ends,
                                                     self.newest_raw))
                told = self._told(state, notice, command, source)
                self.countdowns.follow([p for p in told if p.thread == self.thread],
                                       deadline_of(notice, self.counts.voting_ends))
                out.extend(told)
        if self.counts.owed(at, self.options.vote_count_minutes) and not ended:
            out.append(self.vote_count(state, at, "vc"))
            self.countdowns.follow(out[-1:], self.counts.voting_ends)
        if post is not None and rejections and answers_refusal(post, rejections, self.hinted, self.vc_told,
                                                                self.counts.last_at):
            out.append(self._rejection_reply(post, rejections, source))
        self.counts.follow(state)
        return out

    def _told(self, state: GameState, notice: Notice, command: CommandReport | None,
              source: dict[str, Any]) -> list[Outgoing]:
        """One notice, addressed and rendered (a vote count's through `VoteCounts`)."""
        if notice.count == CHANGED:
            self.counts.dirty = True
            return []
        if notice.count == COUNT:
            if notice.key.startswith("asked:") and self.counts.last_at is not None \
                    and notice.moment - self.counts.last_at < COUNT_ASK_GAP:
                return self._count_stands(state, notice.view.get("asker"), notice.moment)
            if notice.key == "requested" and \
                    self.counts.current(state, notice.moment, self.options.vote_count_minutes):
                return [self._count_current(state, notice.moment)]
            return [self.vote_count(state, notice.moment, notice.key,
                                    notice.view.get("count"))]
        if notice.count == CARRIED:
            return [self._counted(p) for p in self.counts.carried(state, notice, self.options)]
        if notice.count == DAY_END:
            return [self._counted(self.counts.day_end(state, notice, self.options,
                                                      by_command=command is not None,
                                                      context=dated(notice.view, public=True)))]
        if notice.topic:
            return self._topic_status(notice)
        if notice.echo:  # a Storyteller's command echoed in the thread it was posted in
            if command is None or source["channel"] != "thread":
                return []
            notice = Notice(THREAD, notice.template, f"{notice.key}:{source.get('id')}",
                            notice.view)
        if notice.template == "role" and notice.view["role"].get("substitute_for"):
            return [*self._seat_handed_over(notice), self._addressed(state, notice)]
        if notice.to == OBSERVERS and notice.player:  # a new observer: invited, then welcomed
            return [self._membership(notice.key, self._observers_thread, "invite", notice.player),
                    self._addressed(state, notice)]
        if notice.template == "night_choice" and notice.to == PLAYER:  # a reminder not yet
            return [self._addressed(state, notice),  # sent when the choice came: moot
                    self._withdrawn(f"remind:{notice.view['night']}:{notice.player}")]
        return [self._addressed(state, notice)]

    def vote_count(self, state: GameState, at: datetime, reason: str,
                   facts: dict[str, Any] | None = None) -> Outgoing:
        """A vote count of its own, now (`reason` ends its key; `facts`: the core's, as a
        notice carries them)."""
        return self._counted(self.counts.count(state, at, reason, self.options, facts))

    def _counted(self, count: CountPost) -> Outgoing:
        """A post the count owes, in the game thread (an edit of the day's running count)."""
        outgoing = self.post(count.key, count.body)
        if count.edit_of is None:
            return outgoing
        return dataclasses.replace(outgoing, kind="edit",
                                   edit_of=f"{self.options.key}:{count.edit_of}")

    def _withdrawn(self, key: str) -> Outgoing:
        """The game's post `key`, if the outbox has not tried to send it yet, is not sent."""
        return Outgoing(f"{self.options.key}:withdraw:{key}", self.thread, "",
                        kind="withdraw", edit_of=f"{self.options.key}:{key}")

    def _count_current(self, state: GameState, at: datetime) -> Outgoing:
        """`!vc` right after a count, with no vote changed since: said, not posted twice."""
        day = state.current_day.number
        number = self.counts.numbers[day]
        return self.note_to_storytellers(
            state.setup.storytellers, f"vc-current:{day}.{number}:{at:%Y%m%dT%H%M%S}",
            later("count_current.md.j2", day=day, number=number,
                  minutes=self.options.vote_count_minutes))

    def _count_stands(self, state: GameState, player: str | None, at: datetime) -> list[Outgoing]:
        """A player's `/vc` less than `COUNT_ASK_GAP` after the last count posted (of any
        kind): no count, and the player told when they may ask, once between two counts."""
        last = self.counts.last_at
        if player is None or last is None or self.vc_told.get(player) == last:
            return []
        self.vc_told[player] = last
        day = state.today.number if state.today else state.cycle
        return [self.pm(player, f"vc-stands:{day}.{self.counts.numbers.get(day, 0)}:{player}",
                        later("count_stands.md.j2", day=day, number=self.counts.numbers.get(day, 0),
                              last=dated_moment(last), next=dated_moment(last + COUNT_ASK_GAP)))]

    def _seat_handed_over(self, notice: Notice) -> list[Outgoing]:
        """Before a substitute's role PM, in the seat's conversation: the substitute is added
        to it and the replaced player taken out (outbox kind "members"), so the seat's history
        is theirs and the guard finds exactly the recipients there."""
        old, new = notice.view["role"]["substitute_for"], notice.player
        return [self._membership(notice.key, self._pm_thread(new), verb, name)
                for verb, name in (("invite", new), ("remove", old))]

    def _membership(self, key: str, thread: str, verb: str, name: str) -> Outgoing:
        """A change of who is in a conversation ("invite" or "remove" NAME: adapters/members.py)."""
        return Outgoing(f"{self.options.key}:{key}:{verb}", thread, f"{verb}:{name}", kind="members")

    def _addressed(self, state: GameState, notice: Notice) -> Outgoing:
        raw = partial(render_notice, notice)
        if notice.to == PLAYER:
            return self.pm(notice.player, notice.key, raw)
        if notice.to == STORYTELLERS:
            return self.note_to_storytellers(state.setup.storytellers, notice.key, raw)
        if notice.to == OBSERVERS:  # the observers, the Storytellers and the bot
            return Outgoing(f"{self.options.key}:{notice.key}", self._observers_thread, raw,
                            recipients=(*observers_of(state), *state.setup.storytellers),
                            title=words(say("title.observers", game=self._game_name())))
        if f"{notice.template}.md.j2" not in PUBLIC_TEMPLATES:
            raise ValueError(f"{notice.template} is not a public template: not for the thread")
        return self.post(notice.key, raw)

    def _topic_status(self, notice: Notice) -> list[Outgoing]:
        """The thread closed at night and opened at dawn, when the game file asks."""
        if not self.options.close_topic_at_night:
            return []
        closed = "true" if notice.topic == "closed" else "false"
        return [Outgoing(f"{self.options.key}:{notice.key}", self.thread, f"closed:{closed}",
                         topic_id=self.options.topic_id, kind="status")]

    def command_answer(self, state: GameState, report: CommandReport, source: dict[str, Any], log: list[dict[str, Any]],
                       undo: dict[str, Any] | None = None) -> Outgoing:
        """The ST's answer to their commands (`report`: the core's `CommandReport`)."""
        def raw() -> str:
            status = status_text(state) if report.status else ""
            held = self.held_posts() if report.status else []
            quarantined = self.quarantined() if report.status else []
            return render("st_report.md.j2", report=report, log=log, status=status, undo=undo,
                          held=held, quarantined=quarantined, topic_id=self.options.topic_id,
                          plan=self.plan() if report.status else None)

        return self.answer_storyteller(state, source, raw)

    def answer_storyteller(self, state: GameState, source: dict[str, Any], raw: Body) -> Outgoing:
        """An answer to a Storyteller's post or PM, in the PM they wrote (or, where players
        read it or the command was posted in the thread, in the Storytellers' conversation),
        keyed by that post."""
        key = f"st:{source['channel']}:{source.get('id')}"
        if source["channel"] == "pm" and not source.get("shared"):
            notes = self.note_to_storytellers(state.setup.storytellers, key, raw)
            return Outgoing(f"{self.options.key}:{key}", f"{self.options.key}:pmtopic:"
                            f"{source['topic_id']}", raw, topic_id=source["topic_id"],
                            recipients=notes.recipients, title=notes.title)
        return self.note_to_storytellers(state.setup.storytellers, key, raw)

    def welcome(self, setup: GameSetup) -> Outgoing:
        """The Storytellers' conversation's first note (`modbot game new` posts the same key
        when it opens the thread, so the conversation exists from then on)."""
        return self.note_to_storytellers(setup.storytellers, WELCOME, later(
            "st_welcome.md.j2", game=setup, topic_id=self.options.topic_id))

    def note_edit(self, player: str, post_number: int, post_id: int, original: str,
                  deleted: bool, digest: str, storytellers: tuple[str, ...],
                  ended_day: int | None = None) -> list[Outgoing]:
        if ended_day is None:  # the day's next count mentions it
            self.counts.edits.append({"player": player, "post_number": post_number})
        raw = later("edit_flag.md.j2", player=player, post_number=post_number,
                     original=original, deleted=deleted, ended_day=ended_day)
        return [self.note_to_storytellers(storytellers, f"edit:{post_id}:{digest[:10]}", raw)]

    def failure_report(self, storytellers: tuple[str, ...], key: str, error: str,
                       recipients: tuple[str, ...] = ()) -> Outgoing:
        """A post the forum refused for good, told in words (never by its internal key)."""
        raw = later("post_failed.md.j2", what=_failed_post(key, recipients),
                     error=error.rstrip(". "))
        return self.note_to_storytellers(storytellers, f"failed:{key}", raw)

    # -- what comes due on the clock --------------------------------------------------------

    def count_due(self, state: GameState, at: datetime) -> bool:
        """Votes changed since the last count, and the next count is due by `at`."""
        return self.counts.due(state, at, self.options.vote_count_minutes)

    # -- private replies --------------------------------------------------------------------

    def _rejection_reply(self, post: Post, rejections: Sequence[Rejection], source: dict[str, Any]) -> Outgoing:
        private = source["channel"] == "pm"
        raw = partial(refusal_words, post.post_number, private, rejections)
        key = f"rejected:pm:{source.get('id')}" if private else f"rejected:{post.post_number}"
        return self.pm(post.author, key, raw)

    # -- the messages the bot sends -----------------------------------------------------------

    def pm(self, player: str, key: str, raw: Body) -> Outgoing:
        """To the player's grimoire PM (the player, the Storytellers and the bot)."""
        return Outgoing(f"{self.options.key}:{key}", self._pm_thread(player), raw,
                        recipients=(player, *self.options.storytellers),
                        title=grimoire_title(player, self._game_name()))

    def _pm_thread(self, player: str) -> str:
        """The outbox thread of the player's grimoire conversation."""
        return f"{self.options.key}:pm:{self._conversation_of(player)}"

    def _conversation_of(self, player: str) -> str:
        """The name a seat's grimoire conversation goes by in the outbox: the first holder's
        (a substitute continues the seat's conversation), as the game file named them (a
        renamed player's conversation keeps its thread)."""
        name, seen = player.lower(), set()
        while name in self.substituted and name not in seen:
            seen.add(name)
            name = self.substituted[name]
        return dict(self.options.threads).get(name, name)

    def note_to_storytellers(self, storytellers: Sequence[str], key: str, raw: Body) -> Outgoing:
        """To the Storytellers' conversation with the bot."""
        return Outgoing(f"{self.options.key}:{key}", f"{self.options.key}:pm:storytellers",
                        raw, recipients=tuple(storytellers),
                        title=storytellers_title(self._game_name()))

    @property
    def _observers_thread(self) -> str:
        return f"{self.options.key}:pm:observers"

    def _game_name(self) -> str:
        return game_name(self.options.name, self.options.topic_id)

    def post(self, key: str, raw: Body) -> Outgoing:
        """A public post in the game thread (only through `PUBLIC_TEMPLATES`)."""
        return Outgoing(f"{self.options.key}:{key}", self.thread, raw,
                        topic_id=self.options.topic_id)

    # -- helpers ----------------------------------------------------------------------------

    @property
    def thread(self) -> str:
        return f"{self.options.key}:topic"


def _failed_post(key: str, recipients: tuple[str, ...]) -> Say:
    """What a post was, from its key (`g12:role:Hanna`) and recipients, for the Storytellers."""
    kind = key.split(":")[1] if key.count(":") >= 1 else ""
    player = recipients[0] if recipients else ""
    if kind in ("role", "result", "choice", "remind", "answer", "rejected", "token"):
        return say(f"failed.{kind}", player=player)
    if kind == "vc":
        return say("failed.vc")
    return say("failed.pm", player=player) if player else say("failed.thread")


__all__ = ["EXILE", "PUBLIC_TEMPLATES", "WELCOME", "GameOptions", "Reactor", "title_forms"]

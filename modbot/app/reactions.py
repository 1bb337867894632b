"""Theory of operation: turn what happened in a game into the posts the bot owes the forum.

A `Reactor` watches one game's outcomes (events and rejections, in input order) and returns
`Outgoing` messages with deterministic keys, so that folding the same inputs again (after a
restart) derives the same keys and nothing is posted twice. Its own memory (vote-count
numbers, whether votes changed since the last count, edits to mention) is rebuilt by that same
fold. Vote counts are throttled in forum time (`created_at`), never in wall-clock time.

What is posted publicly: phase changes, vote counts when a nomination opens or closes and at
most every `vote_count_minutes` while votes change, the end of each day, deaths by ability,
and only through the templates in `PUBLIC_TEMPLATES`. Privately, in each player's grimoire
PM: a reply to each post with rejected actions, a note to a dead player whose execute vote
counted as a pardon; to the Storytellers: edit/delete flags. The private side of the game
(characters, night choices, sheets, results, whispers) is `private_reactions.py`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..adapters.store import Outgoing
from ..core import (
    ABILITY_DEATH,
    EXILE,
    NOTE_NO_TOKEN_CAST,
    DayEnded,
    GameEnded,
    GameState,
    NightResolved,
    Nominated,
    NominationCancelled,
    NominationClosed,
    Phase,
    PhaseChanged,
    PlayerDied,
    PlayerRevived,
    Say,
    UsualFormSuggested,
    VoteCast,
    VoteCorrected,
    VoteCountRequested,
    VoteLocked,
    VotesUnlocked,
    VoteWithdrawn,
    WhisperBroken,
    WhisperLimitExceeded,
    iso,
    say,
)
from .catalogue import rejection_words
from .death_notice import death_notice
from .grimoire_status import status_text
from .hand_nudge import due_nudges, nudge_moment
from .picture import Picture, vote_picture
from .private_reactions import private_messages
from .render import is_silent, render
from .views import date_tag, public_roles, vote_count_view

# The only templates ever posted in the game thread. None receives the grimoire: their views
# are built from public facts (seats, votes, phases, deaths); the leak test checks both.
PUBLIC_TEMPLATES = frozenset({
    "phase_night.md.j2", "phase_discussion.md.j2", "phase_nomination.md.j2",
    "phase_voting.md.j2", "votecount.md.j2", "day_end.md.j2", "public_life.md.j2",
    "game_over.md.j2", "dawn_delayed.md.j2", "fear_announced.md.j2", "silence.md.j2",
    "boom.md.j2", "fiddle.md.j2", "deviant.md.j2",
    "butcher.md.j2",
})


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


@dataclass
class Reactor:
    options: GameOptions
    vc_numbers: dict[int, int] = field(default_factory=dict)
    dirty: bool = False
    last_vc_at: datetime | None = None
    edits: list[dict] = field(default_factory=list)
    as_of: int | None = None
    voting_ends: datetime | None = None  # today's voting deadline, as of the last reaction
    nudged: set[str] = field(default_factory=set)  # hand nudges sent (hand_nudge.py)
    running: dict[int, str] = field(default_factory=dict)  # day -> its running count's key

    # -- public -----------------------------------------------------------------------------

    def react(self, state: GameState, events, rejections=(), *, at: datetime,
              post=None, command=None, source: dict | None = None,
              log: list[dict] | None = None, undo: dict | None = None) -> list[Outgoing]:
        """`source`: where the post came from: {"id", "channel": thread|pm, "topic_id"}."""
        source = source or {"channel": "thread"}
        if post is not None and source["channel"] == "thread":
            self.as_of = post.post_number
        out: list[Outgoing] = []
        if command is not None:
            out.extend(self._command_effects(state, events, command, source, log or [], undo))
            if undo and undo.get("done") and state.today is not None:
                out.append(self._vote_count(state, at, f"undo:{undo['input']}"))
        ended = any(isinstance(e, DayEnded) for e in events)
        # Dawn (NightResolved) and the day it opens come in one batch: the discussion post
        # announces the night's deaths from the event itself.
        dawn = next((e.deaths for e in events if isinstance(e, NightResolved)), None)
        for index, event in enumerate(events):
            if isinstance(event, PhaseChanged) and event.phase is Phase.VOTING:
                self.voting_ends = event.ends_at  # a day may open and end in one batch
            if isinstance(event, DayEnded):
                night = next(e for e in events[index:] if isinstance(e, PhaseChanged))
                out.append(self._day_end(state, event, night, by_command=command is not None))
            else:
                out.extend(self._on_event(state, event, ended, dawn))
            out.extend(private_messages(self, state, event))
            out.extend(death_notice(self, state, event))
        if self.dirty and not ended and self._vc_due(at):
            out.append(self._vote_count(state, at, "vc"))
        if post is not None and rejections:
            out.append(self._rejection_reply(post, rejections, source))
        out.extend(self._nudges(state, at))
        self.voting_ends = state.phase_ends_at if state.phase is Phase.VOTING else None
        return out

    def _command_effects(self, state: GameState, events, report, source,
                         log: list[dict], undo: dict | None = None) -> list[Outgoing]:
        """The ST's answer (in the PM they wrote, or the STs' conversation) and, for commands
        in the game thread, the public lines for deaths and revivals."""
        status = status_text(state) if report.status else ""
        raw = render("st_report.md.j2", report=report, log=log, status=status, undo=undo)
        key = f"st:{source['channel']}:{source.get('id')}"
        if source["channel"] == "pm" and not source.get("shared"):
            out = [Outgoing(f"{self.options.key}:{key}", f"{self.options.key}:pmtopic:"
                            f"{source['topic_id']}", raw, topic_id=source["topic_id"])]
        elif source["channel"] == "pm":  # players read that PM: the answer stays with the STs
            out = [self.note_to_storytellers(state.setup.storytellers, key, raw)]
        else:
            out = [self.note_to_storytellers(state.setup.storytellers, key, raw)]
            for event in events:
                if _is_storyteller_life_change(event):
                    alive = isinstance(event, PlayerRevived)
                    out.append(self.post(f"life:{event.player}:{source.get('id')}",
                                            render("public_life.md.j2", player=event.player,
                                                   alive=alive)))
        return out

    def note_edit(self, player: str, post_number: int, post_id: int, original: str,
                  deleted: bool, digest: str, storytellers: tuple[str, ...]) -> list[Outgoing]:
        self.edits.append({"player": player, "post_number": post_number})
        raw = render("edit_flag.md.j2", player=player, post_number=post_number,
                     original=original, deleted=deleted)
        return [self.note_to_storytellers(storytellers, f"edit:{post_id}:{digest[:10]}", raw)]

    def failure_report(self, storytellers: tuple[str, ...], key: str, error: str,
                       recipients: tuple[str, ...] = ()) -> Outgoing:
        """A post the forum refused for good, told in words (never by its internal key)."""
        raw = render("post_failed.md.j2", what=_failed_post(key, recipients),
                     error=error.rstrip(". "))
        return self.note_to_storytellers(storytellers, f"failed:{key}", raw)

    # -- events -----------------------------------------------------------------------------

    def _on_event(self, state: GameState, event, ended: bool,
                  dawn: tuple[str, ...] | None) -> list[Outgoing]:
        if isinstance(event, (VoteCast, VoteWithdrawn)):
            self.dirty = True
        elif isinstance(event, VoteLocked):
            self.dirty = True
            if event.vote.note == NOTE_NO_TOKEN_CAST:
                return [self._token_note(state, event)]
        elif isinstance(event, Nominated):
            return [self._vote_count(state, event.at, f"open:{event.kind}:{event.nominee}")]
        elif isinstance(event, NominationClosed) and not ended:
            return [self._vote_count(state, event.at, f"closed:{event.kind}:{event.nominee}")]
        elif isinstance(event, PhaseChanged):
            return self._phase(state, event, dawn)
        elif isinstance(event, (VoteCorrected, VotesUnlocked)):
            self.dirty = True
        elif isinstance(event, WhisperBroken):
            return [self.pm(member, f"whisper-broken:{event.requester}:{event.request_post}"
                             f":{member}", render("whisper_broken.md.j2", by=event.by,
                                                  post_number=event.post_number,
                                                  others=[m for m in event.members
                                                          if m != member]))
                    for member in event.members]
        elif isinstance(event, UsualFormSuggested):
            return [self.pm(event.player, f"form:{event.post_number}:{event.form}",
                            render("form_hint.md.j2", post_number=event.post_number,
                                   form=event.form))]
        elif isinstance(event, WhisperLimitExceeded):
            return [self.note_to_storytellers(
                state.setup.storytellers, f"whisper-limit:{event.player}:{event.post_number}",
                render("whisper_limit.md.j2", player=event.player, count=event.count,
                       limit=event.limit, post_number=event.post_number))]
        elif isinstance(event, PlayerDied) and event.cause == ABILITY_DEATH:
            return [self.post(f"died:{event.player}:{iso(event.at)}",
                                 render("public_life.md.j2", player=event.player, alive=False))]
        elif isinstance(event, GameEnded):
            return [self.post("game-over", render("game_over.md.j2", winner=event.winner,
                                                       reason=event.reason))]
        elif isinstance(event, (VoteCountRequested, NominationCancelled)) and state.today:
            reason = "requested" if isinstance(event, VoteCountRequested) else "cancelled"
            return [self._vote_count(state, event.at, reason)]
        return []

    def _phase(self, state: GameState, event: PhaseChanged,
               dawn: tuple[str, ...] | None) -> list[Outgoing]:
        key = f"{event.phase.value}:{event.cycle}"
        out = []
        if event.phase is Phase.NIGHT and event.cycle == 1:
            out.append(self.post(key, render("phase_night.md.j2", cycle=1,
                                                private=state.setup.script is not None,
                                                roles=public_roles(state),
                                                bot=state.setup.bot_username,
                                                deadline=date_tag(event.ends_at),
                                                lock=self._lock_tag(state, event))))
        elif event.phase is Phase.DISCUSSION:
            out.append(self.post(key, render("phase_discussion.md.j2", cycle=event.cycle,
                                                deadline=date_tag(event.ends_at),
                                                deaths=dawn)))
        elif event.phase is Phase.NOMINATION:
            out.append(self.post(key, render("phase_nomination.md.j2", cycle=event.cycle,
                                                deadline=date_tag(event.ends_at))))
        elif event.phase is Phase.VOTING and state.today is not None:
            view = self._view(state, self._next_number(state))
            out.append(self.post(key, render("phase_voting.md.j2", vc=view)))
            self._counted(event.at)
        if self.options.close_topic_at_night and event.phase in (Phase.NIGHT, Phase.DISCUSSION):
            closed = event.phase is Phase.NIGHT
            out.append(Outgoing(f"{self.options.key}:status:{key}", self.thread,
                                f"closed:{'true' if closed else 'false'}",
                                topic_id=self.options.topic_id, kind="status"))
        return out

    def _day_end(self, state: GameState, event: DayEnded, night: PhaseChanged, *,
                 by_command: bool) -> Outgoing:
        """How the day ended (the Storytellers, every vote locked early, or the deadline),
        the execution, then the day's final tables."""
        view = self._view(state, self._next_number(state, event.day), day=event.day)
        self._counted(event.at)
        picture = self._picture(state, view)
        deadline = self.voting_ends
        ended_by = "storytellers" if by_command else \
            "deadline" if deadline is not None and event.at >= deadline else "all_locked"
        raw = render("day_end.md.j2", vc=view, cycle=night.cycle, picture=picture, ended_by=ended_by,
                     deadline=date_tag(night.ends_at), lock=self._lock_tag(state, night))
        return _embedding(self.post(f"end:{event.day}", raw), picture)

    # -- vote counts ------------------------------------------------------------------------

    def count_due(self, state: GameState, at: datetime) -> bool:
        """Votes changed since the last count, and the next count is due by `at`."""
        return self.dirty and state.today is not None and self._vc_due(at)

    def next_due(self, state: GameState) -> datetime | None:
        """The next moment a count or a hand nudge becomes due (see `count_due`)."""
        moments = [nudge_moment(state, self.nudged)]
        if self.dirty and state.today is not None:
            moments.append(self.last_vc_at + timedelta(minutes=self.options.vote_count_minutes)
                           if self.last_vc_at else None)
        return min((m for m in moments if m is not None), default=None)

    def nudge_due(self, state: GameState, at: datetime) -> bool:
        return bool(due_nudges(state, self.nudged, at))

    def _nudges(self, state: GameState, at: datetime) -> list[Outgoing]:
        out = []
        for nudge in due_nudges(state, self.nudged, at):
            self.nudged.add(nudge.key)
            out.append(self.pm(nudge.player, nudge.key, render(
                "hand_nudge.md.j2", nudge=nudge, since=date_tag(nudge.since),
                exile=nudge.kind == EXILE)))
        return out

    def _vc_due(self, at: datetime) -> bool:
        interval = timedelta(minutes=self.options.vote_count_minutes)
        return self.last_vc_at is None or at - self.last_vc_at >= interval

    def _next_number(self, state: GameState, day: int | None = None) -> int:
        day = day if day is not None else (state.today.number if state.today else state.cycle)
        self.vc_numbers[day] = self.vc_numbers.get(day, 0) + 1
        return self.vc_numbers[day]

    def _counted(self, at: datetime) -> None:
        self.dirty = False
        self.last_vc_at = at
        self.edits = []

    def _view(self, state: GameState, number: int, day: int | None = None) -> dict:
        return vote_count_view(state, number=number, as_of=self.as_of, day=day,
                               topic_id=self.options.topic_id, edits=list(self.edits))

    def _vote_count(self, state: GameState, at: datetime, reason: str) -> Outgoing:
        day = state.today.number if state.today else state.cycle
        number = self._next_number(state)
        view = self._view(state, number)
        self._counted(at)
        picture = self._picture(state, view)
        outgoing = self.post(f"vc:{day}.{number}:{reason}",
                             render("votecount.md.j2", vc=view, picture=picture))
        if self.options.vote_counts == "edit":
            outgoing = self._running(day, outgoing)
        return _embedding(outgoing, picture)

    def _running(self, day: int, outgoing: Outgoing) -> Outgoing:
        """`vote_counts = "edit"`: the day's first count is posted; every later one edits it
        (the nominations-closed and day-end posts stay posts of their own)."""
        first = self.running.setdefault(day, outgoing.key)
        if first == outgoing.key:
            return outgoing
        return dataclasses.replace(outgoing, kind="edit", edit_of=first)

    def _picture(self, state: GameState, view: dict) -> Picture | None:
        """The town square of this count, unless the game turned pictures off (or nothing is
        rendered: start-up's fold)."""
        if not self.options.pictures or is_silent():
            return None
        return vote_picture(state, view)

    # -- private replies --------------------------------------------------------------------

    def _rejection_reply(self, post, rejections, source: dict) -> Outgoing:
        private = source["channel"] == "pm"
        raw = render("rejection.md.j2", post_number=post.post_number, private=private,
                     rejections=[{"message": rejection_words(r.code, r.details), "text": r.details.get("text")}
                                 for r in rejections])
        key = f"rejected:pm:{source.get('id')}" if private else f"rejected:{post.post_number}"
        return self.pm(post.author, key, raw)

    def _token_note(self, state: GameState, event: VoteLocked) -> Outgoing:
        raw = render("token_note.md.j2", nominee=event.nominee, note=event.vote.note)
        day = state.today.number if state.today else state.cycle
        return self.pm(event.vote.player, f"token:{day}:{event.nominee}:{event.vote.player}",
                        raw)

    # -- the messages the bot sends: every reaction (here and in private_reactions.py) ------

    def pm(self, player: str, key: str, raw: str) -> Outgoing:
        """To the player's grimoire PM (the player, the Storytellers and the bot)."""
        thread = dict(self.options.threads).get(player.lower(), player.lower())
        return Outgoing(f"{self.options.key}:{key}", f"{self.options.key}:pm:{thread}",
                        raw, recipients=(player, *self.options.storytellers),
                        title=f"{player}'s grimoire (game {self.options.topic_id})")

    def note_to_storytellers(self, storytellers, key: str, raw: str) -> Outgoing:
        """To the Storytellers' conversation with the bot."""
        return Outgoing(f"{self.options.key}:{key}", f"{self.options.key}:pm:storytellers",
                        raw, recipients=tuple(storytellers),
                        title=f"modbot notes for the Storytellers (game {self.options.topic_id})")

    def post(self, key: str, raw: str) -> Outgoing:
        """A public post in the game thread (only through `PUBLIC_TEMPLATES`)."""
        return Outgoing(f"{self.options.key}:{key}", self.thread, raw,
                        topic_id=self.options.topic_id)

    # -- helpers ----------------------------------------------------------------------------

    @property
    def thread(self) -> str:
        return f"{self.options.key}:topic"

    @staticmethod
    def _lock_tag(state: GameState, event: PhaseChanged) -> str:
        lock = event.ends_at - timedelta(hours=state.setup.lengths.night_action_lock)
        return date_tag(lock)


def _failed_post(key: str, recipients: tuple[str, ...]) -> Say:
    """What a post was, from its key (`g12:role:Hanna`) and recipients, for the Storytellers."""
    kind = key.split(":")[1] if key.count(":") >= 1 else ""
    player = recipients[0] if recipients else ""
    if kind in ("role", "result", "choice", "remind", "answer", "rejected", "token"):
        return say(f"failed.{kind}", player=player)
    if kind == "vc":
        return say("failed.vc")
    return say("failed.pm", player=player) if player else say("failed.thread")


def _is_storyteller_life_change(event) -> bool:
    """A death or revival by command (executions and exiles have posts of their own)."""
    if isinstance(event, PlayerRevived):
        return True
    return isinstance(event, PlayerDied) and event.cause not in ("execution", "exile")


__all__ = ["EXILE", "PUBLIC_TEMPLATES", "GameOptions", "Reactor"]


def _embedding(outgoing: Outgoing, picture: Picture | None) -> Outgoing:
    """The post carries its picture's bytes to the store; the outbox uploads them once."""
    if picture is None:
        return outgoing
    return dataclasses.replace(outgoing, pictures=((picture.sha1, picture.png),))

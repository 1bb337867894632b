"""Theory of operation: what the service does with each post, PM and clock tick it reads.

`Handling` is the service's collaborator (service.py) that turns what the forum shows into
inputs of the games: thread posts (each game's in post-number order; those a stream check
found, by id: renumbered.py), PMs and edit notices merged in the forum's order (`created_at`,
then post id), each after the clock ticks that fell due before it; a post by the bot itself
(known by its user id) only moves the cursor; its author is judged by the id on it first
(authors.py: a rename followed, a stranger's post or a replaced player's not the game's
input); a post hidden by flags is kept as one the bot cannot read (hidden.py); a post whose
time lies before a moment already applied is held (late.py); a PM goes to the game
`pm_routing.py` finds, unless its game's thread is not read through the moment its handling
would pass (then it waits for a read of both: watermark.py). Each input is handled, or
quarantined, or waits behind one by the `Feeder` (feeding.py), its row, its events, the posts
it causes and the cursors committed in one transaction, adopting what a rebuild found already
on the forum.

It is given the client, the store, the settings, the games, the identities, the watermark,
the outbox's hooks (for a post held), the quarantine and how to fold a game again; it keeps
its own state: the PM router, what a rebuild adopts and which game it rebuilds, the bot's id
and the conversation guard (both set once the service knows its account).
"""

from __future__ import annotations

import heapq
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from ...adapters.forum import ForumError
from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch, Outgoing
from ...adapters.port import ForumPost
from ...adapters.store_port import GameStore
from ...core import iso, parse_post
from ..posting.conversation_guard import ConversationGuard
from ..posting.outbox_hooks import OutboxHooks
from ..posting.render import later
from ..reading.late import is_late
from ..reading.pm_routing import Ask, Member, PmRouter, member
from ..reading.watermark import Watermark
from ..recovery.rebuild import Adoption
from ..running.settings import Settings
from .authors import Authors
from .feeding import Feeder
from .identities import Identities
from .quarantine import Quarantine
from .releases import Releases
from .runtime import GameRuntime
from .steps import game_input, pm_row, post_row, sha1

log = logging.getLogger("modbot.app.running.service")
WHISPER = 4  # a post's type: a staff whisper (Post.types[:whisper])
NEVER_READ = datetime.min.replace(tzinfo=UTC)  # a thread not read through anything yet


class Handling(Authors):
    def __init__(self, client: ForumPort, store: GameStore, settings: Settings,
                 games: dict[int, GameRuntime], identities: Identities, watermark: Watermark,
                 hooks: OutboxHooks, quarantine: Quarantine,
                 reload: Callable[[GameRuntime], None]) -> None:
        self.client = client
        self.store = store
        self.settings = settings
        self.games = games  # the service's, by topic id
        self.identities = identities
        self.watermark = watermark
        self.hooks = hooks
        self.router = PmRouter(client, settings.bot_username)
        self.adopt = Adoption()  # the bot's posts a rebuild found on the forum (rebuild.py)
        self.rebuilding: GameRuntime | None = None  # the game a rebuild replays
        self.bot_id: int | None = None  # the bot's forum user id, once the service knows it
        self.conversations: ConversationGuard | None = None  # once the service knows it
        self.quarantine = quarantine  # inputs that could not be handled (quarantine.py)
        self.feeder = Feeder(store, quarantine, reload, self.commit_outgoing,
                             identities.bind_substitutes)  # each input of a game (feeding.py)
        self.releases = Releases(self.feeder)  # the Storytellers' !retry, !discard

    def handle_in_order(self, thread: dict[GameRuntime, list[ForumPost]], pms: list[ForumPost],
                        edits: Sequence[tuple[GameRuntime, ForumPost]] = (),
                        members: list[Member] | None = None, limit: datetime | None = None,
                        held: set[int] | None = None,
                        by_id: frozenset[int] | set[int] = frozenset(),
                        pm_limits: dict[int, datetime | None] | None = None,
                        held_pms: set[int] | None = None) -> int:
        """Thread posts (each game's in post-number order), PMs and edit notices merged in the
        forum's order, each after the clock ticks that fell due before it. With `limit` (the
        inbox's mark, when this read has no PMs: watermark.py), a game whose next post would
        move its clock past a moment after `limit` is held there, its topic id added to `held`
        and the rest of its posts left for a later read (its cursor stays before them). The
        posts of the games in `by_id` (a stream check found them: intake.py) are in the
        forum's order and judged read or not by id, whatever their numbers. A PM of a game in
        `pm_limits` (one whose thread this read did not read through: that thread's mark)
        whose handling would move its clock past a moment after the mark waits: its id is
        added to `held_pms`, for a later read of both. How many posts and PMs were handled."""
        held = set() if held is None else held
        streams: list[list[tuple[datetime, int, str, GameRuntime | None, ForumPost]]] = [
            [(p.created, p.id, "post", game, p) for p in posts] for game, posts in thread.items()]
        streams.append([(p.created, p.id, "pm", None, p) for p in pms])
        streams.append(sorted(((p.edited, p.id, "edit", game, p) for game, p in edits),
                              key=lambda item: item[:2]))
        handled = 0
        for _, _, kind, game, post in heapq.merge(*streams, key=lambda item: item[:2]):
            if kind == "pm" or game is None:  # a PM's game is found by routing it
                handled += self._handle_pm(post, members, pm_limits, held_pms)
            elif kind == "post":
                if game.topic_id in held or (not self.quarantine.holds(game)
                                             and _past(game, post.created, limit)):
                    held.add(game.topic_id)
                    continue
                handled += self._handle_post(game, post, game.topic_id in by_id)
            elif post.id in game.today_posts:  # what the live edit sweep would have read
                self.edited(game, post)
        return handled

    def edited(self, game: GameRuntime, post: ForumPost) -> int:
        """A counted post as the forum shows it now: flagged if its text changed."""
        if post.words_hidden or not game.changed(post.id, post.raw):
            return 0  # hidden after it was counted: it keeps the words it was counted with
        digest = sha1(post.raw)
        if (game.game_id, post.id, digest) in self.feeder.edits_waiting:
            return 0  # waiting behind a quarantined input already (quarantine.py)
        if self.quarantine.holds(game):
            self.feeder.edits_waiting.add((game.game_id, post.id, digest))
        number, author = game.seen[post.id][:2]
        self.feeder.feed(game, {"kind": "edit", "post_id": post.id, "post_number": number,
                          "author": author, "at": iso(post.edited), "raw": post.raw,
                          "raw_sha1": digest})
        return 1

    def _handle_post(self, game: GameRuntime, post: ForumPost, by_id: bool = False) -> int:
        number = post.post_number
        if game.has_read(post.id) or (number <= game.last_post_number and not by_id) or \
                self.quarantine.knows(game.game_id, "post", post.id):
            return 0
        game.read_ids.add(post.id)
        by_someone = post.by_someone and not self._is_bot(post)
        if by_someone and game.topic_id in self._judge_author(post):
            by_someone = False  # a stranger under the game's names: not an input
        if post.post_type == WHISPER and not self._is_bot(post) and \
                game.topic_id not in self._judge_author(post):
            self._whisper_told(game, post)  # staff-only: it counts for nothing, and is said
        # live, a deleted post is not an input (a rebuild decides for itself: rebuild.py)
        if not by_someone or (post.deleted_at and self.rebuilding is None):
            game.last_post_number = max(game.last_post_number, number)
            self.store.commit(Batch(last_post_numbers={game.game_id: number}))
            return 0
        self.store.another_author_posted(game.reactor.thread)  # a 4th reply may go now
        if post.words_hidden:  # hidden by flags: its words are not the bot's to read
            game.read_ids.discard(post.id)  # (read again once visible: hidden.py)
            self.feeder.feed(game, {**post_row(game_input(post)), "kind": "hidden", "raw": None,
                                    "raw_sha1": None}, last_post_number=number)
            return 1
        source = {"channel": "thread", "id": post.id}
        if self.releases.carried_out(game, game_input(post), source, last_post_number=number):
            return 1  # a Storyteller's !retry or !discard (quarantine.py)
        if not self.quarantine.holds(game) and not is_late(game.history, post.created) \
                and self.tick_until(game, post.created):
            self._learn_names_named(game, post) or self._newcomers_known(game, post)
        self.feeder.feed(game, post_row(game_input(post)), last_post_number=number)
        return 1

    def _whisper_told(self, game: GameRuntime, post: ForumPost) -> None:
        """A seated player's (a moderator's) staff whisper in the thread with actions in it:
        only staff can read a whisper, so it counts for nothing; the player and the
        Storytellers are told once, as for any post that does not count."""
        state = game.state
        if not state.is_seated(post.username):
            return
        try:
            parsed = parse_post(post.raw, state.setup.roster, state.open_nominees(),
                                state.setup.storytellers)
        except Exception:  # nothing of it is handled: no answer owed either
            return
        if not parsed.actions:
            return
        view = {"post_number": post.post_number, "player": post.username,
                "topic_id": game.topic_id}
        self.commit_outgoing([
            game.reactor.pm(post.username, f"whisper-post:{post.id}",
                            later("whisper_post.md.j2", **view, to="player")),
            game.reactor.note_to_storytellers(state.setup.storytellers, f"whisper-post-st:{post.id}",
                                              later("whisper_post.md.j2", **view, to="storytellers"))])

    def holds(self, game: GameRuntime) -> bool:
        """The game holds behind an input it could not handle (quarantine.py)."""
        return self.quarantine.holds(game)

    def tick_until(self, game: GameRuntime, at: datetime) -> bool:
        """Commit a tick at each moment something fell due for the game, up to `at`; False if
        the game holds (feeding.py)."""
        return self.feeder.tick_until(game, at)

    def members(self) -> list[Member]:
        return [member(g, self.identities) for g in self.games.values()]

    def _handle_pm(self, post: ForumPost, members: list[Member] | None = None,
                   limits: dict[int, datetime | None] | None = None,
                   held: set[int] | None = None) -> int:
        """A PM the bot can see, for the game `pm_routing` finds (`members`: the games it may
        be for; by default the running games); 1 if it was handled as a game's input (or a
        Storyteller's release of one), else 0."""
        try:
            strangers = set() if self._is_bot(post) else self._judge_author(post)
            members = [m for m in (members if members is not None else self.members())
                       if m.topic_id not in strangers]  # never to a game the author is a stranger to
            target = self.router.route(post, members)
        except ForumError:
            raise
        except Exception as exc:  # no game could be found for it: kept under none
            if not self.quarantine.knows(None, "pm", post.id):
                row = {**post_row(game_input(post)), "kind": "pm", "topic_id": post.topic_id}
                batch = Batch()
                self.commit_outgoing(self.quarantine.record(None, row, exc, batch), batch)
            return 0
        if isinstance(target, Ask):
            self._ask_which_game(post, list(target.games))
            return 0
        game = self.games.get(target.topic_id) if target else None
        if game is None and target is not None and self.rebuilding is not None \
                and target.topic_id == self.rebuilding.topic_id:
            game = self.rebuilding
        if game is None or post.id in game.seen_pms or \
                self.quarantine.knows(game.game_id, "pm", post.id):
            return 0
        if limits is not None and held is not None and game.topic_id in limits and \
                not self.quarantine.holds(game) and \
                _past(game, post.created, limits[game.topic_id] or NEVER_READ):
            held.add(post.id)  # its thread is not read through the moment it would pass
            return 0
        participants = self._participants(game, post.topic_id)
        shared = self.router.has_players(post.topic_id, member(game, self.identities))
        source = {"channel": "pm", "id": post.id, "topic_id": post.topic_id, "shared": shared}
        if self.releases.carried_out(game, game_input(post), source):
            return 1  # a Storyteller's !retry or !discard, or !status while held
        if not self.quarantine.holds(game) and self.tick_until(game, post.created) and (
                self._learn_names_named(game, post, participants)
                or self._newcomers_known(game, post)):
            participants = self._participants(game, post.topic_id)
        self.feeder.feed(game, pm_row(game_input(post), post.topic_id, shared, participants))
        return 1

    def _participants(self, game: GameRuntime, topic_id: int) -> tuple[str, ...]:
        """A conversation's participants as the game knows them: a bound id by its name in
        the game; anyone else by their username, marked with their id where that name is one
        of the game's (so it names no place)."""
        binding = self.identities.games.get(game.topic_id)
        names = []
        for user_id, name in self.router.people(topic_id).items():
            if binding is not None and user_id in binding.names:
                names.append(binding.names[user_id].lower())
            elif binding is not None and (name in binding.went_by or game.state.is_seated(name)
                                          or game.state.setup.is_storyteller(name)):
                names.append(f"{name}#{user_id}")
            else:
                names.append(name)
        return tuple(sorted(names))

    def _ask_which_game(self, post: ForumPost, games: list[str]) -> None:
        """A PM from someone in several games, naming none: nothing runs; they are asked."""
        log.warning("PM %s from %s: in several games and names none; asked which",
                    post.id, post.username)
        raw = later("which_game.md.j2", post_number=post.post_number, games=games)
        self.commit_outgoing([Outgoing(
            f"modbot:which-game:{post.id}", f"modbot:pmtopic:{post.topic_id}", raw,
            topic_id=post.topic_id)])

    def commit_outgoing(self, outgoing: list[Outgoing], batch: Batch | None = None) -> None:
        """Commit the posts owed, adopting those the forum already shows (see rebuild.py)."""
        batch = batch or Batch()
        batch.outbox = [*batch.outbox, *outgoing]
        if self.adopt:
            batch.adopted = self.adopt.adopted(outgoing, replaying=self.rebuilding is not None)
        for key, error in self.store.commit(batch).items():  # words that failed to render
            self.hooks.held(key, error)


def _past(game: GameRuntime, at: datetime, limit: datetime | None) -> bool:
    """Handling a post made at `at` would tick the game past a moment after `limit`."""
    if limit is None:
        return False
    try:
        due = game.next_due()
    except Exception:  # the tick before the post will be quarantined (quarantine.py)
        return False
    return due is not None and limit < due <= at


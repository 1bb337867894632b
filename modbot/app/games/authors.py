"""Theory of operation: who wrote a post, by the id on it (a part of `Handling`).

An author is the user id Discourse puts on a post or PM, never the name on it. Before a game
gets an input, its author is judged (`_judge_author`): an id bound to a place of the game
under another name is a rename, followed first (`_rename`: an input of the game, and the
identities' binding); an id that is none of the game's, posting under a name its places go or
went by, is a stranger (`_stranger`: nothing of theirs counts, the Storytellers told once,
after the real accounts' names are asked); an id whose seat someone else took (`!sub`) counts
for nothing. The names of every place are learnt by id (`learn_names`: one request for 50),
also when a post names someone the game does not know (`_learn_names_named`) or a
Storyteller's `!sub`/`!observer` names an account the game knows under another name
(`_newcomers_known`). The bot's own account is known by its id, whatever it is called now.

`Authors` is mixed into `Handling` (handling.py), whose fields it uses.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from ...adapters.forum import ForumError
from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch, Outgoing
from ...adapters.port import ForumPost
from ...core import iso, newcomers_named
from ..posting.conversation_guard import ConversationGuard
from ..posting.render import later
from ..reading.pm_routing import PmRouter
from ..reading.watermark import Watermark
from ..running.settings import Settings
from .feeding import Feeder
from .identities import Identities
from .runtime import GameRuntime
from .steps import game_input

log = logging.getLogger("modbot.app.running.service")


class Authors:
    """The author's side of handling a post (see the top)."""

    client: ForumPort
    settings: Settings
    games: dict[int, GameRuntime]
    identities: Identities
    watermark: Watermark
    feeder: Feeder
    rebuilding: GameRuntime | None
    bot_id: int | None
    router: PmRouter
    conversations: ConversationGuard | None

    def commit_outgoing(self, outgoing: list[Outgoing], batch: Batch | None = None) -> None:
        raise NotImplementedError  # Handling's

    def _at_mark(self, game: GameRuntime, at: datetime) -> datetime:
        """When a change found outside the game's reads (a rename) happens in it: at `at`, or
        at the game's mark if that is earlier, never before its latest input."""
        return self.watermark.cap(game.topic_id, at, game.clock_at)

    def _follow_renames(self, current: dict[int, str], at: datetime) -> None:
        """Each game whose bound users (by id) go by another name now follows the rename;
        so does the service when the bot's own account was renamed. A name another of the
        game's places holds until its own rename is followed waits for that one."""
        bot = current.get(self.bot_id or 0)
        if bot is not None and bot.lower() != self.settings.bot_username.lower():
            self._bot_renamed(bot, at)
        for game in list(self.games.values()):
            names = self.identities.names.get(game.topic_id, {})
            todo = {i: new for i, new in current.items()
                    if i in names and new.lower() != names[i].lower()}
            while todo:
                held = {n.lower() for i, n in names.items() if i in todo}
                ready = [i for i, new in todo.items() if new.lower() not in held] or list(todo)
                for user_id in ready:  # (a swap of two names can only go in some order)
                    self._rename(game, user_id, names[user_id], todo.pop(user_id),
                                 self._at_mark(game, at))

    def learn_names(self, at: datetime) -> None:
        """Every place's name now, by id (one request for 50), and the renames followed."""
        bot = (self.bot_id,) if self.bot_id else ()
        self._follow_renames(self.identities.renames(at, also=bot), at)

    def _bot_renamed(self, new: str, at: datetime) -> None:
        """The bot's account is called `new` now (its key acts by id, so it still works):
        its own posts, its PM list and its conversations are known by the new name, and each
        game follows (the core's rename reaches the game's `bot_username`)."""
        old = self.settings.bot_username
        log.warning("the bot's forum account %s is now called %s", old, new)
        self.settings.bot_username = new
        self.router.bot = new.lower()
        self.router.topics.clear()  # the conversations' participants show the new name
        if self.conversations is not None:
            self.conversations.bot = new.lower()
        self.client.api_username = new
        for game in list(self.games.values()):
            self.feeder.feed(game, renamed_row(old, new, self._at_mark(game, at)))

    def _judge_author(self, post: ForumPost) -> set[int]:
        """Follow the author's rename (their id is bound under another name) in every game;
        the topic ids of the games the author is a stranger to, under one of their names
        (see the top), or whose seat someone else took from them (`!sub`): nothing of theirs
        goes to those games."""
        games = [*self.games.values(), *([self.rebuilding] if self.rebuilding else [])]
        replaced = {g.topic_id for g in games if self.identities.replaced(g, post.user_id)}
        if replaced:
            log.info("post %s by %s, whose seat someone else took: not counted", post.id,
                     post.username)
        games = [g for g in games if g.topic_id not in replaced]
        for game in games:
            renamed = self.identities.renamed_author(game, post)
            if renamed is not None and self.identities.holder(game, renamed[1]) not in (
                    None, post.user_id):  # another place's name: learn where it went first
                self.learn_names(post.created)
                renamed = self.identities.renamed_author(game, post)
            if renamed is not None:
                self._rename(game, post.user_id or 0, *renamed, post.created)
        if not any(self.identities.stranger(game, post) for game in games):
            return replaced
        self.learn_names(post.created)  # the real accounts' names now
        strangers = [game for game in games if self.identities.stranger(game, post)]
        for game in strangers:
            self._stranger(game, post)
        return replaced | {game.topic_id for game in strangers}

    def _stranger(self, game: GameRuntime, post: ForumPost) -> None:
        """Someone who is none of the game's posted under one of its names: nothing of theirs
        counts; a seat's old name (an alias) lapses; the Storytellers are told once."""
        log.warning("game %s: post %s by forum user %s under the name %s, which is not theirs in "
                    "this game: ignored", game.setup.name, post.id, post.user_id, post.username)
        self.feeder.feed(game, {"kind": "lapse", "author": post.username, "at": iso(post.created),
                          "raw": post.username})
        holder = self.identities.holder(game, post.username)
        place = game.state.setup.is_storyteller(post.username) or game.state.is_seated(
            post.username)
        raw = later("stranger.md.j2", name=post.username, user_id=post.user_id,
                    holder=holder, current=self.identities.names.get(game.topic_id, {}).get(
                        holder or 0), place=place, pm=post.topic_id != game.topic_id,
                    topic_id=post.topic_id, post_number=post.post_number)
        self.commit_outgoing([game.reactor.note_to_storytellers(
            game.state.setup.storytellers,
            f"stranger:{post.user_id}:{post.username.lower()}", raw)])

    def _rename(self, game: GameRuntime, user_id: int, old: str, new: str,
                at: datetime) -> None:
        log.info("game %s: forum user %s is now called %s", game.setup.name, old, new)
        self.feeder.feed(game, renamed_row(old, new, at))
        self.identities.renamed(game, user_id, new)
        self.router.topics.clear()  # the conversations' participants show the new name

    def _is_bot(self, post: ForumPost) -> bool:
        if self.bot_id is not None and post.user_id is not None:
            return post.user_id == self.bot_id
        return post.username.lower() == self.settings.bot_username.lower()

    def _learn_names_named(self, game: GameRuntime, post: ForumPost,
                           participants: tuple[str, ...] | None = None) -> bool:
        """Learn the seats' names now if the post names someone the game does not know (it
        may be a seat's new name the check has not seen yet); True if it did."""
        try:
            unknown = game.names_someone_unknown(game_input(post), participants)
        except Exception:  # the input itself will say so, quarantined (quarantine.py)
            return False
        if unknown:
            self.learn_names(post.created)
        return unknown

    def _newcomers_known(self, game: GameRuntime, post: ForumPost) -> bool:
        """A Storyteller's `!sub OLD NEW` or `!observer NAME` naming an account that is already
        one of the game's under another name (an observer who renamed a moment ago): the
        renames are followed first, so the command meets the account by what it is (one
        look-up a name the game does not know); True if they were."""
        if not game.state.setup.is_storyteller(post.username):
            return False
        try:
            named = newcomers_named(post.raw, game.state)
        except Exception:  # the input itself will say so, quarantined (quarantine.py)
            return False
        for name in named:
            if self.identities.holder(game, name) is not None:
                continue  # a name the game's places go or went by
            try:
                user = self.client.account(name)
            except ForumError:  # NotFound too: a name no one holds is the command's to refuse
                continue
            if self.identities.is_bound(game, user.id):
                self.learn_names(post.created)
                return True
        return False


def renamed_row(old: str, new: str, at: datetime) -> dict[str, Any]:
    """The input row of a rename the forum showed (as runtime.py stores it)."""
    return {"kind": "rename", "author": new, "at": iso(at), "raw": old}

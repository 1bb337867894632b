"""Theory of operation: which game a private message belongs to, and whether the bot should
read it at all.

An admin bot sees every PM on the site, so a PM counts only when:
- its author is a Storyteller of a game and the bot takes part in the conversation (commands);
- or its author is seated in a game and the bot takes part (night commands in their grimoire
  conversation), or other players of that game take part (a whisper to check).
A person in several games run by one bot names the game with a `game: NAME` line (a game's
name or topic id); without it nothing runs and they are asked which game (`Ask`).

The participants of a conversation are asked once per topic (`/t/ID.json`) and remembered, by
user id: who takes part is decided by id (the bot, the game's seats and Storytellers as bound
by identities.py), never by a name someone else may have taken. The author is judged before
routing (handling.py: a stranger under a game's name never gets here as that name). The live
loop and a rebuild from the forum route with the same rules (`route`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...adapters.forum_port import ForumPort
from ...adapters.port import ForumPost
from ...core import GameSetup

GAME_LINE = re.compile(r"^\s*[*_]*game\s*:\s*(.+?)[*_]*\s*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Member:
    """A game a PM may be for: its set-up, and who sits in it now (after substitutions)."""
    setup: GameSetup
    seated: frozenset[str]  # lower-case names
    topic_id: int
    seated_ids: frozenset[int] = frozenset()  # their user ids (a game not started: none)
    staff_ids: frozenset[int] = frozenset()  # the Storytellers' and the bot's

    def is_in(self, author: str) -> bool:
        return self.setup.is_storyteller(author) or author.lower() in self.seated


@dataclass(frozen=True)
class Ask:
    """A PM from someone in several games that names none: ask, run nothing."""
    games: tuple[str, ...]


def named_game(games: list[Member], raw: str) -> list[Member]:
    """The games a PM may be for: with a `game: NAME` line, that one (none if it names
    another); without, every game the author is in."""
    if len(games) < 2:
        return games
    line = GAME_LINE.search(raw)
    if line is None:
        return games
    wanted = line.group(1).strip().casefold()
    return [g for g in games if wanted in (g.setup.name.casefold(), str(g.topic_id))]


class PmRouter:
    def __init__(self, client: ForumPort, bot_username: str) -> None:
        self.client = client
        self.bot = bot_username.lower()
        self.bot_id: int | None = None  # set once the service knows it
        self.topics: dict[int, dict[int, str]] = {}  # PM topic id -> user id -> username

    def route(self, post: ForumPost, games: list[Member]) -> Member | Ask | None:
        """The game this PM is for (None: not for the bot, or for no game)."""
        author = post.username
        if author.lower() == self.bot:
            return None
        staff = [g for g in games if g.setup.is_storyteller(author)]
        candidates = named_game(staff or [g for g in games if g.is_in(author)],
                                post.raw)
        if len(candidates) > 1:
            return Ask(tuple(g.setup.name for g in candidates))
        if not candidates:
            return None
        game = candidates[0]
        if game.setup.is_storyteller(author):
            return game if self.bot_is_in(post.topic_id) else None
        if self.bot_is_in(post.topic_id) or self.others_seated(post.topic_id, game, author, post.user_id):
            return game
        return None  # a player's PM with non-players, seen only because the bot is an admin

    def people(self, topic_id: int) -> dict[int, str]:
        """Who takes part in a PM: user id -> username (lower-case). Asked once per topic."""
        if topic_id not in self.topics:
            details = self.client.topic_by_id(topic_id).get("details", {})
            self.topics[topic_id] = {int(u["id"]): u.get("username", "").lower()
                                     for u in details.get("allowed_users") or []
                                     if u.get("id") is not None}
        return self.topics[topic_id]

    def bot_is_in(self, topic_id: int) -> bool:
        """An admin bot sees every PM on the site: a Storyteller's PM to someone else is not
        addressed to it."""
        people = self.people(topic_id)
        return self.bot_id in people if self.bot_id is not None else self.bot in people.values()

    def others_seated(self, topic_id: int, game: Member, author: str,
                      author_id: int | None = None) -> bool:
        people = self.people(topic_id)
        if game.seated_ids and author_id is not None:
            return bool(set(people) & game.seated_ids - {author_id})
        return bool(set(people.values()) & (game.seated - {author.lower()}))

    def has_players(self, topic_id: int, game: Member) -> bool:
        """Someone other than the bot and the Storytellers takes part (answers to commands then
        go to the Storytellers' own PM)."""
        people = self.people(topic_id)
        if game.staff_ids:
            return bool(set(people) - game.staff_ids - ({self.bot_id} if self.bot_id else set()))
        staff = {self.bot, *(s.lower() for s in game.setup.storytellers)}
        return bool(set(people.values()) - staff)


def member(game: Any, identities: Any) -> Member:
    """A running game (a `GameRuntime`), as seated now, by name and by id (its
    `Identities`; neither imported: both import this module)."""
    seated = frozenset(s.name.lower() for s in game.state.seats)
    staff = [*game.state.setup.storytellers, game.state.setup.bot_username]
    return Member(game.state.setup, seated, game.topic_id,
                  frozenset(identities.ids_of(game, seated)),
                  frozenset(identities.ids_of(game, staff)))


def waiting_member(setup: GameSetup) -> Member:
    """A configured game not running yet, as seated in its game file."""
    return Member(setup, frozenset(s.name.lower() for s in setup.seats), setup.topic_id or 0)

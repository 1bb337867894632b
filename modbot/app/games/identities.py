"""Theory of operation: a forum user is a user id; a username is a name that can change.

Discourse lets a user (or staff) rename an account at any time, frees the old name at once
(anyone may register it) and rewrites the old name in old posts (app/services/
username_changer.rb); the id stays. So every place of a game (each seat, Storyteller, backup,
and the bot) is bound to a user id BEFORE the game starts, and never re-bound by name after:

- `bind` takes the ids the game file gives (seats' `user_id`, `storyteller_ids`,
  `backup_ids`, `bot_id`), else those the store kept for this game (a cursor row
  `bound:TOPIC:NAME` per name as the game file wrote it), and follows the renames the game has
  folded since to each id's name now;
- a name still unbound is looked up once, `GET /u/NAME.json` (`look_up`; Discourse has no
  request that turns many names into ids: its mention check, deal_guard.py, says only which
  exist), before the game's first read; a game whose names do not all resolve does not start.
  A running game that was never bound (an upgrade) is bound the same way once, and its
  Storytellers are shown the result (service.py `_bind`);
- a seat `!sub` gave someone, and an observer `!observer` added, is bound when folded
  (`bind_substitutes`).

Every post and PM is then judged by its author's id: a bound id is that place, whatever name
it posts under now (`renamed_author`: a rename, which the service follows first); an id that
is none of the game's, posting under a name one of the game's places goes, went or could not
be bound by, is a `stranger` (the service learns the real accounts' names before anything
else, and never hands the name's place to the stranger). Renames are also looked for without waiting for a post: every
`check_seconds`, one `GET /user-cards.json?user_ids=…` (Discourse's UsersController#cards: up
to 50 users by id in one request) for every bound id (`renames`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ...adapters.forum import ConfigurationError, NotFound
from ...adapters.forum_port import ForumPort
from ...adapters.outgoing import Batch
from ...adapters.port import ForumPost, ForumUser
from ...adapters.store_port import IdentityStore
from ...core import GameSetup, observers_of

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .runtime import GameRuntime

log = logging.getLogger("modbot.app.games.identities")
CARDS = 50  # user ids per /user-cards.json request (Discourse's limit)
LEGACY = "user_id:"  # what builds before the binding kept: the id first seen under a name


def bound_cursor(topic_id: int, name: str) -> str:
    return f"bound:{topic_id}:{name.lower()}"


def places(setup: GameSetup) -> list[str]:
    """Every name of a game's file that is a place: seats, Storytellers, backups, the bot."""
    names = [s.name for s in setup.seats] + list(setup.storytellers) + list(setup.backups)
    return list(dict.fromkeys([*names, setup.bot_username]))


@dataclass(frozen=True)
class Binding:
    """One game's places by id: each id's name now, and every name each id went by."""

    names: dict[int, str]  # user id -> its name in the game now
    went_by: dict[str, int]  # every name (lower) a bound id had in the game -> that id
    unbound: tuple[str, ...]  # file names with no id (the game cannot start with any)


def bot_account(client: ForumPort, setups: list[GameSetup], name: str) -> ForumUser:
    """The bot's own account, never found by a name someone else may hold: by the id the
    game files give (`bot_id`), or as the key's own session (a User API key is its
    account's); an admin's key with no id given acts as the configured name until the id
    is known (then by id: `ForumClient.api_user_id`)."""
    given = {user_id for s in setups for n, user_id in s.user_ids
             if n.casefold() == name.casefold()}
    if len(given) > 1:
        raise ConfigurationError(f"the game files give the bot {name!r} several ids "
                                 f"({', '.join(map(str, sorted(given)))}): give one")
    if given and client.user_api_client_id is None:
        client.api_user_id = next(iter(given))
    if given or client.user_api_client_id is not None:
        me = ForumUser.from_json(client.current_user())
        if given and me.id not in given:
            raise ConfigurationError(f"the key acts as forum account {me.id} ({me.username}), "
                                     f"not the bot's ({next(iter(given))}): use the bot's key")
        return me
    try:
        return client.account(name)
    except NotFound as exc:
        raise ConfigurationError(f"the bot account {name!r} does not exist on the "
                                 "forum") from exc


def renames_of(game: GameRuntime) -> list[tuple[str, str]]:
    """The (old, new) renames the game folded, in order."""
    return [(value[0], value[1]) for kind, value, _ in game.inputs if kind == "rename"]


class Identities:
    def __init__(self, client: ForumPort, store: IdentityStore, check_seconds: float = 600) -> None:
        self.client = client
        self.store = store
        self.check_seconds = check_seconds
        self.last_check: datetime | None = None  # forum time (a rehearsal's clock keeps pace)
        self.games: dict[int, Binding] = {}

    @property
    def names(self) -> dict[int, dict[int, str]]:
        """topic id -> user id -> name in the game now."""
        return {topic: binding.names for topic, binding in self.games.items()}

    # -- binding, before the game starts ----------------------------------------------------

    def filed_ids(self, setup: GameSetup, topic_id: int) -> dict[str, int]:
        """{file name (lower): id} from the game file, then from what the store kept."""
        given = {name.lower(): user_id for name, user_id in setup.user_ids}
        kept = self.store.cursors_with(f"bound:{topic_id}:")
        for name in places(setup):
            key = name.lower()
            if key not in given and bound_cursor(topic_id, name) in kept:
                given[key] = kept[bound_cursor(topic_id, name)]
        return given

    def look_up(self, topic_id: int, names: list[str], legacy: bool = False) -> dict[str, int | None]:
        """Each name's forum user id now (None: no one is called that), kept for this game.
        With `legacy`, an id an earlier build saw under the name is taken first (an upgrade:
        the id of the first post read under it, before any rename)."""
        found: dict[str, int | None] = {}
        for name in names:
            user_id = self.store.cursor(LEGACY + name.lower()) if legacy else None
            if user_id is None:
                try:
                    user_id = self.client.account(name).id
                except NotFound:
                    log.warning("no forum user is called %s: that place stays unbound", name)
                    found[name] = None
                    continue
            found[name] = user_id
            self.store.commit(Batch(cursors={bound_cursor(topic_id, name): user_id}))
        return found

    def bind(self, game: GameRuntime) -> Binding:
        """Bind a game's places (file names) to their ids and follow its folded renames."""
        ids = self.filed_ids(game.setup, game.topic_id)
        names = {user_id: file_name for file_name in places(game.setup)
                 if (user_id := ids.get(file_name.lower())) is not None}
        went_by = {name.lower(): user_id for user_id, name in names.items()}
        for old, new in renames_of(game):
            for user_id, name in list(names.items()):
                if name.lower() == old.lower():
                    names[user_id] = new
                    went_by[new.lower()] = user_id
        self.bind_substitutes(game, names, went_by)
        unbound = tuple(n for n in places(game.setup) if n.lower() not in ids)
        binding = Binding(names, went_by, unbound)
        self.games[game.topic_id] = binding
        return binding

    def bind_substitutes(self, game: GameRuntime, names: dict[int, str] | None = None,
                         went_by: dict[str, int] | None = None) -> list[str]:
        """A seat the game gave someone after its start (`!sub`), or an observer (`!observer`):
        bound to the id the game file gave that name (a backup's), else the one the store kept
        for it when it was folded, else looked up now (the name the Storyteller just typed);
        an observer's id is kept as one that watched the grimoire (`seated_observers`).
        Returns the names it could not bind."""
        binding = self.games.get(game.topic_id)
        names = names if names is not None else binding.names if binding else {}
        went_by = went_by if went_by is not None else binding.went_by if binding else {}
        given = {n.lower(): i for n, i in game.state.setup.user_ids}
        filed = {n.lower() for n in places(game.setup)}  # bound, or `unbound`, already
        missing = []
        for name in (*(seat.name for seat in game.state.seats), *observers_of(game.state)):
            key = name.lower()
            if key in went_by or key in filed:
                continue
            user_id = given.get(key) or self.store.cursor(bound_cursor(game.topic_id, name))
            if user_id is None:  # looked up now (`look_up` keeps it)
                user_id = self.look_up(game.topic_id, [name]).get(name)
            else:
                self.store.commit(Batch(cursors={bound_cursor(game.topic_id, name): user_id}))
            if user_id is None:
                missing.append(name)
                continue
            names[user_id] = name
            went_by[key] = user_id
        watched = {f"watched:{game.topic_id}:{went_by[o.lower()]}": 1
                   for o in observers_of(game.state) if o.lower() in went_by}
        if watched.keys() - self.store.cursors_with(f"watched:{game.topic_id}:").keys():
            self.store.commit(Batch(cursors=watched))  # kept: an observer can never play here
        return missing

    def seated_observers(self, game: GameRuntime) -> list[str]:
        """The game file's seats and backups whose accounts watched its grimoire (`!observer`):
        the game does not start with any (service.py)."""
        watched = {int(k.rsplit(":", 1)[1]) for k in self.store.cursors_with(f"watched:{game.topic_id}:")}
        binding = self.games.get(game.topic_id)
        went_by = binding.went_by if binding else {}
        return [n for n in (*(s.name for s in game.setup.seats), *game.setup.backups)
                if went_by.get(n.lower()) in watched]

    # -- judging a post by its author's id --------------------------------------------------

    def renamed_author(self, game: GameRuntime, post: ForumPost) -> tuple[str, str] | None:
        """(old, new) when the post's author is bound to this game under another name."""
        binding = self.games.get(game.topic_id)
        name = binding.names.get(post.user_id or 0) if binding else None
        if name is None or name.lower() == post.username.lower():
            return None
        return name, post.username

    def is_bound(self, game: GameRuntime, user_id: int | None) -> bool:
        binding = self.games.get(game.topic_id)
        return bool(binding and user_id and user_id in binding.names)

    def stranger(self, game: GameRuntime, post: ForumPost) -> bool:
        """The post's author is none of the game's places (by id), yet goes by a name one of
        them goes by now, went by, or that the game cannot bind: never that place."""
        binding = self.games.get(game.topic_id)
        if binding is None or self.is_bound(game, post.user_id):
            return False
        name = post.username.lower()
        current = {n.lower() for n in binding.names.values()}
        current |= {n.lower() for n in binding.unbound}
        current |= {s.name.lower() for s in game.state.seats}
        current |= {s.lower() for s in game.state.setup.storytellers}
        return name in current or name in binding.went_by

    def replaced(self, game: GameRuntime, user_id: int | None) -> bool:
        """The account held a seat someone else took (`!sub`), and holds no place of the game
        now: nothing it posts counts in this game (the substitution is a fact of the game)."""
        binding = self.games.get(game.topic_id)
        if binding is None or user_id is None:
            return False
        state = game.state
        gone = {binding.went_by.get(old.lower()) for old, _new, _at in state.substitutions}
        holding = {binding.went_by.get(s.name.lower()) for s in state.seats}
        holding |= {binding.went_by.get(n.lower()) for n in state.setup.storytellers}
        holding |= {binding.went_by.get(n.lower()) for n in observers_of(state)}
        return user_id in gone and user_id not in holding

    def holder(self, game: GameRuntime, name: str) -> int | None:
        """The id bound to a name the game's places go or went by."""
        binding = self.games.get(game.topic_id)
        return binding.went_by.get(name.lower()) if binding else None

    def ids_of(self, game: GameRuntime, names: Iterable[str]) -> set[int]:
        return {i for n in names if (i := self.holder(game, n)) is not None}

    # -- renames ----------------------------------------------------------------------------

    def renamed(self, game: GameRuntime, user_id: int, new: str) -> None:
        binding = self.games.get(game.topic_id)
        if binding is not None:
            binding.names[user_id] = new
            binding.went_by[new.lower()] = user_id

    def due(self, now: datetime) -> bool:
        if self.last_check is None or now < self.last_check:
            self.last_check = now  # the first cycle: the names were just bound
            return False
        return self.check_seconds > 0 and (now - self.last_check).total_seconds() >= \
            self.check_seconds

    def current_names(self, ids: Iterable[int]) -> dict[int, str]:
        """Each of these users' username now, by id (one request per 50 users)."""
        ids = sorted(set(ids))
        current: dict[int, str] = {}
        for start in range(0, len(ids), CARDS):
            for user in self.client.users_by_ids(ids[start:start + CARDS]):
                current[user.id] = user.username
        return current

    def renames(self, now: datetime, also: tuple[int, ...] = ()) -> dict[int, str]:
        """Every bound user's current username (and `also`'s: the bot's), by id."""
        self.last_check = now
        return self.current_names({i for b in self.games.values() for i in b.names} | set(also))

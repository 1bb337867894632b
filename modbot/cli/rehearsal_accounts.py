"""Theory of operation: the sandbox's accounts for a rehearsal, as a real forum has them.

The bot and the Storytellers are moderators (`_staff`), the players regular accounts; each but
the bot gets a single-user API key of its own (returned by name), so the shared admin budget is
the bot's alone (`game_accounts`; a game still in sign-ups gets `players_max` placeholder
players to sign up with, `signup_accounts`). A rehearsal made the accounts, so it knows their
ids (`bound`: the set-up as `modbot check` would write it). The bot on its own User API key
gets it granted as `modbot login` does on a real forum (`bot_key_client`).
"""

from __future__ import annotations

import dataclasses

from ..adapters.forum import ForumClient
from ..adapters.user_key import APPLICATION, SCOPES
from ..app.games.identities import places
from ..core import GameSetup
from ..files.signupfile import SignupSetup
from ..sandbox.forum import Forum
from ..sandbox.server import SandboxServer


def game_accounts(forum: Forum, setup: GameSetup) -> dict[str, str]:
    """Every account the game names: the bot and the Storytellers as moderators, the players;
    each but the bot with a single-user API key of its own (returned by name), as on a real
    forum, so the shared admin budget is the bot's alone."""
    staff = _staff(forum, [setup.bot_username, *setup.storytellers])
    for seat in setup.seats:
        if forum.user(seat.name) is None:
            forum.add_user(seat.name)
    return {name: forum.new_user_key(name) for name in [*staff, *(s.name for s in setup.seats)]
            if name != setup.bot_username}


def _staff(forum: Forum, names: list[str]) -> list[str]:
    """The bot and the Storytellers as moderators (one of two rehearsed games made once)."""
    for name in names:
        user = forum.user(name)
        if user is None:
            forum.add_user(name, moderator=True, trust_level=4)
        else:
            user.moderator, user.trust_level = True, max(user.trust_level, 4)
    return names


SIGNUP_PLAYERS = "Player{:02d}"  # the accounts a sign-up rehearsal makes to sign up with


def signup_accounts(forum: Forum, signups: SignupSetup) -> dict[str, str]:
    """A game file before its seats (sign-ups): the bot and the Storytellers as moderators,
    and `players_max` players (Player01, Player02, ...) to sign up with; keys by name, as
    `game_accounts`."""
    staff = _staff(forum, [signups.bot, *signups.storytellers])
    players = [SIGNUP_PLAYERS.format(n) for n in range(1, signups.players_max + 1)]
    for name in players:
        if forum.user(name) is None:
            forum.add_user(name)
    return {name: forum.new_user_key(name) for name in [*staff, *players]
            if name != signups.bot}


def bound(forum: Forum, setup: GameSetup) -> GameSetup:
    """The set-up with every place's forum user id, as `modbot check` writes them into a game
    file: a rehearsal made the accounts, so it knows them (no look-up at the start)."""
    given = {name.lower() for name, _ in setup.user_ids}
    ids = [(name, user.id) for name in places(setup)
           if name.lower() not in given and (user := forum.user(name)) is not None]
    return dataclasses.replace(setup, user_ids=(*setup.user_ids, *ids))


def bot_key_client(server: SandboxServer, username: str, client_id: str,
                   timeout: float = 10.0) -> ForumClient:
    """The bot's client on its own User API key, granted by the sandbox as `modbot login`
    gets it on a real forum."""
    granted = server.user_keys.grant(server.forum.account(username), {
        "client_id": client_id, "application_name": APPLICATION, "scopes": ",".join(SCOPES)})
    return ForumClient(server.url, username, granted.key, timeout=timeout,
                       user_api_client_id=granted.client_id)


__all__ = ["SIGNUP_PLAYERS", "bot_key_client", "bound", "game_accounts", "signup_accounts"]

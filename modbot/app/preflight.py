"""Theory of operation: `modbot check`, everything a live game needs, checked before it starts.

For the configuration and each game file it names: the forum answers; the API key works and
belongs to the configured bot account; the account is staff (or what a non-staff one costs);
each game topic exists, is a regular topic (not a private message), open and not archived;
every seated player and every Storyteller is a forum user (a near miss gets "did you mean
NAME?", from the forum's own user search) who can receive and send private messages; the game
files and their scripts load. Each problem is one line in words a host can act on; notes
(not problems) say what a choice costs. Nothing here changes the forum.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from ..adapters.forum import ConfigurationError, ForumClient, ForumError, NotFound, PermanentError
from ..core import GameSetup
from ..files.gamefile import GameFileError, load_game

MIN_TRUST_FOR_PMS = 1  # Discourse's default min_trust_to_send_messages


@dataclass
class Findings:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return not self.problems


def preflight(client: ForumClient, username: str, game_files: list[str],
              key_kind: str = "admin") -> Findings:
    found = Findings()
    if not _account(client, username, found, key_kind):
        return found  # without a working key, nothing else can be asked
    for path in game_files:
        try:
            setup = load_game(path)
        except GameFileError as exc:
            found.problems.append(str(exc))
            continue
        _game(client, username, setup, found)
    return found


def _account(client: ForumClient, username: str, found: Findings, key_kind: str) -> bool:
    try:
        me = client.current_user()
    except (ConfigurationError, PermanentError) as exc:
        if exc.status not in (401, 403):
            found.problems.append(f"the forum at {client.host} is not a Discourse answering "
                                  f"the API ({exc}): check forum.url")
            return False
        if key_kind == "user":
            found.problems.append(f"the User API key of {username!r} was revoked or is unknown "
                                  f"to the forum ({exc}): run `modbot login` again")
            return False
        found.problems.append(f"the API key does not work for {username!r} ({exc}): create a "
                              "single-user key for that account, or an All Users key")
        return False
    except ForumError as exc:
        found.problems.append(f"the forum at {client.host} does not answer ({exc}): check "
                              "forum.url")
        return False
    if me["username"].casefold() != username.casefold():
        found.problems.append(f"the API key belongs to {me['username']!r}, not to {username!r}:"
                              " set forum.username, or use that account's key")
        return False
    staff = bool(me.get("admin") or me.get("moderator"))
    found.notes.append(_key_note(username, key_kind, staff, me.get("trust_level")))
    if not staff:
        gap = 30 if me.get("trust_level") == 0 else 5
        found.notes.append(f"{username} is not staff: PMs need its trust level, posts wait "
                           f"{gap} s each and new topics 15 s (a deal of 15 role PMs takes "
                           "minutes), at most 20 new private conversations a day (the rest "
                           "wait for the next day), a fourth post in a row in a thread it did "
                           "not open joins its last post, and the topic cannot be closed at "
                           "night; make it a moderator to avoid this")
    return True


def _key_note(username: str, key_kind: str, staff: bool, trust_level) -> str:
    who = f"{username} ({'staff' if staff else f'trust level {trust_level}'})"
    if key_kind == "user":
        return (f"key: {who}'s own User API key (`modbot login`): 20 requests a minute and "
                "2,880 a day for this key (max_user_api_reqs_per_minute and _per_day), shared "
                "with no other bot")
    return (f"key: an admin's API key acting as {who}: every admin key of the site shares "
            "one budget (60 requests a minute by default)")


def _game(client: ForumClient, username: str, setup: GameSetup, found: Findings) -> None:
    where = f"game {setup.name!r}"
    if any(username.casefold() == s.casefold() for s in setup.storytellers):
        found.problems.append(f"{where}: the bot's account {username!r} is also a Storyteller: "
                              "give the bot an account of its own")
    if setup.bot_username.casefold() != username.casefold():
        found.problems.append(f"{where}: game.bot_username is {setup.bot_username!r} but the "
                              f"bot runs as {username!r}: make them the same")
    _topic(client, setup, where, found)
    named = _user_ids(client, setup, where, found)
    for number, seat in enumerate(setup.seats, 1):
        _user(client, named.get(seat.name, seat.name), f"{where}: seat {number}", found,
              "fix the seat's player in the game file, or !sub OLD NEW once the game runs")
    for storyteller in setup.storytellers:
        _user(client, storyteller, f"{where}: Storyteller", found,
              "fix game.storytellers in the game file")


def _user_ids(client: ForumClient, setup: GameSetup, where: str, found: Findings) -> dict:
    """The seats whose game file gives a `user_id`: that account (one request for all, by id),
    which the seat follows whatever its name; {seat name: the account's name now}."""
    given = dict(setup.user_ids)
    if not given:
        return {}
    try:
        users = {u.id: u.username for u in client.users_by_ids(sorted(given.values()))}
    except ForumError as exc:
        found.problems.append(f"{where}: the seats' user ids could not be looked up ({exc})")
        return {}
    named = {}
    for number, seat in enumerate(setup.seats, 1):
        user_id = given.get(seat.name)
        if user_id is None:
            continue
        if user_id not in users:
            found.problems.append(f"{where}: seat {number} ({seat.name}): no forum user has id "
                                  f"{user_id}: fix the seat's user_id, or leave it out")
            continue
        named[seat.name] = users[user_id]
        if users[user_id].casefold() != seat.name.casefold():
            found.notes.append(f"{where}: seat {number} ({seat.name}): user id {user_id} is "
                               f"called {users[user_id]} on the forum now; the seat follows the "
                               "account (write that name as its player to match)")
    return named


def _topic(client: ForumClient, setup: GameSetup, where: str, found: Findings) -> None:
    if setup.topic_id is None:  # the README's order: check, then open the thread
        found.notes.append(f"{where}: no game thread yet: `modbot game new` opens it and writes "
                           "its topic_id into the game file (`modbot run` needs it)")
        return
    try:
        topic = client.topic_by_id(setup.topic_id)
    except NotFound:
        found.problems.append(f"{where}: topic {setup.topic_id} does not exist (or the bot "
                              "cannot see it): check game.topic_id")
        return
    except ForumError as exc:
        found.problems.append(f"{where}: topic {setup.topic_id} could not be read ({exc})")
        return
    if topic.get("archetype") == "private_message":
        found.problems.append(f"{where}: topic {setup.topic_id} is a private message, not a "
                              "public topic: use the game thread's id")
    if topic.get("closed") or topic.get("archived"):
        state = "archived" if topic.get("archived") else "closed"
        found.problems.append(f"{where}: topic {setup.topic_id} is {state}: open it first")


def _user(client: ForumClient, name: str, where: str, found: Findings, fix: str) -> None:
    try:
        user = client.user(name)
    except NotFound:
        near = near_misses(client, name)
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        found.problems.append(f"{where}: no forum user is called {name!r}{hint}: {fix}")
        return
    except ForumError as exc:
        found.problems.append(f"{where}: {name!r} could not be looked up ({exc})")
        return
    if (user.get("trust_level") or 0) < MIN_TRUST_FOR_PMS:
        found.problems.append(f"{where}: {name} has trust level {user.get('trust_level')} and "
                              f"cannot send private messages (needs {MIN_TRUST_FOR_PMS}): "
                              "raise it, or lower min_trust_to_send_messages")
    if user.get("can_send_private_message_to_user") is False:
        found.problems.append(f"{where}: {name} does not accept private messages from the bot: "
                              "they must allow them in their preferences")


def near_misses(client: ForumClient, name: str) -> list[str]:
    """Forum usernames close to `name`, from the forum's user search (the first letters)."""
    try:
        users = client.search_users(name[:3])
    except ForumError:
        return []
    return difflib.get_close_matches(name, [u["username"] for u in users], n=2, cutoff=0.6)

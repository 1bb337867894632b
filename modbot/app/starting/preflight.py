"""Theory of operation: `modbot check`, everything a live game needs, checked before it starts.

For the configuration and each game file it names: the forum answers; the API key works and
belongs to the configured bot account; the account is staff (or what a non-staff one costs),
and may post in public (not silenced);
each game topic exists, is a regular topic (not a private message), open and not archived;
every place (seat, Storyteller, backup) is a forum account (a near miss gets "did you mean
NAME?", from the forum's own user search) who can receive and send private messages; the game
files and their scripts load. Each problem is one line in words a host can act on; notes
(not problems) say what a choice costs. Nothing here changes the forum.

It binds the places to their accounts, in as few requests as Discourse allows: the places
every game file gives an id are asked together by id (`GET /user-cards.json`, 50 a request,
for all the games at once); each other name once, whatever games it is in (`GET
/u/NAME.json`: Discourse turns no list of names into ids), and its id is returned in
`Findings.bound` (with the bot's own, from the key's session) and handed to `on_bound` as
each game is done, for `modbot check` to write into the game file as it goes (so an
interrupted check resumes with what it bound: the next one asks those by id), and the game
starts bound (app/games/identities.py). Every request goes through an `Asker` (asking.py): a 429 or
the key's own budget is waited out, and the check goes on; only a daemon running on the same
key's database stops it, with one line (`KeyBusy`), instead of every name reported as not
found.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...adapters.forum import ConfigurationError, CredentialsRejected, ForumError, NotFound, PermanentError
from ...adapters.forum_port import ForumPort
from ...adapters.write_limits import edits_per_day
from ...core import GameSetup, who_runs
from ...files.gamefile import load_game
from ...files.lines import GameFileError
from ...files.signupfile import SignupSetup, load_signups
from ..posting.catalogue import words
from .asking import Asker, KeyBusy

MIN_TRUST_FOR_PMS = 1  # Discourse's default min_trust_to_send_messages
PMS_A_DAY = 20  # Discourse's max_personal_messages_per_day (regular accounts)
CARDS = 50  # user ids a /user-cards.json request (UsersController#cards)


@dataclass
class Findings:
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    bound: dict[str, dict[str, int]] = field(default_factory=dict)  # game file -> name -> id
    bot_id: int | None = None
    staff: bool = True  # the bot's account (so Discourse's limits for regular users spare it)
    edits_a_day: int | None = None  # its new versions a day (None: staff)
    may_post: bool = True  # its session lets it post in public (not silenced)

    @property
    def ready(self) -> bool:
        return not self.problems


def preflight(client: ForumPort, username: str, game_files: list[str],
              key_kind: str = "admin", *, asker: Asker | None = None,
              on_bound: Callable[[str, dict[str, int]], None] | None = None) -> Findings:
    found = Findings()
    ask = asker or Asker()
    try:
        if not _account(client, ask, username, found, key_kind):
            return found  # without a working key, nothing else can be asked
        loaded = _load(game_files, found)
        _plan(ask, loaded)
        cards = _cards(client, ask, sorted({i for _, s in loaded if s is not None
                                            for _, i in s.user_ids}), found)
        users: dict[str, dict[str, Any] | None] = {}  # each name looked up once, whatever its games
        for path, setup in loaded:
            if setup is None:  # before its seats: the file runs sign-ups
                found.bound[path] = _signups(client, ask, load_signups(path), found, users)
            else:
                found.bound[path] = _game(client, ask, username, setup, found, cards, users)
            if on_bound is not None:
                on_bound(path, found.bound[path])  # written as it goes: a check resumes
    except KeyBusy as busy:
        found.problems.append(
            f"the forum refuses this key more requests for now (429, for {busy.retry_after:.0f} s),"
            " and `modbot run` is running on this configuration's database, using the same key:"
            " run `modbot check` again while the daemon is stopped (or later: what it bound so"
            " far is written)")
    return found


def _load(game_files: list[str], found: Findings) -> list[tuple[str, GameSetup | None]]:
    """Each game file that loads (None: one before its seats, which runs sign-ups)."""
    loaded: list[tuple[str, GameSetup | None]] = []
    for path in game_files:
        try:
            loaded.append((path, load_game(path) if load_signups(path).seated else None))
        except GameFileError as exc:
            found.problems.append(str(exc))
            continue
        setup = loaded[-1][1]
        if setup is not None and setup.script is not None:
            found.notes.append(f"{path}: {words(who_runs(setup.script))}")
    return loaded


def _plan(ask: Asker, loaded: list[tuple[str, GameSetup | None]]) -> None:
    """What the check has to ask, for its progress: a topic a game, the ids 50 a request, and
    each name without an id once."""
    if ask.progress is None:
        return
    ids = {i for _, s in loaded if s is not None for _, i in s.user_ids}
    named: set[str] = set()
    for _, setup in loaded:
        if setup is not None:
            given = {n.casefold() for n, _ in setup.user_ids}
            named |= {n.casefold() for _, n, _ in _places(setup) if n.casefold() not in given}
    topics = sum(1 for _, s in loaded if s is None or s.topic_id is not None)
    ask.progress.plan(topics + -(-len(ids) // CARDS) + len(named),
                      f"{len(loaded)} game file(s), {len(named)} name(s) to look up")


def _account(client: ForumPort, ask: Asker, username: str, found: Findings,
             key_kind: str) -> bool:
    try:
        me = ask.ask(client.current_user)
    except (ConfigurationError, CredentialsRejected, PermanentError) as exc:
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
    found.bot_id = int(me["id"]) if me.get("id") is not None else None
    if me["username"].casefold() != username.casefold():
        found.problems.append(f"the API key belongs to {me['username']!r}, not to {username!r}:"
                              " set forum.username, or use that account's key")
        return False
    staff = bool(me.get("admin") or me.get("moderator"))
    found.staff, found.edits_a_day = staff, edits_per_day(staff, me.get("trust_level"))
    found.notes.append(_key_note(username, key_kind, staff, me.get("trust_level")))
    if not staff and me.get("can_create_topic") is False:
        found.may_post = False
        found.problems.append(f"the forum does not let {username} post in public topics (its "
                              "session says it cannot create topics: a moderator silenced it, "
                              "or the site's create_topic_allowed_groups leaves it out): "
                              "unsilence it, or make it a moderator")
    if not staff:
        gap = 30 if me.get("trust_level") == 0 else 5
        more = "; trust level 2 allows half as many again" \
            if (me.get("trust_level") or 0) < 2 else ""
        found.notes.append(f"{username} is not staff: PMs need its trust level, posts wait "
                           f"{gap} s each and new topics 15 s (a deal of 15 role PMs takes "
                           "minutes), at most 20 new private conversations a day (the rest "
                           "wait for the next day), a fourth post in a row in a thread it did "
                           f"not open joins its last post, {found.edits_a_day} edits a day "
                           "(running counts and sign-up lists past the day's plan become new "
                           f"posts{more}), slow mode on a game thread holds its posts to the "
                           "thread's pace, the topic cannot be closed at night, and a moderator may "
                           "silence it (its public posts then wait); make it a moderator to "
                           "avoid this")
    return True


def _key_note(username: str, key_kind: str, staff: bool, trust_level: int | None) -> str:
    who = f"{username} ({'staff' if staff else f'trust level {trust_level}'})"
    if key_kind == "user":
        return (f"key: {who}'s own User API key (`modbot login`): 20 requests a minute and "
                "2,880 a day for this key (max_user_api_reqs_per_minute and _per_day), shared "
                "with no other bot")
    return (f"key: an admin's API key acting as {who}: every admin key of the site shares "
            "one budget (60 requests a minute by default)")


def _game(client: ForumPort, ask: Asker, username: str, setup: GameSetup, found: Findings,
          cards: dict[int, dict[str, Any]], users: dict[str, dict[str, Any] | None]) -> dict[str, Any]:
    """Check one game; {name: id} of the places it bound by name (and the bot's). `cards`:
    every game's ids, asked before; `users`: the names looked up so far (each once)."""
    where = f"game {setup.name!r}"
    if any(username.casefold() == s.casefold() for s in setup.storytellers):
        found.problems.append(f"{where}: the bot's account {username!r} is also a Storyteller: "
                              "give the bot an account of its own")
    if setup.bot_username.casefold() != username.casefold():
        found.problems.append(f"{where}: game.bot_username is {setup.bot_username!r} but the "
                              f"bot runs as {username!r}: make them the same")
    _topic(client, ask, setup, where, found)
    conversations = len(setup.seats) + 1  # each seat's grimoire PM and the Storytellers'
    if not found.staff and setup.script and conversations > PMS_A_DAY // 2:
        rest = "the rest wait for the next day" if conversations > PMS_A_DAY else \
            "little room is left that day for other notes"
        found.notes.append(f"{where}: the deal opens {conversations} new private conversations "
                           f"of the {PMS_A_DAY} a day a regular account may open: {rest}; "
                           "make the bot a moderator to lift it")
    given = {name.casefold(): user_id for name, user_id in setup.user_ids}
    bound: dict[str, int] = {}
    for label, name, fix in _places(setup):
        if name.casefold() in given:
            user = _by_id(cards, given[name.casefold()], f"{where}: {label} ({name})", found)
            if user is not None and user["username"].casefold() != name.casefold():
                found.notes.append(f"{where}: {label} ({name}): user id {given[name.casefold()]} "
                                   f"is called {user['username']} on the forum now; the place "
                                   "follows the account (write that name to match)")
        else:
            user = _user(client, ask, users, name, f"{where}: {label}", found, fix)
            if user is not None:
                bound[name] = int(user["id"])
        if user is not None:
            _can_message(user, f"{where}: {label}", found)
    if found.bot_id is not None and setup.bot_username.casefold() not in given:
        bound[setup.bot_username] = found.bot_id
    return bound


def _signups(client: ForumPort, ask: Asker, signups: SignupSetup, found: Findings,
             users: dict[str, dict[str, Any] | None]) -> dict[str, int]:
    """A game file before its seats: its Storytellers are forum accounts who can receive PMs,
    its sign-up thread (once opened) exists; the players come from the sign-ups."""
    where = f"{signups.name} (sign-ups)"
    if signups.topic_id is None:
        found.notes.append(f"{where}: no seats yet, no sign-up thread yet: `modbot signups open` "
                           "posts it; `modbot game new --from-signups` seats the players")
    else:
        topic_id = signups.topic_id
        try:
            ask.ask(lambda: client.topic_by_id(topic_id))
        except ForumError as exc:
            found.problems.append(f"{where}: the sign-up thread {signups.topic_id} could not be "
                                  f"read ({exc}): check game.signup_topic_id")
    bound: dict[str, int] = {}
    for name in signups.storytellers:
        user = _user(client, ask, users, name, f"{where}: Storyteller", found,
                     "fix game.storytellers in the game file")
        if user is not None:
            bound[name] = int(user["id"])
            _can_message(user, f"{where}: Storyteller", found)
    if found.bot_id is not None:
        bound[signups.bot] = found.bot_id
    return bound


def _places(setup: GameSetup) -> list[tuple[str, str, str]]:
    """(label, name, how to fix it) of every place of the game but the bot."""
    return [(f"seat {number}", seat.name, "fix the seat's player in the game file, or !sub OLD "
             "NEW once the game runs") for number, seat in enumerate(setup.seats, 1)] + \
        [("Storyteller", name, "fix game.storytellers in the game file")
         for name in setup.storytellers] + \
        [("backup", name, "fix game.backups in the game file") for name in setup.backups]


def _cards(client: ForumPort, ask: Asker, ids: list[int], found: Findings) -> dict[int, dict[str, Any]]:
    """The accounts of these ids (one request a 50), by id."""
    cards: dict[int, dict[str, Any]] = {}
    for start in range(0, len(ids), CARDS):
        chunk = ids[start:start + CARDS]
        try:
            found_users = ask.ask(partial(client.user_cards, chunk))
            cards.update({int(u["id"]): u for u in found_users})
        except ForumError as exc:
            found.problems.append(f"the user ids {chunk[0]}... could not be looked up ({exc})")
    return cards


def _by_id(cards: dict[int, dict[str, Any]], user_id: int, where: str, found: Findings) -> dict[str, Any] | None:
    if user_id not in cards:
        found.problems.append(f"{where}: no forum user has id {user_id}: fix its user id in the "
                              "game file, or leave it out")
        return None
    return cards[user_id]


def _topic(client: ForumPort, ask: Asker, setup: GameSetup, where: str, found: Findings) -> None:
    if setup.topic_id is None:  # the README's order: check, then open the thread
        found.notes.append(f"{where}: no game thread yet: `modbot game new` opens it and writes "
                           "its topic_id into the game file (`modbot run` needs it)")
        return
    topic_id = setup.topic_id
    try:
        topic = ask.ask(lambda: client.topic_by_id(topic_id))
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
    slow = int(topic.get("slow_mode_seconds") or 0)
    if slow and not found.staff:
        found.notes.append(f"{where}: the game thread is in slow mode (one post every "
                           f"{max(1, round(slow / 60))} min for regular accounts): the bot "
                           "(not staff) will post there only at that pace, its queued posts "
                           "joined; turn slow mode off or make the bot a moderator")
    if (topic.get("details") or {}).get("can_create_post") is False and found.may_post and \
            not (topic.get("closed") or topic.get("archived")):
        found.problems.append(f"{where}: the forum does not let the bot post in topic "
                              f"{setup.topic_id} (the category's permissions): let it post there")
    if topic.get("closed") or topic.get("archived"):
        state = "archived" if topic.get("archived") else "closed"
        found.problems.append(f"{where}: topic {setup.topic_id} is {state}: open it first")


def _user(client: ForumPort, ask: Asker, users: dict[str, dict[str, Any] | None], name: str, where: str,
          found: Findings, fix: str) -> dict[str, Any] | None:
    """The account called `name` now (one request, once whatever its games), or None after a
    problem."""
    key = name.casefold()
    if key in users:
        if users[key] is None:
            found.problems.append(f"{where}: no forum user is called {name!r}: {fix}")
        return users[key]
    users[key] = None
    try:
        users[key] = ask.ask(lambda: client.user(name))
    except NotFound:
        near = near_misses(client, name, ask)
        hint = f" (did you mean {' or '.join(near)}?)" if near else ""
        found.problems.append(f"{where}: no forum user is called {name!r}{hint}: {fix}")
    except ForumError as exc:
        found.problems.append(f"{where}: {name!r} could not be looked up ({exc})")
    return users[key]


def _can_message(user: dict[str, Any], where: str, found: Findings) -> None:
    name = user.get("username")
    if (user.get("trust_level") or 0) < MIN_TRUST_FOR_PMS:
        found.problems.append(f"{where}: {name} has trust level {user.get('trust_level')} and "
                              f"cannot send private messages (needs {MIN_TRUST_FOR_PMS}): "
                              "raise it, or lower min_trust_to_send_messages")
    if user.get("can_send_private_message_to_user") is False:
        found.problems.append(f"{where}: {name} does not accept private messages from the bot: "
                              "they must allow them in their preferences")


def near_misses(client: ForumPort, name: str, ask: Asker | None = None) -> list[str]:
    """Forum usernames close to `name`, from the forum's user search (the first letters)."""
    try:
        users = ask.ask(lambda: client.search_users(name[:3])) if ask is not None else \
            client.search_users(name[:3])  # (the daemon's: never waits)
    except ForumError:
        return []
    return difflib.get_close_matches(name, [u["username"] for u in users], n=2, cutoff=0.6)

"""Theory of operation: a sign-up thread, folded into the list of players and backups.

Each post in the sign-up thread is read for its sign-up lines (outside quotes and code, as in
the game thread): `/in`, `/sign` or a line that is just `in` joins; `/out`, `/unsign` or just
`out` leaves; `/backup` joins the backups. In order, by the forum's `created_at`:

- a join while there is room makes a player; when the game is full (`players_max`), a
  backup, told so; joining twice changes nothing;
- a player who leaves makes room: the first backup takes the seat (`promoted`);
- after the closing time (`closes_at`, if any) nothing changes and the post is answered so;
- the Storytellers and the bot do not sign up.

`fold(rules, posts)` gives the `Signups` (the lists, in sign-up order) and what each post did
(`SignupChange` codes, for the bot's list post and its answers). Pure: the posts come in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from .engine import Post
from .reading.textclean import countable_text

JOIN, LEAVE, BACKUP = "in", "out", "backup"
_LINES = {"/in": JOIN, "/sign": JOIN, "in": JOIN, "/out": LEAVE, "/unsign": LEAVE,
          "out": LEAVE, "/backup": BACKUP}


@dataclass(frozen=True, slots=True)
class SignupRules:
    players_max: int
    closes_at: datetime | None = None
    staff: tuple[str, ...] = ()  # the Storytellers and the bot: never signed up


@dataclass(frozen=True, slots=True)
class SignupChange:
    code: str  # joined | full_backup | backup | left | promoted | already | not_signed | closed
    player: str
    post_number: int
    at: datetime


@dataclass(frozen=True, slots=True)
class Signups:
    players: tuple[str, ...] = ()
    backups: tuple[str, ...] = ()
    changes: tuple[SignupChange, ...] = ()


def commands_in(raw: str) -> list[str]:
    """The sign-up commands of a post, in order (a line of its own each)."""
    found = []
    for line in countable_text(raw).split("\n"):
        word = line.strip().strip("*_").strip().rstrip(".!").casefold()
        if word in _LINES:
            found.append(_LINES[word])
    return found


def fold(rules: SignupRules, posts: list[Post]) -> Signups:
    state = Signups()
    for post in sorted(posts, key=lambda p: (p.created_at, p.post_number)):
        state = signed(rules, state, post)
    return state


def signed(rules: SignupRules, state: Signups, post: Post) -> Signups:
    """The lists after one post."""
    if any(post.author.casefold() == s.casefold() for s in rules.staff):
        return state
    for command in commands_in(post.raw):
        if rules.closes_at is not None and post.created_at >= rules.closes_at:
            return _told(state, "closed", post)
        state = _apply(rules, state, command, post)
    return state


def _apply(rules: SignupRules, state: Signups, command: str, post: Post) -> Signups:
    who = _known(state, post.author)
    if command == LEAVE:
        return _leave(state, who, post)
    if who is not None and (who in state.players or command == BACKUP):
        return _told(state, "already", post, who)
    if command == BACKUP or len(state.players) >= rules.players_max:
        if who is not None:  # a backup asking to play, and no room yet
            return _told(state, "already", post, who)
        code = "backup" if command == BACKUP else "full_backup"
        return _told(replace(state, backups=(*state.backups, post.author)), code, post)
    backups = tuple(b for b in state.backups if b != who)  # a backup joining as room opened
    return _told(replace(state, players=(*state.players, post.author), backups=backups),
                 "joined", post)


def _leave(state: Signups, who: str | None, post: Post) -> Signups:
    if who is None:
        return _told(state, "not_signed", post)
    if who in state.backups:
        return _told(replace(state, backups=tuple(b for b in state.backups if b != who)),
                     "left", post, who)
    players = tuple(p for p in state.players if p != who)
    state = _told(replace(state, players=players), "left", post, who)
    if state.backups:
        first, *rest = state.backups
        state = replace(state, players=(*state.players, first), backups=tuple(rest))
        state = _told(state, "promoted", post, first)
    return state


def _known(state: Signups, author: str) -> str | None:
    """The author as the lists spell them (names are compared without case)."""
    return next((n for n in (*state.players, *state.backups)
                 if n.casefold() == author.casefold()), None)


def _told(state: Signups, code: str, post: Post, player: str | None = None) -> Signups:
    change = SignupChange(code, player or post.author, post.post_number, post.created_at)
    return replace(state, changes=(*state.changes, change))

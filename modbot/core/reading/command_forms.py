"""Theory of operation: what a Storyteller's command line is, and how a command is declared.

A `Command` holds a command's name, usage, one-line description, example and argument parser
(`Builder`: the line's words and the roster into its action); reading/commands.py declares the
core's, other features theirs. A parsed line is a `CommandLine` (its action, `--yes` given or
not). The console's own actions are here too: `!help` (`Help`), `!confirm` (`Confirm`), `!log`
(`Log`), `!status` (`Status`), `!undo` (`Undo`), `!accept` (`Accept`) and `!retry` /
`!discard` (`Release`), which console.py and the shell carry out, not the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..state.names import Roster
from ..wording import Say


@dataclass(frozen=True, slots=True)
class Help:
    topic: str | None


@dataclass(frozen=True, slots=True)
class Confirm:
    pass


@dataclass(frozen=True, slots=True)
class Log:
    count: int


@dataclass(frozen=True, slots=True)
class Status:
    pass


@dataclass(frozen=True, slots=True)
class Undo:
    input: int  # the thread's post number (#22), or with `by_id` the forum's id (id:1234)
    by_id: bool = False


@dataclass(frozen=True, slots=True)
class Accept:
    """Count a post the bot held because it reached the thread after a lock, a phase end or a
    deadline it had already applied (moved in by a moderator, made while the thread was
    hidden): the shell replays the game with the post in its place."""
    post_id: int  # the forum's id of the post, as the Storytellers' note names it


@dataclass(frozen=True, slots=True)
class Release:
    """`!retry q3` or `!discard q3`: an input the bot could not handle (quarantined by the
    shell, which numbers them `q1`, `q2`, ... in each game) handled again, or dropped. The
    shell carries it out, alone in its post, whether or not the game is held; the core only
    reads it (and refuses it beside other commands)."""
    number: int
    discard: bool = False


@dataclass(frozen=True, slots=True)
class CommandLine:
    line: str
    action: object
    confirmed: bool = False  # `--yes` given


Builder = Callable[[list[str], Roster], object]  # a command's words into its action


@dataclass(frozen=True)
class Command:
    name: str
    usage: str  # the syntax, as the Storytellers type it
    summary: Say  # what it does (the catalogue's `help` table)
    example: str
    build: Builder


__all__ = ["Accept", "Builder", "Command", "CommandLine", "Confirm", "Help", "Log", "Release",
           "Status", "Undo"]

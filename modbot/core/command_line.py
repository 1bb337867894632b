"""Theory of operation: Storyteller command lines (`!kill Derek --yes`) into staff actions.

Only lines starting with `!` in a post's countable text count (a command quoted from someone
else, or inside code, is not a command). `--yes` at the end of a line confirms a destructive
command in advance. Parsing never raises: a bad line becomes a `Rejection` (its words in the catalogue's
`command` table; `line` among its values). The commands
come from the registry's one table, and `!help` and the Storytellers' guide are generated from
it, so neither can drift from what is accepted.
"""

from __future__ import annotations

import re
from typing import Any

from .reading.command_forms import Command, CommandLine, Confirm
from .reading.textclean import countable_text, unwrapped
from .registry import COMMANDS
from .state.names import Roster
from .state.rejection import Refused, Rejection


def parse_commands(raw: str, roster: Roster) -> list[CommandLine | Rejection]:
    """Every `!` line of the post's countable text, in order."""
    out: list[CommandLine | Rejection] = []
    for line in countable_text(raw).split("\n"):
        line = unwrapped(line.strip())
        if not line.startswith("!") or len(line) < 2 or len(line) > 500:
            continue
        out.append(parse_line(line, roster))
    return out


PLAYERS_COMMANDS = ("!vote", "!unvote")  # a vote form players may write (reading/parser.py)
_COMMAND_LINE = re.compile(r"^\s*[*_]*!", re.MULTILINE)  # a line that may be a command


def storyteller_lines_by(raw: str, roster: Roster) -> bool:
    """A player's post holds `!` lines only a Storyteller may give (ignored, and logged)."""
    return "!" in raw and bool(_COMMAND_LINE.search(raw)) and any(
        not line_of(parsed).lower().startswith(PLAYERS_COMMANDS) for parsed in parse_commands(raw, roster))


def line_of(parsed: CommandLine | Rejection) -> str:
    """The line a command was read from, or could not be."""
    return parsed.line if isinstance(parsed, CommandLine) else str(parsed.params["line"])


def is_lone_confirm(raw: str, roster: Roster) -> bool:
    """The post is a lone `!confirm` (what adopts the new rules' history: app/recovery/upgrade.py)."""
    lines = parse_commands(raw, roster)
    return len(lines) == 1 and isinstance(getattr(lines[0], "action", None), Confirm)


def parse_line(line: str, roster: Roster) -> CommandLine | Rejection:
    words = line[1:].split()
    confirmed = bool(words) and words[-1].lower() == "--yes"
    if confirmed:
        words = words[:-1]
    if not words:
        return unreadable("empty", line)
    command = COMMANDS.get(words[0].lower())
    if command is None:
        return unreadable("unknown", line, name=words[0])
    try:
        return CommandLine(line, command.build(words[1:], roster), confirmed)
    except Refused as refused:
        return unreadable("bad", line, why=refused.rejection.said("command"),
                          usage=command.usage)


def unreadable(code: str, line: str, **params: object) -> Rejection:
    """A line the grammar cannot read: its words are the `command` table's `code`."""
    return Rejection(code, {"line": line, **params})


def listed() -> list[Command]:
    """Every command in the guide's order: the core's, then the other features' by name."""
    return list(COMMANDS.values())


def help_text(topic: str | None = None) -> list[dict[str, Any]]:
    """The help table (all commands, or one), for the templates."""
    chosen = [COMMANDS[topic]] if topic in COMMANDS else listed()
    return [{"usage": c.usage, "summary": c.summary, "example": c.example} for c in chosen]


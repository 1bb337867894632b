"""Theory of operation: Storyteller command lines (`!kill Derek --yes`) into staff actions.

Only lines starting with `!` in a post's countable text count (a command quoted from someone
else, or inside code, is not a command). `--yes` at the end of a line confirms a destructive
command in advance. Parsing never raises: a bad line becomes a `CommandError`. The commands
come from the registry's one table, and `!help` and the Storytellers' guide are generated from
it, so neither can drift from what is accepted.
"""

from __future__ import annotations

import re

from .reading.commands import Command, CommandError, CommandLine, Confirm, _Bad
from .reading.textclean import countable_text, unwrapped
from .registry import COMMANDS
from .state.names import Roster
from .wording import say


def parse_commands(raw: str, roster: Roster) -> list[CommandLine | CommandError]:
    """Every `!` line of the post's countable text, in order."""
    out: list[CommandLine | CommandError] = []
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
    return "!" in raw and bool(_COMMAND_LINE.search(raw)) and any(not line.line.lower().startswith(PLAYERS_COMMANDS)
               for line in parse_commands(raw, roster))


def is_lone_confirm(raw: str, roster: Roster) -> bool:
    """The post is a lone `!confirm` (what adopts the new rules' history: app/upgrade.py)."""
    lines = parse_commands(raw, roster)
    return len(lines) == 1 and isinstance(getattr(lines[0], "action", None), Confirm)


def parse_line(line: str, roster: Roster) -> CommandLine | CommandError:
    words = line[1:].split()
    confirmed = bool(words) and words[-1].lower() == "--yes"
    if confirmed:
        words = words[:-1]
    if not words:
        return CommandError(line, say("command.empty"))
    command = COMMANDS.get(words[0].lower())
    if command is None:
        return CommandError(line, say("command.unknown", name=words[0]))
    try:
        return CommandLine(line, command.build(words[1:], roster), confirmed)
    except _Bad as exc:
        return CommandError(line, say("command.bad", why=exc.said, usage=command.usage))


def listed() -> list[Command]:
    """Every command in the guide's order: the core's, then the other features' by name."""
    return list(COMMANDS.values())


def help_text(topic: str | None = None) -> list[dict]:
    """The help table (all commands, or one), for the templates."""
    chosen = [COMMANDS[topic]] if topic in COMMANDS else listed()
    return [{"usage": c.usage, "summary": c.summary, "example": c.example} for c in chosen]


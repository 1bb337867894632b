"""Theory of operation: text from a file or the forum, shown as data on a terminal.

A name, an id or an error message that came from a script file, a game file or a forum post is
printed to the host's terminal as it is, except that every control character (a newline, an
escape sequence that clears the screen or colours it, a right-to-left override) is written as
its escape (`\\x1b`, `\\n`, `\\u202e`): a one-line message stays one line, and nothing in it
acts on the terminal.
"""

from __future__ import annotations

import unicodedata


def shown(value: object) -> str:
    """`value` as text with its control and format characters escaped."""
    return "".join(_escaped(c) for c in str(value))


def _escaped(char: str) -> str:
    if char == " " or unicodedata.category(char)[0] not in ("C", "Z"):
        return char
    return char.encode("unicode_escape").decode("ascii")


def shown_lines(value: object) -> str:
    """`value` as text with its control characters escaped, but for the newlines the message
    itself has (a multi-line message stays on its lines)."""
    return "\n".join(shown(line) for line in str(value).split("\n"))

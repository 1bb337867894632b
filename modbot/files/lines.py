"""Theory of operation: where a value is in a game file, for errors that name the line.

tomllib reports no line numbers for values, so `Lines` looks for the line of a table header
(`[game]`, the n-th `[[seat]]`) or of a key after it in the text itself, and `error` makes
the `GameFileError` that names the file and that line: `game.toml:12: seat 3 (Cameron): ...`.
"""

from __future__ import annotations

import re


class GameFileError(ValueError):
    """A game file that cannot be used; the message says where and why."""


class Lines:
    """The game file's text, to find the line a key or a table is on."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def _headers(self, pattern: str) -> list[int]:
        regex = re.compile(pattern)
        return [i + 1 for i, line in enumerate(self.lines) if regex.match(line)]

    def seat(self, index: int) -> int | None:
        headers = self._headers(r"^\s*\[\[\s*seat\s*\]\]")
        return headers[index] if index < len(headers) else None

    def key(self, key: str, after: int | None) -> int | None:
        start = after or 0
        regex = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for number in range(start, len(self.lines)):
            if regex.match(self.lines[number]):
                return number + 1
        return after

    def game_key(self, key: str) -> int | None:
        headers = self._headers(r"^\s*\[\s*game\s*\]")
        return self.key(key, headers[0] if headers else None)

    def error(self, line: int | None, message: str) -> GameFileError:
        where = f"{self.path}:{line}" if line else self.path
        return GameFileError(f"{where}: {message}")

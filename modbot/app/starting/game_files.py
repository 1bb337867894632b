"""Theory of operation: the game files a running daemon watches, so a host never restarts it
between the seating and the deal.

The daemon reads each game file at start; a game seated from sign-ups is taken up as
`modbot game new --from-signups` wrote it (signups.py). The host then deals its characters
(`modbot setup GAME.toml --propose --write GAME.toml`, or by hand) while the bot runs. So each
cycle `GameFiles.changed` looks at every game file of the configuration (its modification
time: no request, no read unless it changed) and hands over each one that changed and loads
as a game with seats and a thread; the service sets that game up again from it
(startup.py's `set_up_again`) as a restart would, until the characters are dealt. After the
deal the game goes on as dealt (its grimoire is sealed) and the log says the file's change
was not taken. A file that does not load (a half-written save) is looked at again when it
changes next, said once in the log.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

from ...core import GameSetup
from ...files.gamefile import load_game
from ...files.lines import GameFileError
from ...files.signupfile import in_signups

log = logging.getLogger("modbot.app.starting.game_files")


def _stamp(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


class GameFiles:
    """The configuration's game files, each by when it last changed."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.stamps: dict[str, int | None] = {path: _stamp(path) for path in paths}

    def changed(self) -> list[GameSetup]:
        """The games whose files changed since the last look (seated, with a thread)."""
        out = []
        for path, stamp in self.stamps.items():
            now = _stamp(path)
            if now == stamp:
                continue
            self.stamps[path] = now
            if now is None or in_signups(path) is not None:
                continue
            try:
                setup = load_game(path)
            except GameFileError as exc:
                log.warning("%s changed but does not load (%s): looked at again when it "
                            "changes next", path, exc)
                continue
            if setup.topic_id is not None and setup.seats:
                out.append(setup)
        return out

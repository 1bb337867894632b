"""The game file's old import path, kept for scripts and docs: `modbot.gamefile.load_game`.

The module itself is `modbot.files.gamefile`.
"""

from .files.gamefile import GameFileError, load_game, parse_game

__all__ = ["GameFileError", "load_game", "parse_game"]

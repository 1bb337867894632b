"""Theory of operation: the titles of a game's conversations, in the catalogue's words.

A player's grimoire conversation and the Storytellers' are titled with the game's name (a game
file without one: its topic), so a host in several games tells them apart; `title_forms` gives
how those titles begin and end whoever the player, which a rebuild looks for in the bot's PM
list (rebuild.py).
"""

from __future__ import annotations

from ...core import say
from .catalogue import words


def grimoire_title(player: str, game: str) -> str:
    """The title of a player's grimoire conversation (the catalogue's words)."""
    return words(say("title.grimoire", player=player, game=game))


def storytellers_title(game: str) -> str:
    return words(say("title.storytellers", game=game))


def game_name(name: str, topic_id: int) -> str:
    """The game's name in titles (a game file without one: its topic)."""
    return name or words(say("title.no_name", topic_id=topic_id))


def title_forms(name: str, topic_id: int) -> list[tuple[str, str]]:
    """How the titles of a game's conversations begin and end, whoever the player (what the
    rebuild looks for in the bot's PM list: rebuild.py); and the titles before they named
    the game ("... (game N)")."""
    game, hole = game_name(name, topic_id), "\x00"
    before, after = grimoire_title(hole, game).split(hole, 1)
    return [(before, after), (storytellers_title(game), ""), ("", f"(game {topic_id})")]

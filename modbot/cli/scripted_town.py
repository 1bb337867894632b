"""Theory of operation: what scripted players choose, for games played to their end.

A whole scripted game (tests/e2e/test_full_games.py, benchmarks/first_game.py) needs players
who act as a town would without a person behind them: each night a legal choice for the
character a player believes they are (the Demon kills a good player, a Minion when none is
left; a choice of players or characters drawn from those its action allows), and each day a
nominee (the Demon, once the town has found it; else a good player). The draws come from the
caller's seeded `random.Random`, so a game plays the same every run. Nothing here is the bot's:
it reads the game's state only to act as its players would.
"""

from __future__ import annotations

import random

from ..core import GameState, acting_character, is_evil, players_of_team


def night_choice(state: GameState, player: str, living: list[str], rng: random.Random) -> str:
    """The player's night command: a legal choice for the character they act as."""
    character = acting_character(state, player)
    if character is None:  # nothing to act as: the night's choice is a pass
        return "/pass"
    spec = character.spec
    script = state.setup.script
    if spec.kills:  # the Demon kills a good player (a Minion when none is left)
        return f"/choose {rng.choice(victims(state, living, player))}"
    pool = [p for p in (living if spec.alive_only or not spec.dead_only else
                        [s.name for s in state.seats if not s.alive])
            if spec.self or p != player]
    if len(pool) < spec.players:
        return "/pass"
    names = " ".join(rng.sample(pool, spec.players))
    if not spec.characters:
        return f"/choose {names}"
    characters = [c for c in (script.characters if script else ()) if c.team in
                  (spec.character_teams or ("townsfolk", "outsider", "minion", "demon"))]
    chosen = rng.choice(characters).name
    return f"/choose {names} as {chosen}" if names else f"/choose {chosen}"


def victims(state: GameState, living: list[str], killer: str | None = None) -> list[str]:
    """Whom the evil team would kill, or the town execute while it has not found the Demon:
    the good players, else anyone but a Demon and the killer."""
    good = [p for p in living if not is_evil(state, p)]
    demons = players_of_team(state, "demon")
    return good or [p for p in living if p not in demons and p != killer] or living


def day_nominee(state: GameState, living: list[str], rng: random.Random, found: bool) -> str:
    """Whom the town nominates: the Demon once it has found it (`found`), else a victim."""
    demons = players_of_team(state, "demon")
    return demons[0] if found and demons else rng.choice(victims(state, living))

"""Theory of operation: the Lleech and its host (seed 002's Lleech, the seeds' version).

The Lleech's first choice as the Lleech is its host (`lleech_host`); a working Lleech dies if
and only if its host dies (`lleech_survives`: not by execution, a kill or the Pit-Hag's
arbitrary deaths), and with it in the same night (`lleeches_hosted_by`: the night sheet's
question). Its night rule is effects.py's; its death with the host, triggers.py's.
"""

from __future__ import annotations

from ..state.grimoire import is_malfunctioning, true_character
from ..state.model import GameState


def lleech_survives(state: GameState, player: str) -> bool:
    """A working Lleech whose host (not itself) lives: it dies if and only if its host dies
    (seed 002: not by execution, a kill or the Pit-Hag's arbitrary deaths); one that has not
    chosen its host yet (a Scarlet Woman who just became the Lleech) does not die either."""
    character = true_character(state, player)
    if character is None or character.id != "lleech" or is_malfunctioning(state, player):
        return False
    host = lleech_host(state, player)
    return host is None or (host != player and state.seat(host).alive)


def lleech_host(state: GameState, lleech: str) -> str | None:
    """The Lleech's host: its first choice as the Lleech (night 1; for a Scarlet Woman who
    became the Lleech, her first night as one)."""
    for night in state.past_nights:
        choice = night.choice_of(lleech)
        if choice is not None and choice.character == "lleech" and choice.players:
            return choice.players[0]
    return None


def lleeches_hosted_by(state: GameState, host: str) -> list[str]:
    """The working Lleeches whose host is `host` (seed 002: they die with it)."""
    return [s.name for s in state.seats if s.alive and s.name != host
            and (c := true_character(state, s.name)) is not None and c.id == "lleech"
            and not is_malfunctioning(state, s.name) and lleech_host(state, s.name) == host]


__all__ = ["lleech_host", "lleech_survives", "lleeches_hosted_by"]

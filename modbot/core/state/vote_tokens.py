"""Theory of operation: the Beggar's vote tokens (Trouble Brewing's traveller).

"Must use a vote token to vote": a living Beggar's execute vote counts only while it holds a
vote token a player gave it (`/give BEGGAR` in the thread, characters/tb_travellers.py, kept
in `TOKENS_GIVEN`); each of its yes votes that locks uses one. What it holds is a read: the
tokens given minus its yes votes locked so far (every day's), so nothing else need be kept and
an `!unlock` gives the token back. deciding/voting.py asks `may_vote_yes` as the clock hand
reaches the Beggar and when it counts the most a nomination can still reach. A dead Beggar
votes with its ghost vote like anyone dead.
"""

from __future__ import annotations

from .grimoire import true_character
from .model import YES, GameState
from .slots import Slot

# (beggar, giver, day) for every token given, in order
TOKENS_GIVEN: Slot[tuple[tuple[str, str, int], ...]] = Slot("vote tokens given", ())


def is_beggar(state: GameState, player: str) -> bool:
    """A player whose character needs a vote token to vote (its record's `votes_with_token`)."""
    character = true_character(state, player)
    return character is not None and character.spec.votes_with_token


def tokens_held(state: GameState, beggar: str) -> int:
    given = sum(1 for to, _, _ in TOKENS_GIVEN.of(state) if to == beggar)
    used = sum(1 for day in state.days for n in day.nominations for v in n.locked
               if v.player == beggar and v.vote == YES)
    return given - used


def may_vote_yes(state: GameState, player: str) -> bool:
    """Whether the player's execute vote may count (a living Beggar: only with a token)."""
    seat = state.seat(player)
    if not seat.alive or not is_beggar(state, player):
        return seat.can_vote_yes
    return tokens_held(state, player) > 0


__all__ = ["TOKENS_GIVEN", "is_beggar", "may_vote_yes", "tokens_held"]

"""Theory of operation: choices made for an ability that is not the player's own.

Some abilities let other players choose: when the Barber dies, the Demon may choose two
players to swap characters (`/swap A B`); with Lil' Monsta in play, the Minions choose who
babysits it each night (`/babysit X`); with the Fiddler, the Demon chooses its opponent
(`/fiddle X`). Each is a `NightChoice` with `helps` set to that
ability, kept beside the player's own choice (a Demon still chooses its kill) and replaced
by a new one until the lock.

The answer never tells the player whether the ability is in play or triggers: the Demon's
swap is taken as a standing order "if the Barber died today or tonight", and the night sheet
(others_choose.py: `barber_swap`, `lil_monsta_step`) decides whether it applies. Only who may choose is
checked (the Demon, a Minion: what the player believes they are, which they know), with the
count of players and that travellers are not chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..deciding.rules import reject
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Feature
from ..state.ids import BARBER, FIDDLER, LIL_MONSTA
from ..state.model import GameState
from ..state.night_actions import Help
from ..state.night_model import NightChoice
from ..state.private_events import NightChoiceMade
from ..state.rejection import Rejection
from ..state.script import Character
from ..wording import say

# each verb of night_actions.HELP_VERBS: whose step it helps, the team that may use it, and
# how many players it takes
HELPED = {"swap": (BARBER, "demon", 2), "babysit": (LIL_MONSTA, "minion", 1),
          "fiddle": (FIDDLER, "demon", 1)}
WHO = {"swap": "helper.swap", "babysit": "helper.babysit", "fiddle": "helper.fiddle"}  # codes


def decide_help(state: GameState, action: Help, ctx: Context, character: Character | None,
                night: int) -> Sequence[Event] | Rejection:
    """The NightChoiceMade for a /swap or /babysit, or a Rejection (`character`: what the
    author believes they are; the caller has checked the night is open)."""
    step, team, count = HELPED[action.verb]
    if character is None or character.team != team:
        return reject(ctx, "help_not_yours", who=say(WHO[action.verb]), verb=action.verb)
    if len(action.players) != count or len(set(action.players)) != count:
        return reject(ctx, "help_count", verb=action.verb, wanted=count,
                      given=len(set(action.players)))
    for player in action.players:
        if state.seat(player).traveller:
            return reject(ctx, "help_traveller", verb=action.verb, player=player)
    choice = NightChoice(ctx.author, character.id, action.players, post_number=ctx.post_number,
                         at=ctx.at, helps=step)
    return (NightChoiceMade(night, choice, ctx.at),)


FEATURE = Feature("night help")

__all__ = ["decide_help"]

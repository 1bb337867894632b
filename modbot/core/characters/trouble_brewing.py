"""Theory of operation: the Trouble Brewing characters the bot runs (the official ability text is
the spec; data/characters.json words each in our own terms).

Night rules (`night`, as information.py's): the Washerwoman and the Investigator learn two
players, one of them a named Townsfolk or Minion (the Librarian's form); the Fortune Teller
learns whether either of its two players reads as a Demon to it (the Demon, Lil' Monsta's
babysitter, or the good player marked as its red herring at the set-up, `RED_HERRING`); the
Ravenkeeper, killed tonight, learns its chosen player's character. The Slayer's public
`/choose X` (once per game, by day) kills X if X is the Demon; the Gunslinger's (once a day,
once the day's first vote is tallied) kills a player who voted execute on it. Elsewhere: the Saint's and the
Mayor's wins (wins.py), the Virgin's execution (triggers.py, an `ExecutionCalled` the engine
ends the day with), the Butler's, the Thief's and the Bureaucrat's votes (state/grimoire.py's
`butler_master` and `vote_weight`, read by deciding/voting.py), the Baron's and the Fortune
Teller's set-up (the catalogue's `setup_shift`, setup/proposing.py's red herring). The Spy's
row notes that the grimoire goes to it at dawn (observers.py's `spy_sight` sends it); what the
Spy and the Recluse register as is state/registration.py's, read by every information rule here
(`reading_registration`) and by the Slayer's shot (a kept answer only: it happens at once).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..deciding.rules import reject
from ..state.actions import Context, PublicChoice
from ..state.events import Event, PlayerDied
from ..state.feature import CharacterRules
from ..state.grimoire import (
    RED_HERRING,
    is_malfunctioning,
)
from ..state.model import YES, GameState
from ..state.night_model import Info, NightChoice
from ..state.registration import ASKING, reading_registration, registered_character, registered_of_team
from ..state.rejection import Rejection
from ..wording import say
from .information import shown_one_of, yes_no
from .public_abilities import ability_used, ledger, works
from .triggers import ABILITY_DEATH


def _washerwoman(state: GameState, player: str, _choice: NightChoice | None,
                 _deaths: tuple[str, ...]) -> Info:
    return shown_one_of(state, player, "townsfolk")


def _investigator(state: GameState, player: str, _choice: NightChoice | None,
                  _deaths: tuple[str, ...]) -> Info:
    return shown_one_of(state, player, "minion")


def _fortune_teller(state: GameState, _player: str, choice: NightChoice | None,
                    _deaths: tuple[str, ...]) -> Info:
    chosen = choice.players if choice is not None else ()
    if len(chosen) != 2:
        return Info(note=say("info.no_choice_sent"), needs_result=True)
    demons = set(registered_of_team(state, "demon", False))
    herring = {s.name for s in state.seats if RED_HERRING in state.grimoire_of(s.name).reminders}
    answer = Info(yes_no(any(p in demons or p in herring for p in chosen)),
                  say("result.fortune_teller", first=chosen[0], second=chosen[1]))
    if not herring:  # the set-up's choice is missing: `!reminder PLAYER red herring`
        return Info(note=say("info.no_red_herring", proposed=answer.told()), needs_result=True,
                    result=answer.told())
    return answer


def _ravenkeeper(state: GameState, player: str, choice: NightChoice | None,
                 deaths: tuple[str, ...]) -> Info:
    if player not in deaths:
        return Info(note=say("info.ravenkeeper_alive"))
    target = choice.players[0] if choice is not None and choice.players else None
    if target is None:
        return Info(note=say("info.ravenkeeper_no_choice"), needs_result=True)
    shown = registered_character(state, target)
    name = shown.name if shown is not None else "?"
    return Info(note=say("info.show_character", player=target, character=name),
                needs_result=True, result=say("result.is_the", player=target, character=name))


def _spy(state: GameState, player: str, _choice: NightChoice | None,
         _deaths: tuple[str, ...]) -> Info:
    """Sees the grimoire: sent at dawn (observers.py, `spy_sight`); a malfunctioning Spy is
    shown what the Storytellers choose."""
    if is_malfunctioning(state, player):
        return Info(note=say("info.spy_malfunctioning",
                             term=state.setup.private_script.terms.malfunction), needs_result=True)
    return Info(note=say("info.spy"))


def _slayer(state: GameState, action: PublicChoice, ctx: Context) -> Sequence[Event] | Rejection:
    """Once per game, by day, in public: the chosen player dies if they are the Demon."""
    if not state.phase.is_day or not state.seat(ctx.author).alive:
        return reject(ctx, "no_public_ability", what="choice")
    if ledger(state).used(ctx.author, "slayer"):
        return reject(ctx, "public_used")
    if not state.seat(action.target).alive:
        return reject(ctx, "target_dead", nominee=action.target)
    events: tuple[Event, ...] = (ability_used(state, ctx, "slayer", action.target),)
    demons = registered_of_team(ASKING.put(state, "slayer"), "demon")  # a kept answer counts
    if works(state, ctx.author, "slayer") and action.target in demons:
        events += (PlayerDied(action.target, ABILITY_DEATH, ctx.at),)
    return events


def _gunslinger(state: GameState, action: PublicChoice, ctx: Context) -> Sequence[Event] | Rejection:
    """Once a day, once the day's first vote is tallied (its nomination closed): a player who
    voted execute on it dies."""
    day = state.today
    if day is None or not state.seat(ctx.author).alive:
        return reject(ctx, "no_public_ability", what="choice")
    tallied = [n for n in day.nominations if not n.is_open]
    if not tallied:
        return reject(ctx, "gunslinger_too_soon")
    if ledger(state).used(ctx.author, "gunslinger", state.cycle):
        return reject(ctx, "public_used")
    first = min(tallied, key=lambda n: n.closed_at or n.at)
    if not any(v.player == action.target and v.vote == YES for v in first.locked):
        return reject(ctx, "gunslinger_not_a_voter", nominee=first.nominee)
    if not state.seat(action.target).alive:
        return reject(ctx, "target_dead", nominee=action.target)
    events: tuple[Event, ...] = (ability_used(state, ctx, "gunslinger", action.target),)
    if works(state, ctx.author, "gunslinger"):
        events += (PlayerDied(action.target, ABILITY_DEATH, ctx.at),)
    return events


CHARACTERS: tuple[CharacterRules, ...] = (
    CharacterRules("washerwoman", night=reading_registration(_washerwoman)),
    CharacterRules("investigator", night=reading_registration(_investigator)),
    CharacterRules("fortuneteller", night=reading_registration(_fortune_teller)),
    CharacterRules("ravenkeeper", night=reading_registration(_ravenkeeper)),
    CharacterRules("spy", night=_spy),
    CharacterRules("slayer", public_choice=_slayer),
    CharacterRules("gunslinger", public_choice=_gunslinger),
)

__all__ = ["CHARACTERS"]

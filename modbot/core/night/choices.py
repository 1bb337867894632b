"""Theory of operation: night choices sent by private message, checked against the spec.

A player's PM to the bot is read by the night grammar (reading/night_forms.py) into
`/choose` (or a contingency, `/choose X if CHARACTER`: the choice should the player gain
that character tonight, checked against it), `/pass`, `/action` and the choices made for
another's ability (`/swap`, `/babysit`, `/fiddle`: characters/helpers.py decides those).

`decide_choice`, the rule the registry runs for each of these actions (`FEATURE`), checks a
choice against the acting character's `ActionSpec` (what the player
believes they are: a Drunk acts as their Townsfolk) using only public facts (who is alive,
who travels, the script), so an answer never leaks the grimoire. A new choice before the lock
replaces the old one. The night's milestones (reminders, lock, the Storytellers' reminder,
dawn) are instants derived from the phase's end, so a pause or an extension moves them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from ..characters.bad_moon_rising import players_wanted
from ..characters.helpers import decide_help
from ..deciding.rules import reject
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Feature
from ..state.grimoire import acting_character, keeps_ability, used_on
from ..state.model import GameState, Phase
from ..state.night_actions import Choose, FreeAction, Help, NightAction, Pass
from ..state.night_model import NightChoice
from ..state.private_events import DayAbilityRequested, NightChoiceMade, night_of
from ..state.rejection import Rejection
from ..state.script import Character
from ..wording import Say, say

APPROVAL_REMINDER = timedelta(hours=1)



# -- deciding ---------------------------------------------------------------------------------

def lock_at(state: GameState) -> datetime:
    return state.phase_ends_at - timedelta(hours=state.setup.lengths.night_action_lock)


def decide_choice(state: GameState, action: NightAction, ctx: Context) -> Sequence[Event] | Rejection:
    """The NightChoiceMade event for a player's private action, or a Rejection. A character
    that chooses by day (the Bone Collector, the Hostess) sends its choice during the day, for
    the night that follows."""
    character = acting_character(state, ctx.author)
    if isinstance(action, Choose) and action.if_becomes is not None:  # whatever the player is
        return _refuse_now(state, ctx) or _contingency(state, action, ctx)  # now (secretly, too)
    if isinstance(action, Help):  # the Demon's /swap, a Minion's /babysit: at night only
        return _refuse_now(state, ctx) or decide_help(state, action, ctx, character,
                                                      state.cycle)
    if character is not None and character.spec.wakes == "day" and \
            not character.spec.chooses and state.phase.is_day and isinstance(action, FreeAction):
        return _refuse_now(state, ctx, True) or _day_request(state, action, character, ctx)
    by_day = character is not None and character.spec.wakes == "day" and \
        character.spec.chooses and state.phase.is_day
    refused = _refuse_now(state, ctx, by_day)
    if refused is not None:
        return refused
    if character is None:
        return reject(ctx, "no_character")
    night = state.cycle + 1 if by_day else state.cycle
    base: dict[str, Any] = dict(player=ctx.author, character=character.id,
                                post_number=ctx.post_number, at=ctx.at)
    if isinstance(action, FreeAction):
        return (NightChoiceMade(night, NightChoice(**base, text=action.text), ctx.at),)
    spec = character.spec
    if isinstance(action, Pass) and not (by_day or spec.chooses_on(state.cycle)):
        # nothing to choose: a /pass is acknowledged all the same, never refused
        return (NightChoiceMade(night, NightChoice(**base, passed=True), ctx.at),)
    if not (by_day or spec.chooses_on(state.cycle)):
        return reject(ctx, "no_choice_tonight", character=character.name)
    used = used_on(state, ctx.author, character.id) if spec.once else None
    if used is not None:
        return reject(ctx, "once_used", night=used)
    if isinstance(action, Pass):
        return (NightChoiceMade(night, NightChoice(**base, passed=True), ctx.at),)
    problem = _check_targets(state, action, character, ctx)
    if problem is not None:
        return problem
    choice = NightChoice(**base, players=action.players, chosen_character=action.character)
    return (NightChoiceMade(night, choice, ctx.at),)


def _contingency(state: GameState, action: Choose, ctx: Context) -> Sequence[Event] | Rejection:
    """A choice for a character the player may gain tonight (seed 001's Djinn: a Dreamer the
    Pit-Hag creates without one "do[es] not wake tonight"), checked against that character
    as any choice is, on public facts only: it never says whether the player will gain it,
    nor whether they are that character already (a Storyteller's change the player was not
    told of): kept and answered as a contingency either way. At the character's step it is
    the choice of whoever has that character then (night/sheet.py)."""
    script = state.setup.script
    character = script.get(action.if_becomes or "") if script else None
    if character is None:
        return reject(ctx, "no_character")
    if not character.spec.chooses_on(state.cycle):
        return reject(ctx, "no_choice_tonight", character=character.name)
    problem = _check_targets(state, Choose(action.players, action.character), character, ctx)
    if problem is not None:
        return problem
    choice = NightChoice(ctx.author, character.id, action.players, action.character,
                         post_number=ctx.post_number, at=ctx.at, contingent=True)
    return (NightChoiceMade(state.cycle, choice, ctx.at),)


def _day_request(state: GameState, action: FreeAction, character: Character,
                 ctx: Context) -> Sequence[Event] | Rejection:
    """An ability used by day in a private word with the Storytellers (the Artist's question,
    the Savant's visit): seed 001 wants it declared in the thread first (/whisper
    Storyteller). Declared, it goes to the Storytellers to answer; not declared, the player is
    told to declare it, and the Storytellers see the request flagged."""
    declared = state.today is not None and ctx.author in state.current_day.consults
    return (DayAbilityRequested(ctx.author, character.id, action.text, declared,
                                ctx.post_number, ctx.at),)


def _refuse_now(state: GameState, ctx: Context, by_day: bool = False) -> Rejection | None:
    if not state.dealt:
        return reject(ctx, "not_dealt")
    if state.winner is not None:
        return reject(ctx, "game_over", winner=state.winner)
    if not state.seat(ctx.author).alive and not keeps_ability(state, ctx.author):
        return reject(ctx, "dead_no_ability")  # unless the Vigormortis killed them
    if by_day:
        return None
    if state.phase is not Phase.NIGHT:
        return reject(ctx, "not_night", phase=state.phase_said)
    if ctx.at >= lock_at(state) or night_of(state, state.cycle).locked:
        return reject(ctx, "night_locked", night=state.cycle,
                      deadline=min(lock_at(state), ctx.at))
    return None


def _check_targets(state: GameState, action: Choose, character: Character, ctx: Context) -> Rejection | None:
    spec, name = character.spec, character.name
    players = players_wanted(state, ctx.author, character)  # the Po's three, after no one
    wanted = [_counted(n, noun) for n, noun in ((players, "player"),
                                                 (spec.characters, "character")) if n]
    wrong_character = (action.character is not None) != bool(spec.characters)
    if len(action.players) != players or wrong_character:
        given = [_counted(len(action.players), "player")] if action.players else []
        given += [say("count.a_character")] if action.character else []
        return reject(ctx, "choice_count", character=name, wanted=wanted,
                      given=given or say("count.nothing"))
    if len(set(action.players)) != len(action.players):
        return reject(ctx, "choice_twice", player=action.players[0])
    for player in action.players:
        seat = state.seat(player)
        if player == ctx.author and not spec.self:
            return reject(ctx, "choice_self", character=name)
        if seat.traveller and not spec.travellers:
            return reject(ctx, "choice_traveller", character=name, player=player)
        if spec.alive_only and not seat.alive:
            return reject(ctx, "choice_alive", character=name, player=player)
        if spec.dead_only and seat.alive:
            return reject(ctx, "choice_dead", character=name, player=player)
    chosen = state.setup.private_script.get(action.character) if action.character else None
    if chosen is not None and spec.character_teams and chosen.team not in spec.character_teams:
        teams = state.setup.private_script.terms.good if set(spec.character_teams) == {
            "townsfolk", "outsider"} else say("count.either", teams=spec.character_teams)
        return reject(ctx, "choice_team", character=name, teams=teams, chosen=chosen.name)
    return None


def _counted(number: int, noun: str) -> Say:
    """`count.player` or `count.players` (`count.character`, ...): one, or any other number."""
    return say(f"count.{noun}" if number == 1 else f"count.{noun}s", n=number)


def owes_choice(state: GameState, player: str) -> bool:
    """A living player whose character chooses tonight and who has sent nothing yet."""
    character = acting_character(state, player)
    return (character is not None
            and (state.seat(player).alive or keeps_ability(state, player))
            and character.spec.chooses_on(state.cycle)
            and (not character.spec.once or used_on(state, player, character.id) is None)
            and night_of(state, state.cycle).choice_of(player) is None)


# Night choices are rules like the others: the registry decides them (`registry.decide`, after
# its refusals for anyone not seated and for a game that is over).
FEATURE = Feature("night choices", rules={Choose: decide_choice, Pass: decide_choice,
                                          FreeAction: decide_choice, Help: decide_choice})

__all__ = [
    "APPROVAL_REMINDER",
    "decide_choice",
    "lock_at",
    "owes_choice",
]

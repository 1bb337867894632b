"""Theory of operation: abilities used in the game thread, in public.

`/choose X` and `/guess X as CHARACTER` are thread commands (parser.py). Who may use them is
decided by the author's character as they believe it (a Drunk thinking they are the Juggler
may guess); what happens depends on the grimoire, and on nobody malfunctioning:
- the Klutz (dead, within 6 hours of learning it, once): a Cultist chosen makes evil win;
- the Moonchild (dead, once): a good player chosen dies tonight (proposed on the night sheet);
- the Psychopath (alive, in the discussion, before nominations, once a day): the target dies;
- the Juggler (on day 1, up to 5 guesses): that night learns how many were right;
- a Minion guessing the Damsel (once for all the Minions): evil wins if right;
- the Mezepheles' secret word (its first-night result): the first good player to say it in
  the thread turns evil that night (proposed on the night sheet).
An answer to the player (accepted, or why not) goes to their grimoire PM like any rejection;
nothing about the grimoire is revealed by it. Its rules are in its `FEATURE`, which
registry.py lists (nothing registers on import).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ..deciding.rules import reject
from ..state.actions import Context, PublicChoice, PublicGuess
from ..state.events import Event, PlayerDied
from ..state.feature import CharacterRules, Feature, Notice, to_storytellers
from ..state.grimoire import (
    PUZZLED,
    acting_character,
    is_evil,
    is_malfunctioning,
    players_of_team,
    true_character,
)
from ..state.ids import PUZZLEMASTER
from ..state.model import GameState, Phase
from ..state.public_model import PublicAbilityUsed, PublicLedger
from ..state.rejection import Rejection
from ..state.slots import Slot
from ..wording import say
from .triggers import ABILITY_DEATH
from .wins import good_loses

PUBLIC = Slot("public abilities", PublicLedger())  # /choose and /guess in the thread
KLUTZ_HOURS = 6
JUGGLER_GUESSES = 5



def ledger(state: GameState) -> PublicLedger:
    return PUBLIC.of(state)


def death_time(state: GameState, player: str) -> datetime | None:
    found = [at for who, _cause, at in state.deaths_log if who == player]
    return found[-1] if found else None


def ability_used(state: GameState, ctx: Context, ability: str, target: str,
                 character: str | None = None) -> PublicAbilityUsed:
    """The record that `ctx.author` used `ability` on `target` (its ledger's entry)."""
    return PublicAbilityUsed(ctx.author, ability, target, character, state.cycle,
                             ctx.post_number, ctx.at)


def works(state: GameState, player: str, character_id: str) -> bool:
    """The player really is `character_id` and is neither drunk nor poisoned."""
    real = true_character(state, player)
    return real is not None and real.id == character_id and not is_malfunctioning(state, player)


def _klutz(state: GameState, action: PublicChoice, ctx: Context) -> Sequence[Event] | Rejection:
    died = death_time(state, ctx.author)
    if state.seat(ctx.author).alive or died is None:
        return reject(ctx, "no_public_ability", what="choice")
    if ledger(state).used(ctx.author, "klutz"):
        return reject(ctx, "public_used")
    if ctx.at > died + state.setup.window(timedelta(hours=KLUTZ_HOURS)):
        return reject(ctx, "klutz_late", hours=KLUTZ_HOURS)
    if not state.seat(action.target).alive:
        return reject(ctx, "target_dead", nominee=action.target)
    events: tuple[Event, ...] = (ability_used(state, ctx, "klutz", action.target),)
    if works(state, ctx.author, "klutz") and is_evil(state, action.target):
        terms = state.setup.private_script.terms
        events += good_loses(state, say("win.klutz", team=terms.evil),
                             ctx.at)
    return events


def _moonchild(state: GameState, action: PublicChoice, ctx: Context) -> Sequence[Event] | Rejection:
    if state.seat(ctx.author).alive or death_time(state, ctx.author) is None:
        return reject(ctx, "no_public_ability", what="choice")
    if ledger(state).used(ctx.author, "moonchild"):
        return reject(ctx, "public_used")
    if not state.seat(action.target).alive:
        return reject(ctx, "target_dead", nominee=action.target)
    # Seed 002: the chosen player's alignment is the one at the time of choosing.
    alignment = "evil" if is_evil(state, action.target) else "good"
    return (ability_used(state, ctx, "moonchild", action.target, alignment),)


def _psychopath(state: GameState, action: PublicChoice, ctx: Context) -> Sequence[Event] | Rejection:
    if not state.seat(ctx.author).alive:
        return reject(ctx, "no_public_ability", what="choice")
    if state.phase is not Phase.DISCUSSION:
        return reject(ctx, "psychopath_window")
    if ledger(state).used(ctx.author, "psychopath", state.cycle):
        return reject(ctx, "public_used")
    if not state.seat(action.target).alive:
        return reject(ctx, "target_dead", nominee=action.target)
    events: tuple[Event, ...] = (ability_used(state, ctx, "psychopath", action.target),)
    if works(state, ctx.author, "psychopath"):
        events += (PlayerDied(action.target, ABILITY_DEATH, ctx.at),)
    return events


CHARACTERS: tuple[CharacterRules, ...] = (  # what each one's `/choose X` does
    CharacterRules("klutz", public_choice=_klutz), CharacterRules("moonchild", public_choice=_moonchild),
    CharacterRules("psychopath", public_choice=_psychopath),
)


def _guess(state: GameState, action: PublicGuess, ctx: Context) -> Sequence[Event] | Rejection:
    script = state.setup.script
    real = true_character(state, ctx.author)
    if action.character.strip().casefold() == "drunk" and real is not None and \
            real.id == "puzzlemaster":
        return _puzzle_guess(state, action, ctx)
    guessed = script.find(action.character) if script else None
    if guessed is None:
        return reject(ctx, "unknown_character_public", text=action.character)
    character = acting_character(state, ctx.author)
    if guessed.id == "damsel" and real is not None and real.team == "minion":
        return _damsel_guess(state, action, ctx)
    if character is not None and character.id == "juggler" and state.cycle == 1 \
            and state.phase.is_day:
        if ledger(state).used(ctx.author, "juggler") >= JUGGLER_GUESSES:
            return reject(ctx, "juggler_full", count=JUGGLER_GUESSES)
        return (ability_used(state, ctx, "juggler", action.target, guessed.id),)
    return reject(ctx, "no_public_ability", what="guess")


def _puzzle_guess(state: GameState, action: PublicGuess, ctx: Context) -> Sequence[Event] | Rejection:
    """The Puzzlemaster's one guess of its drunk (publicly; the Storytellers answer it)."""
    if ledger(state).used(ctx.author, "puzzlemaster"):
        return reject(ctx, "public_used")
    right = PUZZLED in state.grimoire_of(action.target).reminders
    return (ability_used(state, ctx, "puzzlemaster", action.target, "right" if right else "wrong"),)


def _damsel_guess(state: GameState, action: PublicGuess, ctx: Context) -> Sequence[Event] | Rejection:
    """One guess for all the Minions (seed 000: after a wrong guess, "future guesses by Minion
    players have no effect"); it wins unless the Damsel malfunctions or has died (seed 000: "If
    the Damsel dies, they are no longer at risk of being guessed by a Minion")."""
    if any(u.ability == "damsel" for u in ledger(state).uses):
        return reject(ctx, "public_used")
    events: tuple[Event, ...] = (ability_used(state, ctx, "damsel", action.target, "damsel"),)
    target = true_character(state, action.target)
    if target is not None and target.id == "damsel" and state.seat(action.target).alive and \
            not is_malfunctioning(state, action.target):
        events += good_loses(state, say("win.damsel"), ctx.at)
    return events


def juggler_correct(state: GameState, player: str) -> int | None:
    """How many of the Juggler's day-1 guesses are right (None: no guesses)."""
    guesses = [u for u in ledger(state).uses if u.player == player and u.ability == "juggler"]
    if not guesses:
        return None
    return sum(1 for u in guesses if (c := true_character(state, u.target)) and c.id == u.character)


def moonchild_choices(state: GameState) -> tuple[tuple[str, str], ...]:
    """Tonight's Moonchild kills to judge: (the Moonchild, the good player it chose since the
    last night began). Whether the Moonchild works is judged at its step (night/sheet.py)."""
    return tuple((u.player, u.target) for u in ledger(state).uses if u.ability == "moonchild"
                 and u.day in (state.cycle - 1, state.cycle)
                 and (c := true_character(state, u.player)) is not None and c.id == "moonchild"
                 and state.seat(u.target).alive and u.character == "good")


def secret_word_said(state: GameState, author: str, text: str, post_number: int | None, at: datetime) -> tuple[Event, ...]:
    """The Mezepheles' word, said by a good player (the first one only): they turn evil
    that night. With several evil teams (seed 002), the first non-Demon of another team. The
    word is the Mezepheles' first-night result, in the Storytellers' own words (!result). Whether it works is
    judged that night (sheet.py): an impaired Mezepheles spends it for nothing."""
    if not state.dealt or not state.seat(author).alive:
        return ()
    for night in state.past_nights[:1]:
        for player, result in night.results:
            word = result.param("text") if result is not None and result.code == "free" else None
            real = true_character(state, player)
            if not word or real is None or real.id != "mezepheles" or \
                    not _turnable(state, author, player) or \
                    ledger(state).used(player, "mezepheles"):
                continue
            words = re.findall(r"[\w'-]+", word)  # "Your word is pineapple." -> pineapple
            if words and re.search(rf"(?<!\w){re.escape(words[-1])}(?!\w)", text, re.I):
                return (PublicAbilityUsed(player, "mezepheles", author, None, state.cycle,
                                          post_number, at),)
    return ()


def _turnable(state: GameState, author: str, mezepheles: str) -> bool:
    if not state.setup.private_script.terms.evil_teams:
        return not is_evil(state, author)
    real = true_character(state, author)
    return (real is None or real.team != "demon") and (
        not is_evil(state, author) or
        state.grimoire_of(author).evil_team != state.grimoire_of(mezepheles).evil_team)


def turned_by_word(state: GameState) -> tuple[tuple[str, str], ...]:
    """Tonight: (player, Mezepheles) for who said the word since the last night began."""
    return tuple((u.target, u.player) for u in ledger(state).uses if u.ability == "mezepheles"
                 and u.day in (state.cycle - 1, state.cycle))


def _used(state: GameState, e: PublicAbilityUsed) -> GameState:
    return PUBLIC.put(state, replace(ledger(state), uses=(*ledger(state).uses, e)))


def _told_puzzle(state: GameState, event: PublicAbilityUsed, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """The Puzzlemaster's guess, right or wrong, for the Storytellers to answer."""
    if event.ability != PUZZLEMASTER:
        return ()
    if event.character == "right":
        demons = players_of_team(state, "demon") or say("st.none_alive")
        text = say("st.puzzle_right", player=event.player, target=event.target, demons=demons)
    else:
        text = say("st.puzzle_wrong", player=event.player, target=event.target)
    return (to_storytellers("st_note", f"puzzle:{event.player}", text=text),)


FEATURE = Feature(
    "public abilities",
    appliers={PublicAbilityUsed: _used},
    rules={PublicGuess: _guess},  # `/choose X`: the character's record (records.py)
    notices={PublicAbilityUsed: _told_puzzle},
    slots=(PUBLIC,),
)

__all__ = [
    "CHARACTERS",
    "PublicAbilityUsed",
    "PublicLedger",
    "ability_used",
    "juggler_correct",
    "moonchild_choices",
    "secret_word_said",
    "turned_by_word",
    "works",
]

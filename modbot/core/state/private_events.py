"""Theory of operation: the private side's events (deal, night, whisper PMs) and their effect.

Like staff_events.py, `FEATURE` hands its appliers to the registry.
Night events name their night; the first event of a night starts its `NightState`, and
`NightResolved` (dawn) files it under `past_nights`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..wording import Say, free
from .feature import Feature, unchanged
from .model import GameState, GrimoireEntry
from .night_model import Effect, NightChoice, NightState, SheetEntry, WhisperFlag, WhisperLedger
from .slots import Slot

# (player, grimoire flag) set until dusk by an effect (the Poisoner's, the Witch's curse, ...)
EXPIRING: Slot[tuple[tuple[str, str], ...]] = Slot("expiring", ())


@dataclass(frozen=True, slots=True)
class CharactersDealt:
    """Each player was sent their character (the grimoire as it stands now)."""

    by: str | None
    at: datetime


@dataclass(frozen=True, slots=True)
class DealWaiting:
    """Night 1 began but the grimoire is incomplete: the Storytellers must `!start`."""

    problems: tuple[Say, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class DayAbilityRequested:
    """A player asked, in their grimoire PM, to use an ability by day in a private word with
    the Storytellers (`declared`: after their /whisper Storyteller in the thread that day)."""

    player: str
    character: str  # the acting character's id
    text: str
    declared: bool
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class AnswerSent:
    """A Storyteller answered a player privately (!answer), in the player's grimoire PM."""

    player: str
    text: str
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class NightChoiceMade:
    night: int
    choice: NightChoice
    at: datetime


@dataclass(frozen=True, slots=True)
class NightReminded:
    night: int
    players: tuple[str, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class NightLocked:
    night: int
    sheet: tuple[SheetEntry, ...]
    deaths: tuple[str, ...]
    results: tuple[tuple[str, Say | None], ...]
    tells: tuple[tuple[str, Say], ...]
    at: datetime
    effects: tuple[Effect, ...] = ()  # applied at dawn


@dataclass(frozen=True, slots=True)
class NightSheetEdited:
    night: int
    field: str  # result | dies | spare | nodeath | tell | noeffect
    player: str | None
    text: str  # the Storyteller's own words (a result, a message), or an effect's number
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class NightApproved:
    night: int
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class ApprovalReminded:
    night: int
    at: datetime


@dataclass(frozen=True, slots=True)
class DawnDelayed:
    night: int
    at: datetime


@dataclass(frozen=True, slots=True)
class NightResolved:
    """Dawn: the night's deaths (each followed by PlayerDied) and results are final."""

    night: int
    deaths: tuple[str, ...]
    results: tuple[tuple[str, Say | None], ...]
    tells: tuple[tuple[str, Say], ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class FearmongerChoseNew:
    """Announced at dawn: the Fearmonger chose a new player (not who, not whom)."""

    night: int
    at: datetime


@dataclass(frozen=True, slots=True)
class EffectApplied:
    """At dawn: one approved effect changed the grimoire."""

    effect: Effect
    at: datetime


@dataclass(frozen=True, slots=True)
class EffectsExpired:
    """Dusk: effects that last "until dusk" end (the Poisoner's poison)."""

    changes: tuple[tuple[str, str], ...]  # (player, field) set back to False
    at: datetime


@dataclass(frozen=True, slots=True)
class WhisperPmCounted:
    """A private message between players that the rules allow (contents never kept)."""

    day: int
    author: str
    members: tuple[str, ...]
    neighbour: str | None  # a neighbour whisper to this player (no declaration)
    at: datetime


@dataclass(frozen=True, slots=True)
class WhisperPmFlagged:
    flag: WhisperFlag
    post_number: int | None
    at: datetime


def night_of(state: GameState, number: int) -> NightState:
    night = state.night
    return night if night is not None and night.number == number else NightState(number)


def _with_night(state: GameState, night: NightState) -> GameState:
    return state.evolve(night=night)


def _dealt(state: GameState, _e: CharactersDealt) -> GameState:
    return state.evolve(dealt=True, dealt_grimoire=state.grimoire, dealt_bluffs=state.bluffs)


def _choice_made(state: GameState, e: NightChoiceMade) -> GameState:
    night = night_of(state, e.night)
    if e.choice.contingent:  # one a character: the latest replaces it
        kept = tuple(c for c in night.contingencies
                     if (c.player, c.character) != (e.choice.player, e.choice.character))
        return _with_night(state, replace(night, contingencies=(*kept, e.choice)))
    others = tuple(c for c in night.choices
                   if (c.player, c.helps) != (e.choice.player, e.choice.helps))
    return _with_night(state, replace(night, choices=(*others, e.choice)))


def _reminded(state: GameState, e: NightReminded) -> GameState:
    return _with_night(state, replace(night_of(state, e.night), reminded=True))


def _locked(state: GameState, e: NightLocked) -> GameState:
    return _with_night(state, replace(night_of(state, e.night), locked=True, sheet=e.sheet,
                                      deaths=e.deaths, results=e.results,
                                      tells=e.tells, effects=e.effects))


def _edited(state: GameState, e: NightSheetEdited) -> GameState:
    night = night_of(state, e.night)
    player = e.player or ""  # every field but nodeath and noeffect names a player
    if e.field == "result":
        told = _result_told(night, player, e.text)
        results = (*tuple(r for r in night.results if r[0] != player), (player, told))
        night = replace(night, results=results)
    elif e.field == "dies" and player not in night.deaths:
        night = replace(night, deaths=(*night.deaths, player))
    elif e.field == "spare":
        night = replace(night, deaths=tuple(d for d in night.deaths if d != player))
    elif e.field == "nodeath":
        night = replace(night, deaths=())
    elif e.field == "tell":
        night = replace(night, tells=(*night.tells, (player, free(e.text))))
    elif e.field == "noeffect":
        index = int(e.text) - 1
        night = replace(night, effects=night.effects[:index] + night.effects[index + 1:])
    return _with_night(state, replace(night, approved_by=None, approved_at=None))  # approve again


def _result_told(night: NightState, player: str, text: str) -> Say | None:
    """What `!result PLAYER TEXT` tells: a bare number or yes/no ("!result Alex 2") inside the
    sentence of the player's row (the Chef's "There are 2 pairs..."); other text as written;
    nothing for "!result PLAYER none" (the text is then empty)."""
    if not text:
        return None
    sentences = (s.suggestion.param("sentence") for s in night.sheet
                 if s.player == player and s.suggestion is not None)
    sentence = next((s for s in sentences if s is not None), None)
    bare = text.isdigit() or text.lower() in ("yes", "no")
    return sentence.but(value=text) if sentence is not None and bare else free(text)


def _approved(state: GameState, e: NightApproved) -> GameState:
    return _with_night(state, replace(night_of(state, e.night), approved_by=e.by,
                                      approved_at=e.at))


def _approval_reminded(state: GameState, e: ApprovalReminded) -> GameState:
    return _with_night(state, replace(night_of(state, e.night), st_reminded=True))


def _delayed(state: GameState, e: DawnDelayed) -> GameState:
    return _with_night(state, replace(night_of(state, e.night), delayed=True))


def _resolved(state: GameState, e: NightResolved) -> GameState:
    night = night_of(state, e.night)
    night = replace(night, deaths=tuple(dict.fromkeys((*night.deaths, *e.deaths))))
    return state.evolve(night=None, past_nights=(*state.past_nights, night))


def _effect_applied(state: GameState, e: EffectApplied) -> GameState:
    effect = e.effect
    changed = state.with_entry(effect.player, **{effect.field: effect.value})
    if not effect.until_dusk:
        return changed
    return EXPIRING.put(changed, (*EXPIRING.of(state), (effect.player, effect.field)))


def _effects_expired(state: GameState, e: EffectsExpired) -> GameState:
    grimoire = dict(state.grimoire)
    for player, field in e.changes:  # back to the field's default (False, or None: mad_as)
        default: Any = GrimoireEntry.__dataclass_fields__[field].default
        grimoire[player] = replace(grimoire[player], **{field: default})
    return EXPIRING.put(state.evolve(grimoire=tuple(grimoire.items())), ())


def _ledger(state: GameState) -> WhisperLedger:
    return state.ledger or WhisperLedger()


def _pm_counted(state: GameState, e: WhisperPmCounted) -> GameState:
    ledger = _ledger(state)
    used = ledger.neighbour_used
    if e.neighbour is not None:
        used = used | {(e.day, e.author, e.neighbour)}
    return state.evolve(ledger=replace(ledger, neighbour_used=used,
                                       messages=(*ledger.messages, (e.day, e.members))))


def _pm_flagged(state: GameState, e: WhisperPmFlagged) -> GameState:
    ledger = _ledger(state)
    used = ledger.neighbour_used
    if e.flag.spends_neighbour_whisper:
        used = used | {(e.flag.day, e.flag.author, e.flag.others[0])}
    return state.evolve(ledger=replace(ledger, flags=(*ledger.flags, e.flag),
                                       neighbour_used=used))


FEATURE = Feature("private side: events", appliers={
    CharactersDealt: _dealt,
    DealWaiting: unchanged,
    NightChoiceMade: _choice_made,
    NightReminded: _reminded,
    NightLocked: _locked,
    NightSheetEdited: _edited,
    NightApproved: _approved,
    ApprovalReminded: _approval_reminded,
    DawnDelayed: _delayed,
    NightResolved: _resolved,
    EffectApplied: _effect_applied,
    FearmongerChoseNew: unchanged,
    EffectsExpired: _effects_expired,
    WhisperPmCounted: _pm_counted,
    WhisperPmFlagged: _pm_flagged,
    DayAbilityRequested: unchanged,
    AnswerSent: unchanged,
}, slots=(EXPIRING,))

__all__ = [
    "AnswerSent",
    "ApprovalReminded",
    "CharactersDealt",
    "DawnDelayed",
    "DayAbilityRequested",
    "DealWaiting",
    "EffectApplied",
    "EffectsExpired",
    "FearmongerChoseNew",
    "NightApproved",
    "NightChoiceMade",
    "NightLocked",
    "NightReminded",
    "NightResolved",
    "NightSheetEdited",
    "WhisperPmCounted",
    "WhisperPmFlagged",
    "night_of",
]

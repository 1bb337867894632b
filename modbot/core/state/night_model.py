"""Theory of operation: the private side of the game as frozen values.

A `NightState` collects one night: the players' latest choices (a new submission replaces the
old one until the lock), whether reminders went out, and from the lock on the night sheet the
Storytellers edit: one `SheetEntry` per step of the script's night order, the proposed deaths,
each player's result, and extra messages (`tells`). Dawn waits for the Storytellers' approval.

The `WhisperLedger` remembers, per day, the private messages the bot saw between players: how
many inside declared whispers, which neighbour whispers were used, and the violations flagged.
It never holds what was said.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..wording import Say, say

NEIGHBOUR_FLAGS = frozenset({"whisper.neighbour_again", "whisper.neighbour_words"})


@dataclass(frozen=True, slots=True)
class NightChoice:
    player: str
    character: str  # the acting character's id (what the player believes they are)
    players: tuple[str, ...] = ()
    chosen_character: str | None = None
    passed: bool = False
    text: str = ""  # free text, for abilities the Storyteller judges
    post_number: int | None = None
    at: datetime | None = None
    helps: str | None = None  # a choice for another ability: "barber" (the Demon's swap),
    # "lilmonsta" (a Minion's babysitter); one of each per player, beside their own choice
    contingent: bool = False  # for `character` if the player gains it tonight (`/choose X if Y`)

    def describe(self, names: dict[str, str] | None = None) -> Say:
        """The choice, to be written (`names`: character ids to names)."""
        if self.passed:
            return say("choice.pass")
        name = (names or {}).get(self.chosen_character or "", self.chosen_character)
        if self.players and name:
            chosen: Say | None = say("choice.players_as", players=self.players, character=name)
        elif self.players or name:
            chosen = say("choice.players", players=self.players) if self.players else \
                say("choice.character", character=name)
        else:
            chosen = None
        if self.text:
            text = say("choice.text", text=self.text)
            return say("choice.with_text", choice=chosen, text=text) if chosen else text
        return chosen or say("choice.nothing")


@dataclass(frozen=True, slots=True)
class SheetEntry:
    step: str  # a character id, or minioninfo / demoninfo
    player: str | None
    character: str | Say  # the character's name, or a label (`label.*`) for other rows
    choice: Say | None = None  # the choice sent, in words
    status: tuple[Say, ...] = ()  # dead, malfunctioning, mad as X, is really Y
    suggestion: Say | None = None  # what the bot proposes, or what the Storytellers decide
    needs_result: bool = False  # the player learns something: a result is owed


@dataclass(frozen=True, slots=True)
class Effect:
    """A grimoire change the night proposes, applied at dawn once approved."""

    player: str
    field: str  # a GrimoireEntry field: poisoned, character, alignment...
    value: object
    why: Say  # who or what causes it (`by.*`)
    until_dusk: bool = False  # undone when the next night begins (the Poisoner's poison)

    def describe(self, names: dict[str, str] | None = None, terms: Any = None) -> Say:
        """The change, as the night sheet lists it: a character by its name on the script
        (`names`: ids to names), an alignment in the script's words (`terms`)."""
        code = _EFFECT_CODES.get(self.field, "effect.changed")
        if self.field == "thinks" and self.value is None:
            code = "effect.thinks_cleared"
        value = self.value
        if self.field == "reminders":
            value = value or say("effect.none")
        elif self.field in _CHARACTER_FIELDS and isinstance(value, str):
            value = (names or {}).get(value, value)
        elif self.field == "alignment" and terms is not None:
            value = terms.alignment(value)
        return say(code, player=self.player, field=self.field, value=value, why=self.why,
                   until=say("effect.until_dusk") if self.until_dusk else "")


REVIVED = "alive"  # an effect's field that brings a dead player back at dawn (the Professor)
_CHARACTER_FIELDS = ("character", "thinks", "ability_of", "mad_as")  # their values are ids
_EFFECT_CODES = {"poisoned": "effect.poisoned", "drunk": "effect.drunk",
                 "character": "effect.character", "thinks": "effect.thinks",
                 "ability_of": "effect.ability_of",
                 "reminders": "effect.reminders", "mad_as": "effect.mad_as",
                 "alignment": "effect.alignment", "evil_team": "effect.evil_team",
                 "cursed_day": "effect.cursed_day",
                 "survives_execution_day": "effect.survives_execution_day",
                 "alive": "effect.alive"}


@dataclass(frozen=True, slots=True)
class Info:
    value: str | None = None  # the true answer, when computable
    sentence: Say = Say("result.value")  # noqa: RUF009 (a frozen value) what the player is told
    note: Say | None = None  # what the Storyteller decides, or the effect to apply
    needs_result: bool = False
    death: str | None = None
    tells: tuple[tuple[str, Say], ...] = ()  # (player, message) proposed for dawn
    result: Say | None = None  # a proposed result when there is no computed value
    effects: tuple[Effect, ...] = ()  # grimoire changes proposed for dawn
    also_dies: tuple[str, ...] = ()  # more deaths proposed (the Shabaloth's second kill)

    def told(self, value: str | None = None) -> Say | None:
        """What the player is told: the sentence with this value (by default the true one),
        or the proposed result."""
        value = self.value if value is None else value
        return self.sentence.but(value=value) if value is not None else self.result


@dataclass(frozen=True, slots=True)
class NightState:
    number: int
    choices: tuple[NightChoice, ...] = ()
    contingencies: tuple[NightChoice, ...] = ()  # choices for a character gained tonight
    reminded: bool = False
    locked: bool = False
    sheet: tuple[SheetEntry, ...] = ()
    deaths: tuple[str, ...] = ()
    results: tuple[tuple[str, Say | None], ...] = ()  # (player, what they learn; None: nothing)
    tells: tuple[tuple[str, Say], ...] = ()  # (player, an extra message from the ST)
    effects: tuple[Effect, ...] = ()
    approved_by: str | None = None
    approved_at: datetime | None = None
    st_reminded: bool = False
    delayed: bool = False

    def choice_of(self, player: str) -> NightChoice | None:
        """The player's choice for their own ability."""
        return next((c for c in self.choices if c.player == player and c.helps is None), None)

    def contingency_of(self, player: str, character: str) -> NightChoice | None:
        """The choice the player sent for `character`, should they gain it tonight (seed 001's
        Djinn: "has not submitted a contingency action in the case that they become the
        Dreamer, they do not wake tonight")."""
        return next((c for c in self.contingencies if (c.player, c.character) == (player, character)),
                    None)

    def helping(self, step: str) -> tuple[NightChoice, ...]:
        """Choices made for another ability (the Barber's swap, Lil' Monsta's babysitter)."""
        return tuple(c for c in self.choices if c.helps == step)

    def result_of(self, player: str) -> Say | None:
        return dict(self.results).get(player)

    def missing_results(self) -> tuple[str, ...]:
        have = dict(self.results)
        return tuple(e.player for e in self.sheet
                     if e.needs_result and e.player and e.player not in have)


@dataclass(frozen=True, slots=True)
class WhisperFlag:
    day: int
    author: str
    others: tuple[str, ...]
    reason: Say  # a `whisper.*` code: why the Storytellers should look
    at: datetime

    @property
    def spends_neighbour_whisper(self) -> bool:
        """A flagged neighbour whisper still used the day's one message to that neighbour."""
        return self.reason.code in NEIGHBOUR_FLAGS


@dataclass(frozen=True, slots=True)
class WhisperLedger:
    messages: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (day, members) per counted PM
    neighbour_used: frozenset[tuple[int, str, str]] = frozenset()  # (day, from, to)
    flags: tuple[WhisperFlag, ...] = ()

    def count(self, day: int) -> dict[tuple[str, ...], int]:
        out: dict[tuple[str, ...], int] = {}
        for number, members in self.messages:
            if number == day:
                out[members] = out.get(members, 0) + 1
        return out


__all__ = ["Effect", "Info", "NightChoice", "NightState", "SheetEntry", "WhisperFlag", "WhisperLedger"]

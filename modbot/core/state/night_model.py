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
from typing import cast

from ..say import Say

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

    def describe(self, names: dict[str, str] | None = None) -> str:
        """The choice in words (`names`: character ids to names)."""
        if self.passed:
            return "pass (no choice tonight)"
        parts = []
        if self.players:
            parts.append(" and ".join(self.players))
        if self.chosen_character:
            name = (names or {}).get(self.chosen_character, self.chosen_character)
            parts.append(f"as {name}" if self.players else name)
        if self.text:
            parts.append(f"\"{self.text}\"")
        return " ".join(parts) or "(nothing)"


@dataclass(frozen=True, slots=True)
class SheetEntry:
    step: str  # a character id, or minioninfo / demoninfo
    player: str | None
    character: str  # the name shown on the sheet
    choice: str = ""
    status: tuple[str, ...] = ()  # dead, malfunctioning, mad as X, is really Y
    suggestion: str = ""  # what the bot proposes, or "ST decides: ..."
    needs_result: bool = False  # the player learns something: a result is owed


@dataclass(frozen=True, slots=True)
class Effect:
    """A grimoire change the night proposes, applied at dawn once approved."""

    player: str
    field: str  # a GrimoireEntry field: poisoned, character, alignment...
    value: object
    why: str
    until_dusk: bool = False  # undone when the next night begins (the Poisoner's poison)

    def describe(self) -> str:
        change = {"poisoned": "poisoned", "drunk": "drunk"}.get(self.field) or (
            f"reminders become {', '.join(cast(tuple, self.value)) or 'none'}" if self.field == "reminders"
            else f"mad about being the {self.value}" if self.field == "mad_as"
            else f"{self.field} becomes {self.value}")
        return f"{self.player}: {change}{' until dusk' if self.until_dusk else ''} ({self.why})"


@dataclass(frozen=True, slots=True)
class Info:
    value: str | None = None  # the true answer, when computable
    sentence: str = "{value}"  # what the player is told, with {value}
    note: str = ""  # what the Storyteller decides, or the effect to apply
    needs_result: bool = False
    death: str | None = None
    tells: tuple[tuple[str, str], ...] = ()  # (player, message) proposed for dawn
    result: str | None = None  # a proposed result when there is no computed value
    effects: tuple[Effect, ...] = ()  # grimoire changes proposed for dawn


@dataclass(frozen=True, slots=True)
class NightState:
    number: int
    choices: tuple[NightChoice, ...] = ()
    reminded: bool = False
    locked: bool = False
    sheet: tuple[SheetEntry, ...] = ()
    deaths: tuple[str, ...] = ()
    results: tuple[tuple[str, str], ...] = ()  # (player, what they learn)
    tells: tuple[tuple[str, str], ...] = ()  # (player, an extra message from the ST)
    effects: tuple[Effect, ...] = ()
    approved_by: str | None = None
    approved_at: datetime | None = None
    st_reminded: bool = False
    delayed: bool = False

    def choice_of(self, player: str) -> NightChoice | None:
        """The player's choice for their own ability."""
        return next((c for c in self.choices if c.player == player and c.helps is None), None)

    def helping(self, step: str) -> tuple[NightChoice, ...]:
        """Choices made for another ability (the Barber's swap, Lil' Monsta's babysitter)."""
        return tuple(c for c in self.choices if c.helps == step)

    def result_of(self, player: str) -> str | None:
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

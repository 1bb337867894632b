"""Theory of operation: the things a player or Storyteller asks the game to do.

Actions are imperative value objects with canonical player names already resolved. They say
nothing about who asked or when: the engine pairs each with a `Context` (author, time, post).
`to_json()` gives the stable shape printed by `modbot parse`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any


class VoteValue(StrEnum):
    """A vote's value (stored as its value: "yes" to execute, "no" to pardon)."""

    YES = "yes"
    NO = "no"


YES, NO = VoteValue.YES, VoteValue.NO


@dataclass(frozen=True, slots=True)
class Nominate:
    target: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "nominate", "target": self.target}


@dataclass(frozen=True, slots=True)
class Vote:
    nominee: str
    value: VoteValue

    def to_json(self) -> dict[str, Any]:
        return {"type": "vote", "nominee": self.nominee, "value": self.value}


@dataclass(frozen=True, slots=True)
class Unvote:
    nominee: str | None  # None: every unlocked vote of the author

    def to_json(self) -> dict[str, Any]:
        return {"type": "unvote", "nominee": self.nominee}


@dataclass(frozen=True, slots=True)
class Whisper:
    with_: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "whisper", "with": list(self.with_)}


@dataclass(frozen=True, slots=True)
class WhisperStoryteller:
    def to_json(self) -> dict[str, Any]:
        return {"type": "whisper_storyteller"}


@dataclass(frozen=True, slots=True)
class AcceptWhisper:
    from_: str | None

    def to_json(self) -> dict[str, Any]:
        return {"type": "accept_whisper", "from": self.from_}


@dataclass(frozen=True, slots=True)
class DeclineWhisper:
    from_: str | None

    def to_json(self) -> dict[str, Any]:
        return {"type": "decline_whisper", "from": self.from_}


@dataclass(frozen=True, slots=True)
class AskForCount:
    """`/vc`: a player asks for the vote count now."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "ask_for_count"}


@dataclass(frozen=True, slots=True)
class GoAway:
    """`/away until …` or `/away 2d`: the player is away until then (reading/away_form.py);
    the rule resolves the moment against the post's time (deciding/away.py)."""

    date: str | None = None  # YYYY-MM-DD
    weekday: int | None = None  # 0: Monday; the next such day after the post
    time: str = "00:00"  # HH:MM, in the zone
    offset_minutes: int = 0  # the zone, east of UTC
    hours: float | None = None  # `/away 2d`: this long from the post

    def to_json(self) -> dict[str, Any]:
        return {"type": "away", "date": self.date, "weekday": self.weekday, "time": self.time,
                "offset_minutes": self.offset_minutes, "hours": self.hours}


@dataclass(frozen=True, slots=True)
class ComeBack:
    """`/back`: the player's absence ends now."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "back"}


@dataclass(frozen=True, slots=True)
class SkipNomination:
    def to_json(self) -> dict[str, Any]:
        return {"type": "skip_nomination"}


@dataclass(frozen=True, slots=True)
class CallExile:
    target: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "exile", "target": self.target}


@dataclass(frozen=True, slots=True)
class PublicChoice:
    """`/choose X` in the thread: a public ability (the Klutz, the Moonchild, the Psychopath)."""

    target: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "public_choice", "target": self.target}


@dataclass(frozen=True, slots=True)
class PublicGuess:
    """`/guess X as CHARACTER` in the thread (the Juggler; a Minion guessing the Damsel)."""

    target: str
    character: str  # as written; the rules resolve it against the script

    def to_json(self) -> dict[str, Any]:
        return {"type": "public_guess", "target": self.target, "character": self.character}


@dataclass(frozen=True, slots=True)
class PublicStatement:
    """`/gossip TEXT` in the thread: a public statement (the Gossip's: true, a death tonight)."""

    text: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "public_statement", "text": self.text}


@dataclass(frozen=True, slots=True)
class DoomsayerCall:
    """`/doomsayer` in the thread: the Doomsayer's call (someone on the caller's team dies)."""

    text: str = ""  # anything after it, kept as said

    def to_json(self) -> dict[str, Any]:
        return {"type": "doomsayer_call", "text": self.text}


@dataclass(frozen=True, slots=True)
class Point:
    """`/point NAME` in the thread, during the Boomdandy's countdown."""

    target: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "point", "target": self.target}


@dataclass(frozen=True, slots=True)
class Fiddle:
    """`/fiddle NAME` in the thread, while the Fiddler's vote is open."""

    target: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "fiddle", "target": self.target}


@dataclass(frozen=True, slots=True)
class GiveToken:
    """`/give NAME` in the thread: a player gives its vote token to a Beggar."""

    target: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "give", "target": self.target}


@dataclass(frozen=True, slots=True)
class Kill:
    """A Storyteller's (or, later, an ability's) death outside execution."""

    player: str
    cause: str = "storyteller"

    def to_json(self) -> dict[str, Any]:
        return {"type": "kill", "player": self.player, "cause": self.cause}


PlayerAction = (
    Nominate | Vote | Unvote | Whisper | WhisperStoryteller | AcceptWhisper | DeclineWhisper
    | SkipNomination | CallExile | PublicChoice | PublicGuess | PublicStatement | DoomsayerCall | Point | Fiddle | GiveToken
    | AskForCount | GoAway | ComeBack
)
Action = PlayerAction | Kill


@dataclass(frozen=True, slots=True)
class Context:
    """Who asked, when (the forum's `created_at`), and in which post."""

    author: str
    at: datetime
    post_number: int | None = None

"""Theory of operation: the Storytellers' commands as values (the ground floor): one frozen
dataclass an action, parsed from a command line by reading/commands.py and decided by
deciding/staff.py; `DESTRUCTIVE` names the kinds that ask a confirmation."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import VoteValue


@dataclass(frozen=True, slots=True)
class StKill:
    player: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class StRevive:
    player: str


@dataclass(frozen=True, slots=True)
class StGhostVote:
    player: str
    give: bool


@dataclass(frozen=True, slots=True)
class StNominate:
    nominator: str | None  # None: the Storyteller (the Bishop's rule)
    nominee: str


@dataclass(frozen=True, slots=True)
class StVote:
    voter: str
    nominee: str
    value: VoteValue


@dataclass(frozen=True, slots=True)
class StCancelNomination:
    nominee: str


@dataclass(frozen=True, slots=True)
class StExtend:
    minutes: int


@dataclass(frozen=True, slots=True)
class StNextPhase:
    pass


@dataclass(frozen=True, slots=True)
class StEndDay:
    pass


@dataclass(frozen=True, slots=True)
class StEndVoting:
    force: bool = False
    reason: str = ""


@dataclass(frozen=True, slots=True)
class StVoteCount:
    pass


@dataclass(frozen=True, slots=True)
class StExecute:
    player: str


@dataclass(frozen=True, slots=True)
class StExile:
    player: str


@dataclass(frozen=True, slots=True)
class StPause:
    pass


@dataclass(frozen=True, slots=True)
class StGrimoire:
    player: str
    field: str  # character | alignment | poisoned | drunk | mad_as | reminders | heal
    value: object = None
    by: str | None = None  # drunk, poisoned: the player whose ability caused it (`by NAME`)


@dataclass(frozen=True, slots=True)
class StAlias:
    player: str
    alias: str


@dataclass(frozen=True, slots=True)
class StSeat:
    order: tuple[str, ...]  # empty: just show the seats


@dataclass(frozen=True, slots=True)
class StSub:
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class StWin:
    winner: str  # good | evil
    reason: str = ""


@dataclass(frozen=True, slots=True)
class StSetVote:
    voter: str
    nominee: str
    value: VoteValue


@dataclass(frozen=True, slots=True)
class StLock:
    voter: str
    nominee: str


@dataclass(frozen=True, slots=True)
class StUnlock:
    voter: str
    nominee: str


@dataclass(frozen=True, slots=True)
class StResume:
    pass


StaffAction = (StKill | StRevive | StGhostVote | StNominate | StVote | StCancelNomination
               | StExtend | StNextPhase | StEndDay | StEndVoting | StVoteCount | StExecute
               | StExile | StPause | StResume | StGrimoire | StWin | StSetVote | StLock
               | StUnlock | StAlias | StSeat | StSub)


@dataclass(frozen=True, slots=True)
class StReveal:
    """`!reveal`: publish the whole grimoire and the game's record (once it is over)."""


@dataclass(frozen=True, slots=True)
class StObserver:
    """`!observer NAME`: let a forum user who does not play watch the grimoire
    (deciding/observers.py)."""

    name: str


# Commands that change who lives or plays, end the day or the game, or show the grimoire:
# asked to confirm unless `--yes`.
DESTRUCTIVE = (StKill, StRevive, StEndDay, StExecute, StExile, StWin, StSub, StReveal, StObserver)

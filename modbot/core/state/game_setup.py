"""Theory of operation: what the game file says, as frozen values that never change in play.

`GameSetup` holds the profile, the schedule (`PhaseLengths`), the Storytellers, the seats in
order (`Seat`), the script and the grimoire as the file deals them, and the game's options.
model.py builds the changing `GameState` on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum

from .names import Roster
from .script import Script, Terms


class Profile(str, Enum):
    BOTF = "botf"
    OFFICIAL = "official"


class Phase(str, Enum):
    PREGAME = "pregame"
    NIGHT = "night"
    DISCUSSION = "discussion"
    NOMINATION = "nomination"
    VOTING = "voting"

    @property
    def is_day(self) -> bool:
        return self in (Phase.DISCUSSION, Phase.NOMINATION, Phase.VOTING)


@dataclass(frozen=True, slots=True)
class PhaseLengths:
    """Hours; the BotF defaults."""

    night: float = 24
    discussion: float = 12
    nomination: float = 12
    voting: float = 24
    night_action_lock: float = 2

    def of(self, phase: Phase) -> timedelta:
        return timedelta(hours=getattr(self, phase.value))


@dataclass(frozen=True, slots=True)
class Seat:
    name: str
    aliases: tuple[str, ...] = ()
    alive: bool = True
    ghost_vote: bool = True  # a dead player's one vote token is unspent
    traveller: bool = False

    @property
    def can_vote_yes(self) -> bool:
        return self.alive or self.ghost_vote


@dataclass(frozen=True, slots=True)
class GrimoireEntry:
    """What the Storyteller recorded about one player. Private: never in a public view."""

    character: str | None = None
    alignment: str | None = None
    poisoned: bool = False
    drunk: bool = False
    mad_as: str | None = None
    reminders: tuple[str, ...] = ()
    thinks: str | None = None  # the character the player is shown (the Drunk's Townsfolk)
    evil_team: int | None = None  # with several evil teams (seed 002's Djinn): which one
    cursed_day: int | None = None  # the Witch's curse: nominating on this day kills
    survives_execution_day: int | None = None  # the Devil's Advocate: not killed by execution
    ability_of: str | None = None  # an ability gained (the Philosopher's, the Cannibal's)
    funny_day: int | None = None  # the Deviant was funny on this day: it cannot be exiled
    bluffs: tuple[str, ...] = ()  # a Demon's own bluffs (several evil teams); else the game's
    registers_as: tuple[str, ...] = ()  # the Storytellers' kept registrations (state/registration.py)


@dataclass(frozen=True)
class GameSetup:
    name: str
    seats: tuple[Seat, ...]
    first_night_starts: datetime
    profile: Profile = Profile.BOTF
    lengths: PhaseLengths = PhaseLengths()
    storytellers: tuple[str, ...] = ()
    bot_username: str = "modbot"
    topic_id: int | None = None
    count_spoilers: bool = True
    end_day_when_all_locked: bool = True
    whispers_per_day: int = 0  # declarations per player per day; 0: no limit
    pictures: bool = True  # the town square picture in vote counts (the shell's; rules ignore it)
    script: Script | None = None  # the characters; None: no private side
    grimoire: tuple[tuple[str, GrimoireEntry], ...] = ()  # (player, GrimoireEntry) as the game file deals them
    bluffs: tuple[str, ...] = ()  # character ids the Demon learns as not in play
    remind_before_lock: float = 6  # hours before the night lock; 0: no reminders
    hand_nudge_hours: float = 6  # a PM to the player the clock hand waits on; 0: never
    prod_hours: float = 24  # hours of day without a thread post before a prod; 0: never
    away_hours_max: float = 72  # the longest absence `/away` pauses prods and nudges for
    backups: tuple[str, ...] = ()  # players waiting to replace one (the sign-ups' backups)
    reveal: str = "command"  # the grimoire reveal: "command" (!reveal), "auto" or "off"
    seal_salt: str = ""  # 64 hex digits made by the shell: the deal's commitment (seal.py)
    vote_counts: str = "post"  # "post": each count a new post; "edit": one running count a day
    vote_forms: str = "forum"  # "forum": other forum games' vote forms too; "strict": the usual
    # the shortest time anyone is given to act (a !confirm, a countdown, the Klutz), in forum
    # time: a rehearsal whose clock runs N times faster sets N minutes, one real minute
    shortest_window: timedelta = timedelta(0)
    fabled: tuple[str, ...] = ()  # Fabled in play (ids), announced publicly
    revolutionary: tuple[str, ...] = ()  # the Revolutionary's two neighbouring players
    lil_monsta: bool = False  # Lil' Monsta is the Demon: no seat holds it, Minions babysit
    # (name, forum user id) the game file gives: seats, Storytellers, backups and the bot
    user_ids: tuple[tuple[str, int], ...] = ()
    roster: Roster = field(init=False, repr=False, compare=False)
    seat_index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        aliases = tuple((alias, s.name) for s in self.seats for alias in s.aliases)
        object.__setattr__(self, "roster", Roster(tuple(s.name for s in self.seats), aliases))
        object.__setattr__(self, "seat_index", {s.name: i for i, s in enumerate(self.seats)})

    def clock_order(self, nominee: str) -> tuple[str, ...]:
        """Seats starting after the nominee, going down the list, ending with the nominee."""
        names = [s.name for s in self.seats]
        start = self.seat_index[nominee] + 1
        return tuple(names[start:] + names[:start])

    def window(self, length: timedelta) -> timedelta:
        """A time to act of `length`, never shorter than the game's `shortest_window`."""
        return max(length, self.shortest_window)

    @property
    def terms(self) -> Terms:
        """The script's words for the teams (BotF: Loyal and Cultist); good and evil without."""
        return self.script.terms if self.script is not None else Terms()

    @property
    def private_script(self) -> Script:
        """The script, where the private side guarantees one (a deal, a night, a character's
        ability); a game without a private side never reaches those rules."""
        if self.script is None:
            raise ValueError(f"game {self.name!r} has no script: it has no private side")
        return self.script

    def is_storyteller(self, username: str) -> bool:
        lowered = username.casefold()
        return any(lowered == st.casefold() for st in self.storytellers)

"""Theory of operation: abilities that fire when something happens, not when chosen.

The engine asks `after(state, event)` after applying each event and emits what it returns,
so a trigger's consequences are events like any other (stored, replayed, audited). Each is
its character's record's part (`CHARACTERS`: event type and trigger, asked in that order):
- the Witch's curse: a cursed player who nominates on the cursed day dies (the nomination
  still counts), while the Witch lives, works, and more than 3 players live;
- the Scarlet Woman: when the Demon dies with 5 or more players alive (travellers not
  counted), a working Scarlet Woman becomes that Demon;
- the Golem: its one nomination kills a nominee who is not the Demon;
- the Cannibal: an executed good player's ability becomes its own; an evil one poisons it
  until a good player is executed;
- the Pixie: when the character it is mad about dies, the Storytellers judge (madness.py);
- the Psychopath: executed, it dies only if it loses roshambo (the Storytellers play it);
- the Fearmonger: executing the player it chose, on its own nomination, makes that player's
  team lose (the Storytellers are asked to confirm, as for every win).
Deaths by ability are announced in the thread without saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ..state.events import Event, Executed, ExecutionCalled, Nominated, PlayerDied
from ..state.feature import CharacterRules, Feature, Notice, Trigger, to_player, to_storytellers, unchanged
from ..state.grimoire import (
    babysitter,
    character_id,
    is_evil,
    is_malfunctioning,
    jinxed,
    living_residents,
    players_of_team,
    true_character,
)
from ..state.ids import LIL_MONSTA
from ..state.model import EXECUTION, GameState, iso
from ..state.private_events import EffectApplied
from ..state.registration import ASKING, registered_character
from ..state.slots import Slot
from ..state.staff_events import GrimoireChanged
from ..wording import Say, say
from . import boomdandy, lasting, madness
from .demon_heirs import ScarletWomanPromoted, scarlet_woman
from .lleech_host import lleech_host, lleech_survives
from .undying import death_averted
from .wins import WinDetected, good_loses, twin_of

ABILITY_DEATH = "ability"  # the cause of a death by an ability (announced, never explained)

# (player, message) held until dusk: by day, a Scarlet Woman's change is told "at the earliest
# convenience, but only at night" (seed 002)
UNTOLD: Slot[tuple[tuple[str, Say], ...]] = Slot("untold", ())


def after(state: GameState, event: Event) -> tuple[Event, ...]:
    """What `event` sets off through the characters' abilities, in `CHARACTERS`' order (a
    nomination only when it is for an execution)."""
    if not state.dealt or state.setup.script is None:
        return ()
    if isinstance(event, Nominated) and event.kind != EXECUTION:
        return ()
    return tuple(e for trigger in _ON.get(type(event), ()) for e in trigger(state, event))


def _golem(state: GameState, event: Nominated) -> tuple[Event, ...]:
    """The Golem's one nomination kills a nominee who is not the Demon."""
    golem = true_character(state, event.nominator)
    if golem is None or golem.id != "golem" or is_malfunctioning(state, event.nominator):
        return ()
    made = sum(1 for d in state.days for n in d.nominations if n.nominator == event.nominator)
    demons = players_of_team(state, "demon")  # Lil' Monsta's babysitter registers as one
    if made != 1 or event.nominee in demons or not state.seat(event.nominee).alive:
        return ()
    return (PlayerDied(event.nominee, ABILITY_DEATH, event.at),)


def _virgin(state: GameState, event: Nominated) -> tuple[Event, ...]:
    """The Virgin (Trouble Brewing): the first time it is nominated, a Townsfolk nominator is
    executed at once. A Spy nominating registers as what the Storytellers kept for the Virgin
    (state/registration.py: `!registers PLAYER as washerwoman to virgin`, or to all); with none
    kept, its truth decides (they may `!execute` it)."""
    virgin = true_character(state, event.nominee)
    if virgin is None or virgin.id != "virgin" or is_malfunctioning(state, event.nominee):
        return ()
    if sum(1 for d in state.days for n in d.nominations if n.nominee == event.nominee) != 1:
        return ()  # not its first nomination: the ability is spent
    nominator = registered_character(ASKING.put(state, "virgin"), event.nominator)
    if nominator is None or nominator.team != "townsfolk":
        return ()
    return (ExecutionCalled(event.nominator, "virgin", event.at),)


def feared_by(state: GameState, fearmonger: str) -> str | None:
    """The Fearmonger's current choice (the latest night's)."""
    for night in reversed(state.past_nights + ((state.night,) if state.night else ())):
        choice = night.choice_of(fearmonger)
        if choice is not None and choice.players:
            return choice.players[0]
    return None


def _doppelganger(state: GameState, event: Executed) -> tuple[Event, ...]:
    """Seed 001: "If the Loyal player is executed, Cultists win." """
    pair = twin_of(state)
    if pair is None or pair[1] != event.player or is_malfunctioning(state, pair[0]) \
            or is_evil(state, event.player):
        return ()
    terms = state.setup.private_script.terms
    return good_loses(state, say("win.twin_executed", team=terms.good), event.at)


def _fearmonger(state: GameState, event: Executed) -> tuple[Event, ...]:
    """If the Fearmonger nominated and executed its chosen player, that player's team loses."""
    day = state.today
    nomination = day.nomination_of(event.player) if day else None
    if nomination is None:
        return ()
    fearmonger = nomination.nominator
    character = true_character(state, fearmonger)
    if character is None or character.id != "fearmonger" or \
            is_malfunctioning(state, fearmonger) or feared_by(state, fearmonger) != event.player:
        return ()
    if state.setup.private_script.terms.evil_teams and is_evil(state, event.player):
        return _team_loses(state, state.grimoire_of(event.player).evil_team, event.at)
    reason = say("win.fearmonger", player=event.player)
    if is_evil(state, event.player):
        return (WinDetected("good", reason, event.at),)
    return good_loses(state, reason, event.at)


def _team_loses(state: GameState, team: int | None, at: datetime) -> tuple[Event, ...]:
    """Seed 002, Djinn: "After an evil team loses to an ability, their Demon dies." (the win
    check then turns the team good, or ends the game)"""
    return tuple(PlayerDied(d, ABILITY_DEATH, at) for d in players_of_team(state, "demon")
                 if state.grimoire_of(d).evil_team == team)


def _witch_curse(state: GameState, event: Nominated) -> tuple[Event, ...]:
    entry = state.grimoire_of(event.nominator)
    living = len(living_residents(state))
    witches = [w for w in players_of_team(state, "minion")
               if character_id(state, w) == "witch" and not is_malfunctioning(state, w)]
    if entry.cursed_day != state.cycle or not witches or living <= 3 or \
            not state.seat(event.nominator).alive:
        return ()
    return (PlayerDied(event.nominator, ABILITY_DEATH, event.at),)


@dataclass(frozen=True, slots=True)
class SweetheartDied:
    """The Sweetheart died: the Storytellers choose who is drunk from now on."""

    player: str
    at: datetime


def _sweetheart(state: GameState, event: PlayerDied) -> tuple[Event, ...]:
    character = true_character(state, event.player)
    if character is None or character.id != "sweetheart" or \
            is_malfunctioning(state, event.player):
        return ()
    return (SweetheartDied(event.player, event.at),)


@dataclass(frozen=True, slots=True)
class CannibalAte:
    """The Cannibal has the ability of the recently executed player (poisoned if evil, until
    a good player dies by execution)."""

    player: str
    ability: str | None  # the executee's character id; None: a good one, keeps nothing
    poisoned: bool
    at: datetime


def _cannibal(state: GameState, event: PlayerDied) -> tuple[Event, ...]:
    if event.cause != "execution":
        return ()
    eaten = true_character(state, event.player)
    evil = is_evil(state, event.player)
    return tuple(CannibalAte(s.name, None if evil else (eaten.id if eaten else None), evil,
                             event.at)
                 for s in state.seats if s.alive and (c := true_character(state, s.name))
                 and c.id == "cannibal")


def _cannibal_ate(state: GameState, e: CannibalAte) -> GameState:
    return state.with_entry(e.player, ability_of=e.ability, poisoned=e.poisoned)


def _lleech(state: GameState, event: PlayerDied) -> tuple[Event, ...]:
    """Seed 002's Lleech: it dies if and only if its host dies (unless it malfunctions). A
    host dying at dawn takes the Lleech with it in the night's own deaths (the sheet lists
    both), so no second death is announced."""
    tonight = state.past_nights[-1].deaths if event.cause == "night" and state.past_nights \
        else ()
    return tuple(PlayerDied(s.name, ABILITY_DEATH, event.at) for s in state.seats
                 if s.alive and (c := true_character(state, s.name)) is not None
                 and c.id == "lleech" and not is_malfunctioning(state, s.name)
                 and lleech_host(state, s.name) == event.player and s.name not in tonight)


@dataclass(frozen=True, slots=True)
class PsychopathExecuted:
    """A working Psychopath was executed: it dies only if it loses roshambo (the
    Storytellers play it out and `!kill` the loser)."""

    player: str
    opponent: str | None  # the nominator; None: against the Storytellers
    at: datetime


def _psychopath(state: GameState, event: Executed) -> tuple[Event, ...]:
    if not _is_working(state, event.player, "psychopath") or _sitting_psychopath(state,
                                                                                 event.player):
        return ()
    nomination = state.current_day.nomination_of(event.player) if state.today else None
    nominator = nomination.nominator if nomination else None
    opponent = nominator if nominator not in (None, event.player) else None  # seed 002
    return (PsychopathExecuted(event.player, opponent, event.at),)


def _is_working(state: GameState, player: str, character_id: str) -> bool:
    character = true_character(state, player)
    return character is not None and character.id == character_id and \
        not is_malfunctioning(state, player)


def protected_from_execution(state: GameState, player: str) -> bool:
    """The Devil's Advocate's choice (or the Storytellers' for the Pacifist), a working Lleech
    whose host lives, a working Psychopath (roshambo decides), a death averted (undying.py: the
    Sailor, the Tea Lady's neighbours, the Fool)."""
    if state.grimoire_of(player).survives_execution_day == state.cycle or \
            death_averted(state, player) is not None:  # the Pacifist's call, the Sailor, ...
        return True
    return (_is_working(state, player, "psychopath") and not _sitting_psychopath(state, player)) \
        or lleech_survives(state, player)


def _sitting_psychopath(state: GameState, player: str) -> bool:
    """The official Lil' Monsta + Psychopath jinx: a Psychopath babysitting Lil' Monsta dies
    when executed (no roshambo)."""
    return jinxed(state, LIL_MONSTA, "psychopath") and babysitter(state) == player


def _promoted(state: GameState, e: ScarletWomanPromoted) -> GameState:
    state = state.with_entry(e.player, character=e.character)
    if state.phase.is_day:  # seed 002: she is told "only at night"
        name = state.setup.private_script.name_of(e.character)
        state = UNTOLD.put(state, (*UNTOLD.of(state),
                                   (e.player, say("tell.scarlet_woman", character=name))))
    return state


@dataclass(frozen=True, slots=True)
class UntoldDelivered:
    """Dusk: the messages held during the day go out (the Scarlet Woman's change)."""

    messages: tuple[tuple[str, Say], ...]
    at: datetime


def deliver_untold(state: GameState, at: datetime) -> list[Event]:
    untold = UNTOLD.of(state)
    return [UntoldDelivered(untold, at)] if untold else []


def _delivered(state: GameState, _e: UntoldDelivered) -> GameState:
    return UNTOLD.put(state, ())


def _told_promoted(state: GameState, event: ScarletWomanPromoted, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """Told at once at night; by day, at dusk (UntoldDelivered)."""
    name = state.setup.private_script.name_of(event.character)
    day = state.phase.is_day
    player = () if day else (
        to_player(event.player, "night_results", f"promoted:{event.player}:{iso(event.at)}",
                  night=None, lines=[say("tell.scarlet_woman", character=name)]),)
    return (*player, to_storytellers(
        "st_note", f"promoted-st:{event.player}:{iso(event.at)}",
        text=say("st.scarlet_woman", player=event.player, character=name,
                 when=say("st.told_at_dusk") if day else "")))


def _told_untold(_state: GameState, event: UntoldDelivered, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return tuple(to_player(player, "night_results", f"untold:{player}:{iso(event.at)}",
                           night=None, lines=[text]) for player, text in event.messages)


def _told_sweetheart(state: GameState, event: SweetheartDied, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("st_note", f"sweetheart:{event.player}",
                            text=say("st.sweetheart", player=event.player,
                                     term=state.setup.terms.malfunction)),)


def _told_roshambo(_state: GameState, event: PsychopathExecuted, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    against = event.opponent or say("st.roshambo_you")
    return (to_storytellers("st_note", f"roshambo:{event.player}:{iso(event.at)}",
                            text=say("st.roshambo", player=event.player, against=against)),)


FEATURE = Feature(
    "triggers",
    appliers={ScarletWomanPromoted: _promoted, UntoldDelivered: _delivered,
              SweetheartDied: unchanged, PsychopathExecuted: unchanged,
              CannibalAte: _cannibal_ate},
    notices={ScarletWomanPromoted: _told_promoted, UntoldDelivered: _told_untold,
             SweetheartDied: _told_sweetheart, PsychopathExecuted: _told_roshambo},
    slots=(UNTOLD,),
)


def _boomdandy(state: GameState, event: Executed) -> tuple[Event, ...]:
    return boomdandy.exploded(state, event.player, event.at)


CHARACTERS: tuple[CharacterRules, ...] = tuple(  # asked in this order, an event's type at a time
    CharacterRules(cid, triggers=((kind, trigger),)) for cid, kind, trigger in (
        ("witch", Nominated, _witch_curse), ("golem", Nominated, _golem),
        ("virgin", Nominated, _virgin),
        ("scarletwoman", PlayerDied, scarlet_woman), ("sweetheart", PlayerDied, _sweetheart),
        ("cannibal", PlayerDied, _cannibal), ("lleech", PlayerDied, _lleech),
        ("widow", PlayerDied, lasting.ended_by_death), ("pixie", PlayerDied, madness.pixie_may_gain),
        ("sweetheart", EffectApplied, lasting.ended_by_change),
        ("sweetheart", GrimoireChanged, lasting.ended_by_change),
        ("fearmonger", Executed, _fearmonger), ("doppelganger", Executed, _doppelganger),
        ("boomdandy", Executed, _boomdandy), ("psychopath", Executed, _psychopath),
    ))
_ON: dict[type, tuple[Trigger, ...]] = {}
for _record in CHARACTERS:
    for _kind, _trigger in _record.triggers:
        _ON[_kind] = (*_ON.get(_kind, ()), _trigger)

__all__ = [
    "ABILITY_DEATH",
    "CHARACTERS",
    "UNTOLD",
    "CannibalAte",
    "PsychopathExecuted",
    "ScarletWomanPromoted",
    "SweetheartDied",
    "UntoldDelivered",
    "after",
    "deliver_untold",
    "protected_from_execution",
]

"""Theory of operation: what a feature of the rules hands to the registry, as plain values.

A feature module (the Boomdandy, the Fabled, the night's commands, ...) defines its actions,
events and rules, then exports one `Feature` value naming them. Nothing is registered when a
module is imported: `registry.py` builds every table from an explicit, ordered list of
features, so what the engine can do never depends on which modules happen to be imported.

A feature's time-triggered rules are `Timer` values in its `timers`: when the rule next
applies (`due`: a moment, or None while it waits for nothing on the clock) and what it does
then (`fire`: the events of that moment). The registry lists them in one table, which the
engine reads both to say when the clock next matters (`next_due`) and to run the moments up
to a time (`advance`): one list, one order (the earliest first; a tie in the table's order).

A feature also says who is told what of the events it emits: its `notices` map an event type
to a function `(state, event, batch) -> Notice values` (`state` right after the event, a
dawn's once the dawn is over: registry.py's `states_after`; `batch` the events applied with
it). A `Notice` is an address (the thread, the Storytellers, one
player's grimoire PM), a template's code, a key and a view of codes and values, never words:
the shell renders it and sends it once. Several features may give notices for one event
type; they are told in the registry's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the ground floor's values, named for the types alone
    from .actions import Context
    from .model import GameState
    from .night_model import Info, NightChoice
    from .rejection import Rejection
    from .slots import Slot


class Applier(Protocol):
    """How an event changes the game: the state after it (the only way a state changes)."""

    def __call__(self, state: GameState, event: Any, /) -> GameState: ...


class Rule(Protocol):
    """What an action causes: its events (none, one or several), or why not."""

    def __call__(self, state: GameState, action: Any, ctx: Context, /) -> Sequence[Any] | Rejection: ...


class Information(Protocol):
    """What an ability yields tonight (characters/information.py, effects.py): the answer, the
    note for the Storytellers, the effects and deaths it proposes."""

    def __call__(self, state: GameState, player: str, choice: NightChoice | None,
                 deaths: tuple[str, ...], /) -> Info: ...


class Waking(Protocol):
    """Whether a player woke tonight to use this ability, where the ability acts only on a
    condition (the Godfather: when an Outsider died today); `deaths`: tonight's so far."""

    def __call__(self, state: GameState, player: str, deaths: tuple[str, ...], /) -> bool: ...


class Trigger(Protocol):
    """What an event sets off because of a character's ability: the events that follow (a
    death that promotes the Scarlet Woman, a nomination the Witch cursed)."""

    def __call__(self, state: GameState, event: Any, /) -> Sequence[Any]: ...


@dataclass(frozen=True, slots=True)
class CharacterRules:
    """What the rules know of one character beyond its catalogue record (data/characters.json),
    by its id: what its step yields at night (`night`), what its `/choose X` in the thread
    does (`public_choice`), what events set off through it (`triggers`: event type and
    trigger, in the order they are asked), and when its player counts as having woken (`woke`,
    where not whenever its catalogue step wakes them: characters/waking.py). Ability modules
    declare them (`CHARACTERS`); characters/records.py merges them, one record a character."""

    id: str
    night: Information | None = None
    public_choice: Rule | None = None
    triggers: tuple[tuple[type, Trigger], ...] = ()
    woke: Waking | None = None


class Noticer(Protocol):
    """Who is told what of an event (`state` right after it: registry.py's `states_after`;
    `batch` the events with it)."""

    def __call__(self, state: GameState, event: Any, batch: Any, /) -> Sequence[Notice]: ...


@dataclass(frozen=True)
class Timer:
    """A time-triggered rule: `due(state)` the moment it next applies, `fire(state, at)` the
    events it causes then (applied in order by the engine)."""

    name: str
    due: Callable[[Any], datetime | None]
    fire: Callable[[Any, datetime], Sequence[Any]]


THREAD = "thread"  # the game thread: public facts only (the shell posts only public templates)
STORYTELLERS = "storytellers"  # the Storytellers' conversation with the bot
PLAYER = "player"  # one player's grimoire PM (the player, the Storytellers, the bot)
OBSERVERS = "observers"  # the observers' conversation (the observers, the Storytellers, the bot)

# What a notice asks of the day's vote count (the shell numbers the counts, throttles them in
# forum time and draws their picture; see app/posting/vote_counts.py)
COUNT = "count"  # a vote count post of its own, now ("open", "closed", "requested", ...)
CARRIED = "carried"  # the post shows the vote count as of now (the voting phase opens)
DAY_END = "day_end"  # the day's final count, with how the day ended
CHANGED = "changed"  # votes changed: a count is owed, at most every `vote_count_minutes`


@dataclass(frozen=True)
class Notice:
    """One message owed because of an event.

    `to`: THREAD, STORYTELLERS, OBSERVERS, or PLAYER (then `player` names the player; for
    OBSERVERS, an observer to invite into the conversation first). `template`: the
    template's code ("st_note" is templates/st_note.md.j2; "" for a notice with no message of
    its own, such as CHANGED). `key`: unique in the game and the same whenever the same inputs
    are folded again, so the shell sends it once. `view`: the template's values: codes (`Say`),
    names, numbers and moments (a `datetime` is shown as a forum date), never words.
    `count`: what the post asks of the vote count ("" for none). `echo`: a Storyteller
    command's public echo, posted only when the command was posted in the game thread.
    `topic`: "closed" or "open", the thread closed at night when the game file asks.
    """

    to: str
    template: str
    key: str
    view: Mapping[str, Any] = field(default_factory=dict)
    player: str = ""
    count: str = ""
    at: datetime | None = None  # COUNT, CARRIED, DAY_END: the moment of the count
    day: int | None = None  # DAY_END: the day counted
    echo: bool = False
    topic: str = ""

    @property
    def moment(self) -> datetime:
        """The forum time of a vote count's notice (COUNT, CARRIED, DAY_END always carry it)."""
        if self.at is None:
            raise ValueError(f"the notice {self.key!r} carries no moment")
        return self.at


def to_player(player: str, template: str, key: str, **view: Any) -> Notice:
    """A notice in `player`'s grimoire PM."""
    return Notice(PLAYER, template, key, view, player=player)


def to_storytellers(template: str, key: str, **view: Any) -> Notice:
    """A notice in the Storytellers' conversation with the bot."""
    return Notice(STORYTELLERS, template, key, view)


def to_observers(template: str, key: str, joined: str = "", **view: Any) -> Notice:
    """A notice in the observers' conversation (`joined`: an observer to invite first)."""
    return Notice(OBSERVERS, template, key, view, player=joined)


def to_thread(template: str, key: str, **view: Any) -> Notice:
    """A public post in the game thread: public facts only."""
    return Notice(THREAD, template, key, view)


def _empty() -> Mapping[Any, Any]:
    return {}


@dataclass(frozen=True)
class Feature:
    """One feature's contribution to the registry's tables.

    `staff_overrides` replaces a Storyteller rule an earlier feature declared (the registry
    refuses an override of a rule that does not exist, and any other key declared twice).
    """

    name: str
    appliers: Mapping[type, Applier] = field(default_factory=_empty)
    rules: Mapping[type, Rule] = field(default_factory=_empty)
    staff_rules: Mapping[type, Rule] = field(default_factory=_empty)
    staff_overrides: Mapping[type, Rule] = field(default_factory=_empty)
    commands: tuple[Any, ...] = ()  # commands.Command values, in the guide's order
    command_of: Mapping[type, str] = field(default_factory=_empty)
    timers: tuple[Timer, ...] = ()  # its time-triggered rules
    notices: Mapping[type, Noticer] = field(default_factory=_empty)  # who is told what
    slots: tuple[Slot[Any], ...] = ()  # its own parts of the game's state (state/slots.py)


def unchanged(state: Any, _event: Any) -> Any:
    """The applier of an event that only reports: the state stays as it is."""
    return state

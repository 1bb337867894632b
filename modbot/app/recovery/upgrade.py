"""Theory of operation: an upgrade never changes a live game silently.

At start-up the bot replays each game's stored inputs through the rules it runs now. Where the
rules changed since the game's events were stored (`RULES_VERSION`, a hash of the core's
source, kept per game in the store), it compares the events the replay derives, input by
input, with the stored ones (without their words: `outcomes.py`). Where they differ:
- the game is *held*: its state is the fold of the stored events (`event_codec.fold`), so the
  history the players saw stands, and new posts apply on top of it;
- the Storytellers get one PM with the differences: which posts, what the stored history says
  and what the new rules say, and how the game would stand with the new rules;
- a Storyteller's `!confirm` (with no command of theirs waiting for one) adopts the replayed
  history: the game is replayed from its first post with the new rules, new posts included,
  and the version is recorded, so a restart replays it the same way.
Where nothing differs, the version is recorded and nothing is said. A game whose stored events
cannot be folded (an `!undo` among them) cannot be held: the Storytellers are told so, and the
replayed history is used.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ...adapters.outgoing import Batch
from ...core import GameSetup, GameState
from ..games.event_codec import CannotFold, fold
from ..games.outcomes import UNCOMPARED, comparable
from ..posting.event_words import described
from ..posting.render import later
from .snapshot import source_digest

if TYPE_CHECKING:
    from ..posting.reactions import GameOptions, Reactor

Derived = dict[int, list[tuple[str, dict[str, Any]]]]  # (event type, data) by input id


class CheckedGame(Protocol):
    """What the upgrade check asks of a game (games/runtime.py's `GameRuntime`, which uses
    this module: a protocol, not an import back)."""

    setup: GameSetup
    options: GameOptions
    state: GameState
    reactor: Reactor

    @property
    def game_id(self) -> int: ...
    @property
    def topic_id(self) -> int: ...
    def hold(self, held: Held) -> None: ...


class StoredEvents(Protocol):
    def events_by_input(self, game_id: int) -> Derived: ...

log = logging.getLogger("modbot.app.recovery.upgrade")
MAX_SHOWN = 20  # posts listed in the note; the rest counted

CORE = Path(__file__).resolve().parents[2] / "core"


@lru_cache(maxsize=1)
def rules_version() -> int:
    """A number that changes whenever the core's source does (the rules, the parser)."""
    return int(source_digest(CORE)[:15], 16)


def version_cursor(game_key: str) -> str:
    return f"rules_version:{game_key}"


@dataclass
class Held:
    """A game whose history the current rules read differently."""
    version: int
    replayed: GameState  # the game as the current rules derive it
    held: GameState | None  # the game as its stored events describe it (None: cannot hold)
    differences: list[dict[str, Any]] = field(default_factory=list)  # per input: where, before, after
    why_not_held: str = ""


def compare(setup: GameSetup, inputs: Iterable[Any], derived: Derived, stored: Derived,
            replayed: GameState) -> Held | None:
    """`derived`: the replay's events by input id; `stored`: the store's. None when they agree
    (but for words)."""
    differences = []
    for row in inputs:
        now = _plain(derived.get(row.id, []))
        before = [(name, data) for name, data in stored.get(row.id, [])]
        if comparable(now) != comparable(before):
            where = {k: getattr(row, k) for k in ("kind", "post_number", "author", "at")}
            differences.append({"input": where,
                                "before": [described(n, d) for n, d in before if n not in UNCOMPARED],
                                "after": [described(n, d) for n, d in now if n not in UNCOMPARED]})
    if not differences:
        return None
    events = [event for row in inputs for event in stored.get(row.id, [])]
    try:
        held = fold(setup, events)
    except (CannotFold, TypeError, ValueError, KeyError) as exc:
        return Held(rules_version(), replayed, None, differences, str(exc))
    return Held(rules_version(), replayed, held, differences)


def _plain(events: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """Events as the store keeps them (JSON), to compare like with like."""
    return [(name, json.loads(json.dumps(data, default=str))) for name, data in events]


def game_differences(before: GameState, after: GameState) -> list[dict[str, Any]]:
    """How the game would stand with the new reading, in game terms: each a code (the
    template words it) with its parameters: votes and their totals, executions, who lives,
    ghost votes, night results, the phase and the winner."""
    out: list[dict[str, Any]] = []
    old_days = {d.number: d for d in _days(before)}
    for day in _days(after):
        was = old_days.pop(day.number, None)
        out += _day_differences(day.number, was, day)
    for number, was in old_days.items():
        out += _day_differences(number, was, None)
    for old, new in zip(before.seats, after.seats, strict=False):
        if old.alive != new.alive:
            out.append({"code": "alive", "player": new.name, "before": old.alive,
                        "after": new.alive})
        elif old.ghost_vote != new.ghost_vote:
            out.append({"code": "ghost_vote", "player": new.name, "before": old.ghost_vote,
                        "after": new.ghost_vote})
    out += _night_differences(before, after)
    if (before.phase, before.cycle) != (after.phase, after.cycle):
        out.append({"code": "phase", "before": before.phase.value, "after": after.phase.value,
                    "before_cycle": before.cycle, "after_cycle": after.cycle})
    if before.winner != after.winner:
        out.append({"code": "winner", "before": before.winner, "after": after.winner})
    return out


def _night_differences(before: GameState, after: GameState) -> list[dict[str, Any]]:
    """Each player's own choice of a night, and what they learnt (a past night's result, sent
    already: the words say what would differ, the PM stays sent)."""
    out: list[dict[str, Any]] = []
    script = after.setup.script
    names = script.names if script else {}
    old_nights = {n.number: n for n in _nights(before)}
    new_nights = {n.number: n for n in _nights(after)}
    for number in sorted(old_nights.keys() | new_nights.keys()):
        night, was = new_nights.get(number), old_nights.get(number)
        for player in dict.fromkeys(c.player for n in (night, was) if n for c in n.choices
                                    if c.helps is None):
            choice, old = (n.choice_of(player) if n else None for n in (night, was))
            now, then = (c.describe(names) if c else None for c in (choice, old))
            if now != then:
                out.append({"code": "night_choice", "night": number, "player": player,
                            "before": then, "after": now})
        old_results, results = (dict(n.results) if n else {} for n in (was, night))
        for player in dict.fromkeys([*results, *old_results]):
            if was and night and old_results.get(player) != results.get(player):
                out.append({"code": "night_result", "night": number, "player": player})
    return out


def _nights(state: GameState) -> list[Any]:
    tonight = [state.night] if state.night is not None and state.night not in \
        state.past_nights else []
    return [*state.past_nights, *tonight]


def _days(state: GameState) -> list[Any]:
    return [*state.past_days, *([state.today] if state.today is not None else [])]


def _day_differences(number: int, before: Any, after: Any) -> list[dict[str, Any]]:
    out = []
    old = {(n.kind, n.nominee): n for n in (before.nominations + before.exiles if before else ())}
    for nomination in (after.nominations + after.exiles if after else ()):
        was = old.pop((nomination.kind, nomination.nominee), None)
        out += _nomination_differences(number, was, nomination)
    for was in old.values():
        out += _nomination_differences(number, was, None)
    executed = (before.executed if before else None, after.executed if after else None)
    if executed[0] != executed[1]:
        out.append({"code": "executed", "day": number, "before": executed[0],
                    "after": executed[1]})
    return out


def _nomination_differences(day: int, before: Any, after: Any) -> list[dict[str, Any]]:
    some = after or before
    where = {"day": day, "kind": some.kind, "nominee": some.nominee}
    if before is None or after is None:
        return [{"code": "nomination", **where, "before": before is not None,
                 "after": after is not None}]
    out = []
    if before.yes != after.yes:
        out.append({"code": "votes", **where, "before": before.yes, "after": after.yes})
    old, new = _votes(before), _votes(after)
    for voter in dict.fromkeys([*old, *new]):
        if old.get(voter) != new.get(voter):
            out.append({"code": "vote", **where, "voter": voter, "before": old.get(voter),
                        "after": new.get(voter)})
    return out


def _votes(nomination: Any) -> dict[str, str]:
    votes = {player: cast.value for player, cast in nomination.cast.items()}
    votes.update({v.player: v.vote for v in nomination.locked})
    return votes


def check_history(store: StoredEvents, game: CheckedGame, inputs: Iterable[Any], derived: Derived) -> Batch:
    """At start-up, after a rules change: compare, hold the game if its history changed, and
    say so to its Storytellers. The batch to commit (the version, or the note)."""
    key = version_cursor(game.options.key)
    found = compare(game.setup, inputs, derived, store.events_by_input(game.game_id),
                    game.state) if inputs else None
    if found is None:
        return Batch(cursors={key: rules_version()})
    game.hold(found)
    log.warning("game %s: the rules now read %d of its posts differently; %s", game.setup.name,
                len(found.differences), "held until a Storyteller confirms" if found.held
                else f"cannot be held ({found.why_not_held})")
    raw = later("upgrade_held.md.j2", found=found, topic_id=game.topic_id,
                 changes=game_differences(found.held, found.replayed) if found.held else [],
                 differences=[_described(d) for d in found.differences[:MAX_SHOWN]],
                 more=max(0, len(found.differences) - MAX_SHOWN))
    note = game.reactor.note_to_storytellers(game.setup.storytellers,
                                             f"upgrade:{found.version}", raw)
    return Batch(outbox=[note], cursors={} if found.held else {key: rules_version()})


def _described(difference: dict[str, Any]) -> dict[str, Any]:
    row = difference["input"]
    where = {"post": f"post #{row['post_number']} by {row['author']}",
             "pm": f"the message #{row['post_number']} by {row['author']}",
             "tick": f"the clock at {row['at']}",
             "edit": f"the edit of post #{row['post_number']}"}[row["kind"]]
    return {**difference, "where": where, "kind": row["kind"], "post_number": row["post_number"]}

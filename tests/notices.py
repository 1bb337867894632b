"""A core-level harness: the rules alone, asserted as codes and values, never as words.

`Told` drives the pure core (`handle_post`, `handle_pm`, `advance`) with thread posts, PMs
and the clock, and returns what each step owes the forum as the core says it: `Notice`
values (an address, a template's code, a key and a view of codes and values). Nothing is
rendered, so rewording a template or the catalogue never breaks a test written with it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta

from modbot.core import (
    PLAYER,
    STORYTELLERS,
    THREAD,
    GameState,
    Notice,
    Post,
    Say,
    advance,
    handle_pm,
    handle_post,
    notices_of,
    states_after,
)


class Told:
    def __init__(self, setup) -> None:
        self.state = GameState.from_setup(setup)
        self.number = 1
        self.rejected: tuple = ()  # the last step's rejections (codes and details)
        self.command = None  # the last step's answer to a Storyteller (a CommandReport)

    def _told(self, outcome) -> list[Notice]:
        """Each event's notices from the state right after it (as the Reactor asks them)."""
        before, self.state = self.state, outcome.state
        self.rejected = outcome.rejections
        self.command = outcome.command
        batch = tuple(outcome.events)
        return [n for event, now in zip(batch, states_after(before, batch), strict=True)
                for n in notices_of(now, event, batch)]

    def tick(self, at: datetime) -> list[Notice]:
        return self._told(advance(self.state, at))

    def thread(self, author: str, raw: str, at: datetime) -> list[Notice]:
        self.number += 1
        return self._told(handle_post(self.state, Post(self.number, author, at, raw)))

    def pm(self, author: str, raw: str, at: datetime, *, with_=(),
           storytellers: bool = True) -> list[Notice]:
        """A PM by `author` with `with_` (other players), the bot and (unless told otherwise)
        the Storytellers."""
        setup = self.state.setup
        people = {author, *with_, setup.bot_username,
                  *(setup.storytellers if storytellers else ())}
        return self._told(handle_pm(self.state, Post(1, author, at, raw),
                                    tuple(sorted(p.lower() for p in people))))

    def st(self, raw: str, at: datetime) -> list[Notice]:
        """The Storyteller writes to the bot."""
        return self.pm(self.state.setup.storytellers[0], raw, at)

    def end_day(self, at: datetime) -> list[Notice]:
        """The Storyteller ends the day; when its end looks like a win (the night is held),
        they carry on: `!phase next` begins the night."""
        told = self.st("!endday --yes", at)
        return told + self.st("!phase next", at) if self.state.night_held else told

    def approve(self, at: datetime) -> list[Notice]:
        """The Storyteller approves tonight, sending nothing to whoever still needs a result."""
        missing = self.state.night.missing_results()
        return self.st("".join(f"!result {p} none\n" for p in missing) + "!approve", at)

    def dawn(self) -> list[Notice]:
        """Approve tonight an hour before dawn, then reach dawn: what the core owed then."""
        self.approve(self.state.phase_ends_at - timedelta(hours=1))
        return self.tick(self.state.phase_ends_at)


def day_one(setup) -> tuple[Told, datetime]:
    """The core at the dawn of day 1 (night 1 approved); returns (told, dawn)."""
    from .conversation import to_dawn_one
    return to_dawn_one(Told(setup))


def rejected(told: Told) -> list[str]:
    """The codes of the last step's rejections."""
    return [r.code for r in told.rejected]


def effects(night) -> list[tuple]:
    """Tonight's proposed grimoire changes as (player, field, value, cause's code)."""
    return [(e.player, e.field, e.value, e.why.code) for e in night.effects]


def lines_to(told: list[Notice], player: str) -> list:
    """The `Say` lines of the night-results notices to `player`."""
    return [line for n in told if n.player == player and n.template == "night_results"
            for line in n.view["lines"]]


def to_whom(told: list[Notice]) -> list[tuple[str, str, str]]:
    """(address, player, template) of each notice with a message."""
    return [(n.to, n.player, n.template) for n in told if n.template]


def of(told: list[Notice], template: str) -> list[Notice]:
    return [n for n in told if n.template == template]


def roles(told: list[Notice]) -> dict[str, dict]:
    """Each player's role PM's view (what the deal tells them), by player."""
    return {n.player: n.view["role"] for n in of(told, "role")}


def night_sheet(setup, *, night: int = 1, choices=(), day=None, changes=(), night1=()):
    """The night sheet as the core keeps it (codes, `Say` values), by player: the core-level
    twin of tests/conversation.py's `night_sheet`, with the same arguments (`day(told, at)`
    plays day 1 first and returns the time it ended)."""
    from .conversation import to_the_sheet
    told = to_the_sheet(Told(setup), night=night, choices=choices, day=day, changes=changes,
                        night1=night1)
    sheet = told.state.night
    return {e.player or e.step: e for e in sheet.sheet}, sheet, told


def sayings(value) -> Iterator[Say]:
    """Every `Say` in `value` (a notice, a view, a sheet, a report: dataclasses, tuples, lists
    and dicts are searched), the Says inside a Say's parameters too."""
    if isinstance(value, Say):
        yield value
        for _, param in value.params:
            yield from sayings(param)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from sayings(getattr(value, f.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from sayings(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from sayings(item)


def says(value, code: str, /, **params) -> bool:
    """Whether `value` holds a `Say` of `code` whose parameters include `params` (what a
    message means, asserted without its words)."""
    return any(s.code == code and all(s.param(k) == v for k, v in params.items())
               for s in sayings(value))


def for_player(told: list[Notice], player: str, template: str | None = None) -> list[Notice]:
    """The notices in `player`'s grimoire PM (of `template`, when given)."""
    return [n for n in told if n.to == PLAYER and n.player == player
            and (template is None or n.template == template)]


def public(told: list[Notice]) -> list[Notice]:
    """The notices posted in the game thread (those with a message)."""
    return [n for n in told if n.to == THREAD and n.template]


def for_storytellers(told: list[Notice], template: str | None = None) -> list[Notice]:
    return [n for n in told if n.to == STORYTELLERS
            and (template is None or n.template == template)]


def failed(told: Told) -> list[str]:
    """The codes of why the last Storyteller post's commands failed."""
    report = told.command
    return [] if report is None else [s.code for _, why in report.failed
                                      for s in (why if isinstance(why, tuple) else (why,))]

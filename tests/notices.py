"""A core-level harness: the rules alone, asserted as codes and values, never as words.

`Told` drives the pure core (`handle_post`, `handle_pm`, `advance`) with thread posts, PMs
and the clock, and returns what each step owes the forum as the core says it: `Notice`
values (an address, a template's code, a key and a view of codes and values). Nothing is
rendered, so rewording a template or the catalogue never breaks a test written with it."""

from __future__ import annotations

from datetime import datetime

from modbot.core import GameState, Notice, Post, advance, handle_pm, handle_post, notices_of


class Told:
    def __init__(self, setup) -> None:
        self.state = GameState.from_setup(setup)
        self.number = 1
        self.rejected: tuple = ()  # the last step's rejections (codes and details)
        self.command = None  # the last step's answer to a Storyteller (a CommandReport)

    def _told(self, outcome) -> list[Notice]:
        self.state = outcome.state
        self.rejected = outcome.rejections
        self.command = outcome.command
        batch = tuple(outcome.events)
        return [n for event in batch for n in notices_of(self.state, event, batch)]

    def tick(self, at: datetime) -> list[Notice]:
        return self._told(advance(self.state, at))

    def thread(self, author: str, raw: str, at: datetime) -> list[Notice]:
        self.number += 1
        return self._told(handle_post(self.state, Post(self.number, author, at, raw)))

    def pm(self, author: str, raw: str, at: datetime, *, with_=()) -> list[Notice]:
        setup = self.state.setup
        people = {author, *with_, setup.bot_username, *setup.storytellers}
        return self._told(handle_pm(self.state, Post(1, author, at, raw),
                                    tuple(sorted(p.lower() for p in people))))

    def st(self, raw: str, at: datetime) -> list[Notice]:
        """The Storyteller writes to the bot."""
        return self.pm(self.state.setup.storytellers[0], raw, at)

    def approve(self, at: datetime) -> list[Notice]:
        """The Storyteller approves tonight, sending nothing to whoever still needs a result."""
        missing = self.state.night.missing_results()
        return self.st("".join(f"!result {p} none\n" for p in missing) + "!approve", at)


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


def night_sheet(setup, *, night: int = 1, choices=(), day=None, changes=(), night1=()):
    """The night sheet as the core keeps it (codes, `Say` values), by player: the core-level
    twin of tests/conversation.py's `night_sheet`, with the same arguments (`day(told, at)`
    plays day 1 first and returns the time it ended)."""
    from .conversation import to_the_sheet
    told = to_the_sheet(Told(setup), night=night, choices=choices, day=day, changes=changes,
                        night1=night1)
    sheet = told.state.night
    return {e.player or e.step: e for e in sheet.sheet}, sheet, told

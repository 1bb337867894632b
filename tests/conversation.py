"""Conversation tests for the private side: messages in, the bot's messages out.

`Conversation` drives a `GameRuntime` (the core and the reactor, without a forum): thread
posts, PMs with their participants, and clock ticks go in; each call returns what the bot
would post, as `Said` items (where it goes, to whom, and the text)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from modbot.app.games.runtime import GameRuntime
from modbot.app.posting.reactions import WELCOME, GameOptions
from modbot.core import Post
from modbot.core.state.model import GameSetup, GrimoireEntry, Seat
from modbot.files.scripts import catalogue_script, load_script

from .helpers import START
from .wording import worded

BOTF = load_script("botf")
SEVEN = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
         "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "towncrier"}
FIFTEEN = {
    "P01": "clockmaker", "P02": "dreamer", "P03": "snakecharmer", "P04": "mathematician",
    "P05": "flowergirl", "P06": "towncrier", "P07": "oracle", "P08": "savant",
    "P09": "seamstress", "P10": "mutant", "P11": "sweetheart", "P12": "doppelganger",
    "P13": "witch", "P14": "cerenovus", "P15": "vortox",
}
ALL = catalogue_script()  # every character modbot implements, in the catalogue's night order
SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")
NIGHT1_LOCK = START + timedelta(hours=22)
DAWN1 = START + timedelta(hours=24)


@dataclass
class Said:
    thread: str  # "topic", "pm:<player>" or "pm:storytellers"
    recipients: tuple[str, ...]
    raw: str
    key: str


def botf_setup(characters=SEVEN, *, bluffs=("sage", "flowergirl", "mathematician"),
               thinks=None, dead=(), script=BOTF, **kwargs) -> GameSetup:
    thinks = thinks or {}
    seats = tuple(Seat(name, alive=name not in dead) for name in characters)
    grimoire = tuple((name, GrimoireEntry(character=c, thinks=thinks.get(name)))
                     for name, c in characters.items())
    return GameSetup("test", seats, START, storytellers=("nightingale",), script=script,
                     grimoire=grimoire, bluffs=bluffs, topic_id=1, **kwargs)


def with_traveller(setup: GameSetup, name: str, alignment: str = "good") -> GameSetup:
    """The same game with `name` seated as a traveller of `alignment`."""
    grimoire = dict(setup.grimoire)
    grimoire[name] = replace(grimoire[name], alignment=alignment)
    return replace(setup, grimoire=tuple(grimoire.items()),
                   seats=tuple(replace(s, traveller=s.name == name or s.traveller)
                               for s in setup.seats))


def seven(*characters, **kwargs) -> GameSetup:
    """Alex, Brianna, ... Gus dealt `characters` in seat order, on a script of every character;
    the bluffs are the first three good characters not dealt, unless given."""
    spare = [c.id for c in ALL.characters if c.is_good and c.id not in characters]
    kwargs.setdefault("bluffs", tuple(spare[:3]))
    return botf_setup(dict(zip(SEATS, characters, strict=False)), script=ALL, **kwargs)


class Conversation:
    def __init__(self, setup: GameSetup) -> None:
        # the words only: pictures have their own tests (test_picture*.py, test_leaks.py)
        self.runtime = GameRuntime(setup, GameOptions(1, "g1", storytellers=setup.storytellers,
                                                      pictures=False), 1)
        self.numbers = {"thread": 1}
        self.ids = 1000

    @property
    def state(self):
        return self.runtime.state

    def _said(self, step) -> list[Said]:
        """What the bot would post, but the Storytellers' conversation's first note (the same
        for every game: tests/rules/test_game_words.py has it)."""
        return [Said(o.thread.split(":", 1)[1], o.recipients, o.raw, o.key)
                for o in step.outgoing if not o.key.endswith(":" + WELCOME)]

    def tick(self, at: datetime) -> list[Said]:
        return self._said(self.runtime.on_tick(at))

    def thread(self, author: str, raw: str, at: datetime) -> list[Said]:
        self.numbers["thread"] += 1
        self.ids += 1
        return self._said(self.runtime.on_post(Post(self.numbers["thread"], author, at, raw,
                                                    self.ids)))

    def pm(self, author: str, raw: str, at: datetime, *, with_=(), bot=True,
           storytellers=True) -> list[Said]:
        """A PM by `author` in a conversation with `with_` (other players), the bot and the
        Storytellers (unless told otherwise)."""
        people = {author, *with_}
        if bot:
            people.add(self.state.setup.bot_username)
        if storytellers:
            people.update(self.state.setup.storytellers)
        key = ",".join(sorted(p.lower() for p in people))
        self.numbers[key] = self.numbers.get(key, 0) + 1
        self.ids += 1
        participants = tuple(sorted(p.lower() for p in people))
        return self._said(self.runtime.on_pm(Post(self.numbers[key], author, at, raw, self.ids),
                                             500 + len(self.numbers),
                                             participants=participants))

    def st(self, raw: str, at: datetime) -> list[Said]:
        """The Storyteller writes in the Storytellers' conversation with the bot."""
        return self.pm("nightingale", raw, at)

    def dawn(self) -> list[Said]:
        """Approve tonight an hour before dawn, then reach dawn: what the bot said then."""
        self.approve(self.state.phase_ends_at - timedelta(hours=1))
        return self.tick(self.state.phase_ends_at)

    def approve(self, at: datetime) -> list[Said]:
        """The Storyteller approves tonight, sending nothing to whoever still needs a result."""
        missing = self.state.night.missing_results()
        return self.st("".join(f"!result {p} none\n" for p in missing) + "!approve", at)


def day_one(setup: GameSetup):
    """A conversation at the dawn of day 1 (night 1 approved); returns (talk, dawn)."""
    return to_dawn_one(Conversation(setup))


def to_dawn_one(harness):
    """Play a harness (a Conversation, or the core's Told) to the dawn of day 1, night 1
    approved; returns (harness, dawn)."""
    harness.tick(START)
    harness.tick(NIGHT1_LOCK)
    harness.approve(NIGHT1_LOCK + timedelta(hours=1))
    harness.tick(DAWN1)
    return harness, DAWN1


def night_sheet(setup: GameSetup, *, night: int = 1, choices=(), day=None, changes=(),
                night1=()):
    """The night sheet's entries by player, after `choices` ((player, text) PMs) in the
    given night; `day(talk, at)` plays day 1 first; `changes` are grimoire commands for the
    Storyteller to send just before the night (e.g. "!poison Alex"); `night1`: choices sent
    on night 1 when the sheet is night 2's."""
    talk = to_the_sheet(Conversation(setup), night=night, choices=choices, day=day,
                        changes=changes, night1=night1)
    night_state = worded(talk.state.night)
    return {e.player or e.step: e for e in night_state.sheet}, night_state, talk


def to_the_sheet(harness, *, night: int = 1, choices=(), day=None, changes=(), night1=()):
    """Play a harness (a Conversation, or the core's Told) to the given night's sheet, as
    `night_sheet` says; returns the harness."""
    harness.tick(START)
    at = START + timedelta(hours=1)
    if night == 2:
        for player, text in night1:
            harness.pm(player, text, at)
        harness.tick(NIGHT1_LOCK)
        harness.approve(NIGHT1_LOCK + timedelta(minutes=30))
        harness.tick(DAWN1)
        at = DAWN1 + timedelta(hours=13)
        if day is not None:
            at = day(harness, at)
        if harness.state.phase.is_day:
            harness.st("!endday --yes", at)
        if harness.state.night_held:  # the day's end looked like a win: the STs go on
            harness.st("!phase next", at)
        at += timedelta(hours=1)
    if changes:
        harness.st("\n".join(changes), at)
    for player, text in choices:
        harness.pm(player, text, at)
    harness.tick(harness.state.phase_ends_at - timedelta(hours=2))
    return harness


def to(said: list[Said], thread: str) -> list[str]:
    """What went to `thread` ("pmtopic": the PM the Storyteller wrote in)."""
    return [s.raw for s in said if s.thread == thread or s.thread.startswith(thread + ":")]

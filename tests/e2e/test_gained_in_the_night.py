"""A character gained in the night, end to end on the sandbox (issue 40): a player's
contingency choice by PM (`/choose X if CHARACTER`) is answered in their grimoire PM; the
Pit-Hag makes Alex the Oracle on night 2, and Alex, whose Oracle step is still to come, gets
the Oracle's answer at dawn in the same conversation, like everyone's; the Storytellers'
night sheet says why the Empath, his old character, did not act."""

from datetime import timedelta

import pytest

from modbot.cli.rehearsal import Rehearsal
from modbot.core.state.model import GameSetup, GrimoireEntry, Seat
from modbot.files.scripts import catalogue_script

from .test_full_games import START, Game

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

CHARACTERS = {"Alex": "empath", "Brianna": "chef", "Cameron": "pithag", "Derek": "imp",
              "Ellen": "poisoner", "Fatima": "soldier", "Gus": "librarian"}


class Seven(Game):
    """The fifteen-player harness, on seven fixed seats of the whole catalogue."""

    def __init__(self, tmp_path) -> None:  # not Game's: a fixed set-up, no random deal
        script = catalogue_script()
        seats = tuple(Seat(p) for p in CHARACTERS)
        setup = GameSetup("Gained in the night", seats, START, storytellers=("nightingale",),
                          script=script, grimoire=tuple(
                              (p, GrimoireEntry(character=c)) for p, c in CHARACTERS.items()),
                          bluffs=("oracle", "monk", "sage"), remind_before_lock=0)
        self.rng = None
        self.town_finds_demon = False
        self.rehearsal = Rehearsal(setup, f"sqlite:///{tmp_path}/gained.sqlite")
        self.rehearsal.create_accounts()
        self.rehearsal.open_topic({"raw": "Welcome: a game of changes. Good luck!",
                                   "created_at": START.isoformat()})
        self.rehearsal.start_bot()
        self.at = START
        self.full_cycles = self.posts = 0

    def grimoire_pm(self, player: str) -> list[str]:
        topic = self.rehearsal.pm_topic({"modbot", "nightingale", player.lower()})
        return [p.raw for p in self.rehearsal.server.forum.topics[topic].visible_posts()]

    def approve(self) -> None:
        self.tick(self.state.phase_ends_at - timedelta(hours=2) + timedelta(minutes=5))
        missing = self.state.night.missing_results()
        self.pm("nightingale", "".join(f"!result {p} none\n" for p in missing) + "!approve",
                to="storytellers")
        self.tick(self.state.phase_ends_at + timedelta(minutes=5))


def test_a_character_gained_in_the_night_learns_at_its_step_and_a_contingency_is_answered(tmp_path):
    game = Seven(tmp_path)
    try:
        game.tick(START)
        game.approve()  # night 1
        game.pm("nightingale", "!endday --yes", to="storytellers")
        assert game.state.cycle == 2 and not game.state.phase.is_day
        game.pm("Alex", "/choose Derek if I become the Dreamer")
        assert "recorded: if you become the Dreamer tonight before its turn in the night " \
            "order, you choose Derek." in game.grimoire_pm("Alex")[-1]
        game.pm("Cameron", "/choose Alex as Oracle")
        game.approve()  # night 2: the Pit-Hag's change, Alex's Oracle step
        assert game.state.grimoire_of("Alex").character == "oracle"
        (sheet,) = [raw for raw in game.storyteller_notes() if "## Night 2: the night sheet" in raw]
        assert "| Alex | Empath |  |  | no longer the Empath at its step (now the Oracle): does " \
            "not act as it |" in sheet
        assert "| Alex | Oracle |  |  | Dead players on the evil team: 0. |" in sheet
        assert any("Dead players on the evil team: 0." in raw  # the Oracle's answer, at dawn
                   for raw in game.grimoire_pm("Alex")[-3:])
    finally:
        game.rehearsal.stop()

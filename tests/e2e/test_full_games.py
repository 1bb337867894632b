"""A whole 15-player game per script, from set-up to a win, against the sandbox (issue 7).

A random legal set-up is drawn; scripted players send their night choices to their
grimoire PMs and nominate and vote in the thread; the Storyteller approves every night (with
"none" for results only they could give) and confirms the win the bot notices. The town is
told who the Demon is on day 2 (a scripted cheat, to reach an end); everything else is the
bot's own work over HTTP: the deal, the sheets, dawn, executions, the win, and no secret in
any public post. One game is played as on a forum without an admin (issue 23): the bot on its
own User API key, every post read by the cycle the forum's MessageBus woke for it."""

import random
import re
from datetime import datetime, timedelta

import pytest

from modbot.cli.rehearsal import Rehearsal
from modbot.cli.scripted_town import day_nominee, night_choice
from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.night.choices import owes_choice
from modbot.core.setup.proposing import propose
from modbot.core.state.model import GameSetup, Seat
from modbot.files.scripts import load_script

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)

START = datetime.fromisoformat("2026-12-01T18:00:00+00:00")
PLAYERS = tuple(f"P{i:02}" for i in range(1, 16))
MARKER = re.compile(r"\n*<!-- modbot:[^>]*-->")


def _script(name):
    script = load_script(name)
    if not script.terms.partial:
        return script
    almanac = load_script("almanac")  # complete the Townsfolk-only script
    return script.with_characters(almanac.of_team("outsider", "minion", "demon"))


class Game:
    def __init__(self, script_name: str, seed: int, tmp_path, town_finds_demon=True,
                 pushed=False) -> None:
        self.rng = random.Random(seed)
        self.town_finds_demon = town_finds_demon
        script = _script(script_name)
        seats = tuple(Seat(p) for p in PLAYERS)
        grimoire, bluffs = propose(script, seats, random.Random(seed))
        setup = GameSetup(f"{script.name} simulation", seats, START,
                          storytellers=("nightingale",), script=script,
                          grimoire=tuple(grimoire.items()), bluffs=bluffs,
                          remind_before_lock=0)
        self.rehearsal = Rehearsal(setup, f"sqlite:///{tmp_path}/{script_name}.sqlite",
                                   pushed=pushed)
        self.rehearsal.create_accounts()
        self.rehearsal.open_topic({"raw": "Welcome: a simulated game. Good luck!",
                                   "created_at": (START - timedelta(hours=1)).isoformat()})
        self.rehearsal.start_bot()
        self.at = START
        self.full_cycles = self.posts = 0

    @property
    def state(self):
        return self.rehearsal.service.games[self.rehearsal.setup.topic_id].state

    def tick(self, at: datetime) -> None:
        self.at = at
        self.full_cycles += 1
        self.rehearsal.play([], finish_at=at)

    def _next_minute(self) -> None:
        """A minute after the last post, or after the forum's time if a bot on a User API
        key waited for its minute since."""
        self.at = max(self.at, self.rehearsal.clock.now()) + timedelta(minutes=1)

    def pm(self, player: str, raw: str, to="grimoire") -> None:
        self._next_minute()
        raw += "\n\n(sent by the simulation)"  # the forum's minimum post length
        self.posts += 1
        self.rehearsal.play([{"username": player, "to": to, "raw": raw,
                              "created_at": self.at.isoformat()}])

    def post(self, player: str, raw: str) -> None:
        self._next_minute()
        raw += "\n\n(posted by the simulation)"
        self.posts += 1
        self.rehearsal.play([{"username": player, "raw": raw, "created_at": self.at.isoformat()}])

    # -- one night, one day ---------------------------------------------------------------

    def night(self) -> None:
        state = self.state
        living = [s.name for s in state.seats if s.alive]
        for player in living:
            if owes_choice(state, player):
                self.pm(player, night_choice(state, player, living, self.rng))
        lock = self.state.phase_ends_at - timedelta(hours=2)
        self.tick(lock + timedelta(minutes=5))
        missing = self.state.night.missing_results()
        self.pm("nightingale", "".join(f"!result {p} none\n" for p in missing) + "!approve",
                to="storytellers")
        self.tick(self.state.phase_ends_at + timedelta(minutes=5))

    def day(self, number: int) -> None:
        nominations = self.state.phase_ends_at  # discussion ends
        self.tick(nominations + timedelta(minutes=5))
        state = self.state
        living = [s.name for s in state.seats if s.alive]
        target = day_nominee(state, living, self.rng,  # on day 2 the town found the Demon
                             found=number >= 2 and self.town_finds_demon)
        nominator = next(p for p in living if p != target)
        self.post(nominator, f"I nominate.\n/nominate {target}")
        for voter in living:
            self.post(voter, f"/vote {target} yes")
        self.tick(self.state.phase_ends_at + timedelta(minutes=5))  # nominations close
        if self.state.phase.is_day:
            self.tick(self.state.phase_ends_at + timedelta(minutes=5))  # the voting ends

    def storyteller_notes(self) -> list[str]:
        topic = self.rehearsal.pm_topic({"modbot", "nightingale"})
        posts = self.rehearsal.server.forum.topics[topic].visible_posts() if topic else []
        return [p.raw for p in posts]

    def public_posts(self) -> list[str]:
        return [MARKER.sub("", p["raw"]) for p in self.rehearsal.thread()
                if p["username"] == "modbot"]


@pytest.mark.parametrize("script_name, seed, town_finds_demon, winner", [
    ("almanac", 1, True, "good"), ("botf", 2, True, "good"), ("oopsallevil", 3, True, "good"),
    ("crimsonmoon", 4, True, "good"), ("botf", 5, False, "evil")])
def test_a_fifteen_player_game_from_set_up_to_a_win(script_name, seed, town_finds_demon,
                                                     winner, tmp_path):
    game = Game(script_name, seed, tmp_path, town_finds_demon)
    try:
        _play_to_the_win(game, winner)
    finally:
        game.rehearsal.stop()


def test_a_whole_game_on_a_user_api_key_woken_by_the_message_bus(tmp_path):
    game = Game("botf", 2, tmp_path, pushed=True)
    try:
        _play_to_the_win(game, "good")
        server = game.rehearsal.server
        (key,) = server.user_keys.keys.values()
        assert key.username == "modbot"  # the bot's own key, no admin's
        assert server.user_keys.refused == 0  # within the key's 20 a minute and 2,880 a day
        assert server.bus.polls > 0
        # the thread was listed by the start-up and the full cycles (deadlines) alone: every
        # player's post was read by the cycle its bus message woke
        full_cycles = game.full_cycles + 1
        assert server.counts["GET /latest.json"] <= full_cycles < game.posts
    finally:
        game.rehearsal.stop()


def _play_to_the_win(game: Game, winner: str) -> None:
    game.tick(START)
    roles = [t for t in game.rehearsal.server.forum.topics.values()
             if t.is_pm and "grimoire" in t.title]
    assert len(roles) == 15
    for number in range(1, 12):
        game.night()
        assert game.state.phase_label.startswith(f"day {number}"), game.state.phase_label
        if WINS_DETECTED.of(game.state):
            break
        game.day(number)
        if WINS_DETECTED.of(game.state):
            break
    found, reason = WINS_DETECTED.of(game.state)[0]
    assert found == winner
    assert any("The game looks over" in n for n in game.storyteller_notes())
    game.pm("nightingale", f"!win {winner} {reason} --yes", to="storytellers")
    public = game.public_posts()
    team = game.state.setup.terms.alignment(winner)  # the script's words: Loyal, Cultist
    assert any(f"The game is over: {team} wins" in p for p in public)
    names = [c.name for c in game.state.setup.script.characters]
    sanctioned = "The Fearmonger has chosen a new player."  # its ability says all know
    leaked = [(n, p[:60]) for p in public for n in names if p.strip() != sanctioned
              and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", p)]
    assert leaked == []
    counts = game.rehearsal.store.outbox_counts()
    assert counts.get("pending", 0) == 0 and counts.get("failed", 0) == 0

"""Benchmark: a host's first game, sign-ups to reveal, timed on the product itself.

What a host runs, in the README's order, against the sandbox over HTTP (its clock moved by
the script, so two nights and days of forum time pass in seconds): `modbot signups open` on a
game file without seats; eight players sign up in the thread (one withdraws, one waits as a
backup) while the bot keeps the list up to date; `modbot game new --from-signups` seats them
with their forum user ids and opens the game thread; `modbot setup --propose --write` deals a
legal BotF set-up; `modbot check` checks it all; then the bot (the daemon's `Service`) runs the
game: the deal, each night's choices (the players', scripted), the night sheet the Storyteller
approves, nominations and votes until the Demon is executed, the win the Storyteller
confirms, and `!reveal`. With `--clone`, a fresh clone of this checkout is made and installed
first (the README's `pip install -e .`), timed apart.

Prints one JSON object: the seconds of each stage (wall time on this machine), the host's
actions (commands run, posts and PMs written by the Storyteller), the players' posts, the
bot's posts and the requests the forum saw.

Run: python benchmarks/first_game.py [--clone]
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot import cli
from modbot.cli.rehearsal import MASTER_KEY, Rehearsal
from modbot.cli.scripted_town import day_nominee, night_choice
from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.night.choices import owes_choice
from modbot.files.gamefile import load_game

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hank")
START = datetime.fromisoformat("2026-12-10T18:00:00+00:00")
SIGNUPS = f"""[game]
name = "First game"
storytellers = ["nightingale"]
bot = "modbot"
rules = "botf"
script = "botf"
first_night_starts = "{START.isoformat().replace('+00:00', 'Z')}"
players_max = 7
signups_close = "{(START - timedelta(days=1)).isoformat().replace('+00:00', 'Z')}"
"""


class Host:
    """The host's game on the sandbox: the CLI's commands and the bot's service."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.game = folder / "game.toml"
        self.game.write_text(SIGNUPS, encoding="utf-8")
        self.config = folder / "modbot.toml"
        placeholder = load_game(ROOT / "config" / "demo-game.toml")
        self.rehearsal = Rehearsal(placeholder, f"sqlite:///{folder}/bot.sqlite")
        self.rehearsal.clock.set(START - timedelta(days=5))
        forum = self.rehearsal.server.forum
        for name, staff in (("modbot", True), ("nightingale", True)):
            forum.add_user(name, moderator=staff, trust_level=4)
        for name in PLAYERS:
            forum.add_user(name)
            self.rehearsal.keys[name.lower()] = forum.new_user_key(name)
        self.rehearsal.keys["nightingale"] = forum.new_user_key("nightingale")
        self.config.write_text(
            f'[forum]\nurl = "{self.rehearsal.url}"\nusername = "modbot"\ncategory = 1\n'
            f'[bot]\ndatabase_url = "sqlite:///{folder}/bot.sqlite"\npoll_seconds = 1\n'
            '[[game]]\nfile = "game.toml"\n', encoding="utf-8")
        self.commands = self.st_posts = self.player_posts = 0
        self.rng = random.Random(3)

    def command(self, *argv: str) -> None:
        self.commands += 1
        status = cli.main([*argv, "--config", str(self.config)] if argv[0] != "setup"
                          else list(argv))
        if status != 0:
            raise SystemExit(f"modbot {' '.join(argv)} failed ({status})")

    def later(self, minutes: float) -> str:
        self.rehearsal.clock.set(self.rehearsal.clock.now() + timedelta(minutes=minutes))
        return self.rehearsal.clock.now().isoformat()

    # -- sign-ups ---------------------------------------------------------------------------

    def signups(self) -> None:
        self.command("signups", "open", str(self.game))
        signup_topic = self._signup_topic()
        words = ["/in\nCount me in, please.", "/in\nFirst game here, hello!",
                 "/in\nLet's go, dear town folk."]
        for name in PLAYERS:
            self._thread_post(name, self.rng.choice(words), signup_topic)
        self._thread_post("Brianna", "Sorry, something came up.\n/out", signup_topic)
        self._thread_post("Brianna", "/in\nSorted it out, I am back!", signup_topic)
        self.command("run", "--max-cycles", "2")
        self.command("game", "new", str(self.game), "--from-signups")

    def _signup_topic(self) -> int:
        for line in self.game.read_text(encoding="utf-8").splitlines():
            if line.startswith("signup_topic_id"):
                return int(line.split("=")[1])
        raise SystemExit("signups open wrote no signup_topic_id")

    def _thread_post(self, name: str, raw: str, topic: int) -> None:
        self.player_posts += 1
        self.rehearsal.request("POST", "/posts.json", as_user=name, raw=raw, topic_id=topic,
                               created_at=self.later(7))

    # -- the set-up and the game --------------------------------------------------------------

    def set_up(self) -> None:
        self.command("setup", str(self.game), "--propose", "--seed", "3", "--write",
                     str(self.game))
        self.command("check")
        self.rehearsal.setup = load_game(self.game)

    @property
    def state(self):
        return self.rehearsal.service.games[self.rehearsal.setup.topic_id].state

    def play(self) -> str:
        os.environ["MODBOT_API_KEY"] = MASTER_KEY
        self.rehearsal.start_bot()
        self.tick(START)
        for number in range(1, 8):
            self.night()
            if WINS_DETECTED.of(self.state):
                break
            self.day(number)
            if WINS_DETECTED.of(self.state):
                break
        winner, _reason = WINS_DETECTED.of(self.state)[0]
        self.storyteller(f"!win {winner} the town finished it --yes")
        self.storyteller("!reveal --yes")
        return winner

    def tick(self, at: datetime) -> None:
        self.rehearsal.play([], finish_at=at)

    def storyteller(self, raw: str) -> None:
        self.st_posts += 1
        self._pm("nightingale", raw + "\n\n(the host)", "storytellers")

    def _pm(self, name: str, raw: str, to: str) -> None:
        at = max(self.rehearsal.clock.now(), self.state.phase_ends_at - timedelta(days=9))
        self.rehearsal.play([{"username": name, "to": to, "raw": raw,
                              "created_at": (at + timedelta(minutes=1)).isoformat()}])

    def night(self) -> None:
        living = [s.name for s in self.state.seats if s.alive]
        for player in living:
            if owes_choice(self.state, player):
                self.player_posts += 1
                self._pm(player, night_choice(self.state, player, living, self.rng)
                         + "\n\n(my choice)", "grimoire")
        self.tick(self.state.phase_ends_at - timedelta(hours=2) + timedelta(minutes=5))
        missing = self.state.night.missing_results()
        self.storyteller("".join(f"!result {p} none\n" for p in missing) + "!approve")
        self.tick(self.state.phase_ends_at + timedelta(minutes=5))

    def day(self, number: int) -> None:
        self.tick(self.state.phase_ends_at + timedelta(minutes=5))  # nominations open
        living = [s.name for s in self.state.seats if s.alive]
        target = day_nominee(self.state, living, self.rng, found=number >= 2)
        nominator = next(p for p in living if p != target)
        self._say(nominator, f"I nominate.\n/nominate {target}")
        for voter in living:
            self._say(voter, f"/vote {target} yes\nMy vote, friends.")
        self.tick(self.state.phase_ends_at + timedelta(minutes=5))
        if self.state.phase.is_day:
            self.tick(self.state.phase_ends_at + timedelta(minutes=5))

    def _say(self, name: str, raw: str) -> None:
        self.player_posts += 1
        at = self.rehearsal.clock.now() + timedelta(minutes=1)
        self.rehearsal.play([{"username": name, "raw": raw, "created_at": at.isoformat()}])


def _clone() -> dict:
    """A fresh clone of this checkout, installed as the README says (timed)."""
    with tempfile.TemporaryDirectory() as folder:
        began = time.monotonic()
        subprocess.run(["git", "clone", "-q", str(ROOT), f"{folder}/modbot"], check=True)
        cloned = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", f"{folder}/modbot/.venv"], check=True)
        subprocess.run([f"{folder}/modbot/.venv/bin/pip", "install", "-q", "-e",
                        f"{folder}/modbot"], check=True, capture_output=True)
        return {"clone_s": round(cloned - began, 1),
                "install_s": round(time.monotonic() - cloned, 1)}


def main() -> None:
    figures: dict[str, object] = _clone() if "--clone" in sys.argv else {}
    os.environ["MODBOT_API_KEY"] = MASTER_KEY
    with tempfile.TemporaryDirectory() as folder:
        host = Host(Path(folder))
        try:
            stages = {}
            began = time.monotonic()
            host.signups()
            stages["signups_s"] = time.monotonic() - began
            began = time.monotonic()
            host.set_up()
            stages["setup_and_check_s"] = time.monotonic() - began
            began = time.monotonic()
            winner = host.play()
            stages["game_to_reveal_s"] = time.monotonic() - began
            forum = host.rehearsal.server.forum
            bot_posts = sum(1 for p in forum.posts.values() if p.username == "modbot")
            revealed = any("## The grimoire revealed" in p.raw for p in forum.posts.values())
            figures.update({k: round(v, 1) for k, v in stages.items()})
            figures.update({"winner": winner, "revealed": revealed,
                            "host_commands": host.commands, "host_pms": host.st_posts,
                            "player_posts": host.player_posts, "bot_posts": bot_posts,
                            "requests": sum(host.rehearsal.server.counts.values())})
        finally:
            host.rehearsal.stop()
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()

"""Benchmark: a host's whole trial on a User API key, timed by stage (issue 56).

What a new host does, in the README's order ("Host your first game"), on a forum where they
are not an admin, against the sandbox at `--speed` times real time (its clock the one clock:
the daemon runs with `[rehearsal] clock = "forum"`): with `--clone`, a fresh clone of this
checkout installed as the README's quick start says, and every `modbot` command from it;
`modbot login` in Discourse's device flow (the host opens the address it prints and enters
the code), the key-file line it prints pasted into the configuration as it is; a game file
without seats; `modbot signups open`, `modbot run` (left running all game), ten players
signing up for nine seats (the tenth a backup); `modbot game new --from-signups`, `modbot
setup --propose --write`, `modbot check`; the deal at night 1; each night's choices by PM and
the sheet approved; each day's nominations and votes; on day 1 a `!sub` of the backup for a
seat, an observer, a player away and back, a rename and an impostor taking the freed name and
voting under it; the win confirmed and `!reveal`; then `modbot export --format clocktracker`,
`modbot verify` and `modbot audit`.

Prints one JSON object: wall seconds from the start to each stage (the clone installed, the
login, the sign-ups closed and seated, the first deal, the first count, the reveal), the
stages' lengths (clone → first deal, first deal → first count, the whole game), what each
check found (the substitute told, the impostor's vote not counted, the observer's grimoire,
the export, verify and audit), and the requests the key spent.

Run: python benchmarks/host_trial.py [--clone] [--speed 60] [--log FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.adapters.store import Store
from modbot.cli.audit import load_runtime
from modbot.cli.scripted_town import day_nominee, night_choice
from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.night.choices import owes_choice
from modbot.core.state.actions import VoteValue
from modbot.files.gamefile import load_game
from modbot.sandbox.errors import ApiError
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import Clock
from modbot.sandbox.moderation import rename
from modbot.sandbox.server import SandboxServer
from modbot.sandbox.web import COOKIE

ROOT = Path(__file__).resolve().parent.parent
KEY = "host-trial-admin"  # the sandbox's own admin key: the benchmark's, never the bot's
PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hana", "Ivan")
BACKUP, OBSERVER, HOST = "Quinn", "Olive", "nightingale"
START = datetime(2026, 12, 10, 12, tzinfo=UTC)  # the sandbox's clock when the trial begins
NIGHT_1 = START + timedelta(hours=3)
GAME_FILE = f"""[game]
name = "Host trial"
storytellers = ["{HOST}"]
bot = "modbot"
rules = "botf"
script = "botf"
first_night_starts = "{NIGHT_1:%Y-%m-%dT%H:%M:%SZ}"
night = 4
discussion = 1
nomination = 2
voting = 2
players_max = 9
signups_close = "{START + timedelta(hours=1):%Y-%m-%dT%H:%M:%SZ}"
"""


class Trial:
    """The host's side: the commands, the players' and the Storyteller's posts, what is seen."""

    def __init__(self, folder: Path, modbot: list[str], speed: float, log: str | None) -> None:
        self.folder, self.modbot, self.log = folder, modbot, log
        self.forum = Forum(Clock(START, speed))
        self.server = SandboxServer(0, api_key=KEY, forum=self.forum).start()
        self.server.device_grants.interval = 1.0  # Discourse's 5 s: the host's patience only
        self.bot = self.forum.add_user("modbot", trust_level=1)  # not staff: no admin asked
        for name in (HOST, *PLAYERS, BACKUP, OBSERVER):
            self.forum.add_user(name, trust_level=1)
        (folder / "config").mkdir()
        self.game, self.config = folder / "game.toml", folder / "config" / "modbot.toml"
        self.game.write_text(GAME_FILE, encoding="utf-8")
        self.began = time.monotonic()
        self.marks: dict[str, float] = {}
        self.found: dict[str, object] = {}
        self.daemon: subprocess.Popen | None = None
        self.rng = random.Random(5)
        self.names = {p: p for p in PLAYERS}  # a seat's player -> their username now

    # -- the host's commands ---------------------------------------------------------------

    def mark(self, stage: str) -> None:
        self.marks[stage] = round(time.monotonic() - self.began, 1)

    def command(self, *argv: str, config: bool = True) -> str:
        """A `modbot` command as the host types it; its output. A failure ends the trial."""
        args = [*self.modbot, *argv, *(["--config", str(self.config)] if config else [])]
        done = subprocess.run(args, cwd=self.folder, capture_output=True, text=True,
                              timeout=600)
        if done.returncode != 0:
            raise SystemExit(f"modbot {' '.join(argv)}: {done.returncode}\n{done.stdout}"
                             f"{done.stderr}")
        return done.stdout

    def login(self) -> None:
        """`modbot login` in the device flow; the host authorizes in the browser meanwhile,
        then pastes the configuration line it printed."""
        helper = threading.Thread(target=self._authorize, daemon=True)
        helper.start()
        out = self.command("login", "--forum", self.server.url, "--username", "modbot",
                           "--key-file", "config/modbot.key", config=False)
        helper.join(30)
        line = next((m.group(0) for m in re.finditer(r'user_api_key_file = "[^"]+"', out)),
                    None)
        if line is None:
            raise SystemExit(f"modbot login printed no configuration line:\n{out}")
        self.found["login_printed"] = line
        self.config.write_text(
            f'[forum]\nurl = "{self.server.url}"\nusername = "modbot"\n{line}\ncategory = 1\n'
            f'[bot]\ndatabase_url = "sqlite:///{self.folder}/data/bot.sqlite"\n'
            '[rehearsal]\nclock = "forum"\n[[game]]\nfile = "../game.toml"\n', encoding="utf-8")
        (self.folder / "data").mkdir()

    def _authorize(self) -> None:
        ends = time.monotonic() + 60
        while time.monotonic() < ends and not self.server.device_grants.grants:
            time.sleep(0.1)
        grant = next(iter(self.server.device_grants.grants.values()))
        cookies = {COOKIE: "modbot"}
        page = requests.post(self.server.url + "/user-api-key/activate", cookies=cookies,
                             data={"code": grant.user_code, "request": grant.request_token},
                             timeout=10)
        token = re.search(r"name='approval_token' value='([^']+)'", page.text)
        assert token is not None, page.text
        requests.post(self.server.url + "/user-api-key/device/authorize", cookies=cookies,
                      data={"approval_token": token.group(1)}, timeout=10)

    def run_daemon(self) -> None:
        sink = open(self.log, "w") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.daemon = subprocess.Popen([*self.modbot, "run", "--config", str(self.config)],
                                       cwd=self.folder, stdout=sink, stderr=sink)

    # -- the forum, as people use it ----------------------------------------------------------

    def now(self) -> datetime:
        return self.forum.clock.now()

    def wait_until(self, at: datetime) -> None:
        while self.now() < at:
            self._alive()
            time.sleep(0.05)

    def wait_for(self, what: str, check, limit: float = 300.0) -> None:
        """Wait (real seconds) until `check()` holds; the trial fails past `limit`."""
        ends = time.monotonic() + limit
        while not check():
            self._alive()
            if time.monotonic() > ends:
                raise SystemExit(f"gave up waiting for {what} after {limit:.0f} s "
                                 f"(forum time {self.now():%Y-%m-%d %H:%M})")
            time.sleep(0.1)

    def _alive(self) -> None:
        if self.daemon is not None and self.daemon.poll() is not None:
            raise SystemExit(f"modbot run ended ({self.daemon.returncode})")

    def say(self, name: str, raw: str, topic: int | None = None) -> int:
        post = self._as_a_person(name, {"topic_id": topic or self.topic, "raw": raw})
        return post.id

    def _as_a_person(self, name: str, params: dict):
        """A post as its author makes it: told to wait by the forum's limits, they wait."""
        while True:
            try:
                return self.forum.create(self.forum.account(name), params, api=False)
            except ApiError as exc:
                if exc.status != 429:
                    raise
                wait = float(exc.body.get("extras", {}).get("wait_seconds", 5))
                self.wait_until(self.now() + timedelta(seconds=wait + 1))

    def pm(self, name: str, raw: str, to: tuple[str, ...]) -> None:
        """A post in `name`'s conversation with exactly `to` (opened if there is none)."""
        people = {name.lower(), *(t.lower() for t in to)}
        found = next((t for t in self.forum.topics.values() if t.is_pm
                      and {u.lower() for u in t.allowed} == people), None)
        if found is None:
            self._as_a_person(name, {"title": f"{name} and the bot", "raw": raw,
                                     "archetype": "private_message",
                                     "target_recipients": ",".join(to)})
        else:
            self._as_a_person(name, {"topic_id": found.id, "raw": raw})

    def storyteller(self, raw: str) -> None:
        self.pm(HOST, raw + "\n\n(the host)", ("modbot",))

    def bot_pms_to(self, name: str) -> list[str]:
        return [p.raw for t in self.forum.topics.values() if t.is_pm
                and name.lower() in {u.lower() for u in t.allowed}
                for p in t.posts if p.username == "modbot"]

    def thread_bot_posts(self) -> list[str]:
        return [p.raw for p in self.forum.topics[self.topic].posts if p.username == "modbot"]

    @property
    def topic(self) -> int:
        setup = load_game(self.game)
        assert setup.topic_id is not None
        return setup.topic_id

    def state(self):
        """The game as the bot's database makes it (the product's own replay)."""
        store = Store(f"sqlite:///{self.folder}/data/bot.sqlite")
        try:
            row, runtime = load_runtime(store, load_game(self.game))
            runtime.load(store.inputs(row.id))
            return runtime.state
        finally:
            store.close()

    # -- the stages --------------------------------------------------------------------------

    def signups(self) -> None:
        self.command("signups", "open", str(self.game))
        topic = int(re.search(r"signup_topic_id = (\d+)", self.game.read_text()).group(1))
        self.run_daemon()
        for index, name in enumerate((*PLAYERS, BACKUP)):
            self.wait_until(START + timedelta(minutes=4 * index + 2))
            self.say(name, "/in\nCount me in, please: first game here!", topic)
        self.wait_until(START + timedelta(hours=1, minutes=2))  # the close
        self.command("game", "new", str(self.game), "--from-signups")
        self.command("setup", str(self.game), "--propose", "--seed", "3", "--write",
                     str(self.game), config=False)
        self.command("check")
        self.mark("seated_set_up_and_checked")

    def deal(self) -> None:
        self.wait_for("the deal (every seat's character by PM)", lambda: all(
            any("character" in raw.lower() for raw in self.bot_pms_to(p)) for p in PLAYERS),
            limit=600)
        self.mark("first_deal")

    def night(self) -> None:
        state = self.state()
        night_ends = state.phase_ends_at
        living = [s.name for s in state.seats if s.alive]
        for player in living:
            if owes_choice(state, player):
                self.pm(player, night_choice(state, player, living, self.rng) + "\n\nMy choice.",
                        ("modbot", HOST))
        self.wait_until(night_ends - timedelta(hours=2, minutes=-5))  # the actions locked
        self.wait_for("the night's choices read", lambda: not self.state().night
                      or all(not owes_choice(self.state(), p) for p in living), limit=120)
        missing = self.state().night.missing_results()
        self.storyteller("".join(f"!result {p} none\n" for p in missing) + "!approve")
        self.wait_until(night_ends + timedelta(minutes=5))
        self.wait_for("dawn", lambda: self.state().phase.is_day or bool(WINS_DETECTED.of(self.state())))

    def day(self, number: int) -> None:
        state = self.state()
        if number == 1:
            self.day_one_walls(state)
        self.wait_until(state.phase_ends_at + timedelta(minutes=5))  # nominations open
        state = self.state()
        living = [s.name for s in state.seats if s.alive]
        target = day_nominee(state, living, self.rng, found=number >= 2)
        nominator = next(p for p in living if p != target)
        nominated = self.say(nominator, f"I nominate, friends.\n/nominate {target}")
        for voter in living:
            self.say(voter, f"/vote {target} yes\nMy vote, friends.")
        if number == 1:
            self.impostor_votes(target)
            self.wait_for("the first count", lambda: any(
                ":vc:" in raw and f"Nomination of {target}" in raw
                for raw in self.thread_bot_posts()))
            self.mark("first_count")
            self.found["first_count_nomination_post"] = nominated
        self.wait_until(state.phase_ends_at + timedelta(minutes=5))
        self.wait_for("the day's end", lambda: not self.state().phase.is_day)
        if number == 1:  # Ellie (once Ellen) voted yes; the impostor now called Ellen "no"
            day = self.state().past_days[0]
            votes = [v.vote for n in day.nominations for v in n.locked  # the seat follows
                     if v.player in ("Ellen", "Ellie")]  # its account's new name
            self.found["renamed_players_votes_counted"] = [v.name.lower() for v in votes]
            self.found["impostor_vote_counted"] = any(v is not VoteValue.YES for v in votes)

    def day_one_walls(self, state) -> None:
        """A `!sub`, an observer, a player away and back, a rename."""
        seat = next(s.name for s in state.seats if s.alive and s.name not in ("Ellen",))
        self.storyteller(f"!sub {seat} {BACKUP} --yes")
        self.wait_for("the substitute's character by PM", lambda: any(
            "character" in raw.lower() for raw in self.bot_pms_to(BACKUP)))
        self.found["sub"] = f"{seat} -> {BACKUP}: told by PM"
        self.storyteller(f"!observer {OBSERVER} --yes")
        self.wait_for("the observer's conversation", lambda: bool(self.bot_pms_to(OBSERVER)))
        away = next(s.name for s in state.seats if s.alive and s.name not in (seat, "Ellen"))
        self.say(away, "/away 6h\nTravelling, back tonight.")
        self.say(away, "/back\nHome sooner than I thought.")
        rename(self.forum, self.forum.account("Ellen"), self.forum.account("Ellen"), "Ellie")
        self.forum.add_user("Ellen", trust_level=1)  # an impostor takes the freed name
        self.found["renamed"] = "Ellen -> Ellie; a new account took Ellen"

    def impostor_votes(self, target: str) -> None:
        self.say("Ellen", f"/vote {target} no\nI am Ellen, really.")

    def win(self) -> str:
        state = self.state()
        winner, _reason = WINS_DETECTED.of(state)[0]
        self.storyteller(f"!win {winner} the town finished it --yes")
        self.wait_for("the game's end", lambda: bool(self.state().winner))
        self.storyteller("!reveal --yes")
        self.wait_for("the reveal", lambda: any("grimoire revealed" in raw.lower()
                                                for raw in self.thread_bot_posts()))
        self.mark("revealed")
        self.found["observer_pms"] = len(self.bot_pms_to(OBSERVER))  # welcome, each dawn's grimoire
        return winner

    def after(self) -> None:
        out = self.command("export", str(self.game), "--format", "clocktracker",
                           "--output", str(self.folder / "clocktracker.json"))
        self.found["export"] = out.strip().splitlines()[-1] if out.strip() else "written"
        self.found["verify"] = self.command("verify", "--topic", str(self.topic)).strip()
        audit = self.command("audit", str(self.game))
        self.found["audit"] = audit.strip().splitlines()[-1]
        self.mark("export_verify_audit")

    def stop(self) -> None:
        if self.daemon is not None and self.daemon.poll() is None:
            self.daemon.terminate()
            self.daemon.wait(60)
        self.server.stop()


def _clone(folder: Path) -> list[str]:
    """A fresh clone of this checkout, installed as the README's quick start does."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(folder / "modbot")], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(folder / "modbot" / ".venv")], check=True)
    subprocess.run([str(folder / "modbot" / ".venv" / "bin" / "pip"), "install", "-q", "-e",
                    str(folder / "modbot")], check=True, capture_output=True)
    return [str(folder / "modbot" / ".venv" / "bin" / "modbot")]


def play(trial: Trial) -> str:
    trial.login()
    trial.mark("logged_in")
    trial.signups()
    trial.deal()
    for number in range(1, 8):
        trial.night()
        if WINS_DETECTED.of(trial.state()):
            break
        trial.day(number)
        if WINS_DETECTED.of(trial.state()):
            break
    return trial.win()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clone", action="store_true", help="a fresh clone, installed first")
    parser.add_argument("--speed", type=float, default=60.0,
                        help="forum seconds a real second (default 60)")
    parser.add_argument("--log", help="where the daemon's log goes (default: nowhere)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        began = time.monotonic()
        modbot = _clone(folder) if args.clone else [sys.executable, "-m", "modbot"]
        installed = round(time.monotonic() - began, 1)
        (folder / "host").mkdir()
        trial = Trial(folder / "host", modbot, args.speed, args.log)
        trial.began = began
        trial.marks["installed"] = installed
        try:
            winner = play(trial)
            trial.after()
        finally:
            trial.stop()
        marks = trial.marks
        key = next(iter(trial.server.user_keys.keys.values()))
        print(json.dumps({
            "speed": args.speed, "clone": args.clone, "stages_s_from_start": marks,
            "clone_to_first_deal_s": marks["first_deal"],
            "first_deal_to_first_count_s": round(marks["first_count"] - marks["first_deal"], 1),
            "whole_game_s": round(marks["revealed"] - marks["first_deal"], 1),
            "clone_to_reveal_s": marks["revealed"], "winner": winner,
            "requests_on_the_key": len(key.day), "refused_429": trial.server.counts.get("429", 0),
            **trial.found}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

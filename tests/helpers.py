"""Small builders for rules tests: a game at a chosen phase, posts at minutes into it."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from modbot.cli import main as cli_main
from modbot.core.engine import Post
from modbot.core.reporting import Replay
from modbot.core.state.model import GameSetup, GameState, Profile, Seat

START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)  # night 1 begins
DAY1 = START + timedelta(hours=24)  # discussion
NOMINATIONS1 = DAY1 + timedelta(hours=12)
VOTING1 = NOMINATIONS1 + timedelta(hours=12)
DAY1_END = VOTING1 + timedelta(hours=24)
FIVE = ("Alex", "Brianna", "Cameron", "Derek", "Ellen")


_ROOT = Path(__file__).resolve().parent.parent


def public_game_text(text: str) -> str:
    """A game file without its private side (script, characters, bluffs): for runs that
    play only the public thread, where no Storyteller approves the nights."""
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("script =", "bluffs =", "character =")))


def setup(players=FIVE, *, dead=(), spent=(), travellers=(), profile=Profile.BOTF, **kwargs):
    seats = tuple(
        Seat(p, alive=p not in dead, ghost_vote=p not in spent, traveller=p in travellers)
        for p in players
    )
    kwargs.setdefault("storytellers", ("nightingale",))
    return GameSetup("test", seats, START, profile=profile, **kwargs)


class Game:
    """A replay with a post counter; `at` is minutes after the nomination window opens."""

    def __init__(self, players=FIVE, **kwargs) -> None:
        self.run = Replay(GameState.from_setup(setup(players, **kwargs)))
        self.number = 0

    def post(self, author: str, raw: str, minutes: float = 0, *, base=NOMINATIONS1):
        self.number += 1
        return self.run.feed(Post(self.number, author, base + timedelta(minutes=minutes), raw))

    def voting(self, author: str, raw: str, minutes: float = 0):
        return self.post(author, raw, minutes, base=VOTING1)

    def advance(self, at: datetime):
        return self.run.advance_to(at)

    @property
    def state(self) -> GameState:
        return self.run.state

    def nomination(self, nominee: str, day: int | None = None):
        days = list(self.state.past_days) + ([self.state.today] if self.state.today else [])
        chosen = days[-1] if day is None else next(d for d in days if d.number == day)
        return chosen.nomination_of(nominee) or chosen.nomination_of(nominee, "exile")

    def locked(self, nominee: str) -> list[tuple[str, str]]:
        return [(v.player, v.vote) for v in self.nomination(nominee).locked]

    def codes(self) -> list[str]:
        return [r.code for rs in self.run.rejections.values() for r in rs]

    def report(self) -> dict:
        return self.run.report()


def loading_time() -> float:
    """How long this machine takes to start Python and import the daemon (the part of a run
    before any work can happen, and before modbot handles a signal): the best of three."""
    best = float("inf")
    for _ in range(3):
        began = time.monotonic()
        subprocess.run([sys.executable, "-c", "import modbot.app.running.daemon"], check=True, cwd=_ROOT,
                       env={**os.environ, "PYTHONPATH": str(_ROOT)})
        best = min(best, time.monotonic() - began)
    return best


def run_modbot(*args, stdin: str = "", cwd=None) -> subprocess.CompletedProcess:
    """`modbot ARGS` run in this process (`cli.main`, as the console script calls it), with
    its own stdin, stdout, stderr and working folder: what a host's shell would see."""
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    real_stdin = sys.stdin
    try:
        os.chdir(cwd or Path(__file__).resolve().parent.parent)
        sys.stdin = io.StringIO(stdin)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli_main(list(map(str, args)))
            except SystemExit as exc:  # argparse's usage errors and --help
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = real_stdin
        os.chdir(here)
    return subprocess.CompletedProcess(["modbot", *args], code, out.getvalue(), err.getvalue())

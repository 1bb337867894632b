"""Benchmark: the route of one vote and of one night choice through the bot, in modules.

The demo game on the in-memory sandbox (sandbox/local.py: the same answers, no sockets) is
played up to its first thread vote, and again up to its first night choice; then the one poll
cycle that reads and handles that post (`Service.cycle`) runs under `sys.setprofile`, which
sees every Python function the cycle enters. Printed: how many of the project's modules it
entered (the sandbox's, which answers the requests, and the rehearsal's, which drives
the script, left out), and, with `--list`, which,
in the order first entered: the walk docs/development.md describes.

Run: python benchmarks/route_walk.py [--list]
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.cli.rehearsal import demo_rehearsal

HARNESS = ("modbot.sandbox", "modbot.cli.rehearsal")  # the forum answering, the script driving


def _entered(action) -> list[str]:
    """The project's modules (not the sandbox) a call enters, in the order first entered."""
    seen: dict[str, None] = {}

    def profile(frame, event, _arg):
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if name.startswith("modbot.") and not name.startswith(HARNESS):
                seen.setdefault(name, None)

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return list(seen)


def _route(folder: str, first) -> list[str]:
    """Play the demo to the first item `first` accepts; the modules its cycle enters."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{folder}/walk.sqlite", local=True)
    try:
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.bot.cycle(rehearsal.setup.first_night_starts)
        cut = next(i for i, item in enumerate(script) if first(item))
        rehearsal.play(script[:cut])
        item = script[cut]
        at = datetime.fromisoformat(item["created_at"])
        rehearsal.clock.set(at)
        if "to" in item:
            rehearsal.post_pm(item["username"], item["to"], item["raw"], item["created_at"])
        else:
            rehearsal.post(item["username"], item["raw"], item["created_at"])
        return _entered(lambda: rehearsal.bot.cycle(at))
    finally:
        rehearsal.stop()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        vote = _route(folder + "/v", lambda i: "to" not in i and "/vote" in i["raw"])
    with tempfile.TemporaryDirectory() as folder:
        choice = _route(folder + "/c", lambda i: "to" in i and "/choose" in i["raw"])
    figures = {"modules_one_vote_cycle": len(vote), "modules_one_night_choice_cycle": len(choice)}
    if "--list" in sys.argv:
        figures.update({"vote_route": vote, "night_choice_route": choice})
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()

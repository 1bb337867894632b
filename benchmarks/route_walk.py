"""Benchmark: the route of one vote and of one night choice through the bot, in modules.

The demo game on the in-memory sandbox (sandbox/local.py: the same answers, no sockets) is
played up to its first thread vote, and again up to its first night choice; then the one poll
cycle that reads and handles that post (`Service.cycle`) runs under `sys.setprofile`, which
sees every Python function the cycle enters, from the read to the outbox's send (the cycle
drains the outbox: the count or the answer is posted, its picture drawn and uploaded, within
it). Printed: how many of the project's modules it entered (the sandbox's, which answers the
requests, and the rehearsal's, which drives the script, left out); how many calls crossed
from one layer to another (a core floor, a room of app/, the adapters, the files: `room`);
then how many of them a quiet cycle at the same moment enters too (nothing new to read: the
cycle's own steps, whatever it reads) and how many the vote or the choice adds; and, with
`--list`, which modules, in the order first entered: the walk docs/development.md describes.

Run: python benchmarks/route_walk.py [--list]
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.cli.rehearsal import demo_rehearsal

HARNESS = ("modbot.sandbox", "modbot.cli.rehearsal")  # the forum answering, the script driving


def room(module: str) -> str:
    """A module's layer: the core's floor, or the shell's room (`modbot.app.games`), or the
    adapters, the files, the commands."""
    parts = module.split(".")
    if parts[1] in ("core", "app") and len(parts) > 3:
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def _entered(action) -> tuple[list[str], int]:
    """The project's modules (not the sandbox) a call enters, in the order first entered, and
    the calls that cross from one layer to another (the profiler's call graph: a call whose
    caller is in another room or floor of the project)."""
    seen: dict[str, None] = {}
    crossings = 0

    def ours(name: str) -> bool:
        return name.startswith("modbot.") and not name.startswith(HARNESS)

    def profile(frame, event, _arg):
        nonlocal crossings
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if ours(name):
                seen.setdefault(name, None)
                caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
                if ours(caller) and room(caller) != room(name):
                    crossings += 1

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return list(seen), crossings


def _route(folder: str, first) -> tuple[list[str], int, list[str]]:
    """Play the demo to the first item `first` accepts; the modules its cycle enters, and its
    calls across layers; then the modules a quiet cycle at the same moment enters (nothing new
    to read: what every cycle does, whatever it reads)."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{folder}/walk.sqlite", local=True)
    try:
        at = rehearsal.posted_unread(script, first)
        modules, crossings = _entered(lambda: rehearsal.bot.cycle(at))
        quiet, _ = _entered(lambda: rehearsal.bot.cycle(at))
        return modules, crossings, quiet
    finally:
        rehearsal.stop()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        vote = _route(folder + "/v", lambda i: "to" not in i and "/vote" in i["raw"])
    with tempfile.TemporaryDirectory() as folder:
        choice = _route(folder + "/c", lambda i: "to" in i and "/choose" in i["raw"])
    figures = {"modules_one_vote_cycle": len(vote[0]),
               "modules_one_night_choice_cycle": len(choice[0]),
               "of_them_any_quiet_cycle_enters": len(set(vote[2]) & set(vote[0])),
               "modules_the_vote_adds": len(set(vote[0]) - set(vote[2])),
               "modules_the_night_choice_adds": len(set(choice[0]) - set(choice[2])),
               "layer_crossings_one_vote_cycle": vote[1],
               "layer_crossings_one_night_choice_cycle": choice[1]}
    if "--list" in sys.argv:
        figures.update({"vote_route": vote[0], "night_choice_route": choice[0],
                        "quiet_cycle": vote[2]})
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()

"""`modbot setup`: check the set-up in a game file, or propose a random legal one.

Without `--propose`, the grimoire the game file deals (each seat's `character`, `thinks`,
`evil_team`, and `bluffs`) is checked against the script's set-up rules and every problem is
explained (exit status 1). With `--propose`, a random legal set-up is drawn for the seats
(`--seed` makes it repeatable) and printed; `--write FILE` writes the game file again with it.
Either way it says first which of the script's characters the Storytellers run (the official
characters the bot does not automate yet), and the official jinxes among them.
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from ..app.posting.catalogue import words
from ..core import GrimoireEntry, Script, Seat, dealt_text, jinxes_said, problems, propose, who_runs
from ..files.gamefile import load_game
from ..files.lines import GameFileError
from ..files.scripts import bundled_scripts
from ..files.signupfile import in_signups as files_in_signups
from ..shown import shown_lines

_PRIVATE_KEYS = re.compile(r"^\s*(character|thinks|evil_team|bluffs|reminders)\s*=")


def run_setup(args: argparse.Namespace, out: Callable[[str], object] = print) -> int:
    try:
        setup = load_game(args.game)
    except GameFileError as exc:
        out(f"modbot: {in_signups(args.game) or shown_lines(exc)}")
        return 2
    if setup.script is None:
        out(f"modbot: {args.game}: set game.script first (bundled: "
            f"{', '.join(bundled_scripts())}; or a Script Tool .json beside the game file)")
        return 2
    out(shown_lines(words(who_runs(setup.script))))
    jinxes = jinxes_said(setup.script)
    if jinxes is not None:
        out(shown_lines(words(jinxes)))
    if not args.propose:
        found = problems(setup.script, setup.seats, dict(setup.grimoire), setup.bluffs,
                         lil_monsta=setup.lil_monsta, fabled=setup.fabled)
        for problem in found:
            out(f"- {shown_lines(words(problem))}")
        out("The set-up is legal." if not found else f"{len(found)} problem(s).")
        return 1 if found else 0
    grimoire, bluffs = propose(setup.script, setup.seats, random.Random(args.seed),
                               evil_teams=args.teams, lil_monsta=setup.lil_monsta)
    out(shown_lines(describe(setup.script, setup.seats, grimoire, bluffs)))
    if args.write:
        text = Path(args.game).read_text(encoding="utf-8")
        Path(args.write).write_text(with_setup(text, setup.script, grimoire, bluffs), encoding="utf-8")
        out(f"Wrote {args.write}.")
    return 0


def in_signups(game: str) -> str | None:
    """What to do with a game file still in sign-ups (no [[seat]] yet), else None."""
    if files_in_signups(game) is None:
        return None
    return (f"{game} is in sign-ups (no [[seat]] yet): `modbot game new {game} --from-signups` "
            f"seats the players, then `modbot setup {game}` checks the set-up (or `--propose "
            f"--write {game}` deals one); `modbot rehearse {game}` rehearses it now with "
            "placeholder players")


def describe(script: Script, seats: Sequence[Seat], grimoire: dict[str, GrimoireEntry], bluffs: Sequence[str]) -> str:
    lines = []
    for seat in seats:
        entry = grimoire.get(seat.name)
        if entry is None:
            lines.append(f"{seat.name}: (traveller: the Storyteller chooses)")
            continue
        lines.append(f"{seat.name}: {words(dealt_text(script, entry))}")
    if bluffs:
        lines.append("Bluffs: " + ", ".join(script.character(b).name for b in bluffs))
    return "\n".join(lines)


def with_setup(text: str, script: Script, grimoire: dict[str, GrimoireEntry], bluffs: Sequence[str]) -> str:
    """The game file's text with the set-up written in (old character lines replaced)."""
    lines = [line for line in text.splitlines() if not _PRIVATE_KEYS.match(line)]
    out = []
    for line in lines:
        out.append(line)
        if re.match(r"^\s*\[\s*game\s*\]", line) and bluffs:
            names = ", ".join(f'"{script.character(b).name}"' for b in bluffs)
            out.append(f"bluffs = [{names}]")
        match = re.match(r'^\s*player\s*=\s*"([^"]+)"', line)
        if match and match.group(1) in grimoire:
            entry = grimoire[match.group(1)]
            out.append(f'character = "{script.character(entry.character).name}"')
            if entry.thinks:
                out.append(f'thinks = "{script.character(entry.thinks).name}"')
            if entry.evil_team:
                out.append(f"evil_team = {entry.evil_team}")
            if entry.bluffs:
                names = ", ".join(f'"{script.character(b).name}"' for b in entry.bluffs)
                out.append(f"bluffs = [{names}]")
            if entry.reminders:
                marks = ", ".join(f'"{m}"' for m in entry.reminders)
                out.append(f"reminders = [{marks}]")
    return "\n".join(out) + "\n"


__all__ = ["describe", "in_signups", "run_setup", "with_setup"]

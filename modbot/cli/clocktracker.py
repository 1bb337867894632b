"""Theory of operation: a finished game as ClockTracker imports it.

ClockTracker (lindsaykwardell/clocktracker) takes a whole game from a digital grimoire through
a form post: `server/api/digital_grimoire/import.post.ts` (commit 08b96b98) reads one form field,
`game`, a JSON string, stores it and redirects the browser to `/add-game?imported_game=UUID`,
where the importer (signed in) confirms it; `server/api/digital_grimoire/hydrate/[uuid].get.ts`
(commit 53ff0f5c) reads it as `DigitalGrimoireGame`: `date`, `script` (a name, or a script in the
Script Tool's format), `player_count`, `traveler_count`, `win` (GOOD_WINS, EVIL_WINS or
NOT_RECORDED), `demon_bluffs` and `fabled` (official ids), and `grimoire`: one token a seat
(`role_id`, `alignment` GOOD/EVIL/NEUTRAL, `is_dead`, `used_ghost_vote`, `order`, `created_at`,
`player_name`, `reminders` of `{role_id, reminder}`). `data/clocktracker-schema.json` is that
type as a JSON Schema; the tests validate every document against it.

`clocktracker_game` maps the export's record (cli/export.py) to that document: ids are official
ids, which ClockTracker maps to its own (`server/utils/getRoleMap.ts`: the id without `_` or
`-`), the seeds' renamed characters under their official ids (the catalogue's `official` id, or
for a seed's own character its nearest official one: `exports_as`); the script goes
as a Script Tool list (its `_meta` and ids), so a seed arrives as the custom script it is;
travellers are tokens too and counted apart (`player_count` counts the seated players who are
not travellers); a win by one of several evil teams is EVIL_WINS. `importer_page` is a page
with one button that posts the document to the importer from the host's own browser.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jinja2

from ..bundled import folder
from ..core import Script
from ..files.scripts import catalogue

IMPORTER = "https://clocktracker.app/api/digital_grimoire/import"
WINS = {"good": "GOOD_WINS", "evil": "EVIL_WINS"}
ALIGNMENTS = {"good": "GOOD", "evil": "EVIL"}


@cache
def own_reminders() -> dict[str, tuple[str, str]]:
    """Reminders the bot itself places, as the official tokens word them (a record's
    `reminder_tokens`: Lil' Monsta's babysitter "Is the Demon"): text -> (role id, words)."""
    return {text: (key, words) for key, record in catalogue().items()
            for text, words in record.get("reminder_tokens", {}).items()}


def official_id(character_id: str) -> str:
    """The id the official tools know: the catalogue's `official` id (a seed's renamed
    character, an official version), a seed's own character's nearest official one
    (`exports_as`: the Hostess's Harlot), else its own."""
    record = catalogue().get(character_id, {})
    return str(record.get("official", {}).get("id") or record.get("exports_as") or character_id)


def clocktracker_game(record: dict[str, Any], script: Script | None, *,
                      fabled: tuple[str, ...] = (), bluffs: tuple[str, ...] = ()) -> dict[str, Any]:
    """The export's record (JSON values, cli/export.py) as ClockTracker's `DigitalGrimoireGame`.
    `bluffs` and `fabled` are character ids (the record names them by their words)."""
    seats, date = record["seats"], played_on(record)
    winner = record.get("winner") or {}
    return {
        "date": date,
        "script": script_list(script, record["game"].get("script")),
        "player_count": sum(1 for s in seats if not s["traveller"]),
        "traveler_count": sum(1 for s in seats if s["traveller"]),
        "win": WINS.get(winner.get("team") or "", "NOT_RECORDED"),
        "demon_bluffs": [official_id(b) for b in bluffs],
        "fabled": [official_id(f) for f in fabled],
        "grimoire": [token(seat, date) for seat in seats],
    }


def played_on(record: dict[str, Any]) -> str:
    """The game's date: when its last day ended (else when its first night began)."""
    ends = [d["ended_at"] for d in record.get("days", []) if d.get("ended_at")]
    return str(max(ends) if ends else record["game"]["first_night_starts"])


def script_list(script: Script | None, name: str | None) -> list[Any] | str:
    """The Script Tool's form: `_meta` then the ids (official ones); a game without a script
    sends its name, for ClockTracker to find."""
    if script is None:
        return name or ""
    return [{"id": "_meta", "name": script.name},
            *(official_id(c.id) for c in script.characters)]


def token(seat: dict[str, Any], at: str) -> dict[str, Any]:
    """One seat's token: the character it ended the game as, who played it last."""
    final = seat["final"]
    role = official_id(final["character_id"]) if final.get("character_id") else ""
    return {
        "role_id": role,
        "alignment": ALIGNMENTS.get(final.get("alignment") or "", "NEUTRAL"),
        "is_dead": not seat["alive"],
        "used_ghost_vote": not seat["alive"] and not seat["ghost_vote"],
        "order": seat["seat"] - 1,
        "created_at": at,
        "player_name": seat["player"],
        "reminders": [reminder(role, r) for r in final.get("reminders", [])],
    }


def reminder(role: str, text: str) -> dict[str, str]:
    """A reminder the bot placed under its official token's words; one the Storytellers wrote
    goes as written, on the seat's own character (ClockTracker keeps it as a custom one)."""
    role_id, words = own_reminders().get(text, (role, text))
    return {"role_id": role_id, "reminder": words}


def importer_page(document: dict[str, Any], game_name: str, importer: str = IMPORTER) -> str:
    """A page with one button: a plain form post of the document to ClockTracker's importer."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder("templates") / "clocktracker")),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("import.html.j2").render(
        game=json.dumps(document, ensure_ascii=False), name=game_name, importer=importer,
        players=len(document["grimoire"]))

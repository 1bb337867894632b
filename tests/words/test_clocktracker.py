"""ClockTracker's import document (issue 41), from a finished game's record: it holds the
shape ClockTracker's importer reads (data/clocktracker-schema.json, from its
`hydrate/[uuid].get.ts`), the seeds' renames under official ids, travellers counted apart, the
dead and their spent vote tokens, the bluffs and Fabled as ids, the winner as its enum."""

import html
import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import jsonschema

from modbot.cli.clocktracker import clocktracker_game, importer_page, official_id
from modbot.cli.export import jsonable
from modbot.core import game_record
from modbot.core.state.game_setup import Seat

from ..conversation import SEVEN, START, Conversation, botf_setup

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "data" / "clocktracker-schema.json").read_text())


def _finished(winner="good"):
    characters = {**SEVEN, "Derek": "doppelganger"}
    setup = botf_setup(characters, dead=("Gus",), fabled=("djinn",))
    seats = tuple(replace(s, ghost_vote=False) if s.name == "Gus" else s for s in setup.seats)
    setup = replace(setup, seats=(*seats, Seat("Hal", traveller=True)),
                    grimoire=(*setup.grimoire, ("Hal", replace(setup.grimoire[0][1], character="hostess",
                                                               alignment="evil"))))
    talk = Conversation(setup)
    talk.tick(START)
    talk.st(f"!win {winner} The Demon fell --yes", START + timedelta(hours=30))
    return talk.state


def _document(state):
    return clocktracker_game(jsonable(game_record(state)), state.setup.script,
                             fabled=tuple(state.setup.fabled), bluffs=tuple(state.dealt_bluffs))


def test_the_document_is_what_the_importer_reads():
    document = _document(_finished())
    jsonschema.validate(document, SCHEMA)
    assert document["win"] == "GOOD_WINS"
    assert document["player_count"] == 7 and document["traveler_count"] == 1
    assert document["demon_bluffs"] == ["sage", "flowergirl", "mathematician"]
    assert document["fabled"] == ["djinn"]
    tokens = {t["player_name"]: t for t in document["grimoire"]}
    assert [t["order"] for t in document["grimoire"]] == list(range(8))
    assert tokens["Hal"]["role_id"] == "harlot" and tokens["Derek"]["role_id"] == "eviltwin"
    assert tokens["Derek"]["alignment"] == "EVIL" and tokens["Alex"]["alignment"] == "GOOD"
    assert tokens["Hal"]["alignment"] == "EVIL"  # a traveller's, as the Storytellers set it
    assert tokens["Gus"]["is_dead"] and tokens["Gus"]["used_ghost_vote"]
    assert not tokens["Alex"]["is_dead"] and not tokens["Alex"]["used_ghost_vote"]
    meta, *ids = document["script"]
    assert meta == {"id": "_meta", "name": botf_setup().script.name}
    assert "eviltwin" in ids and "harlot" in ids and "doppelganger" not in ids


def test_an_evil_win_and_a_game_without_a_winner():
    assert _document(_finished("evil"))["win"] == "EVIL_WINS"
    talk = Conversation(botf_setup())
    talk.tick(START)
    assert _document(talk.state)["win"] == "NOT_RECORDED"


def test_the_import_page_posts_the_document_in_one_field():
    document = _document(_finished())
    page = importer_page(document, "BotF <demo>", "https://example.invalid/import")
    assert '<form method="post" action="https://example.invalid/import">' in page
    assert "BotF &lt;demo&gt;" in page  # the game's name is escaped
    value = page.split('name="game" value="')[1].split('"')[0]
    assert json.loads(html.unescape(value)) == document


def test_every_character_is_exported_under_the_id_the_official_tools_know():
    """The seeds' renamed characters and the official versions modbot keeps under its own
    key go by their official ids; the others by their own."""
    assert [official_id(i) for i in ("doppelganger", "hostess", "officialacrobat", "acrobat",
                                     "washerwoman")] == \
        ["eviltwin", "harlot", "acrobat", "acrobat", "washerwoman"]

"""The recipe of docs/development.md ("Adding a character"), followed by a test, so it stays
true: a character in no bundled script (the Investigator, a night-information Townsfolk) gets
a catalogue record, a function for what it learns declared as its `CharacterRules`, and a
script that holds it (a host's own Script Tool export, ids only: no night order of its own);
it is dealt, wakes at its default step, the night sheet computes what it learns, and the docs'
table shows it."""

import json
from collections.abc import Iterator

import pytest

from modbot.cli import doctables
from modbot.core.characters.records import RECORDS
from modbot.core.state.feature import CharacterRules
from modbot.core.state.grimoire import dealt_character, players_of_team
from modbot.core.state.night_model import Info
from modbot.core.wording import say
from modbot.files import scripts

from ..conversation import botf_setup
from ..notices import night_sheet, says

INVESTIGATOR = {  # step 1: its record in data/characters.json
    "name": "Investigator", "team": "townsfolk", "edition": "tb",
    "ability": "You start knowing that 1 of 2 players is a particular Minion.",
    "reminders": ["Minion", "Wrong"], "firstNight": 53, "otherNight": 0,
    "action": {"wakes": "first", "info": "investigator"},
}


def investigator(state, player, _choice, _deaths) -> Info:
    """Step 2: what it learns, in `core/characters/information.py`, declared in its
    `CHARACTERS` as `CharacterRules("investigator", night=investigator)` (the Librarian's words
    serve: a player and a wrong one, and the character)."""
    minions = [p for p in players_of_team(state, "minion", False) if p != player]
    if not minions:
        return Info(note=say("info.noble_too_few"), needs_result=True)
    seats = [s.name for s in state.seats]
    wrong = next(n for n in seats if n not in (minions[0], player))
    first, second = sorted((minions[0], wrong), key=seats.index)
    name = dealt_character(state, minions[0]).name
    return Info(note=say("info.show_one_of", player=minions[0], character=name),
                needs_result=True, result=say("result.one_of", first=first, second=second,
                                              character=name))


def _forget() -> None:
    for cached in (scripts.catalogue, scripts.catalogue_script, doctables.scripts_holding,
                   doctables.where_rules_live):
        cached.cache_clear()


@pytest.fixture
def with_investigator(tmp_path) -> Iterator[None]:
    """The catalogue with the Investigator's record, and its function registered."""
    data = json.loads(scripts.CATALOGUE.read_text(encoding="utf-8"))
    data["characters"]["investigator"] = INVESTIGATOR
    catalogue = tmp_path / "characters.json"
    catalogue.write_text(json.dumps(data), encoding="utf-8")
    kept, scripts.CATALOGUE = scripts.CATALOGUE, catalogue
    RECORDS["investigator"] = CharacterRules("investigator", night=investigator)
    _forget()
    try:
        yield
    finally:
        scripts.CATALOGUE = kept
        del RECORDS["investigator"]
        _forget()


def host_script(tmp_path):
    """Step 3: a script that holds it (here, a host's export by id: the test's own)."""
    path = tmp_path / "investigation.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "Investigation"}, "investigator",
                                "chef", "empath", "soldier", "poisoner", "imp", "monk",
                                "sage", "flowergirl", "oracle"]))
    return scripts.load_script(str(path))


def test_a_new_character_plays_from_its_record_and_its_function(with_investigator, tmp_path):
    script = host_script(tmp_path)
    assert script.find("Investigator").spec.wakes == "first"
    assert script.first_night.index("investigator") > script.first_night.index("demoninfo")
    characters = dict(zip(("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"),
                          ("investigator", "empath", "soldier", "poisoner", "imp", "monk",
                           "chef"), strict=True))
    setup = botf_setup(characters, script=script, bluffs=("sage", "flowergirl", "oracle"))
    entries, _, _ = night_sheet(setup, night=1)
    assert says(entries["Alex"].suggestion, "result.one_of", first="Brianna", second="Derek",
                character="Poisoner")


def test_a_new_character_is_in_the_generated_table(with_investigator):
    row = next(r for r in doctables.table().splitlines() if r.startswith("| Investigator |"))
    assert row.startswith("| Investigator | townsfolk | Trouble Brewing | the bot | – | the first night "
                          "| on the first night, learns at "
                          "its step if still to come; later, nothing | – | no | – | false or arbitrary")
    assert doctables.count("characters") == str(len(scripts.catalogue()))


def test_without_its_function_the_storytellers_run_it_from_the_catalogue(tmp_path):
    """Before step 2 the character is not refused: the catalogue's record says the Storytellers
    run it, and its night sheet row asks them for what it learns."""
    script = host_script(tmp_path)
    investigator = script.find("Investigator")
    assert not investigator.automated and investigator.spec.learns
    characters = dict(zip(("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"),
                          ("investigator", "empath", "soldier", "poisoner", "imp", "monk",
                           "chef"), strict=True))
    setup = botf_setup(characters, script=script, bluffs=("sage", "flowergirl", "oracle"))
    entries, _, _ = night_sheet(setup, night=1)
    assert says(entries["Alex"].suggestion, "sheet.st_decides")
    assert entries["Alex"].needs_result

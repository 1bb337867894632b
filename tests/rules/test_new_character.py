"""The recipe of docs/development.md ("Adding a character"), followed by a test, so it stays
true: a character in no bundled script (the Steward, a night-information Townsfolk) gets
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
from modbot.core.state.grimoire import is_evil
from modbot.core.state.night_model import Info
from modbot.core.wording import say
from modbot.files import scripts

from ..conversation import botf_setup
from ..notices import night_sheet, says

STEWARD = {  # step 1: its record in data/characters.json (its "run" dropped)
    "name": "Steward", "team": "townsfolk", "edition": "carousel",
    "ability": "On the first night, learns one player who is good.",
    "reminders": ["Know"], "firstNight": 62, "otherNight": 0,
    "action": {"wakes": "first", "info": "steward"},
}


def steward(state, player, _choice, _deaths) -> Info:
    """Step 2: what it learns, in `core/characters/information.py`, declared in its
    `CHARACTERS` as `CharacterRules("steward", night=steward)` (a good player, proposed)."""
    good = [s.name for s in state.seats if s.name != player and not is_evil(state, s.name)]
    return Info(note=say("info.proposed", proposed=good[0]), needs_result=True)


def _forget() -> None:
    for cached in (scripts.catalogue, scripts.catalogue_script, doctables.scripts_holding,
                   doctables.where_rules_live):
        cached.cache_clear()


@pytest.fixture
def with_steward(tmp_path) -> Iterator[None]:
    """The catalogue with the Steward's record, and its function registered."""
    data = json.loads(scripts.CATALOGUE.read_text(encoding="utf-8"))
    data["characters"]["steward"] = STEWARD
    catalogue = tmp_path / "characters.json"
    catalogue.write_text(json.dumps(data), encoding="utf-8")
    kept, scripts.CATALOGUE = scripts.CATALOGUE, catalogue
    RECORDS["steward"] = CharacterRules("steward", night=steward)
    _forget()
    try:
        yield
    finally:
        scripts.CATALOGUE = kept
        del RECORDS["steward"]
        _forget()


def host_script(tmp_path):
    """Step 3: a script that holds it (here, a host's export by id: the test's own)."""
    path = tmp_path / "investigation.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "Stewardship"}, "steward",
                                "chef", "empath", "soldier", "poisoner", "imp", "monk",
                                "sage", "flowergirl", "oracle"]))
    return scripts.load_script(str(path))


def test_a_new_character_plays_from_its_record_and_its_function(with_steward, tmp_path):
    script = host_script(tmp_path)
    assert script.find("Steward").spec.wakes == "first"
    assert script.first_night.index("steward") > script.first_night.index("demoninfo")
    characters = dict(zip(("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"),
                          ("steward", "empath", "soldier", "poisoner", "imp", "monk",
                           "chef"), strict=True))
    setup = botf_setup(characters, script=script, bluffs=("sage", "flowergirl", "oracle"))
    entries, _, _ = night_sheet(setup, night=1)
    assert says(entries["Alex"].suggestion, "info.proposed", proposed="Brianna")


def test_a_new_character_is_in_the_generated_table(with_steward):
    row = next(r for r in doctables.table().splitlines() if r.startswith("| Steward |"))
    assert row.startswith("| Steward | townsfolk | Experimental | the bot | – | the first night "
                          "| on the first night, learns at "
                          "its step if still to come; later, nothing | – | no | – | false or arbitrary")
    assert doctables.count("characters") == str(len(scripts.catalogue()))


def test_without_its_function_the_storytellers_run_it_from_the_catalogue(tmp_path):
    """Before step 2 the character is not refused: the catalogue's record says the Storytellers
    run it, and its night sheet row asks them for what it learns."""
    script = host_script(tmp_path)
    steward = script.find("Steward")
    assert not steward.automated and steward.spec.learns
    characters = dict(zip(("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"),
                          ("steward", "empath", "soldier", "poisoner", "imp", "monk",
                           "chef"), strict=True))
    setup = botf_setup(characters, script=script, bluffs=("sage", "flowergirl", "oracle"))
    entries, _, _ = night_sheet(setup, night=1)
    assert says(entries["Alex"].suggestion, "sheet.st_decides")
    assert entries["Alex"].needs_result

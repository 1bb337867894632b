"""Scripts as data: the bundled BotF script (seed 001) in the official format, with an action
specification for every character; official Script Tool exports load by id."""

import json
import re
from pathlib import Path

import pytest

from modbot.core.script import ActionSpec, character_key
from modbot.gamefile import GameFileError, parse_game
from modbot.scripts import SCRIPTS, ScriptError, action_specs, bundled_scripts, load_script

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SEED = SHARED / "seeds" / "001_31b64c9a3090992c.txt"
OFFICIAL = SHARED / "reference" / "botc-official"
RENAMED = {"doppelganger": "eviltwin", "hostess": "harlot"}  # BotF's own names (seed 001)


def _need(path: Path):
    if not path.exists():
        pytest.skip(f"{path} is not here (../shared is beside the project on our machines)")


@pytest.mark.parametrize("name", bundled_scripts())
def test_every_bundled_script_follows_the_official_schema(name):
    _need(OFFICIAL / "script-schema.json")
    import jsonschema
    schema = json.loads((OFFICIAL / "script-schema.json").read_text())
    jsonschema.validate(json.loads((SCRIPTS / f"{name}.json").read_text()), schema)


def test_ids_follow_the_official_convention_and_match_official_ids():
    _need(OFFICIAL / "roles.json")
    official = {r["id"] for r in json.loads((OFFICIAL / "roles.json").read_text())}
    for character in load_script("botf").characters:
        assert re.fullmatch(r"[a-z]+", character.id)
        assert character.id == character_key(character.name)
        assert RENAMED.get(character.id, character.id) in official, character.id


def test_the_botf_script_has_all_35_characters_of_seed_001_with_its_texts():
    script = load_script("botf")
    teams = {}
    for c in script.characters:
        teams.setdefault(c.team, []).append(c.name)
    assert {t: len(v) for t, v in teams.items()} == {
        "townsfolk": 13, "outsider": 4, "minion": 4, "demon": 4, "fabled": 5, "traveller": 5}
    assert script.find("klutz").ability.startswith("When you learn that you died, publicly "
                                                   "choose a living player within 6 hours.")
    assert script.find("Doppelgänger").id == "doppelganger" and script.find("Harlot") is None
    assert (script.terms.good, script.terms.evil) == ("Loyal", "Cultist")
    assert {j["id"] for j in json.loads((SCRIPTS / "botf.json").read_text())[2]
            .get("jinxes", [])} == {"pithag"}  # the Dreamer's jinx (Djinn's table)


def _seed_night_order() -> tuple[list[str], list[str]]:
    """The seed's table; its second column spills into single-cell rows at the end."""
    text = SEED.read_text(encoding="utf-8")
    table = text[text.index("| First Night | Other Nights |"):text.index("Storyteller\n")]
    first, other = [], []
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[1]:
            first.append(cells[0])
            other.append(cells[1])
        elif cells[0]:
            other.append(cells[0])  # the spilled rows: first column empty or missing
    return first, other


def test_the_botf_night_order_equals_the_seed():
    _need(SEED)
    first, other = _seed_night_order()
    script = load_script("botf")
    names = {c.id: c.name for c in script.characters}
    names.update({"minioninfo": "Minion Info", "demoninfo": "Demon Info"})

    def shown(order):  # travellers wake first, as one step in the seed
        steps = [names[s] for s in order if script.get(s) is None or
                 script.get(s).team != "traveller"]
        return ["Travellers"] + steps
    assert shown(script.first_night) == first
    assert shown(script.other_night) == other


def test_every_character_has_a_complete_action_spec():
    specs = action_specs()
    fields = set(ActionSpec.__slots__)
    for character in load_script("botf").characters:
        raw = specs[character.id]
        assert set(raw) <= fields, character.id
        spec = character.spec
        assert spec.wakes in ("none", "first", "other", "each", "day", "death")
        assert spec.info is not None or spec.st or spec.kills or spec.chooses, character.id
        assert not (spec.alive_only and spec.dead_only)


def test_an_official_script_tool_export_loads_by_id(tmp_path):
    export = tmp_path / "export.json"
    export.write_text(json.dumps([
        {"id": "_meta", "name": "Homebrew"}, "clockmaker", "no_dashii", "vortox",
        {"id": "custom", "name": "Tinker", "team": "outsider", "ability": "You might die."},
    ]))
    script = load_script(str(export))
    assert [c.id for c in script.characters] == ["clockmaker", "nodashii", "vortox", "custom"]
    assert script.find("Tinker").spec.st.startswith("custom character")
    assert script.first_night[:2] == ("minioninfo", "demoninfo")
    export.write_text(json.dumps([{"id": "_meta", "name": "x"}, "washerwoman", "imp", "baron"]))
    with pytest.raises(ScriptError, match="unknown character id\\(s\\): washerwoman, baron"):
        load_script(str(export))


GAME = """
[game]
name = "g"
first_night_starts = "2026-12-01T18:00:00Z"
{extra}
[[seat]]
player = "A"
{seat}
[[seat]]
player = "B"
[[seat]]
player = "C"
[[seat]]
player = "D"
[[seat]]
player = "E"
"""


@pytest.mark.parametrize("extra, seat, error", [
    ("", 'character = "Oracle"', "characters need game.script"),
    ('script = "botf"', 'character = "Imp"', "no character 'Imp' on the script"),
    ('script = "botf"', 'alignment = "neutral"', "alignment is good or evil"),
    ('script = "nosuch"', "", "no bundled script 'nosuch'"),
    ('script = "botf"\nbluffs = ["Washerwoman"]', "", "game.bluffs: no character"),
])
def test_game_file_errors_name_the_line(extra, seat, error):
    with pytest.raises(GameFileError, match=re.escape(error)):
        parse_game(GAME.format(extra=extra, seat=seat), "g.toml")


def test_a_game_file_deals_characters_by_id():
    setup = parse_game(GAME.format(extra='script = "botf"\nbluffs = ["Sage"]',
                                   seat='character = "snake charmer"\nthinks = "Oracle"'))
    assert setup.grimoire[0][1].character == "snakecharmer"
    assert setup.grimoire[0][1].thinks == "oracle" and setup.bluffs == ("sage",)

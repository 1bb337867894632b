"""Scripts as data: the bundled BotF script (seed 001) in the official format, with an action
specification for every character; official Script Tool exports load by id."""

import dataclasses
import json
import re
from pathlib import Path

import pytest

from modbot.core.state.script import ActionSpec, character_key
from modbot.files.gamefile import GameFileError, parse_game
from modbot.files.scripts import SCRIPTS, ScriptError, bundled_scripts, catalogue, load_script

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.mark.parametrize("name", bundled_scripts())
def test_ids_follow_the_official_convention_and_match_official_ids(name):
    _need(OFFICIAL / "roles.json")
    official = {r["id"] for r in json.loads((OFFICIAL / "roles.json").read_text())}
    for character in load_script(name).characters:
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
        return ["Travellers", *steps]
    assert shown(script.first_night) == first
    assert shown(script.other_night) == other


def test_every_character_has_a_complete_action_spec():
    fields = set(ActionSpec.__slots__)
    for character in load_script("botf").characters:
        raw = catalogue()[character.id]["action"]
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
    export.write_text(json.dumps([{"id": "_meta", "name": "x"}, "washerwoman", "imp",
                                  "barron", "wahserwoman"]))
    with pytest.raises(ScriptError, match="modbot does not know barron, wahserwoman \\("):
        load_script(str(export))  # every official id loads; a typo is named


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
    ('script = "botf"\nlil_monsta = true', "", "game.lil_monsta: Lil' Monsta is not on"),
])
def test_game_file_errors_name_the_line(extra, seat, error):
    with pytest.raises(GameFileError, match=re.escape(error)):
        parse_game(GAME.format(extra=extra, seat=seat), "g.toml")


def test_a_game_file_deals_characters_by_id():
    setup = parse_game(GAME.format(extra='script = "botf"\nbluffs = ["Sage"]',
                                   seat='character = "snake charmer"\nthinks = "Oracle"'))
    assert setup.grimoire[0][1].character == "snakecharmer"
    assert setup.grimoire[0][1].thinks == "oracle" and setup.bluffs == ("sage",)
    assert not setup.lil_monsta
    assert parse_game(GAME.format(extra='script = "almanac"\nlil_monsta = true',
                                  seat="")).lil_monsta


ISSUE_LISTS = {  # the four scripts as the seeds give them (issue 6)
    "almanac": {
        "townsfolk": "Chef, Librarian, Noble, Pixie, Snake Charmer, Empath, Monk, Town Crier, "
                     "Undertaker, Savant, Artist, Soldier, Huntsman",
        "outsider": "Damsel, Drunk, Mutant, Lunatic",
        "minion": "Widow, Poisoner, Witch, Boomdandy",
        "demon": "Lil' Monsta, No Dashii, Vortox, Imp"},
    "botf": {
        "townsfolk": "Clockmaker, Dreamer, Snake Charmer, Mathematician, Flowergirl, Town "
                     "Crier, Oracle, Savant, Seamstress, Philosopher, Artist, Juggler, Sage",
        "outsider": "Mutant, Sweetheart, Barber, Klutz",
        "minion": "Doppelgänger, Witch, Cerenovus, Pit Hag",
        "demon": "Fang Gu, No Dashii, Vigormortis, Vortox",
        "traveller": "Barista, Hostess, Butcher, Bone Collector, Deviant",
        "fabled": "Djinn, Fiddler, Hell's Librarian, Revolutionary, Fibbin"},
    "oopsallevil": {
        "outsider": "Goon, Acrobat, Puzzlemaster, Sweetheart, Golem, Moonchild, Lunatic",
        "minion": "Godfather, Poisoner, Devil's Advocate, Witch, Cerenovus, Fearmonger, "
                  "Pit-Hag, Psychopath, Assassin, Mezepheles, Scarlet Woman, Marionette",
        "demon": "Fang Gu, Imp, Pukka, Vigormortis, Lleech, Vortox",
        "fabled": "Djinn"},
    "crimsonmoon": {
        "townsfolk": "Chef, Librarian, Pixie, Empath, Chambermaid, Dreamer, Town Crier, "
                     "Innkeeper, Gambler, Artist, Huntsman, Soldier, Cannibal"},
}


@pytest.mark.parametrize("name", sorted(ISSUE_LISTS))
def test_each_script_holds_exactly_the_seed_characters(name):
    script = load_script(name)
    found = {}
    for character in script.characters:
        found.setdefault(character.team, set()).add(character.name)
    assert found == {team: set(names.split(", ")) for team, names in ISSUE_LISTS[name].items()}


SEED_SCRIPTS = [n for n in bundled_scripts() if n not in ("troublebrewing", "badmoonrising")]  # the seeds' four


def test_every_character_loads_from_data_with_a_complete_action_spec():
    characters = {c.id: c for name in SEED_SCRIPTS for c in load_script(name).characters}
    def plain(name: str) -> str:  # the seeds write "Pit Hag", the script "Pit-Hag"
        return "".join(ch for ch in name.lower() if ch.isalpha())

    seeds = {plain(n) for lists in ISSUE_LISTS.values() for names in lists.values()
             for n in names.split(", ")}
    assert {plain(c.name) for c in characters.values()} == seeds  # every one the seeds name
    for character_id, character in sorted(characters.items()):
        assert character_id in catalogue(), f"{character_id}: not in data/characters.json"
        spec = character.spec
        assert character.ability and character.team and character.name, character_id
        assert spec.wakes in ("none", "first", "other", "each", "day", "death"), character_id
        assert spec.info is not None or spec.st or spec.kills or spec.chooses, character_id
        if spec.wakes in ("first", "other", "each"):
            in_order = any(character_id in load_script(n).night_order(night)
                           for n in SEED_SCRIPTS for night in (1, 2)
                           if load_script(n).get(character_id))
            assert in_order or character.team == "traveller", f"{character_id} never wakes"


def test_same_characters_keep_each_scripts_own_words():
    assert load_script("botf").find("Snake Charmer").ability.endswith("& then malfunctions.")
    assert load_script("almanac").find("Snake Charmer").ability.endswith("& is then poisoned.")
    assert load_script("oopsallevil").find("cerenovus").spec.character_teams == ()
    assert load_script("botf").find("cerenovus").spec.character_teams == ("townsfolk",
                                                                          "outsider")


def test_the_oops_all_evil_night_order_equals_seed_002():
    seed = SHARED / "seeds" / "002_8c2f2f629d309046.txt"
    _need(seed)
    text = seed.read_text(encoding="utf-8")
    script = load_script("oopsallevil")
    names = sorted((c.name for c in script.characters), key=len, reverse=True)

    def split(run: str) -> list[str]:  # the seed runs the names together
        out = []
        while run:
            name = next(n for n in names if run.startswith(n))
            out.append(name)
            run = run[len(name):]
        return out
    first_run = text.split("First Night\n", 1)[1].split("Other Nights")[0].strip()
    other_run = text.split("Other Nights\n", 1)[1].split("- this almanac")[0].strip()
    shown = {c.id: c.name for c in script.characters}
    assert [shown[s] for s in script.first_night if s in shown] == split(first_run)
    assert [shown[s] for s in script.other_night if s in shown] == split(other_run)


@pytest.mark.parametrize("name", SEED_SCRIPTS)
def test_each_bundled_script_keeps_what_it_was_before_the_catalogue(name):
    """The four scripts, now ids with their own words where they differ (issue 39), load to
    what the full scripts loaded to before (tests/fixtures/scripts-before-catalogue.json, taken
    from 1852b42): each character in the script's order, with its seed's name, team, words,
    action and jinxes, the same night orders and terms."""
    before = json.loads((ROOT / "tests" / "fixtures" / "scripts-before-catalogue.json")
                        .read_text())[name]
    script = load_script(name)
    assert (script.name, list(script.first_night), list(script.other_night)) == \
        (before["name"], before["first_night"], before["other_night"])
    assert dataclasses.asdict(script.terms) == before["terms"]
    pinned = before["characters"][0]["spec"].keys()  # fields added since are checked apart
    now = [{"id": c.id, "name": c.name, "team": c.team, "ability": c.ability,
            "spec": {f: list(v) if isinstance(v, tuple) else v
                     for f, v in ((f, getattr(c.spec, f)) for f in pinned)},
            "jinxes": [list(j) for j in c.jinxes]} for c in script.characters]
    assert now == before["characters"]


def test_the_catalogue_words_each_character_in_plain_terms():
    """A host's script gets the catalogue's words: never BotF's Loyal, Cultist or
    "malfunction"."""
    for character_id, record in catalogue().items():
        words = " ".join([record["ability"], *record.get("reminders", [])])
        assert not re.search(r"Loyal|Cultist|[Mm]alfunction", words), character_id
        assert set(record["action"]) <= set(ActionSpec.__slots__), character_id


def test_a_script_without_its_own_order_wakes_by_the_catalogue(tmp_path):
    export = tmp_path / "mixed.json"
    export.write_text(json.dumps([
        {"id": "_meta", "name": "Mixed"}, "empath", "poisoner", "imp", "eviltwin", "chef",
        {"id": "tinker2", "name": "Tinker Two", "team": "outsider", "ability": "?",
         "otherNight": 1}]))
    script = load_script(str(export))
    assert script.first_night == ("minioninfo", "demoninfo", "poisoner", "doppelganger", "chef",
                                  "empath")  # the official night sheet's order
    assert script.other_night == ("tinker2", "poisoner", "imp", "empath")
    twin = script.find("Evil Twin")
    assert (twin.id, twin.name, twin.team) == ("doppelganger", "Evil Twin", "minion")
    assert script.character("tinker2").spec.st.startswith("custom character")

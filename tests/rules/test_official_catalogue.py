"""The catalogue against the official reference files (issue 53), when `../shared` is beside
the project: every official character is in it once, and every fact the reference states
(id, name, team, edition, night positions, set-up bracket, reminder names) is the
catalogue's; the summaries are modbot's own words, never the official text. Without
`../shared`, the tests that need it are skipped; the others stand on the catalogue alone."""

import json
from pathlib import Path

import pytest

from modbot.core.state.script import INFO_STEP_POSITIONS
from modbot.files.scripts import catalogue, official_jinxes

OFFICIAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "botc-official"
SEEDS_WORDING = {"hostess"}  # the seeds' traveller with no official character


def _reference(name: str):
    if not (OFFICIAL / name).exists():
        pytest.skip(f"{OFFICIAL / name} is not here (../shared is beside the project on our "
                    "machines)")
    return json.loads((OFFICIAL / name).read_text(encoding="utf-8"))


def official_records() -> dict[str, tuple[str, dict]]:
    """Official id -> (catalogue key, record): the official version where a seed words one its
    own way, the seeds' renamed character under its official id (the Doppelgänger)."""
    out: dict[str, tuple[str, dict]] = {}
    for key, record in catalogue().items():
        if key in SEEDS_WORDING:
            continue
        official = record.get("official", {}).get("id", key)
        if official not in out or record.get("official", {}).get("variant"):
            out[official] = (key, record)
    return out


def test_every_official_character_is_catalogued_once_with_its_facts():
    roles = {r["id"]: r for r in _reference("roles.json")}
    records = official_records()
    assert set(records) == set(roles)
    for official, (key, record) in records.items():
        role = roles[official]
        assert (record.get("official", {}).get("name", record["name"]), record["team"],
                record["edition"]) == (role["name"], role["team"], role["edition"]), key
        assert record["wiki"] == "https://wiki.bloodontheclocktower.com/" + \
            role["name"].replace(" ", "_"), key
        if record.get("run") == "storytellers":  # the seeds' word their own reminders
            assert record["reminders"] == role.get("reminders", []), key
            assert bool(record.get("setup")) == role["setup"], key


def test_every_night_position_is_the_official_night_sheets():
    sheet = _reference("nightsheet.json")
    for night, field in (("firstNight", "firstNight"), ("otherNight", "otherNight")):
        order = sheet[night]
        for official, (key, record) in official_records().items():
            wanted = order.index(official) if official in order else 0
            assert record[field] == wanted, (key, night)
    assert {step: float(sheet["firstNight"].index(step))
                                   for step in INFO_STEP_POSITIONS} == INFO_STEP_POSITIONS


def test_every_set_up_bracket_of_the_reference_has_a_shift_or_a_rule():
    """A character whose official ability has a set-up bracket changes the counts (its
    `setup_shift`) or is checked by a rule of its own (the Drunk, the Marionette, Lil' Monsta;
    the Bounty Hunter's evil Townsfolk and the Fabled and Loric are the Storytellers')."""
    by_rule = {"drunk", "marionette", "lilmonsta", "bountyhunter", "deusexfiasco", "bootlegger",
               "gardener", "pope", "tor"}
    for role in _reference("roles.json"):
        if role["setup"] and role["id"] not in by_rule:
            key, record = official_records()[role["id"]]
            assert record.get("setup_shift"), key


def test_the_summaries_are_our_own_words():
    """No summary of a character the Storytellers run is the official text (the reference is
    not ours to ship), nor shares a run of six words with it."""
    roles = {r["id"]: r for r in _reference("roles.json")}
    for official, (key, record) in official_records().items():
        if record.get("run") != "storytellers":
            continue
        ours, theirs = record["ability"].lower().split(), roles[official]["ability"].lower()
        runs = {" ".join(ours[i:i + 6]) for i in range(max(0, len(ours) - 5))}
        assert not any(run in theirs for run in runs), key


def test_every_official_jinx_is_restated_in_our_words():
    reference = {(e["id"], j["id"]): j["reason"] for e in _reference("jinxes.json")
                 for j in e["jinx"]}
    ours = {tuple(j["characters"]): j["ruling"] for j in official_jinxes()}
    assert set(ours) == set(reference)
    for pair, ruling in ours.items():
        words = ruling.lower().split()
        runs = {" ".join(words[i:i + 6]) for i in range(max(0, len(words) - 5))}
        assert not any(run in reference[pair].lower() for run in runs), pair


def test_the_jinxes_the_bot_honours_are_those_it_applies():
    """Each has its test in test_official_jinxes.py; the others are the Storytellers'."""
    honoured = {tuple(j["characters"]) for j in official_jinxes() if j.get("honoured")}
    assert honoured == {
        ("marionette", "lilmonsta"), ("mathematician", "chambermaid"), ("mathematician", "drunk"),
        ("mathematician", "lunatic"), ("mathematician", "marionette"), ("scarletwoman", "fanggu"),
        ("widow", "damsel"), ("spy", "damsel"), ("pithag", "goon"), ("pithag", "damsel"),
        ("marionette", "huntsman"), ("marionette", "balloonist"), ("lilmonsta", "psychopath"),
        ("lilmonsta", "scarletwoman"), ("cannibal", "juggler")}

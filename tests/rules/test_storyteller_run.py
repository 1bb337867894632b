"""Every official character the bot does not automate is run by the Storytellers, never
refused (issue 53): on a host's script (no terms: the official version of a character a seed
words its own way), it is dealt like any other; its role PM gives its summary, its wiki page
and how to send a choice; the night sheet wakes it at its official position, shows what it
chose and asks for the result where it learns something. One scenario each, generated from the
catalogue, so none is forgotten."""

from dataclasses import replace
from datetime import timedelta

import pytest

from modbot.core.state.script import Script
from modbot.files.scripts import catalogue

from ..conversation import botf_setup
from ..helpers import START
from ..notices import Told, night_sheet, says
from ..notices import roles as dealt_roles

SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")
BASE = ["chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie"]
BLUFFS = ("sage", "artist", "juggler")
RUN = sorted(i for i, record in catalogue().items() if record.get("run") == "storytellers")
DEALT = [i for i in RUN if catalogue()[i]["team"] not in ("fabled", "loric")]
SEAT_OF_TEAM = {"townsfolk": 0, "outsider": 0, "traveller": 0, "minion": 3, "demon": 4}


def official_id(key: str) -> str:
    return catalogue()[key].get("official", {}).get("id", key)


def host_game(key: str):
    """A host's Script Tool script (ids only, no terms) holding the character, dealt to the
    seat of its team (a traveller: Alex, seated as one)."""
    record = catalogue()[key]
    script = Script.from_data("host", [*BASE, *BLUFFS, official_id(key)], catalogue())
    characters = list(BASE)
    seat = SEAT_OF_TEAM[record["team"]]
    characters[seat] = script.find(record["name"]).id
    setup = botf_setup(dict(zip(SEATS, characters, strict=True)), script=script, bluffs=BLUFFS)
    if record["team"] == "traveller":
        setup = replace(setup, seats=tuple(replace(s, traveller=s.name == "Alex")
                                           for s in setup.seats))
    return setup, SEATS[seat]


def test_every_official_character_is_in_the_catalogue_once_automated_or_not():
    officials = [official_id(k) for k, r in catalogue().items() if r.get("edition") != "seed"]
    automated = {official_id(k) for k, r in catalogue().items()
                 if r.get("run") != "storytellers" and r.get("edition") != "seed"}
    assert len(set(officials)) == 181
    assert len(automated) + len([k for k in RUN if not catalogue()[k].get("official")]) == 181


@pytest.mark.parametrize("key", DEALT)
def test_a_storyteller_run_character_is_dealt_told_and_woken(key):
    setup, player = host_game(key)
    character = setup.script.get(dict(setup.grimoire)[player].character)
    assert character is not None and not character.automated
    assert character.id == key  # the official version, on a host's script
    role = dealt_roles(Told(setup).tick(START))[player]
    assert role["storytellers_run"] and role["wiki"].startswith(
        "https://wiki.bloodontheclocktower.com/")
    assert role["ability"] == catalogue()[key]["ability"]
    for night in (1, 2):
        waking = (character.first_night if night == 1 else character.other_night) > 0
        entries, _, _ = night_sheet(setup, night=night)
        row = entries.get(player)
        if not waking:
            assert row is None or row.step != key, night
            continue
        assert row is not None and row.step == key, night
        learns = character.spec.learns and character.spec.wakes_on(night)
        assert row.needs_result == learns, night
        if learns:
            assert says(row.suggestion, "sheet.st_decides")


VARIANTS = sorted(r["official"]["id"] for r in catalogue().values()
                  if r.get("official", {}).get("variant"))


def test_the_seven_characters_the_seeds_word_their_own_way_are_known():
    assert VARIANTS == ["acrobat", "bonecollector", "butcher", "deviant", "fiddler", "klutz",
                        "lleech"]


@pytest.mark.parametrize("official", VARIANTS)
def test_a_hosts_script_runs_the_official_version_a_seeds_script_the_seeds(official):
    hosts = Script.from_data("host", [official], catalogue())
    seeds = Script.from_data("seed", [official], catalogue(), {"script": "seed"})
    (theirs,), (ours,) = hosts.characters, seeds.characters
    assert (theirs.id, theirs.automated, theirs.official_id) == (f"official{official}", False,
                                                                 official)
    assert (ours.id, ours.automated) == (official, True)
    assert theirs.ability != ours.ability


def test_the_official_acrobat_chooses_a_player_where_the_seeds_wakes_nobody():
    from ..notices import day_one, rejected

    for key, refused in (("officialacrobat", []), ("acrobat", ["no_choice_tonight"])):
        script = Script.from_data("s", [*BASE, *BLUFFS, "acrobat", "mutant"], catalogue(),
                                  seed=key == "acrobat")
        characters = dict(zip(SEATS, ["chef", key, "soldier", "poisoner", "imp", "monk",
                                      "pixie"], strict=True))
        told, day = day_one(botf_setup(characters, script=script, bluffs=BLUFFS))
        told.st("!endday --yes", day + timedelta(hours=1))
        told.pm("Brianna", "/choose Alex", day + timedelta(hours=2))
        assert rejected(told) == refused, key


def test_a_storyteller_run_public_choice_goes_to_the_storytellers():
    """The Gangster's `/choose X` (a neighbour killed if the other agrees) is theirs."""
    from ..notices import day_one, for_storytellers, rejected

    setup, player = host_game("gangster")
    told, day = day_one(setup)
    said = told.thread(player, "/choose Ellen", day + timedelta(hours=1))
    assert rejected(told) == []
    [note] = [n for n in for_storytellers(said, "st_note")
              if says(n.view["text"], "st.public_choice_noted")]
    assert says(note.view["text"], "st.public_choice_noted", player=player,
                character="Gangster", target="Ellen")
    assert told.state.seat("Ellen").alive  # the Storytellers resolve it
    setup, player = host_game("chef")  # an automated character with no public ability
    told, day = day_one(setup)
    told.thread(player, "/choose Ellen", day + timedelta(hours=1))
    assert rejected(told) == ["no_public_ability"]

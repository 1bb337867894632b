"""A host's own Script Tool script, ids only, no terms (issue 53): Trouble Brewing, the edition
most groups start with, dealt by `modbot setup --propose`, checked, its role PMs sent and its
first night played to the Storytellers' sheet, every character the bot does not automate run by
the Storytellers; and scripts of 15 random official characters, each played to its first
night's sheet and through its dawn."""

import json
import random
from datetime import timedelta
from pathlib import Path

import pytest

from modbot.core.setup.composition import problems
from modbot.core.setup.proposing import propose
from modbot.core.state.model import Seat
from modbot.core.state.script import Script
from modbot.files.gamefile import load_game
from modbot.files.scripts import catalogue, load_script, official_jinxes

from ..conversation import Conversation, botf_setup, to
from ..helpers import START, run_modbot
from ..notices import says

ROOT = Path(__file__).resolve().parents[2]
TROUBLE_BREWING = [  # the Script Tool's Trouble Brewing, as a host exports it: ids only
    {"id": "_meta", "name": "Trouble Brewing", "author": "The Pandemonium Institute"},
    "washerwoman", "librarian", "investigator", "chef", "empath", "fortuneteller", "undertaker",
    "monk", "ravenkeeper", "virgin", "slayer", "soldier", "mayor", "butler", "drunk", "recluse",
    "saint", "poisoner", "spy", "scarletwoman", "baron", "imp"]
NINE = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hana", "Ivan")
GAME = """[game]
name = "Trouble Brewing on the forum"
script = "tb.json"
first_night_starts = "2026-12-13T18:00:00Z"
storytellers = ["nightingale"]
"""


def test_a_trouble_brewing_script_from_the_script_tool_is_dealt_checked_and_played(tmp_path):
    (tmp_path / "tb.json").write_text(json.dumps(TROUBLE_BREWING), encoding="utf-8")
    game = tmp_path / "game.toml"
    game.write_text(GAME + "".join(f'\n[[seat]]\nplayer = "{n}"\n' for n in NINE))
    proposed = run_modbot("setup", str(game), "--propose", "--seed", "7", "--write", str(game),
                          cwd=ROOT)
    assert proposed.returncode == 0, proposed.stdout + proposed.stderr
    assert "The bot automates all 22 characters of this script." in proposed.stdout
    assert "Jinxes on this script" not in proposed.stdout  # none among Trouble Brewing's
    checked = run_modbot("setup", str(game), cwd=ROOT)
    assert checked.returncode == 0 and checked.stdout.strip().endswith("The set-up is legal.")
    setup = load_game(str(game))
    dealt = {name: setup.script.character(entry.character) for name, entry in setup.grimoire}
    assert {c.id for c in dealt.values()} & {"imp", "poisoner", "spy", "scarletwoman", "baron"}
    talk = Conversation(setup)
    said = talk.tick(setup.first_night_starts)
    for name, character in dealt.items():
        [role] = [s.raw for s in said
                  if s.thread == f"pm:{name.lower()}" and "## Your character" in s.raw]
        shown = setup.script.character(dict(setup.grimoire)[name].thinks or character.id)
        assert f"**{shown.name}**" in role
        if not shown.automated:
            assert "The Storytellers run this character" in role and shown.wiki in role
    talk.tick(talk.state.phase_ends_at - timedelta(hours=2))  # the night's choices lock
    sheet = "\n".join(to(talk.tick(talk.state.phase_ends_at - timedelta(hours=2)), "st"))
    rows = {e.player: e for e in talk.state.night.sheet if e.player}
    waking = [n for n, c in dealt.items() if c.first_night > 0]
    assert set(rows) >= set(waking)
    assert all(dealt[n].automated for n in waking)  # the bot runs all of Trouble Brewing
    [spy] = [n for n in waking if dealt[n].id == "spy"]  # this seed deals the Spy
    assert rows[spy].suggestion.code == "info.spy" or \
        says(rows[spy].suggestion, "info.spy_malfunctioning")
    assert "Traceback" not in sheet
    said = talk.dawn()
    assert talk.state.phase.is_day and any("Day 1" in s.raw for s in said if s.thread == "topic")


def random_script(rng: random.Random) -> list:
    """15 official characters as a host might pick them: a Demon, three Minions, four
    Outsiders (enough for a Baron's two more) and seven Townsfolk, each drawn at random."""
    by_team: dict[str, list[str]] = {}
    for key, record in catalogue().items():
        official = record.get("official", {}).get("id", key)
        if record.get("edition") != "seed" and official not in (
                "lilmonsta", "legion", "atheist", "summoner", "riot"):  # no one holds these
            by_team.setdefault(record["team"], []).append(official)
    counts = {"demon": 1, "minion": 3, "outsider": 4, "townsfolk": 7}
    picked = [i for team, n in counts.items() for i in rng.sample(sorted(set(by_team[team])), n)]
    return [{"id": "_meta", "name": "Random"}, *picked]


@pytest.mark.parametrize("seed", range(200))
def test_a_script_of_fifteen_random_official_characters_plays_its_first_night(tmp_path, seed):
    rng = random.Random(seed)
    path = tmp_path / "random.json"
    path.write_text(json.dumps(random_script(rng)), encoding="utf-8")
    script = load_script(str(path))
    assert len(script.characters) == 15
    seats = tuple(Seat(n) for n in NINE[:8])
    grimoire, bluffs = propose(script, seats, rng)
    assert problems(script, seats, grimoire, bluffs) == []
    setup = botf_setup({n: grimoire[n].character for n in NINE[:8]}, script=script,
                       bluffs=bluffs, thinks={n: e.thinks for n, e in grimoire.items()
                                              if e.thinks})
    talk = Conversation(setup)
    talk.tick(START)
    talk.tick(talk.state.phase_ends_at - timedelta(hours=2))
    assert talk.state.night.sheet
    said = talk.dawn()
    assert talk.state.phase.is_day, [s.raw[:200] for s in said]


def test_the_official_jinxes_on_a_hosts_script_are_announced_at_night_one_without_a_djinn():
    script = Script.from_data("host", ["chef", "empath", "soldier", "monk", "pixie", "sage",
                                       "artist", "juggler", "damsel", "widow", "spy", "imp"],
                              catalogue(), jinxes=official_jinxes())
    assert {(j.first, j.second) for j in script.official_jinxes} == {("spy", "damsel"),
                                                                     ("widow", "damsel")}
    setup = botf_setup(dict(zip(NINE[:7], ("chef", "empath", "soldier", "widow", "imp", "monk",
                                            "damsel"), strict=True)), script=script,
                       bluffs=("sage", "artist", "juggler"))
    [night] = [s.raw for s in Conversation(setup).tick(START) if s.thread == "topic"]
    assert "### Jinxes on this script" in night
    assert "- Widow + Damsel: The Damsel is poisoned while the Widow is in play" in night
    assert "- Spy + Damsel: " in night  # on the script, though nobody holds the Spy


def test_a_seeds_script_keeps_its_own_jinxes():
    """Oops All Evil holds the Pit-Hag and the Goon, an official pair: its games run the seed's
    rules, announced with its Djinn, never the official list."""
    oops = load_script("oopsallevil")
    assert oops.official_jinxes == ()


def test_the_virgins_execution_is_posted_as_any_days_end():
    """The execution a rule calls (the Virgin's) renders through the day's end as a
    Storyteller's `!execute` does: the vote count, the execution and night 2."""
    from ..conversation import day_one

    tb = load_script(_tb_file())
    setup = botf_setup(dict(zip(NINE[:7], ("virgin", "empath", "soldier", "poisoner", "imp",
                                            "monk", "chef"), strict=True)), script=tb,
                       bluffs=("librarian", "mayor", "saint"))
    talk, day = day_one(setup)
    talk.tick(day + timedelta(hours=12))
    said = talk.thread("Brianna", "/nominate Alex", day + timedelta(hours=13))
    thread = "\n".join(s.raw for s in said if s.thread == "topic")
    assert "A character's ability executed a player at once" in thread  # never which one
    assert "**Brianna** was executed" in thread and "Night 2 begins" in thread
    assert "Virgin" not in thread
    assert not [s for s in said if s.key.startswith("g1:vc:")]  # the day's post counts


def _tb_file():
    import tempfile
    path = Path(tempfile.mkdtemp()) / "tb.json"
    path.write_text(json.dumps(TROUBLE_BREWING), encoding="utf-8")
    return str(path)


def test_the_slayers_role_pm_says_its_choice_is_made_in_the_thread():
    tb = load_script(_tb_file())
    setup = botf_setup(dict(zip(NINE[:7], ("slayer", "empath", "soldier", "poisoner", "imp",
                                            "monk", "chef"), strict=True)), script=tb,
                       bluffs=("librarian", "mayor", "saint"))
    [role] = [s.raw for s in Conversation(setup).tick(START)
              if s.thread == "pm:alex" and "## Your character" in s.raw]
    assert "post `/choose NAME` on a line of its own in the game thread" in role
    assert "/whisper Storyteller" not in role

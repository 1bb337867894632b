"""The seal and the reveal (issue 27, core/seal.py, core/reveal.py, core/record.py), at the core
as codes and values: the commitment at the deal tells nothing and matches the grimoire as
dealt; the reveal waits for the game's end, then shows the deal, every change with its night
and who made it, the nights, the timeline and the votes."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from modbot.core import THREAD
from modbot.core import reveal as reveal_module
from modbot.core.seal import commitment, sealed_grimoire, sealed_text

from ..conversation import seven
from ..helpers import START
from ..notices import Told, night_sheet, of, rejected

H = timedelta(hours=1)
SALT = "ab" * 32
GAME = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "scarletwoman")


def _setup(**changes):
    return dataclasses.replace(seven(*GAME), seal_salt=SALT, **changes)


def test_the_deal_posts_a_seal_that_tells_nothing_of_the_grimoire():
    told = Told(_setup())
    (seal,) = of(told.tick(START), "seal")
    assert seal.to == THREAD and set(seal.view) == {"commitment", "reveal"}
    grimoire = sealed_grimoire(told.state)
    assert seal.view["commitment"] == commitment(SALT, sealed_text(grimoire))
    assert [s["character"] for s in grimoire["seats"]] == list(GAME)
    words = str(seal.view).lower()
    assert not any(c in words for c in (*GAME, "good", "evil", "imp", "Alex".lower()))
    other = Told(dataclasses.replace(_setup(), seal_salt="cd" * 32))
    assert of(other.tick(START), "seal")[0].view["commitment"] != seal.view["commitment"]


def test_no_salt_no_seal():
    told = Told(seven(*GAME))
    assert of(told.tick(START), "seal") == []


def test_the_sealed_text_is_canonical_json():
    told = Told(_setup())
    told.tick(START)
    text = sealed_text(sealed_grimoire(told.state))
    assert " " not in text.replace("Scarlet Woman", "") and "\n" not in text
    assert text.startswith('{"bluffs":[') and '"seats":[{"alignment":"good",' in text


def _over(setup=None, *, reveal_at_end: bool = False):
    """Night 2's Imp passes to the Scarlet Woman; a Storyteller changes a character by day;
    good wins by command. Returns (told, the notices of the !win)."""
    _, _, told = night_sheet(setup or _setup(), night=2, choices=(("Ellen", "/choose Ellen"),))
    told.approve(told.state.phase_ends_at - H)
    told.tick(told.state.phase_ends_at)
    day = told.state.current_day.started_at + H
    told.st("!character Cameron chef", day)
    said = told.st("!win good the town prevailed --yes", day + H)
    return told, said


def test_the_reveal_waits_for_the_end_and_is_asked_for_once():
    _, _, told = night_sheet(_setup(), night=2)
    told.st("!reveal --yes", told.state.phase_ends_at - H)
    assert rejected(told) == [] and told.command.failed[0][1][0].code == "rejection.reveal_not_over"
    told, said = _over()
    assert of(said, "reveal_grimoire") == []  # "command", the default: not at the end
    revealed = told.st("!reveal --yes", told.state.past_days[-1].started_at + 40 * H)
    assert [n.template for n in revealed if n.to == THREAD] == [
        "reveal_grimoire", "reveal_nights", "reveal_timeline", "reveal_votes"]
    again = told.st("!reveal --yes", told.state.past_days[-1].started_at + 41 * H)
    assert of(again, "reveal_grimoire") == []
    assert told.command.failed[0][1][0].code == "rejection.reveal_done"


def test_the_reveal_shows_the_deal_every_change_and_the_seal_posted_at_the_deal():
    told = Told(_setup())
    (seal,) = of(told.tick(START), "seal")
    told, _ = _over()
    record = of(told.st("!reveal --yes", START + 100 * H), "reveal_grimoire")[0].view["record"]
    assert [(s["player"], s["dealt"]["character"]) for s in record["seats"]][:3] == [
        ("Alex", "Chef"), ("Brianna", "Empath"), ("Cameron", "Soldier")]
    changes = [(c["player"], c["field"], c["before"], c["after"], c["phase"], c["cycle"], c["by"])
               for c in record["changes"] if c["field"] == "character"]
    assert ("Gus", "character", "Scarlet Woman", "Imp", "night", 2, "rules") in changes
    assert ("Cameron", "character", "Soldier", "Chef", "day", 2, "storytellers") in changes
    assert record["seal"]["commitment"] == seal.view["commitment"]
    assert record["seal"]["salt"] == SALT and record["winner"]["team"] == "good"
    nights = of(told.st("!reveal --yes", START + 101 * H), "reveal_nights")  # done: none again
    assert nights == []


def test_the_nights_and_the_timeline_hold_the_choices_results_and_votes():
    _, _, told = night_sheet(_setup(), night=2, choices=(("Ellen", "/choose Alex"),),
                             day=_nominate_and_vote)
    told.approve(told.state.phase_ends_at - H)
    told.tick(told.state.phase_ends_at)
    told.st("!win evil a test --yes", told.state.phase_ends_at - 40 * H)
    said = told.st("!reveal --yes", told.state.phase_ends_at - 39 * H)
    (nights,) = of(said, "reveal_nights")
    night2 = nights.view["nights"][1]
    assert {"player": "Ellen", "character": "Imp"}.items() <= night2["choices"][0].items()
    assert night2["deaths"] == ["Alex"]
    assert any(row["player"] == "Brianna" for row in nights.view["nights"][0]["learned"])  # Empath
    (timeline,) = of(said, "reveal_timeline")
    (nomination,) = timeline.view["days"][0]["nominations"]
    assert (nomination["nominator"], nomination["nominee"], nomination["threshold"]) == (
        "Derek", "Cameron", 4)
    assert [v["player"] for v in nomination["votes"]][:2] == ["Derek", "Ellen"]
    (votes,) = of(said, "reveal_votes")
    derek = next(p for p in votes.view["votes"] if p["player"] == "Derek")
    assert [(v["day"], v["nominee"], v["vote"]) for v in derek["votes"]] == [(1, "Cameron", "yes")]


def _nominate_and_vote(told, at):
    nominations = told.state.phase_ends_at
    told.tick(nominations)
    told.thread("Derek", "/nominate Cameron\nHe is suspicious.", nominations + H)
    told.thread("Derek", "/vote Cameron yes\nYes.", nominations + H)
    return nominations + 2 * H


def test_reveal_auto_comes_with_the_end_and_off_never():
    _, said = _over(_setup(reveal="auto"))
    assert next(n.template for n in said if n.template.startswith("reveal")) == "reveal_grimoire"
    told, said = _over(_setup(reveal="off"))
    assert [n for n in said if n.template.startswith("reveal")] == []
    told.st("!reveal --yes", told.state.past_days[-1].started_at + 40 * H)
    assert told.command.failed[0][1][0].code == "rejection.reveal_off"


def test_a_long_game_is_revealed_in_several_posts(monkeypatch):
    monkeypatch.setattr(reveal_module, "NIGHTS_A_POST", 1)
    monkeypatch.setattr(reveal_module, "DAYS_A_POST", 1)
    told, _ = _over()
    said = told.st("!reveal --yes", START + 100 * H)
    assert [n.key for n in said if n.to == THREAD] == [
        "reveal:grimoire", "reveal:nights:1", "reveal:nights:2", "reveal:timeline:1",
        "reveal:timeline:2", "reveal:votes"]


def test_a_rename_or_a_substitution_after_the_deal_never_changes_what_was_sealed():
    """The reveal publishes the grimoire exactly as dealt (frozen at the deal): names are the
    forum's to change, the seal is not."""
    from modbot.core import handle_rename
    from modbot.core.record import seal_row
    told = Told(_setup())
    (seal,) = of(told.tick(START), "seal")
    renamed = handle_rename(told.state, "Alex", "Alexandra", START + H).state
    assert renamed.is_seated("Alexandra")
    row = seal_row(renamed)
    assert row is not None and row["commitment"] == seal.view["commitment"]
    assert row["grimoire"]["seats"][0]["player"] == "Alex"  # as dealt
    assert commitment(SALT, sealed_text(sealed_grimoire(renamed))) != seal.view["commitment"]

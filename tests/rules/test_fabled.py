"""The once-per-game Fabled of seed 001 (issue 7): Fibbin and the Revolutionary recalled on the
night sheet until `!used`, and the Fiddler: the Demon's /fiddle at night, the Storytellers'
!fiddle, everyone's /fiddle in the thread, and the win the Storytellers confirm. Each test is
named after the Fabled it drives."""

from dataclasses import replace
from datetime import timedelta

from modbot.app.opening import opening_post
from modbot.core.characters.fabled import FIDDLE_VOTE
from modbot.files.gamefile import load_game
from modbot.files.scripts import load_script
from modbot.rehearsal import DEMO_GAME

from ..conversation import Conversation, botf_setup, day_one, night_sheet, to
from ..helpers import START
from ..wording import worded

BOTF = load_script("botf")
H = timedelta(hours=1)
SEVEN = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
         "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "sage"}


def game(*fabled, **kw):
    return botf_setup(SEVEN, script=BOTF, fabled=fabled, **kw)


def test_fibbin_and_revolutionary_are_recalled_until_used():
    setup = game("fibbin", "revolutionary", revolutionary=("Alex", "Brianna"))
    entries, _, talk = night_sheet(setup)
    assert entries["fibbin"].suggestion.startswith("unused: once per game, 1 good player")
    assert entries["revolutionary"].suggestion.startswith("unused: Alex and Brianna; once per "
                                                          "game one of them registers falsely")
    said = talk.st("!used Fibbin", talk.state.phase_ends_at - H)
    assert talk.state.fabled_used == ("fibbin",)
    said = talk.st("!used Fibbin", talk.state.phase_ends_at - H)
    assert "The Fibbin has already been used." in to(said, "pmtopic")[0]
    said = talk.st("!used Djinn", talk.state.phase_ends_at - H)
    assert "djinn: say Fibbin, Revolutionary or Fiddler" in to(said, "pmtopic")[0]
    talk.st("!sheet", talk.state.phase_ends_at - H)


def test_fibbin_is_not_recalled_after_it_was_used():
    setup = game("fibbin")
    talk, dawn = day_one(setup)
    talk.st("!used Fibbin", dawn + H)
    entries, _, _ = night_sheet(setup, night=2, changes=())
    assert "fibbin" in entries  # a fresh game: still unused
    talk.st("!endday --yes", dawn + 13 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert "fibbin" not in {e.step for e in worded(talk.state.night).sheet}


def test_fiddler_the_demon_is_told_and_chooses_at_night():
    talk = Conversation(game("fiddler"))
    said = talk.tick(START)
    assert "`/fiddle NAME`" in to(said, "pm:fatima")[0] and "/fiddle" not in to(said, "pm:alex")[0]
    said = talk.pm("Fatima", "/fiddle Alex", START + H)
    assert "for the Fiddler, you choose Alex" in to(said, "pm:fatima")[0]
    said = talk.pm("Alex", "/fiddle Fatima", START + H)
    assert "Only the Demon (the Fiddler) may /fiddle." in to(said, "pm:alex")[0]


def test_fiddler_demon_chooses_at_night_and_the_sheet_checks_the_alignment():
    sheet = night_sheet(game("fiddler"), choices=(("Fatima", "/fiddle Alex"),))[1].sheet
    (fiddler,) = [e for e in sheet if e.step == "fiddler"]
    assert fiddler.suggestion == "the Demon chose Alex: open the vote when you wish with " \
        "!fiddle Fatima Alex"
    sheet = night_sheet(game("fiddler"), choices=(("Fatima", "/fiddle Derek"),))[1].sheet
    (fiddler,) = [e for e in sheet if e.step == "fiddler"]
    assert fiddler.suggestion == "Derek is not of an opposing alignment: no Fiddler's vote"


def test_fiddler_vote_in_the_thread_decides_who_wins_once_confirmed():
    talk, dawn = day_one(game("fiddler"))
    said = talk.st("!fiddle Fatima Alex", dawn + H)
    (opened,) = to(said, "topic")
    assert "Fatima and Alex: one of them wins the game for their team" in opened
    assert "nodashii" not in opened.lower() and "demon" not in opened.lower()
    talk.thread("Brianna", "/fiddle Alex", dawn + 2 * H)
    talk.thread("Cameron", "/fiddle Fatima", dawn + 2 * H)
    talk.thread("Cameron", "/fiddle Alex", dawn + 3 * H)  # the latest counts
    said = talk.thread("Derek", "/fiddle Gus", dawn + 3 * H)
    assert "The Fiddler's vote is between Fatima and Alex." in to(said, "pm:derek")[0]
    talk.thread("Fatima", "/fiddle Fatima", dawn + 4 * H)
    said = talk.tick(dawn + H + FIDDLE_VOTE)
    ended = [raw for raw in to(said, "topic") if "The Fiddler's vote is over" in raw]
    assert ended and "- Alex: 2" in ended[0] and "- Fatima: 1" in ended[0]
    assert any("**Loyal** wins" in raw and "the Fiddler's vote chose Alex" in raw
               for raw in to(said, "pm:storytellers"))
    assert talk.state.winner is None  # only !win announces it
    said = talk.st("!fiddle Fatima Alex", dawn + 2 * H + FIDDLE_VOTE)
    assert "The Fiddler has already been used." in to(said, "pmtopic")[0]


def test_fiddler_tie_goes_to_good():
    talk, dawn = day_one(game("fiddler"))
    talk.st("!fiddle Fatima Alex", dawn + H)
    said = talk.tick(dawn + H + FIDDLE_VOTE)
    assert any("tie goes to good" in raw for raw in to(said, "pm:storytellers"))


def test_fiddler_opening_post_tells_players_how_to_vote():
    setup = load_game(DEMO_GAME)
    assert "/fiddle" not in opening_post(setup)
    assert "| vote which of two players wins, when the Fiddler plays | `/fiddle X` |" in \
        opening_post(replace(setup, fabled=("fiddler",)))

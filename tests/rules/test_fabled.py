"""The once-per-game Fabled of seed 001 (issue 7): Fibbin and the Revolutionary recalled on the
night sheet until `!used`, and the Fiddler: the Demon's /fiddle at night, the Storytellers'
!fiddle, everyone's /fiddle in the thread, and the win the Storytellers confirm. Each test is
named after the Fabled it drives. Asserted at the core, as codes and values
(tests/notices.py); what the Fiddler's posts read like is in tests/words/test_character_words.py."""

from datetime import timedelta

from modbot.core.characters.fabled import FABLED, FIDDLE_VOTE
from modbot.files.scripts import load_script

from ..conversation import botf_setup
from ..helpers import START
from ..notices import Told, day_one, for_player, for_storytellers, night_sheet, public, says
from ..notices import roles as dealt_roles

BOTF = load_script("botf")
H = timedelta(hours=1)
SEVEN = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
         "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "sage"}


def game(*fabled, **kw):
    return botf_setup(SEVEN, script=BOTF, fabled=fabled, **kw)


def test_fibbin_and_revolutionary_are_recalled_until_used():
    setup = game("fibbin", "revolutionary", revolutionary=("Alex", "Brianna"))
    entries, _, talk = night_sheet(setup)
    assert entries["fibbin"].suggestion.code == "sheet.fibbin"
    assert says(entries["revolutionary"].suggestion, "sheet.revolutionary",
                pair=("Alex", "Brianna"))
    talk.st("!used Fibbin", talk.state.phase_ends_at - H)
    assert FABLED.of(talk.state).used == ("fibbin",)
    talk.st("!used Fibbin", talk.state.phase_ends_at - H)
    assert says(talk.command.failed, "rejection.fabled_used", name="Fibbin")
    talk.st("!used Djinn", talk.state.phase_ends_at - H)
    assert says(talk.command.failed, "rejection.not_once_fabled", text="djinn")
    talk.st("!sheet", talk.state.phase_ends_at - H)


def test_fibbin_is_not_recalled_after_it_was_used():
    setup = game("fibbin")
    talk, dawn = day_one(setup)
    talk.st("!used Fibbin", dawn + H)
    entries, _, _ = night_sheet(setup, night=2, changes=())
    assert "fibbin" in entries  # a fresh game: still unused
    talk.st("!endday --yes", dawn + 13 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert "fibbin" not in {e.step for e in talk.state.night.sheet}


def test_fiddler_the_demon_is_told_and_chooses_at_night():
    talk = Told(game("fiddler"))
    roles = dealt_roles(talk.tick(START))
    assert "fiddle" in roles["Fatima"]["demon_verbs"] and not roles["Alex"]["demon_verbs"]
    (chosen,) = for_player(talk.pm("Fatima", "/fiddle Alex", START + H), "Fatima",
                           "night_choice")
    assert chosen.view["helps"] == "fiddler"
    assert says(chosen.view["choice"], "choice.players", players=("Alex",))
    talk.pm("Alex", "/fiddle Fatima", START + H)
    (refused,) = talk.rejected
    assert refused.code == "help_not_yours" and refused.params["verb"] == "fiddle"


def test_fiddler_demon_chooses_at_night_and_the_sheet_checks_the_alignment():
    sheet = night_sheet(game("fiddler"), choices=(("Fatima", "/fiddle Alex"),))[1].sheet
    (fiddler,) = [e for e in sheet if e.step == "fiddler"]
    assert says(fiddler.suggestion, "sheet.fiddler", demon="Fatima", player="Alex")
    sheet = night_sheet(game("fiddler"), choices=(("Fatima", "/fiddle Derek"),))[1].sheet
    (fiddler,) = [e for e in sheet if e.step == "fiddler"]
    assert says(fiddler.suggestion, "sheet.fiddler_same", player="Derek")


def _fiddle_ended(told: list):
    (ended,) = [n for n in public(told) if n.template == "fiddle" and n.view["ended"]]
    (win,) = for_storytellers(told, "win_detected")
    return ended, win


def test_fiddler_vote_in_the_thread_decides_who_wins_once_confirmed():
    talk, dawn = day_one(game("fiddler"))
    (opened,) = public(talk.st("!fiddle Fatima Alex", dawn + H))
    assert opened.template == "fiddle" and opened.view["players"] == ("Fatima", "Alex")
    assert set(opened.view) == {"players", "ended", "deadline"}  # nothing of who is what
    talk.thread("Brianna", "/fiddle Alex", dawn + 2 * H)
    talk.thread("Cameron", "/fiddle Fatima", dawn + 2 * H)
    talk.thread("Cameron", "/fiddle Alex", dawn + 3 * H)  # the latest counts
    talk.thread("Derek", "/fiddle Gus", dawn + 3 * H)
    (refused,) = talk.rejected
    assert refused.code == "fiddle_between" and refused.params["players"] == ("Fatima", "Alex")
    talk.thread("Fatima", "/fiddle Fatima", dawn + 4 * H)
    ended, win = _fiddle_ended(talk.tick(dawn + H + FIDDLE_VOTE))
    assert ended.view["counts"] == (("Fatima", 1), ("Alex", 2))
    assert win.view["winner"] == "good" and says(win.view["reason"], "win.fiddler", player="Alex")
    assert talk.state.winner is None  # only !win announces it
    talk.st("!fiddle Fatima Alex", dawn + 2 * H + FIDDLE_VOTE)
    assert says(talk.command.failed, "rejection.fabled_used", name="Fiddler")


def test_fiddler_tie_goes_to_good():
    talk, dawn = day_one(game("fiddler"))
    talk.st("!fiddle Fatima Alex", dawn + H)
    _, win = _fiddle_ended(talk.tick(dawn + H + FIDDLE_VOTE))
    assert win.view["winner"] == "good" and win.view["reason"].code == "win.fiddler_tie"

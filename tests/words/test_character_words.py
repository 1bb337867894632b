"""What some characters' public and private messages read like (their rules are
tests/rules/test_scenarios.py): the Boomdandy's explosion and pointing, the Hell's Librarian's
silence, the Fearmonger's announcement, the Sweetheart's note to the Storytellers, the
Fiddler's vote, the madness digest, the Deviant and the Butcher in the vote count."""

from dataclasses import replace
from datetime import timedelta

from modbot.app.starting.opening import opening_post
from modbot.cli.rehearsal import DEMO_GAME
from modbot.core.characters.fabled import FIDDLE_VOTE
from modbot.files.gamefile import load_game

from ..conversation import Conversation, day_one, night_sheet, seven, to
from ..helpers import START
from ..rules.test_fabled import game as fabled_game
from ..rules.test_scenarios import game
from ..rules.test_travellers import everyone_votes, exile_gus
from ..rules.test_travellers import game as traveller_game

H = timedelta(hours=1)


def test_the_boomdandys_explosion_and_its_pointing_in_words():
    talk, day = day_one(game(derek="boomdandy"))
    said = talk.st("!execute Derek --yes", day + H)
    assert any("The Boomdandy (Derek) was executed" in s.raw for s in said)
    (boom,) = to(talk.st("!boom Alex Ellen Fatima", day + 2 * H), "topic")
    assert "Brianna, Cameron, Gus died in the explosion." in boom and "Boomdandy" not in boom
    assert "Everyone, dead players too, points at one of them" in boom
    said = talk.thread("Gus", "/point Brianna", day + 2 * H + timedelta(minutes=1))
    assert "Point at one of Alex, Ellen, Fatima: the three who live." in to(said, "pm:gus")[0]
    talk.thread("Alex", "/point Ellen", day + 2 * H + timedelta(minutes=2))
    talk.thread("Fatima", "/point Ellen", day + 2 * H + timedelta(minutes=3))
    said = talk.tick(day + 2 * H + timedelta(minutes=11))
    assert "**Ellen** has died." in to(said, "topic")[0]
    assert any("every Demon is dead" in s.raw for s in said)


def test_the_hells_librarians_silence_in_words():
    talk, day = day_one(replace(game(), fabled=("hellslibrarian",)))
    said = talk.thread("nightingale", "Quiet please.\n!silence on", day + H)
    assert "## The Storyteller calls for silence" in to(said, "topic")[0]
    said = talk.thread("Brianna", "Sorry, just one thing.", day + 2 * H)
    assert "Brianna posted during the silence" in to(said, "pm:storytellers")[0]


def test_the_fearmongers_choice_is_announced_without_a_name():
    talk = Conversation(game(derek="fearmonger"))
    talk.tick(START)
    talk.pm("Derek", "/choose Alex", START + H)
    talk.tick(START + timedelta(hours=22))
    talk.approve(START + timedelta(hours=23))
    said = talk.tick(START + timedelta(hours=24))
    assert "The Fearmonger has chosen a new player." in to(said, "topic")[0]


def test_the_sweethearts_note_tells_the_storytellers_what_to_do():
    talk, day = day_one(game("sweetheart"))
    said = talk.st("!execute Alex --yes", day + H)
    assert any("The Sweetheart (Alex) died" in s.raw and "!drunk PLAYER by Alex" in s.raw
               for s in said if s.thread == "pm:storytellers")


def test_a_contingency_and_a_gained_characters_rows_in_words():
    """Issue 40: the role PM says how to choose for a character one might become, the answer
    says what was recorded, and the night sheet says why a gained character did not act."""
    setup = seven("empath", "chef", "pithag", "imp", "poisoner", "soldier", "librarian")
    talk = Conversation(setup)
    said = talk.tick(START)
    assert any("`/choose NAME if CHARACTER`" in raw for raw in to(said, "pm:alex"))
    said = talk.pm("Alex", "/choose Derek if I become the Dreamer", START + H)
    assert "recorded: if you become the Dreamer tonight before its turn in the night order, " \
        "you choose Derek." in to(said, "pm:alex")[0]
    entries, _, _ = night_sheet(setup, night=2, choices=(("Cameron", "/choose Alex as Dreamer"),))
    assert "became the Dreamer tonight, with no choice sent for it" in entries["Alex"].suggestion
    (help_all,) = to(talk.st("!help", START + 2 * H), "pmtopic")  # the PM it was sent in
    assert "`/choose NAME if CHARACTER` (a contingency" in help_all
    (help_one,) = to(talk.st("!help vote", START + 2 * H), "pmtopic")
    assert "contingency" not in help_one


def test_the_fiddlers_vote_in_words():
    talk = Conversation(fabled_game("fiddler"))
    said = talk.tick(START)
    assert "`/fiddle NAME`" in to(said, "pm:fatima")[0] and "/fiddle" not in to(said, "pm:alex")[0]
    said = talk.pm("Fatima", "/fiddle Alex", START + H)
    assert "for the Fiddler, you choose Alex" in to(said, "pm:fatima")[0]
    talk, dawn = day_one(fabled_game("fiddler"))
    (opened,) = to(talk.st("!fiddle Fatima Alex", dawn + H), "topic")
    assert "Fatima and Alex: one of them wins the game for their team" in opened
    said = talk.thread("Derek", "/fiddle Gus", dawn + 3 * H)
    assert "The Fiddler's vote is between Fatima and Alex." in to(said, "pm:derek")[0]
    talk.thread("Brianna", "/fiddle Alex", dawn + 2 * H)
    said = talk.tick(dawn + H + FIDDLE_VOTE)
    ended = [raw for raw in to(said, "topic") if "The Fiddler's vote is over" in raw]
    assert ended and "- Alex: 1" in ended[0]
    assert any("**Loyal** wins" in raw and "the Fiddler's vote chose Alex" in raw
               for raw in to(said, "pm:storytellers"))


def test_the_madness_digest_and_the_pixies_gain_in_words():
    characters = ("chef", "empath", "soldier", "cerenovus", "imp", "monk", "mutant")
    _, _, talk = night_sheet(seven(*characters), choices=(("Derek", "/choose Alex as Monk"),))
    said = talk.dawn()
    assert "You are mad that you are the Monk" in to(said, "pm:alex")[0]
    digest = to(said, "pm:storytellers")[-1]
    assert "Day 1: madness to judge today." in digest
    assert "Alex must be mad about being the Monk (the Cerenovus, today)" in digest
    assert "Gus is the Mutant: if they are mad about being an Outsider" in digest
    characters = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    entries, _, talk = night_sheet(seven(*characters))
    assert entries["Gus"].suggestion.startswith("ST decides: show an in-play Townsfolk; "
                                                "proposed: Chef (Alex)")
    talk.dawn()
    said = talk.st("!kill Alex --yes", talk.state.phase_ends_at - 30 * H)
    assert any("If the Pixie (Gus) was mad about being the Chef, they gain its ability: "
               "`!ability Gus Chef`" in raw for raw in to(said, "pm:storytellers"))


def test_the_deviant_and_the_butcher_in_the_vote_counts_words():
    talk, dawn = day_one(traveller_game())
    talk.st("!funny Gus", dawn + H)
    said = exile_gus(talk, dawn + 2 * H)
    assert any("**Gus** had the votes to be exiled (7), but the Deviant was funny today"
               in raw for raw in to(said, "topic"))
    talk, dawn = day_one(traveller_game("butcher"))
    talk.thread("Alex", "/nominate Brianna", dawn + 13 * H)
    everyone_votes(talk, "Brianna", dawn + 14 * H)
    talk.tick(dawn + 24 * H)
    said = talk.thread("Derek", "/nominate Cameron", dawn + 25 * H)
    assert "Nominating" in to(said, "pm:derek")[0]
    butchers = talk.thread("Gus", "/nominate Cameron", dawn + 25 * H)  # with its own count
    assert any("(the Butcher's nomination: it resolves alongside the main execution)" in s.raw
               for s in butchers)
    thread = "\n".join(to(everyone_votes(talk, "Cameron", dawn + 26 * H), "topic"))
    assert "The Butcher's nomination: **Cameron** is executed too (7 execute votes)." in thread


def test_fiddler_opening_post_tells_players_how_to_vote():
    setup = load_game(DEMO_GAME)
    assert "/fiddle" not in opening_post(setup)
    assert "| vote which of two players wins, when the Fiddler plays | `/fiddle X` |" in \
        opening_post(replace(setup, fabled=("fiddler",)))


def test_the_doppelgangers_row_names_the_command_that_records_its_twin():
    """The win check reads the twin from `!reminder PLAYER twin` (wins.twin_of): the sheet's
    row says so, not only "choose the opposing twin" (issue 42)."""
    from modbot.app.posting.catalogue import words
    entries, _, _ = night_sheet(seven("chef", "empath", "soldier", "doppelganger", "imp",
                                      "monk", "butler"))
    assert "`!reminder PLAYER twin`" in words(entries["Derek"].suggestion)


def test_the_vortox_false_answers_read_as_a_storyteller_would_say_them():
    """Each information character's false answer under the Vortox, in words, with what the
    true one is (issue 40: never "show 2 players, one the Demon ...: choose otherwise")."""
    from modbot.core.characters.information import VORTOX_FALSE
    sage = ("sage", "empath", "chef", "poisoner", "vortox", "soldier", "mutant")
    entries, _, _ = night_sheet(seven(*sage), night=2, choices=(("Ellen", "/choose Alex"),))
    assert entries["Alex"].suggestion == ("ST decides, false under the Vortox: the Demon killed the "
                                          "Sage; show 2 players, neither of them the Demon")
    undertaker = seven("undertaker", *sage[1:])

    def execute_brianna(told, at):
        told.st("!execute Brianna --yes", at)
        return at
    entries, _, _ = night_sheet(undertaker, night=2, day=execute_brianna)
    assert entries["Alex"].suggestion == (
        'ST decides, false under the Vortox: the true answer would be "Brianna was the Empath."; '
        "show a character Brianna was not")
    for character in set(VORTOX_FALSE) - {"sage", "undertaker", "dreamer"}:
        entries, _, _ = night_sheet(seven(character, *sage[1:]))
        assert entries["Alex"].suggestion.startswith("ST decides, false under the Vortox: ")
        assert "{" not in entries["Alex"].suggestion, character

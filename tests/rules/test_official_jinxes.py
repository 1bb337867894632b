"""The official jinxes the bot applies itself (issue 53), each on a host's script (the official
list in data/jinxes.json applies) beside a seed's script where it does not: the Widow (and the
Spy) + Damsel, the Pit-Hag + Goon and + Damsel, the Marionette + Huntsman, Lil' Monsta + the
Psychopath and + the Scarlet Woman, the Cannibal + Juggler."""

from datetime import timedelta

from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.setup.composition import problems
from modbot.core.state.script import Script
from modbot.files.scripts import catalogue, catalogue_script, official_jinxes

from ..conversation import botf_setup, to_the_sheet
from ..notices import Told, day_one, effects, says

H = timedelta(hours=1)
SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")
BLUFFS = ("sage", "artist", "juggler")
SEED = catalogue_script()  # the seeds' characters, with no official jinxes


def host(*ids: str) -> Script:
    """A host's Script Tool script holding these characters (and the bluffs)."""
    return Script.from_data("host", [*dict.fromkeys([*ids, *BLUFFS])], catalogue(),
                            jinxes=official_jinxes())


def game(characters, script, **kw):
    return botf_setup(dict(zip(SEATS, characters, strict=True)), script=script,
                      bluffs=kw.pop("bluffs", BLUFFS), **kw)


def _wins(told):
    return [(winner, reason.code) for winner, reason in WINS_DETECTED.of(told.state)]


def test_the_widow_poisons_the_damsel_so_a_minions_guess_wins_nothing():
    dealt = ("damsel", "empath", "soldier", "widow", "imp", "monk", "chef")
    for script, wins in ((host(*dealt), []), (SEED, [("evil", "win.damsel")])):
        told, day = day_one(game(dealt, script))
        told.thread("Derek", "/guess Alex as Damsel", day + H)
        assert _wins(told) == wins, script.id


def test_a_spy_on_the_script_but_never_in_play_leaves_the_damsel_sober():
    dealt = ("damsel", "empath", "soldier", "poisoner", "imp", "monk", "chef")
    told, day = day_one(game(dealt, host(*dealt, "spy")))
    told.thread("Derek", "/guess Alex as Damsel", day + H)
    assert _wins(told) == [("evil", "win.damsel")]


def _night_three(told, choices):
    """From night 2's sheet: its dawn, day 2 ended, night 3's choices and its sheet."""
    told.dawn()
    told.end_day(told.state.phase_ends_at - 11 * H)
    for player, text in choices:  # before the night's lock, two hours before its dawn
        told.pm(player, text, told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    return told.state.night


def test_an_evil_player_the_pit_hag_made_the_goon_stays_evil_when_a_good_player_chooses_them():
    dealt = ("chef", "empath", "soldier", "pithag", "imp", "poisoner", "monk")
    for script, turned in ((host(*dealt, "goon"), False), (SEED, True)):
        told = to_the_sheet(Told(game(dealt, script)), night=2,
                            choices=(("Derek", "/choose Fatima as Goon"),))
        night = _night_three(told, (("Gus", "/choose Fatima"),))
        assert told.state.grimoire_of("Fatima").character == "goon"
        assert (("Fatima", "alignment", "good", "by.goon") in effects(night)) == turned, script.id


def test_a_damsel_the_pit_hag_creates_is_placed_by_the_storytellers():
    dealt = ("chef", "empath", "soldier", "pithag", "imp", "poisoner", "monk")
    told = to_the_sheet(Told(game(dealt, host(*dealt, "damsel"))), night=2,
                        choices=(("Derek", "/choose Alex as Damsel"),))
    row = next(e for e in told.state.night.sheet if e.player == "Derek")
    assert says(row.suggestion, "info.pit_hag_damsel", character="Damsel")
    assert not [e for e in told.state.night.effects if e.field == "character"]
    told = to_the_sheet(Told(game(dealt, SEED)), night=2,
                        choices=(("Derek", "/choose Alex as Damsel"),))
    assert ("Alex", "character", "damsel", "by.pit_hag") in effects(told.state.night)


def test_a_marionette_who_thinks_they_are_the_huntsman_needs_the_damsel_added():
    dealt = ("chef", "empath", "soldier", "marionette", "imp", "monk", "pixie")
    script = host(*dealt, "huntsman", "damsel")
    setup = game(dealt, script, thinks={"Derek": "huntsman"})  # Derek sits beside the Demon
    found = problems(script, setup.seats, dict(setup.grimoire), setup.bluffs)
    assert says(found, "setup.requires", character="Huntsman", needed="Damsel")
    with_damsel = ("damsel", "empath", "soldier", "marionette", "imp", "monk", "pixie")
    setup = game(with_damsel, script, thinks={"Derek": "huntsman"})
    assert problems(script, setup.seats, dict(setup.grimoire), setup.bluffs) == []
    setup = game(dealt, SEED, thinks={"Derek": "huntsman"})  # the seeds: no such rule
    assert not says(problems(SEED, setup.seats, dict(setup.grimoire), setup.bluffs),
                    "setup.requires")


LIL = ("chef", "empath", "soldier", "poisoner", "librarian", "monk", "psychopath")


def test_a_psychopath_babysitting_lil_monsta_dies_when_executed():
    for script, alive in ((host(*LIL, "lilmonsta"), False), (SEED, True)):
        told, day = day_one(game(LIL, script, bluffs=(), lil_monsta=True))
        told.st("!reminder Gus babysitter", day + H)
        told.st("!execute Gus --yes", day + 2 * H)
        assert told.state.seat("Gus").alive == alive, script.id


def test_the_scarlet_woman_takes_lil_monsta_when_its_babysitter_dies_with_five_alive():
    dealt = ("chef", "empath", "soldier", "poisoner", "librarian", "monk", "scarletwoman")
    told, day = day_one(game(dealt, host(*dealt, "lilmonsta"), bluffs=(), lil_monsta=True))
    told.st("!reminder Derek babysitter", day + H)
    told.st("!kill Derek --yes", day + 2 * H)
    assert "babysitter" in told.state.grimoire_of("Gus").reminders
    assert _wins(told) == []  # Lil' Monsta lives on, with the Scarlet Woman
    told.end_day(day + 3 * H)
    told.pm("Gus", "/babysit Derek", day + 4 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    row = next(e for e in told.state.night.sheet if e.step == "lilmonsta")
    assert says(row.suggestion, "sheet.babysitter_for_good", player="Gus")
    told, day = day_one(game(dealt, SEED, bluffs=(), lil_monsta=True))
    told.st("!reminder Derek babysitter", day + H)
    told.st("!kill Derek --yes", day + 2 * H)
    assert _wins(told) == [("good", "win.babysitter_dead")]


def test_a_cannibal_who_ate_the_juggler_learns_its_day_one_guesses():
    dealt = ("juggler", "cannibal", "soldier", "poisoner", "imp", "monk", "chef")
    for script, result in ((host(*dealt), "2"), (SEED, None)):
        told, day = day_one(game(dealt, script))
        told.thread("Alex", "I think:\n/guess Ellen as Imp\n/guess Derek as Poisoner\n"
                    "/guess Cameron as Monk", day + H)
        told.st("!execute Alex --yes", day + 2 * H)
        told.tick(told.state.phase_ends_at - 2 * H)
        row = next(e for e in told.state.night.sheet if e.player == "Brianna")
        assert (says(row.suggestion, "result.juggler", value="2")) == (result is not None), \
            script.id


def test_a_marionette_who_thinks_they_are_the_balloonist_may_have_added_an_outsider():
    dealt = ("saint", "empath", "soldier", "marionette", "imp", "monk", "pixie")  # 1 Outsider
    script = host(*dealt, "balloonist")
    setup = game(dealt, script, thinks={"Derek": "balloonist"})
    assert problems(script, setup.seats, dict(setup.grimoire), setup.bluffs) == []
    unjinxed = Script.from_data("host", [*dict.fromkeys([*dealt, *BLUFFS, "balloonist"])],
                                catalogue())  # the same script without the official jinxes
    assert says(problems(unjinxed, setup.seats, dict(setup.grimoire), setup.bluffs),
                "setup.count", team="outsider")

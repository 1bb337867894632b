"""Bad Moon Rising's characters beyond the seeds' (issue 55, begun): one scenario or more each,
named after the ability it checks, in our words. Deaths prevented: the Sailor ("cannot die";
each night one of it and its choice drunk), the Tea Lady (both good living neighbours cannot
die), the Fool (survives its first death), the Pacifist (the Storytellers spare an executed good
player, `!pacifist`); the Grandmother (learns her grandchild; dies when the Demon kills them);
the Shabaloth (two kills), the Tinker (its step reminds the Storytellers), the Exorcist (its
Demon does not wake)."""

from dataclasses import replace
from datetime import timedelta

from modbot.core.characters.undying import FOOL_SPENT, GRANDCHILD
from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.state.grimoire import LIVES_ON

from ..conversation import seven
from ..notices import Told, day_one, effects, for_storytellers, night_sheet, rejected, says

H = timedelta(hours=1)


def _kill_at_night_two(setup, demon: str, victim: str):
    """Night 2's sheet after day 1, the Demon choosing `victim`."""
    return night_sheet(setup, night=2, choices=((demon, f"/choose {victim}"),))


# -- the Sailor -----------------------------------------------------------------------------

def test_the_sailors_choice_is_proposed_drunk_until_dusk():
    setup = seven("sailor", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    entries, night, _ = night_sheet(setup, choices=(("Alex", "/choose Cameron"),))
    assert says(entries["Alex"].suggestion, "info.sailor", player="Cameron")
    assert ("Cameron", "drunk", True, "by.sailor") in effects(night)
    assert next(e for e in night.effects if e.player == "Cameron").until_dusk


def test_the_demon_cannot_kill_a_sober_sailor_but_kills_a_poisoned_one():
    setup = seven("sailor", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    entries, night, _ = _kill_at_night_two(setup, "Ellen", "Alex")
    assert "Alex" not in night.deaths
    assert says(entries["Ellen"].suggestion, "sheet.protected", player="Alex")
    _, night, _ = night_sheet(setup, night=2, choices=(("Derek", "/choose Alex"),
                                                      ("Ellen", "/choose Alex")))
    assert "Alex" in night.deaths  # the Poisoner's poison first: "the Sailor can die"


def test_an_executed_sailor_does_not_die():
    told, day = day_one(seven("sailor", "empath", "chef", "poisoner", "imp", "monk", "soldier"))
    told.st("!execute Alex --yes", day + H)
    assert told.state.seat("Alex").alive


def test_the_assassins_kill_goes_through_the_sailor():
    setup = seven("sailor", "empath", "chef", "assassin", "imp", "monk", "soldier")
    _, night, _ = night_sheet(setup, night=2, choices=(("Derek", "/choose Alex"),))
    assert "Alex" in night.deaths


# -- the Tea Lady ---------------------------------------------------------------------------

def test_the_tea_ladys_neighbours_cannot_die_while_both_are_good():
    setup = seven("chef", "tealady", "empath", "poisoner", "imp", "monk", "soldier")
    _, night, _ = _kill_at_night_two(setup, "Ellen", "Alex")
    assert "Alex" not in night.deaths
    told, day = day_one(setup)
    told.st("!execute Cameron --yes", day + H)
    assert told.state.seat("Cameron").alive


def test_an_evil_neighbour_of_the_tea_lady_leaves_both_unprotected():
    setup = seven("poisoner", "tealady", "empath", "chef", "imp", "monk", "soldier")
    _, night, _ = _kill_at_night_two(setup, "Ellen", "Cameron")
    assert "Cameron" in night.deaths


def test_a_drunk_tea_lady_protects_no_one():
    setup = seven("chef", "tealady", "empath", "poisoner", "imp", "monk", "soldier")
    _, night, _ = night_sheet(setup, night=2, choices=(("Derek", "/choose Brianna"),
                                                      ("Ellen", "/choose Alex")))
    assert "Alex" in night.deaths


# -- the Fool -------------------------------------------------------------------------------

def _spent(setup):
    """The same game with the Fool's first death already behind it."""
    grimoire = dict(setup.grimoire)
    grimoire["Alex"] = replace(grimoire["Alex"], reminders=(FOOL_SPENT,))
    return replace(setup, grimoire=tuple(grimoire.items()))


def test_the_fool_survives_its_first_death_at_night_and_its_ability_is_spent():
    setup = seven("fool", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    _, night, _ = _kill_at_night_two(setup, "Ellen", "Alex")
    assert "Alex" not in night.deaths
    assert ("Alex", "reminders", (FOOL_SPENT,), "by.character") in effects(night)
    _, night, _ = _kill_at_night_two(_spent(setup), "Ellen", "Alex")
    assert "Alex" in night.deaths


def test_an_executed_fool_lives_once_and_is_marked():
    setup = seven("fool", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    told, day = day_one(setup)
    told.st("!execute Alex --yes", day + H)
    assert told.state.seat("Alex").alive
    assert FOOL_SPENT in told.state.grimoire_of("Alex").reminders
    told, day = day_one(_spent(setup))
    told.st("!execute Alex --yes", day + H)
    assert not told.state.seat("Alex").alive


# -- the Grandmother ------------------------------------------------------------------------

def test_the_grandmother_learns_a_good_player_and_their_character():
    setup = seven("grandmother", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    entries, night, _ = night_sheet(setup)
    row = entries["Alex"]
    assert row.needs_result
    assert says(row.suggestion, "info.grandmother", player="Brianna", character="Empath")
    assert ("Brianna", "reminders", (GRANDCHILD,), "by.grandmother") in effects(night)


def test_the_grandmother_dies_when_the_demon_kills_her_grandchild():
    setup = seven("grandmother", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    _, night, _ = _kill_at_night_two(setup, "Ellen", "Brianna")
    assert set(night.deaths) == {"Brianna", "Alex"}


def test_a_kill_that_is_not_the_demons_leaves_the_grandmother_alive():
    setup = seven("grandmother", "empath", "chef", "assassin", "imp", "monk", "soldier")
    _, night, _ = night_sheet(setup, night=2, choices=(("Derek", "/choose Brianna"),))
    assert "Brianna" in night.deaths and "Alex" not in night.deaths


# -- the Pacifist ---------------------------------------------------------------------------

def test_the_storytellers_spare_a_good_player_for_the_pacifist():
    setup = seven("pacifist", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    told, day = day_one(setup)
    told.st("!pacifist Brianna", day + H)
    assert told.command.failed == ()
    told.st("!execute Brianna --yes", day + 2 * H)
    assert told.state.seat("Brianna").alive


def test_the_storytellers_are_offered_the_pacifists_call_when_nominations_open():
    told, day = day_one(seven("pacifist", "empath", "chef", "poisoner", "imp", "monk", "soldier"))
    notes = for_storytellers(told.tick(day + 12 * H), "st_note")
    assert any(says(n.view["text"], "st.pacifist", pacifist="Alex") for n in notes)


def test_without_the_storytellers_call_an_executed_good_player_dies():
    told, day = day_one(seven("pacifist", "empath", "chef", "poisoner", "imp", "monk", "soldier"))
    told.st("!execute Brianna --yes", day + H)
    assert not told.state.seat("Brianna").alive


def test_the_pacifist_spares_only_good_players_and_only_while_it_works():
    told, day = day_one(seven("pacifist", "empath", "chef", "poisoner", "imp", "monk", "soldier"))
    told.st("!pacifist Derek", day + H)
    assert says(told.command.failed, "rejection.spare_evil", player="Derek")
    told, day = day_one(seven("chef", "empath", "soldier", "poisoner", "imp", "monk", "mayor"))
    told.st("!pacifist Brianna", day + H)
    assert says(told.command.failed, "rejection.no_pacifist")
    assert told.state.grimoire_of("Brianna").survives_execution_day is None



# -- the Shabaloth, the Tinker, the Exorcist ------------------------------------------------

def test_the_shabaloth_kills_both_its_choices_each_as_the_demon():
    setup = seven("chef", "empath", "sailor", "poisoner", "shabaloth", "monk", "soldier")
    _, night, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Alex Brianna"),))
    assert set(night.deaths) == {"Alex", "Brianna"}
    _, night, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Alex Cameron"),))
    assert night.deaths == ("Alex",)  # the Sailor cannot die


def test_the_shabaloths_note_names_last_nights_choices_who_may_come_back():
    setup = seven("chef", "empath", "mayor", "poisoner", "shabaloth", "monk", "soldier")
    told, day = day_one(setup)
    told.end_day(day + 12 * H)
    told.pm("Ellen", "/choose Alex Brianna", told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    told.end_day(told.state.phase_ends_at - H)
    told.pm("Ellen", "/choose Cameron Gus", told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    row = next(e for e in told.state.night.sheet if e.player == "Ellen")
    assert says(row.suggestion, "info.shabaloth_back", players=("Alex", "Brianna"))


def test_the_tinkers_step_reminds_the_storytellers_it_might_die():
    setup = seven("chef", "tinker", "empath", "poisoner", "imp", "monk", "soldier")
    entries, night, _ = night_sheet(setup, night=2)
    assert says(entries["Brianna"].suggestion, "info.tinker", player="Brianna")
    assert "Brianna" not in night.deaths


def test_the_exorcists_demon_does_not_wake_and_learns_the_exorcist():
    setup = seven("exorcist", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    entries, night, _ = night_sheet(setup, night=2, choices=(("Alex", "/choose Ellen"),
                                                            ("Ellen", "/choose Brianna")))
    assert "Brianna" not in night.deaths
    assert says(entries["Ellen"].suggestion, "sheet.exorcised", exorcist="Alex")
    assert ("Ellen", "tell.exorcist") in [(p, t.code) for p, t in night.tells]


def test_an_exorcist_who_chose_no_demon_changes_nothing():
    setup = seven("exorcist", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    entries, night, _ = night_sheet(setup, night=2, choices=(("Alex", "/choose Cameron"),
                                                            ("Ellen", "/choose Brianna")))
    assert "Brianna" in night.deaths
    assert says(entries["Alex"].suggestion, "info.exorcist", player="Cameron")



# -- the Professor --------------------------------------------------------------------------

def test_the_professor_brings_a_dead_townsfolk_back_at_dawn():
    setup = seven("professor", "empath", "chef", "poisoner", "imp", "monk", "soldier",
                  dead=("Brianna",))
    told, day = day_one(setup)
    told.end_day(day + 12 * H)
    told.pm("Alex", "/choose Brianna", told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    row = next(e for e in told.state.night.sheet if e.player == "Alex")
    assert says(row.suggestion, "info.professor", player="Brianna")
    told.approve(told.state.phase_ends_at - H)
    said = told.dawn()
    assert told.state.seat("Brianna").alive
    assert any(n.template == "public_life" and n.view == {"player": "Brianna", "alive": True}
               for n in said)


def test_the_professor_who_chose_no_townsfolk_brings_no_one_back():
    setup = seven("professor", "empath", "chef", "poisoner", "imp", "monk", "soldier",
                  dead=("Derek",))
    _, night, _ = night_sheet(setup, night=2, choices=(("Alex", "/choose Derek"),))
    assert night.effects == ()



# -- the Po ---------------------------------------------------------------------------------

def _night_three(setup, night_two: str):
    """The Po's night 2 (`night_two`: its command) approved; night 3 begun."""
    told, day = day_one(setup)
    told.end_day(day + 12 * H)
    told.pm("Ellen", night_two, told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    row = next(e for e in told.state.night.sheet if e.player == "Ellen")
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    told.end_day(told.state.phase_ends_at - H)
    return told, row


def test_the_po_that_chose_no_one_chooses_three_the_next_night():
    setup = seven("chef", "empath", "mayor", "poisoner", "po", "monk", "saint")
    told, row = _night_three(setup, "/pass")
    assert says(row.suggestion, "info.po_charges")
    assert all(told.state.seat(n).alive for n in ("Alex", "Brianna", "Cameron"))
    told.pm("Ellen", "/choose Alex", told.state.phase_ends_at - 4 * H)
    assert "rejection.choice_count" in [f"rejection.{c}" for c in rejected(told)]
    told.pm("Ellen", "/choose Alex Brianna Cameron", told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    assert set(told.state.night.deaths) == {"Alex", "Brianna", "Cameron"}


def test_the_po_that_chose_someone_chooses_one_the_next_night():
    setup = seven("chef", "empath", "mayor", "poisoner", "po", "monk", "saint")
    told, _ = _night_three(setup, "/choose Alex")
    assert not told.state.seat("Alex").alive
    told.pm("Ellen", "/choose Brianna Cameron Fatima", told.state.phase_ends_at - 4 * H)
    assert rejected(told) == ["choice_count"]



# -- the Mastermind -------------------------------------------------------------------------

def _demon_executed(setup):
    told, day = day_one(setup)
    told.st("!execute Ellen --yes", day + H)  # the Imp
    return told


def test_the_demons_execution_with_a_mastermind_alive_is_one_more_day():
    setup = seven("chef", "empath", "soldier", "mastermind", "imp", "monk", "saint")
    told = _demon_executed(setup)
    assert not told.state.seat("Ellen").alive
    assert WINS_DETECTED.of(told.state) == ()
    told.tick(told.state.phase_ends_at - 2 * H)
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    told.st("!execute Alex --yes", told.state.phase_ends_at - H)  # good: good loses
    assert [(w, r.code) for w, r in WINS_DETECTED.of(told.state)] == [("evil", "win.mastermind")]


def test_the_mastermind_day_lost_by_evil_when_an_evil_player_is_executed():
    setup = seven("chef", "empath", "soldier", "mastermind", "imp", "monk", "saint")
    told = _demon_executed(setup)
    told.tick(told.state.phase_ends_at - 2 * H)
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    told.st("!execute Derek --yes", told.state.phase_ends_at - H)
    assert [(w, r.code) for w, r in WINS_DETECTED.of(told.state)] == [("good", "win.mastermind")]


def test_without_a_working_mastermind_the_demons_execution_ends_the_game():
    setup = seven("chef", "empath", "soldier", "poisoner", "imp", "monk", "saint")
    told = _demon_executed(setup)
    assert [(w, r.code) for w, r in WINS_DETECTED.of(told.state)] == [("good", "win.demons_dead")]



# -- the Minstrel ---------------------------------------------------------------------------

def test_a_minions_execution_makes_everyone_else_drunk_until_dusk_tomorrow():
    setup = seven("minstrel", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    told, day = day_one(setup)
    told.st("!execute Derek --yes", day + H)  # the Poisoner
    drunk = {s.name for s in told.state.seats if told.state.grimoire_of(s.name).drunk}
    assert drunk == {"Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"}
    told.tick(told.state.phase_ends_at - 2 * H)
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    assert told.state.grimoire_of("Brianna").drunk  # all of tomorrow
    told.end_day(told.state.phase_ends_at - H)
    assert not any(told.state.grimoire_of(s.name).drunk for s in told.state.seats)


def test_a_townsfolks_execution_makes_no_one_drunk():
    told, day = day_one(seven("minstrel", "empath", "chef", "poisoner", "imp", "monk", "soldier"))
    told.st("!execute Brianna --yes", day + H)
    assert not any(told.state.grimoire_of(s.name).drunk for s in told.state.seats)



# -- the Courtier ---------------------------------------------------------------------------

def _next_night(told, choices=()):
    """The night's choices sent, the sheet built and approved, dawn; returns the sheet."""
    for player, raw in choices:
        told.pm(player, raw, told.state.phase_ends_at - 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    sheet = told.state.night
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    return sheet


def test_the_courtiers_character_is_drunk_for_three_nights_and_three_days():
    setup = seven("courtier", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    told = Told(setup)
    told.tick(setup.first_night_starts)
    sheet = _next_night(told, (("Alex", "/choose Empath"),))
    assert ("Brianna", "drunk", True, "by.courtier") in effects(sheet)
    assert told.state.grimoire_of("Brianna").drunk
    for _night in (2, 3):
        told.end_day(told.state.phase_ends_at - H)
        _next_night(told)
        assert told.state.grimoire_of("Brianna").drunk
    told.end_day(told.state.phase_ends_at - H)  # the dusk ending day 3
    assert not told.state.grimoire_of("Brianna").drunk


def test_a_courtier_who_chose_a_character_not_in_play_spends_it_for_nothing():
    setup = seven("courtier", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    entries, night, _ = night_sheet(setup, choices=(("Alex", "/choose Sage"),))
    assert says(entries["Alex"].suggestion, "info.courtier_not_in_play", character="Sage")
    assert night.effects == ()


# -- the Zombuul ----------------------------------------------------------------------------

def test_the_zombuul_kills_only_after_a_day_without_a_death():
    setup = seven("chef", "empath", "soldier", "poisoner", "zombuul", "monk", "mayor")
    _, night, _ = _kill_at_night_two(setup, "Ellen", "Alex")
    assert night.deaths == ("Alex",)
    def gus_executed(told, at):
        told.st("!execute Gus --yes", at)
        return at

    entries, night, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Alex"),),
                                    day=gus_executed)
    assert night.deaths == () and says(entries["Ellen"].suggestion, "info.zombuul_someone_died")


def test_the_zombuuls_first_death_is_public_but_it_lives_on_and_the_game_goes_on():
    setup = seven("chef", "empath", "soldier", "poisoner", "zombuul", "monk", "mayor")
    told, day = day_one(setup)
    told.st("!execute Ellen --yes", day + H)
    assert not told.state.seat("Ellen").alive  # registers as dead
    assert LIVES_ON in told.state.grimoire_of("Ellen").reminders
    assert WINS_DETECTED.of(told.state) == ()
    told.pm("Ellen", "/choose Alex", told.state.phase_ends_at - 3 * H)  # it still chooses
    assert told.rejected == ()
    told.tick(told.state.phase_ends_at - 2 * H)
    row = next(e for e in told.state.night.sheet if e.player == "Ellen")
    assert says(row.suggestion, "info.zombuul_someone_died", players=("Ellen",))  # itself
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    told.st("!execute Ellen --yes", told.state.phase_ends_at - H)  # executed again: dies
    assert [(w, r.code) for w, r in WINS_DETECTED.of(told.state)] == [("good", "win.demons_dead")]



# -- the official Harlot (Sects & Violets) --------------------------------------------------

def test_the_harlots_choice_is_asked_and_its_character_proposed():
    setup = seven("harlot", "empath", "chef", "poisoner", "imp", "monk", "soldier")
    entries, _, _ = night_sheet(setup, night=2, choices=(("Alex", "/choose Brianna"),))
    row = entries["Alex"]
    assert row.needs_result and says(row.suggestion, "info.harlot", player="Brianna")
    assert says(row.suggestion, "result.is_the", player="Brianna", character="Empath")


BMR_SCENARIOS = {  # each automated character's first scenario (test_scenarios.py checks all have one)
    "sailor": test_the_demon_cannot_kill_a_sober_sailor_but_kills_a_poisoned_one,
    "tealady": test_the_tea_ladys_neighbours_cannot_die_while_both_are_good,
    "fool": test_the_fool_survives_its_first_death_at_night_and_its_ability_is_spent,
    "grandmother": test_the_grandmother_dies_when_the_demon_kills_her_grandchild,
    "pacifist": test_the_storytellers_spare_a_good_player_for_the_pacifist,
    "shabaloth": test_the_shabaloth_kills_both_its_choices_each_as_the_demon,
    "tinker": test_the_tinkers_step_reminds_the_storytellers_it_might_die,
    "exorcist": test_the_exorcists_demon_does_not_wake_and_learns_the_exorcist,
    "harlot": test_the_harlots_choice_is_asked_and_its_character_proposed,
    "professor": test_the_professor_brings_a_dead_townsfolk_back_at_dawn,
    "po": test_the_po_that_chose_no_one_chooses_three_the_next_night,
    "mastermind": test_the_demons_execution_with_a_mastermind_alive_is_one_more_day,
    "zombuul": test_the_zombuuls_first_death_is_public_but_it_lives_on_and_the_game_goes_on,
    "minstrel": test_a_minions_execution_makes_everyone_else_drunk_until_dusk_tomorrow,
    "courtier": test_the_courtiers_character_is_drunk_for_three_nights_and_three_days,
}

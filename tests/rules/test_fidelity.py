"""Rules fidelity, fourth pass (issue 40): each rule with the seed sentence it follows.

Each test deals a game on the whole catalogue (tests/rules/test_scenarios.py's `game`), drives
it through posts, PMs and the Storytellers' commands, and asserts what the core owes as codes
and values. The earlier passes' cases stay where they are (test_scenarios, test_effects,
test_information); what this pass adds lives here, one rule a section."""

from datetime import timedelta

from modbot.core import PLAYER, Phase

from ..conversation import seven
from ..notices import day_one, effects, for_storytellers, night_sheet, public, says
from .test_rulings_oops import TWO_TEAMS, teams_game
from .test_scenarios import H, game

M = timedelta(minutes=1)


# -- dead players' rights -----------------------------------------------------------------

def test_a_boomdandy_tie_kills_nobody_and_the_day_is_over():
    """Seed 000, Boomdandy: "If it is a tie, the day ends"."""
    talk, day = day_one(game(derek="boomdandy"))
    talk.st("!execute Derek --yes", day + H)
    talk.st("!boom Alex Ellen Fatima", day + 2 * H)
    talk.thread("Alex", "/point Fatima", day + 2 * H + M)
    talk.thread("Gus", "/point Alex", day + 2 * H + 2 * M)
    said = talk.tick(day + 2 * H + 11 * M)
    (ended,) = [n for n in public(said) if n.template == "boom"]
    assert ended.view["victim"] is None and ended.view["counts"] == (("Fatima", 1), ("Alex", 1))
    assert {"Alex", "Ellen", "Fatima"} <= {s.name for s in talk.state.seats if s.alive}
    assert says(for_storytellers(said), "st.pointing_tie")
    assert talk.state.phase is Phase.NIGHT  # the execution ended the day; the tie leaves it so


# -- who woke ------------------------------------------------------------------------------

def _chambermaid_counts(first: str, second: str, *, characters, day=None) -> str | None:
    setup = seven(*characters)
    _, night, _ = night_sheet(setup, night=2, day=day,
                                    choices=(("Alex", f"/choose {first} {second}"),))
    result = night.result_of("Alex")
    return dict(result.params).get("value") if result else None


CHAMBERMAID_GAME = ("chambermaid", "acrobat", "godfather", "poisoner", "imp", "monk", "sweetheart")


def test_seed_003_the_chambermaid_counts_only_who_woke_to_use_their_ability():
    """Seed 003 (Chambermaid): "only detects characters who woke in order to use their
    ability": the Acrobat and the Sweetheart never wake (their steps are the Storytellers'
    checks), a Godfather wakes only when an Outsider died today (its own row says so); the
    Poisoner and the Monk woke."""
    assert _chambermaid_counts("Brianna", "Gus", characters=CHAMBERMAID_GAME) == "0"
    assert _chambermaid_counts("Cameron", "Brianna", characters=CHAMBERMAID_GAME) == "0"
    assert _chambermaid_counts("Derek", "Fatima", characters=CHAMBERMAID_GAME) == "2"

    def outsider_dies(told, at):
        told.st("!kill Gus --yes", at)  # the Sweetheart: an Outsider died today
        return at + H
    assert _chambermaid_counts("Cameron", "Brianna", characters=CHAMBERMAID_GAME,
                               day=outsider_dies) == "1"


def test_a_spent_once_per_game_ability_does_not_wake_its_player():
    """Seed 000 (Huntsman): "Once per game, at night, choose a living player": once spent,
    its player no longer wakes; a Juggler wakes only on the night after its first day."""
    from modbot.core.characters.waking import woke_tonight
    _, _, talk = night_sheet(seven("chambermaid", "huntsman", "juggler", "poisoner", "imp",
                                   "monk", "soldier"), choices=(("Brianna", "/choose Gus"),))
    assert woke_tonight(talk.state, "Brianna", ())
    talk.dawn()
    talk.end_day(talk.state.phase_ends_at - H)
    assert not woke_tonight(talk.state, "Brianna", ())
    assert woke_tonight(talk.state, "Cameron", ())  # night 2: the Juggler learns
    talk.tick(talk.state.phase_ends_at - 2 * H)  # the night's sheet is drawn up at its lock
    talk.dawn()
    talk.end_day(talk.state.phase_ends_at - H)
    assert talk.state.cycle == 3 and not woke_tonight(talk.state, "Cameron", ())
    assert woke_tonight(talk.state, "Derek", ())  # the Poisoner, each night


# -- effects end with their cause ----------------------------------------------------------

def _sweetheart_dies(told, at):
    told.st("!kill Gus --yes", at)  # the Sweetheart: the Storytellers choose her drunk
    told.st("!drunk Alex by Gus\n!drunk Brianna", at + H)
    assert told.state.grimoire_of("Alex").drunk and told.state.grimoire_of("Brianna").drunk
    return at + 2 * H


def test_seed_002_the_sweethearts_drunk_ends_when_her_character_changes():
    """Seed 002 (Sweetheart): "drunk for the rest of the game or until the Sweetheart player's
    character changes": the Pit-Hag makes the dead Sweetheart the Golem; her drunk is sober
    from that dawn, a drunk the Storytellers marked without a cause stays drunk."""
    _, night, talk = night_sheet(game(derek="pithag", gus="sweetheart"), night=2,
                                 day=_sweetheart_dies, choices=(("Derek", "/choose Gus as Golem"),))
    assert ("Gus", "character", "golem", "by.pit_hag") in effects(night)
    assert talk.state.grimoire_of("Alex").drunk  # until the change is applied at dawn
    talk.dawn()
    assert talk.state.grimoire_of("Gus").character == "golem"
    assert not talk.state.grimoire_of("Alex").drunk and talk.state.grimoire_of("Brianna").drunk
    change = talk.state.grimoire_log[-1]
    assert (change.player, change.field, change.after) == ("Alex", "drunk", False)
    assert says(change.why, "by.character_changed", player="Gus", character="Sweetheart")


def test_an_effect_ends_when_the_storytellers_change_its_causes_character():
    """The same rule by the Storytellers' `!character`; the mark's cause must be a player."""
    talk, day = day_one(game(gus="sweetheart"))
    _sweetheart_dies(talk, day)
    talk.st("!character Gus golem", day + 3 * H)
    assert not talk.state.grimoire_of("Alex").drunk and talk.state.grimoire_of("Brianna").drunk
    talk.st("!drunk Alex by Nobody", day + 4 * H)
    [(_line, refused)] = talk.command.failed
    assert says(refused, "command.unknown_player", text="Nobody") and not talk.state.grimoire_of("Alex").drunk


def test_seed_000_the_widows_poison_ends_when_the_widow_is_no_longer_the_widow():
    """Seed 000 (Widow): "poisoned until the Widow dies"; its cause is the Widow's ability,
    so it ends too when the Widow's character changes (here by the Storytellers)."""
    _, _, talk = night_sheet(game(derek="widow"), choices=(("Derek", "/choose Alex"),))
    talk.dawn()
    assert talk.state.grimoire_of("Alex").poisoned
    talk.st("!character Derek poisoner", talk.state.phase_ends_at - 10 * H)
    assert not talk.state.grimoire_of("Alex").poisoned


def test_seed_003_the_pixies_gain_follows_the_player_it_learnt_about():
    """Seed 003 (Pixie): "If the player the Pixie learns about changes character then dies,
    the Pixie gains the ability of the Townsfolk the Pixie learnt about": the Pixie learnt
    Alex the Chef; Alex becomes the Noble and Brianna the Chef. Brianna's death offers nothing,
    Alex's offers the Chef."""
    _, night, talk = night_sheet(game())  # Gus the Pixie learns Alex, the Chef
    assert ("Alex", "reminders", ("learnt by the Pixie",), "by.pixie") in effects(night)
    talk.dawn()
    at = talk.state.phase_ends_at - 30 * H
    talk.st("!character Alex noble\n!character Brianna chef", at)
    assert not for_storytellers(talk.st("!kill Brianna --yes", at + H), "pixie_may_gain")
    (gain,) = for_storytellers(talk.st("!kill Alex --yes", at + 2 * H), "pixie_may_gain")
    assert gain.view == {"pixie": "Gus", "died": "Alex", "name": "Chef"}


# -- kills resolve at their step -------------------------------------------------------------

MOONCHILD_GAME = ({**TWO_TEAMS[0], "Alex": "moonchild"}, TWO_TEAMS[1])  # Brianna: the Acrobat


def _moonchild_chooses(told, at):
    told.st("!execute Alex --yes", at)  # the Moonchild dies: she chooses Brianna, good
    told.thread("Alex", "/choose Brianna", at + H)
    return at + 2 * H


def test_seed_002_the_moonchilds_kill_resolves_at_her_step_as_she_is_then():
    """Seed 002 (Moonchild): "On Night 2, if the Moonchild is sober and healthy, Goon dies",
    the Moonchild last in the night order: the Poisoner, earlier tonight, poisons her, and
    Brianna lives; the row is at her step and says why. Unpoisoned, Brianna dies."""
    setup = teams_game(*MOONCHILD_GAME)
    _, night, _ = night_sheet(setup, night=2, day=_moonchild_chooses,
                              choices=(("Derek", "/choose Alex"),))
    assert "Brianna" not in night.deaths
    steps = [e.step for e in night.sheet]
    assert steps.index("moonchild") > steps.index("poisoner")
    row = next(e for e in night.sheet if e.step == "moonchild")
    assert says(row.suggestion, "sheet.moonchild_malfunctioning", player="Brianna", moonchild="Alex")
    _, night, _ = night_sheet(setup, night=2, day=_moonchild_chooses,
                              choices=(("Derek", "/choose Cameron"),))
    assert "Brianna" in night.deaths


# -- a character gained tonight ----------------------------------------------------------

GAINED = ("empath", "chef", "pithag", "imp", "poisoner", "soldier", "librarian")


def _pit_hag(text: str, *, also=()) -> tuple[dict, object]:
    _, night, _ = night_sheet(seven(*GAINED), night=2,
                              choices=(("Cameron", text), *also))
    return {e.step: e for e in night.sheet if e.player == "Alex"}, night


def test_seed_001_a_character_gained_tonight_learns_at_its_step_if_still_to_come():
    """Seed 001: "All actions are processed in a specific order each night": the Pit-Hag
    (before the Oracle) makes Alex the Oracle; Alex learns as the Oracle at its step, the
    answer delivered at dawn like everyone's. Not as the Empath, whose step comes later."""
    rows, night = _pit_hag("/choose Alex as Oracle")
    assert set(rows) == {"oracle", "empath"}
    assert says(rows["empath"].suggestion, "sheet.changed_before_step", character="Empath",
                now="Oracle")
    assert night.result_of("Alex") is not None and says(night.result_of("Alex"), "result.oracle")


def test_seed_001_a_character_gained_after_its_step_does_not_act_tonight():
    """The Monk's step is before the Pit-Hag's: made the Monk, Alex does not act tonight (even
    with a choice sent for it), and the row says why."""
    rows, _ = _pit_hag("/choose Alex as Monk", also=(("Alex", "/choose Brianna if Monk"),))
    assert set(rows) == {"monk", "empath"}
    assert says(rows["monk"].suggestion, "sheet.gained_after_step", character="Monk")


def test_seed_001_a_chooser_gained_tonight_acts_only_on_a_contingency_choice():
    """Seed 001's Djinn: a Dreamer the Pit-Hag creates who "has not submitted a contingency
    action in the case that they become the Dreamer, they do not wake tonight"; with one sent
    (`/choose Derek if Dreamer`), the Dreamer acts on it."""
    rows, _ = _pit_hag("/choose Alex as Dreamer")
    assert says(rows["dreamer"].suggestion, "sheet.gained_no_contingency", character="Dreamer")
    rows, _ = _pit_hag("/choose Alex as Dreamer", also=(("Alex", "/choose Derek if I become the Dreamer"),))
    assert says(rows["dreamer"].suggestion, "info.dreamer", player="Derek", character="Imp")


def test_nobody_acts_twice_in_one_night():
    """Ellen the Poisoner acted at her step; the Pit-Hag then makes her the Oracle: she does
    not act again, and the row says why."""
    _, night, _ = night_sheet(seven(*GAINED), night=2,
                              choices=(("Ellen", "/choose Brianna"),
                                       ("Cameron", "/choose Ellen as Oracle")))
    (row,) = [e for e in night.sheet if e.player == "Ellen" and e.step == "oracle"]
    assert says(row.suggestion, "sheet.gained_acted_already", character="Oracle")
    assert night.result_of("Ellen") is None


def _rows(night, player: str) -> dict:
    return {e.step: e for e in night.sheet if e.player == player}


def test_each_way_of_gaining_a_character_tonight_follows_the_one_rule():
    """The Barber's haircut (the Demon swaps Brianna the Empath and Cameron the Soldier at the
    Barber's step): Cameron acts as the Empath at its later step, Brianna not at all. The Snake
    Charmer who swaps with the Imp acted already (no second step as the Imp); the old Imp,
    now the Snake Charmer, gained it after its step. The Scarlet Woman the Imp passes to
    gains the Imp at its own step: not tonight. The Philosopher who chooses the Oracle acts as
    it at its step (its own ability's gain)."""
    barber = seven("barber", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, _ = night_sheet(barber, night=2, choices=(("Ellen", "/choose Alex"),
                                                        ("Ellen", "/swap Brianna Cameron")))
    assert ("Cameron", "character", "empath", "by.barber") in effects(night)
    assert says(_rows(night, "Cameron")["empath"].suggestion, "result.empath")
    assert set(_rows(night, "Brianna")) == {"empath"}  # no longer the Empath: not as it
    assert says(_rows(night, "Brianna")["empath"].suggestion, "sheet.changed_before_step",
                character="Empath", now="Soldier")

    charmer = seven("snakecharmer", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, _ = night_sheet(charmer, night=2, choices=(("Alex", "/choose Ellen"),
                                                         ("Ellen", "/choose Brianna")))
    assert says(_rows(night, "Alex")["imp"].suggestion, "sheet.gained_acted_already",
                character="Imp")
    assert says(_rows(night, "Ellen")["snakecharmer"].suggestion, "sheet.gained_after_step",
                character="Snake Charmer")
    assert night.deaths == ()  # neither the old Imp nor the new one kills tonight

    star_pass = seven("chef", "empath", "soldier", "scarletwoman", "imp", "monk", "pixie")
    _, night, _ = night_sheet(star_pass, night=2, choices=(("Ellen", "/choose Ellen"),))
    assert says(_rows(night, "Derek")["imp"].suggestion, "sheet.gained_after_step",
                character="Imp")  # the Imp's step is the one that made her the Imp

    philosopher = seven("philosopher", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, _ = night_sheet(philosopher, night=2, choices=(("Alex", "/choose Oracle"),))
    assert set(_rows(night, "Alex")) == {"philosopher", "oracle"}
    assert says(night.result_of("Alex"), "result.oracle")


def test_a_contingency_choice_is_read_checked_and_kept_beside_the_own_choice():
    """`/choose X if CHARACTER` (or `if I become the CHARACTER`): read against the script,
    checked against that character's choice as any choice is (public facts only), answered,
    and kept beside the player's own choice; the latest for a character counts."""
    from modbot.core.reading.night_forms import parse_private
    from modbot.core.state.night_actions import Choose

    setup = seven(*GAINED)
    roster, script = setup.roster, setup.script
    assert parse_private("/choose Derek if I become the Dreamer.", roster, script).actions == (
        Choose(("Derek",), None, "dreamer"),)
    assert parse_private("/choose Alex as Oracle if Cerenovus", roster, script).actions == (
        Choose(("Alex",), "oracle", "cerenovus"),)
    [refused] = parse_private("/choose Derek if Warlock", roster, script).errors
    assert (refused.code, refused.params) == ("unknown_character", {"text": "Warlock"})

    talk, day = day_one(setup)
    talk.end_day(day + H)  # night 2 begins
    at = day + 2 * H
    talk.pm("Alex", "/choose Brianna if Empath", at)
    assert [r.code for r in talk.rejected] == ["no_choice_tonight"]
    talk.pm("Alex", "/choose Brianna Cameron if Dreamer", at)
    assert [r.code for r in talk.rejected] == ["choice_count"]
    said = talk.pm("Alex", "/choose Derek if Dreamer", at)
    (ack,) = [n for n in said if n.template == "night_choice"]
    assert ack.view["contingent"] == "Dreamer"
    talk.pm("Alex", "/choose Ellen if Dreamer", at)
    night = talk.state.night
    assert [c.players for c in night.contingencies] == [("Ellen",)]
    assert night.choice_of("Alex") is None and night.contingency_of("Alex", "dreamer") is not None
    dreamer, day = day_one(seven("dreamer", *GAINED[1:]))
    dreamer.end_day(day + H)
    said = dreamer.pm("Alex", "/choose Derek if I am the Dreamer", day + 2 * H)  # he is one
    (ack,) = [n for n in said if n.template == "night_choice"]
    assert ack.view["contingent"] == "Dreamer"  # answered as anyone's contingency
    assert dreamer.state.night.contingency_of("Alex", "dreamer").players == ("Derek",)


def test_a_contingency_reads_the_same_whatever_the_player_secretly_is_and_counts_if_they_are():
    """Issue 50: after `!character Fatima dreamer` (Fatima not told), her `/choose Brianna if
    Dreamer` is answered exactly as an unchanged player's same line (nothing says she is the
    Dreamer now), and at the Dreamer's step it is her choice."""
    def answered(changes):
        talk, day = day_one(seven(*GAINED))
        talk.end_day(day + H)
        if changes:
            talk.st(changes, day + 2 * H)
        said = talk.pm("Fatima", "/choose Brianna if Dreamer", day + 3 * H)
        return [(n.template, n.view) for n in said if n.to == PLAYER], talk

    secret, talk = answered("!character Fatima dreamer")
    plain, _ = answered("")
    assert secret == plain and secret[0][1]["contingent"] == "Dreamer"
    talk.tick(talk.state.phase_ends_at - 2 * H)  # the lock: the sheet
    (row,) = [e for e in talk.state.night.sheet if e.player == "Fatima" and e.step == "dreamer"]
    assert says(row.choice, "choice.players", players=("Brianna",))


# -- the Vortox, in each character's terms --------------------------------------------------

VORTOX_GAME = ("sage", "empath", "chef", "poisoner", "vortox", "soldier", "mutant")


def test_the_vortox_false_answer_is_worded_for_each_character():
    """The almanac, Vortox: "Anytime a Townsfolk player gets information from their ability,
    they get false information": where only the Storyteller can make the false answer up, the
    sheet says it in the character's terms (the Sage killed by the Demon: two players, neither
    the Demon; the Dreamer: neither of the two characters the true one), never "choose
    otherwise" of a sentence."""
    entries, _, _ = night_sheet(seven(*VORTOX_GAME), night=2, choices=(("Ellen", "/choose Alex"),))
    assert says(entries["Alex"].suggestion, "vortox_false.sage")
    dreamer = ("dreamer", *VORTOX_GAME[1:])
    entries, _, _ = night_sheet(seven(*dreamer), choices=(("Alex", "/choose Derek"),))
    assert says(entries["Alex"].suggestion, "vortox_false.dreamer", player="Derek", character="Poisoner")
    for character in ("mathematician", "librarian", "noble", "pixie"):
        entries, _, _ = night_sheet(seven(character, *VORTOX_GAME[1:]))
        assert entries["Alex"].suggestion.code == f"vortox_false.{character}", character


def test_the_lleechs_host_is_sober_once_the_lleech_is_no_longer_the_lleech():
    """Seed 002 (Lleech): "You start by choosing an alive player: they are poisoned"; the
    poison is the Lleech's ability's, so it ends when the Lleech player's character changes."""
    _, _, talk = night_sheet(seven("chef", "empath", "soldier", "poisoner", "lleech", "monk",
                                   "pixie"), choices=(("Ellen", "/choose Brianna"),))
    talk.dawn()
    assert talk.state.grimoire_of("Brianna").poisoned
    talk.st("!character Ellen imp", talk.state.phase_ends_at - 10 * H)
    assert not talk.state.grimoire_of("Brianna").poisoned


# -- an execution that kills nobody is not a death ---------------------------------------------

def _saved_execution(told, at):
    told.st("!execute Brianna --yes", at)  # the Devil's Advocate chose her on night 1
    assert told.state.seat("Brianna").alive and told.state.past_days[-1].executed == "Brianna"
    return at


def test_an_execution_the_devils_advocate_survives_is_no_death_for_the_godfather():
    """Seed 002 (Godfather): "If 1 died today, choose a player tonight: they die": Brianna,
    an Outsider saved by the Devil's Advocate, was executed but did not die."""
    setup = seven("chef", "acrobat", "devilsadvocate", "godfather", "imp", "monk", "soldier")
    entries, night, _ = night_sheet(setup, night=2, day=_saved_execution,
                                    night1=(("Cameron", "/choose Brianna"),),
                                    choices=(("Derek", "/choose Alex"),))
    assert says(entries["Derek"].suggestion, "info.godfather_no_outsider")
    assert "Alex" not in night.deaths


def test_an_execution_the_devils_advocate_survives_feeds_no_cannibal():
    """Seed 000 (Cannibal): "You have the ability of the recently killed executee": an
    executee who lives was not killed, so the Cannibal gains nothing."""
    setup = seven("cannibal", "empath", "devilsadvocate", "poisoner", "imp", "monk", "soldier")
    _, _, talk = night_sheet(setup, night=2, day=_saved_execution,
                             night1=(("Cameron", "/choose Brianna"),))
    assert talk.state.grimoire_of("Alex").ability_of is None


# -- told when changed -----------------------------------------------------------------------

def test_seed_002_a_marionette_the_puzzlemaster_made_drunk_is_told_of_changes():
    """Seed 002 (Marionette): "never informed of changes to their alignment/team, unless they
    are drunk or poisoned at the time": the Puzzlemaster's drunk is drunk."""
    from modbot.core.characters.wins import unaware_marionette
    setup = seven("chef", "empath", "soldier", "marionette", "imp", "monk", "puzzlemaster",
                  thinks={"Derek": "noble"})
    talk, day = day_one(setup)
    assert unaware_marionette(talk.state, "Derek")
    talk.st("!reminder Derek puzzled", day + H)
    assert not unaware_marionette(talk.state, "Derek")
    talk.st("!poison Gus", day + 2 * H)  # an impaired Puzzlemaster: its drunk is sober
    assert unaware_marionette(talk.state, "Derek")

"""Rules fidelity, fourth pass (issue 40): each rule with the seed sentence it follows.

Each test deals a game on the whole catalogue (tests/rules/test_scenarios.py's `game`), drives
it through posts, PMs and the Storytellers' commands, and asserts what the core owes as codes
and values. The earlier passes' cases stay where they are (test_scenarios, test_effects,
test_information); what this pass adds lives here, one rule a section."""

from datetime import timedelta

from modbot.core import Phase

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
    entries, night, _ = night_sheet(setup, night=2, day=_moonchild_chooses,
                                    choices=(("Derek", "/choose Alex"),))
    assert "Brianna" not in night.deaths
    steps = [e.step for e in night.sheet]
    assert steps.index("moonchild") > steps.index("poisoner")
    row = next(e for e in night.sheet if e.step == "moonchild")
    assert says(row.suggestion, "sheet.moonchild_malfunctioning", player="Brianna", moonchild="Alex")
    _, night, _ = night_sheet(setup, night=2, day=_moonchild_chooses,
                              choices=(("Derek", "/choose Cameron"),))
    assert "Brianna" in night.deaths

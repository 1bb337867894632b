"""When each lasting effect ends (issue 25), at the core: the No Dashii's, the Vigormortis',
the Philosopher's, the Goon's, the Cannibal's, the Puzzlemaster's and the Sweetheart's. Each
test quotes its seed; where the seeds are silent, modbot's choice is named (docs/st-night.md)."""

from __future__ import annotations

from datetime import timedelta

from modbot.core.state.grimoire import is_malfunctioning

from ..conversation import seven
from ..notices import effects, night_sheet

H = timedelta(hours=1)


def _executing(player: str):
    def day(told, at):
        told.st(f"!execute {player} --yes", at)
        return at
    return day


def _dawn(told) -> None:
    told.approve(told.state.phase_ends_at - H)
    told.tick(told.state.phase_ends_at)


def test_the_no_dashii_poison_ends_when_it_dies_or_malfunctions():
    """Seed 001, No Dashii: "Your 2 Townsfolk neighbours malfunction" (while it lives and
    works): executed by day, the next night its neighbour (Ellen, the Empath) is sober."""
    game = seven("chef", "monk", "soldier", "poisoner", "empath", "nodashii", "pixie")
    entries, _, _ = night_sheet(game, night=2)
    assert entries["Ellen"].suggestion.code == "sheet.malfunctioning"
    entries, _, _ = night_sheet(game, night=2, day=_executing("Fatima"))
    assert entries["Ellen"].suggestion.code == "result.empath"
    entries, _, _ = night_sheet(game, night=2, changes=("!poison Fatima",))
    assert entries["Ellen"].suggestion.code == "result.empath"  # a poisoned No Dashii: nothing


def test_the_vigormortis_poison_ends_when_the_vigormortis_dies():
    """Seed 001, Vigormortis: "Minions you kill keep their ability & 1 of their Townsfolk
    neighbours malfunction"; the seeds do not say until when: modbot's choice, while the
    Vigormortis lives (as the ability its Minions keep)."""
    game = seven("chef", "empath", "librarian", "poisoner", "vigormortis", "monk", "pixie")
    _, night, told = night_sheet(game, night=2, choices=(("Ellen", "/choose Derek"),))
    assert ("Cameron", "poisoned", True, "by.vigormortis") in effects(night)
    _dawn(told)
    assert told.state.grimoire_of("Cameron").poisoned
    told.st("!execute Ellen --yes", told.state.phase_ends_at - 20 * H)
    assert not told.state.grimoire_of("Cameron").poisoned  # from the moment it dies


def test_the_philosophers_drunk_ends_when_the_philosopher_dies():
    """Seed 001, Philosopher: "choose a Loyal character: gain that ability. If this character
    is in play, they malfunction." Until when the seeds do not say: modbot's choice, while the
    Philosopher lives."""
    game = seven("philosopher", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, told = night_sheet(game, night=2, choices=(("Alex", "/choose Empath"),))
    assert ("Brianna", "drunk", True, "by.philosophers_choice") in effects(night)
    _dawn(told)
    assert told.state.grimoire_of("Brianna").drunk
    told.st("!kill Alex --yes", told.state.phase_ends_at - 20 * H)
    assert not told.state.grimoire_of("Brianna").drunk


def test_the_goons_chooser_is_drunk_until_dusk():
    """Seed 002, Goon: "the 1st player to choose you with their ability is drunk until dusk"."""
    game = seven("goon", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, told = night_sheet(game, night=2, choices=(("Derek", "/choose Alex"),))
    assert ("Derek", "drunk", True, "by.chose_goon") in effects(night)
    _dawn(told)
    assert told.state.grimoire_of("Derek").drunk  # through the day
    told.st("!endday --yes", told.state.phase_ends_at - H)
    assert not told.state.grimoire_of("Derek").drunk  # dusk


def test_the_cannibal_is_poisoned_until_a_good_player_dies_by_execution():
    """Seed 003, Cannibal: "If they are evil, you are poisoned until a good player dies by
    execution"."""
    game = seven("cannibal", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, _, told = night_sheet(game, night=2, day=_executing("Derek"))  # evil: poisoned
    assert told.state.grimoire_of("Alex").poisoned
    _dawn(told)
    told.st("!execute Cameron --yes", told.state.phase_ends_at - 20 * H)  # good: sober
    entry = told.state.grimoire_of("Alex")
    assert not entry.poisoned and entry.ability_of == "soldier"


def test_the_puzzlemasters_drunk_stays_drunk_even_after_it_dies():
    """Seed 002, Puzzlemaster: "1 player is drunk, even if you die" (and sober while the
    Puzzlemaster is drunk or poisoned)."""
    game = seven("puzzlemaster", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, _, told = night_sheet(game, night=2, changes=("!reminder Brianna puzzled",))
    assert is_malfunctioning(told.state, "Brianna")
    told.st("!kill Alex --yes", told.state.phase_ends_at - 3 * H)
    assert is_malfunctioning(told.state, "Brianna")  # even if the Puzzlemaster dies
    told.st("!poison Alex", told.state.phase_ends_at - 2 * H)
    assert not is_malfunctioning(told.state, "Brianna")  # a poisoned Puzzlemaster: sober


def test_the_sweethearts_drunk_lasts_from_now_on():
    """Seed 001, Sweetheart: "If you die, 1 player malfunctions from now on": the player the
    Storytellers choose (`!drunk`) stays so across dusks and dawns."""
    game = seven("sweetheart", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, _, told = night_sheet(game, night=2, day=_executing("Alex"),
                             changes=("!drunk Brianna",))
    _dawn(told)
    told.st("!endday --yes", told.state.phase_ends_at - H)
    assert told.state.grimoire_of("Brianna").drunk and is_malfunctioning(told.state, "Brianna")

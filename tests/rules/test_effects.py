"""Ability effects and win conditions, first part (issue 7): protection from the Demon,
poison that later steps see and that ends at dusk, the Imp passing the Demon on, the Pukka,
the Lleech, the Gambler, the Assassin, the No Dashii's neighbours; good and evil wins noticed
and confirmed by the Storytellers. Each test is named after the character it drives."""

from datetime import timedelta

from modbot.files.scripts import load_script

from ..conversation import Conversation, botf_setup, day_one, night_sheet, to
from ..helpers import START
from ..wording import worded, words

ALMANAC = load_script("almanac")
OOPS = load_script("oopsallevil")
BOTH = ALMANAC.with_characters(tuple(OOPS.characters) + tuple(
    load_script("crimsonmoon").characters) + tuple(load_script("botf").characters))
SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")
H = timedelta(hours=1)


def _game(*characters, dead=()):
    names = dict(zip(SEATS, characters, strict=False))
    spare = [c.id for c in BOTH.characters if c.is_good and c.id not in characters]
    return botf_setup(names, script=BOTH, bluffs=tuple(spare[:3]), dead=dead)


BASE = ("monk", "empath", "soldier", "poisoner", "imp", "chef", "scarletwoman")


def test_monk_protects_from_the_demon():
    entries, night, _ = night_sheet(_game(*BASE), night=2, choices=(
        ("Alex", "/choose Brianna"), ("Ellen", "/choose Brianna")))
    assert night.deaths == ()
    assert "safe from the Demon (the Monk)" in entries["Ellen"].suggestion


def test_soldier_is_safe_unless_poisoned():
    _, night, _ = night_sheet(_game(*BASE), night=2, choices=(("Ellen", "/choose Cameron"),))
    assert night.deaths == ()
    _, night, _ = night_sheet(_game(*BASE), night=2, choices=(
        ("Derek", "/choose Cameron"), ("Ellen", "/choose Cameron")))
    assert night.deaths == ("Cameron",)  # the Poisoner woke first


def test_poisoner_spoils_later_steps_and_the_poison_ends_at_dusk():
    entries, night, talk = night_sheet(_game(*BASE), night=2, choices=(
        ("Derek", "/choose Brianna"),))
    assert entries["Brianna"].suggestion.startswith("ST decides (drunk or poisoned)")
    assert [words(e.describe()) for e in night.effects] == [
        "Brianna: poisoned until dusk (the Poisoner)"]
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    assert talk.state.grimoire_of("Brianna").poisoned  # tomorrow day too
    talk.st("!endday --yes", talk.state.phase_ends_at - H)
    assert talk.state.phase_label == "night 3"
    assert not talk.state.grimoire_of("Brianna").poisoned


def test_imp_passes_the_demon_to_the_scarlet_woman():
    _entries, night, talk = night_sheet(_game(*BASE), night=2, choices=(
        ("Ellen", "/choose Ellen"),))
    assert night.deaths == ("Ellen",)
    assert [words(e.describe()) for e in night.effects] == [
        "Gus: becomes the imp (the Imp passed to a Minion)"]
    said = talk.approve(talk.state.phase_ends_at - H)
    said += talk.tick(talk.state.phase_ends_at)
    assert talk.state.grimoire_of("Gus").character == "imp"
    assert "You are now the Imp." in to(said, "pm:gus")[0]
    assert not any("looks over" in s.raw for s in said)  # a Demon lives: no win


def test_effect_off_drops_an_effect_before_dawn():
    characters = (*BASE[:-1], "witch")  # no Scarlet Woman: the Minion is the Witch
    _, _night, talk = night_sheet(_game(*characters), night=2,
                                 choices=(("Ellen", "/choose Ellen"),))
    said = talk.st("!effect 2 off", talk.state.phase_ends_at - H)
    assert "There is no effect 2 tonight (the sheet lists 1)." in to(said, "pmtopic")[0]
    talk.st("!effect 1 off", talk.state.phase_ends_at - H)
    said = talk.approve(talk.state.phase_ends_at - H)
    said += talk.tick(talk.state.phase_ends_at)
    assert talk.state.grimoire_of("Gus").character == "witch"
    assert any("The game looks over: **good** wins: every Demon is dead" in s.raw
               for s in said if s.thread == "pm:storytellers")


def test_scarletwoman_becomes_the_demon_when_it_is_executed():
    talk, _ = day_one(_game(*BASE))
    said = talk.st("!execute Ellen --yes", START + timedelta(hours=30))
    assert talk.state.grimoire_of("Gus").character == "imp"
    assert "you are now the Imp" in to(said, "pm:gus")[0]
    assert not any("looks over" in s.raw for s in said)
    assert not any("Scarlet" in s.raw or "Imp" in s.raw for s in said if s.thread == "topic")


def test_witch_curse_kills_a_cursed_nominator_and_the_nomination_counts():
    characters = ("chef", "empath", "soldier", "witch", "imp", "monk", "pixie")
    _entries, night, talk = night_sheet(_game(*characters), night=2,
                                       choices=(("Derek", "/choose Alex"),))
    assert [words(e.describe()) for e in night.effects] == [
        "Alex: cursed, dies if they nominate on day 2 (the Witch)"]
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    nominations = talk.state.phase_ends_at
    talk.tick(nominations)
    said = talk.thread("Alex", "/nominate Brianna", nominations + H)
    assert not talk.state.seat("Alex").alive
    assert talk.state.today.nomination_of("Brianna") is not None
    (public,) = [s.raw for s in said if s.thread == "topic" and "has died" in s.raw]
    assert "**Alex** has died." in public and "Witch" not in public
    said = talk.thread("Brianna", "/nominate Cameron", nominations + 2 * H)
    assert talk.state.seat("Brianna").alive  # not cursed


def test_nodashii_poisons_its_townsfolk_neighbours():
    # The No Dashii (Ellen) sits between the Poisoner and the Monk: its closest Townsfolk are
    # the Soldier (Cameron, past the Poisoner) and the Monk (Fatima). The almanac: "the
    # Soldier's protection also prevents all other harmful effects of the Demon's ability, such
    # as poisoning" (issue 25): the Soldier stays sober, so the kill on it fails.
    characters = ("chef", "empath", "soldier", "poisoner", "nodashii", "monk", "pixie")
    entries, _, _ = night_sheet(_game(*characters))
    assert entries["Brianna"].suggestion == "0 of your living neighbours are evil."
    entries, night, _ = night_sheet(_game(*characters), night=2, choices=(
        ("Fatima", "/choose Cameron"), ("Ellen", "/choose Cameron")))
    assert night.deaths == ()  # the Monk is poisoned, but the Soldier is safe from the Demon
    assert "drunk or poisoned" in entries["Fatima"].status


def test_pukka_poisons_then_kills_the_previous_victim():
    characters = ("chef", "empath", "soldier", "poisoner", "pukka", "monk", "savant")
    talk = Conversation(_game(*characters))
    talk.tick(START)
    talk.pm("Ellen", "/choose Alex", START + H)
    talk.tick(START + timedelta(hours=22))
    assert worded(talk.state.night).deaths == ()
    assert [words(e.describe()) for e in worded(talk.state.night).effects] == ["Alex: poisoned (the Pukka)"]
    talk.approve(START + timedelta(hours=23))
    talk.tick(START + timedelta(hours=24))
    assert talk.state.grimoire_of("Alex").poisoned
    talk.st("!endday --yes", START + timedelta(hours=30))
    talk.pm("Ellen", "/choose Brianna", START + timedelta(hours=31))
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert worded(talk.state.night).deaths == ("Alex",)


def test_lleech_poisons_its_host_on_the_first_night():
    characters = ("chef", "empath", "soldier", "poisoner", "lleech", "monk", "savant")
    _, night, _ = night_sheet(_game(*characters), choices=(("Ellen", "/choose Alex"),))
    assert [words(e.describe()) for e in night.effects] == ["Alex: poisoned (the Lleech's host)"]


def test_gambler_dies_on_a_wrong_guess():
    characters = ("gambler", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, _ = night_sheet(_game(*characters), night=2,
                              choices=(("Alex", "/choose Ellen as Pukka"),))
    assert night.deaths == ("Alex",)
    _, night, _ = night_sheet(_game(*characters), night=2,
                              choices=(("Alex", "/choose Ellen as Imp"),))
    assert night.deaths == ()


def test_assassin_kills_even_a_protected_player():
    characters = ("monk", "empath", "soldier", "assassin", "imp", "chef", "pixie")
    _, night, _ = night_sheet(_game(*characters), night=2, choices=(
        ("Derek", "/choose Cameron"),))
    assert night.deaths == ("Cameron",)


def test_the_assassins_kill_is_unconditional_even_on_a_lleech_whose_host_lives():
    """Oops All Evil, the Assassin: "they die, even if for some reason they could not": the
    Lleech, which otherwise dies only with its host (issue 25)."""
    characters = ("chef", "empath", "soldier", "assassin", "lleech", "monk", "savant")
    _, night, _ = night_sheet(_game(*characters), night=2, night1=(("Ellen", "/choose Alex"),),
                              choices=(("Derek", "/choose Ellen"),))
    assert "Ellen" in night.deaths and "Alex" not in night.deaths  # the host lives


# -- winning ----------------------------------------------------------------------------------

def test_executing_the_demon_is_noticed_and_announced_only_when_confirmed():
    talk, _ = day_one(_game(*BASE[:-1], "witch"))
    said = talk.st("!execute Ellen --yes", START + timedelta(hours=30))
    (note,) = [s.raw for s in said if "looks over" in s.raw]
    assert "**good** wins: every Demon is dead" in note and "`!win good" in note
    assert not any("game is over" in s.raw for s in said if s.thread == "topic")
    said = talk.st("!win good every Demon is dead --yes", START + timedelta(hours=31))
    assert "## The game is over: good wins" in to(said, "topic")[0]


def test_evil_wins_when_two_players_live():
    talk = Conversation(_game(*BASE))
    talk.tick(START)
    said = talk.st("!kill Alex --yes\n!kill Brianna --yes\n!kill Cameron --yes\n"
                   "!kill Fatima --yes", START + H)
    assert not any("looks over" in s.raw for s in said)  # Derek, Ellen and Gus live
    said = talk.st("!kill Gus --yes", START + 2 * H)
    assert any("**evil** wins: only two players live" in s.raw for s in said)


def test_vortox_wins_a_day_without_an_execution():
    characters = ("chef", "empath", "soldier", "poisoner", "vortox", "monk", "pixie")
    talk, _ = day_one(_game(*characters))
    said = talk.st("!endday --yes", START + timedelta(hours=30))
    assert any("no one was executed today, and the Vortox is in play" in s.raw for s in said)


def test_a_tie_goes_to_good():
    talk = Conversation(_game(*BASE))
    talk.tick(START)
    said = talk.st("!kill Alex --yes\n!kill Brianna --yes\n!kill Cameron --yes\n"
                   "!kill Fatima --yes\n!kill Gus --yes\n!kill Ellen --yes", START + H)
    notes = [s.raw for s in said if "looks over" in s.raw]
    assert len(notes) == 1 and "**good** wins" in notes[0]


def test_snakecharmer_swaps_with_the_demon():
    characters = ("snakecharmer", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, talk = night_sheet(_game(*characters), choices=(("Alex", "/choose Ellen"),))
    assert night.result_of("Alex") == "You chose the Demon: you are now the Imp and evil."
    talk.approve(START + timedelta(hours=23))
    said = talk.tick(START + timedelta(hours=24))
    alex, ellen = talk.state.grimoire_of("Alex"), talk.state.grimoire_of("Ellen")
    assert (alex.character, alex.alignment) == ("imp", "evil")
    assert (ellen.character, ellen.alignment, ellen.poisoned) == ("snakecharmer", "good", True)
    assert "You are now the Snake Charmer and good." in to(said, "pm:ellen")[0]


def test_fanggu_jumps_to_the_first_outsider_it_kills():
    characters = ("chef", "mutant", "soldier", "poisoner", "fanggu", "monk", "pixie")
    _, night, _ = night_sheet(_game(*characters), night=2,
                              choices=(("Ellen", "/choose Brianna"),))
    assert night.deaths == ("Ellen",)
    assert [words(e.describe()) for e in night.effects] == [
        "Brianna: becomes the fanggu (the Fang Gu jumped)",
        "Brianna: turns evil (the Fang Gu jumped)"]


def test_vigormortis_poisons_a_townsfolk_neighbour_of_a_killed_minion():
    characters = ("chef", "empath", "soldier", "poisoner", "vigormortis", "monk", "pixie")
    _, night, _ = night_sheet(_game(*characters), night=2, choices=(("Ellen", "/choose Derek"),))
    assert night.deaths == ("Derek",)
    assert [words(e.describe()) for e in night.effects] == [
        "Derek: reminders become keeps its ability (the Vigormortis' Minion)",
        "Cameron: poisoned (the Vigormortis' Minion)"]


def test_a_minion_the_vigormortis_killed_keeps_its_ability_while_the_vigormortis_works():
    """The BotF rules, Vigormortis: "Minions you kill keep their ability" (issue 25): the dead
    Poisoner still chooses at its step; the rules do not say when that ends, and modbot's
    choice is while the Vigormortis lives and works (docs/st-night.md)."""
    characters = ("chef", "empath", "soldier", "poisoner", "vigormortis", "monk", "pixie")
    kept = "!reminder Derek keeps its ability"

    def poisoned(*changes):
        _, night, _ = night_sheet(_game(*characters, dead=("Derek",)), night=2,
                                  changes=changes, choices=(("Derek", "/choose Alex"),))
        return [e.player for e in night.effects if e.field == "poisoned" and e.until_dusk]
    assert poisoned(kept) == ["Alex"]
    assert poisoned() == []  # a dead Poisoner the Vigormortis did not kill: no ability
    assert poisoned(kept, "!poison Ellen") == []  # the Vigormortis malfunctions: it ends


def test_pithag_changes_a_character_not_in_play():
    characters = ("chef", "empath", "soldier", "pithag", "imp", "monk", "pixie")
    _, night, _ = night_sheet(_game(*characters), night=2,
                              choices=(("Derek", "/choose Alex as Noble"),))
    assert [words(e.describe()) for e in night.effects] == [
        "Alex: becomes the noble (the Pit Hag)"]
    entries, night, _ = night_sheet(_game(*characters), night=2,
                                    choices=(("Derek", "/choose Alex as Empath"),))
    assert night.effects == () and "it is in play" in entries["Derek"].suggestion


# -- abilities used in the thread ---------------------------------------------------------------

def test_juggler_guesses_in_public_and_learns_how_many_were_right():
    talk, day = day_one(_game("juggler", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    said = talk.thread("Alex", "I think:\n/guess Ellen as Imp\n/guess Derek as Witch\n"
                       "/guess Cameron as Soldier", day + H)
    assert to(said, "pm:alex") == []  # accepted silently: the guesses are public anyway
    said = talk.thread("Alex", "/guess Brianna as Nobody", day + 2 * H)
    assert "No character on this script is called \"Nobody\"" in to(said, "pm:alex")[0]
    talk.st("!endday --yes", day + 3 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    entry = next(e for e in worded(talk.state.night).sheet if e.player == "Alex")
    assert entry.suggestion == "2 of your day-1 guesses were right."


def test_klutz_choosing_a_cultist_makes_evil_win():
    talk, day = day_one(_game("klutz", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    talk.st("!kill Alex --yes", day + H)
    said = talk.thread("Alex", "/choose Brianna", day + 2 * H)
    assert not any("looks over" in s.raw for s in said)  # Brianna is good
    assert "already used" in to(talk.thread("Alex", "/choose Derek", day + 3 * H),
                                "pm:alex")[0]


def test_klutz_has_six_hours_and_a_cultist_choice_ends_the_game():
    talk, day = day_one(_game("klutz", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    talk.st("!kill Alex --yes", day + H)
    said = talk.thread("Alex", "/choose Derek", day + 8 * H)
    assert "More than 6 hours have passed" in to(said, "pm:alex")[0]
    talk, day = day_one(_game("klutz", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    talk.st("!kill Alex --yes", day + H)
    said = talk.thread("Alex", "/choose Derek", day + 2 * H)
    assert any("**evil** wins: the Klutz chose a player of the evil team" in s.raw
               for s in said)


def test_psychopath_kills_in_public_before_nominations():
    talk, day = day_one(_game("chef", "empath", "soldier", "psychopath", "imp", "monk", "pixie"))
    said = talk.thread("Derek", "/choose Alex", day + H)
    assert not talk.state.seat("Alex").alive
    assert "**Alex** has died." in to(said, "topic")[0]
    said = talk.thread("Derek", "/choose Brianna", day + 2 * H)
    assert "already used" in to(said, "pm:derek")[0]


def test_moonchild_choice_kills_a_good_player_that_night():
    talk, day = day_one(_game("moonchild", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    talk.st("!execute Alex --yes", day + H)  # night 2 begins
    talk.thread("Alex", "/choose Brianna", day + 2 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert worded(talk.state.night).deaths == ("Brianna",)


def test_damsel_guessed_by_a_minion_makes_evil_win():
    talk, day = day_one(_game("damsel", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    said = talk.thread("Brianna", "/guess Alex as Damsel", day + H)  # not a Minion
    assert "no public guess" in to(said, "pm:brianna")[0]
    said = talk.thread("Derek", "/guess Cameron as Damsel", day + H)
    assert not any("looks over" in s.raw for s in said)
    assert "already used" in to(talk.thread("Derek", "/guess Alex as Damsel", day + 2 * H),
                                "pm:derek")[0]
    talk, day = day_one(_game("damsel", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    said = talk.thread("Derek", "/guess Alex as Damsel", day + H)
    assert any("**evil** wins: a Minion guessed the Damsel" in s.raw for s in said)


def test_golem_nominating_a_non_demon_kills_them_once():
    talk, day = day_one(_game("golem", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    nominations = day + timedelta(hours=12)
    talk.tick(nominations)
    said = talk.thread("Alex", "/nominate Brianna", nominations + H)
    assert not talk.state.seat("Brianna").alive
    assert "**Brianna** has died." in to(said, "topic")[-1]


def test_golem_nominating_the_demon_kills_nobody():
    talk, day = day_one(_game("golem", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    nominations = day + timedelta(hours=12)
    talk.tick(nominations)
    talk.thread("Alex", "/nominate Ellen", nominations + H)
    assert talk.state.seat("Ellen").alive


def test_fearmonger_choice_is_announced_and_its_execution_ends_the_game():
    characters = ("chef", "empath", "soldier", "fearmonger", "imp", "monk", "pixie")
    _, _, talk = night_sheet(_game(*characters), choices=(("Derek", "/choose Alex"),))
    said = talk.dawn()
    assert "The Fearmonger has chosen a new player." in to(said, "topic")[0]
    nominations = START + timedelta(hours=36)
    talk.tick(nominations)
    talk.thread("Derek", "/nominate Alex", nominations + H)
    said = talk.st("!execute Alex --yes", nominations + 2 * H)
    assert any("**evil** wins: the Fearmonger executed the player it feared (Alex)" in s.raw
               for s in said)


def test_mezepheles_word_turns_the_first_good_speaker_evil():
    """Seed 002, Mezepheles: "The storyteller must hear/see the player use the word for the
    ability to work." (the thread's posts, outside quotes and code)"""
    characters = ("chef", "empath", "soldier", "mezepheles", "imp", "monk", "pixie")
    talk = Conversation(_game(*characters))
    talk.tick(START)
    talk.tick(START + timedelta(hours=22))
    talk.st("!result Derek Your secret word is pineapple.", START + timedelta(hours=22, minutes=5))
    talk.approve(START + timedelta(hours=23))
    talk.tick(START + timedelta(hours=24))
    day = START + timedelta(hours=24)
    talk.thread("Ellen", "I love pineapple.", day + H)  # evil: nothing happens
    talk.thread("Brianna", "> pineapple\nquoted, so it does not count", day + H)
    talk.thread("Alex", "Who brought the Pineapple pizza?", day + 2 * H)
    talk.thread("Cameron", "pineapple!", day + 3 * H)  # only the first good player
    talk.st("!endday --yes", day + 4 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    night = worded(talk.state.night)
    assert [words(e.describe()) for e in night.effects] == [
        "Alex: turns evil (the Mezepheles' word)"]
    assert ("Alex", "You are now evil.") in night.tells


def test_bonecollector_and_hostess_choose_by_day_for_the_night():
    characters = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "bonecollector")
    setup = _game(*characters, dead=("Brianna",))
    from dataclasses import replace as _replace
    seats = tuple(_replace(s, traveller=s.name == "Gus") for s in setup.seats)
    talk, day = day_one(_replace(setup, seats=seats))
    said = talk.pm("Gus", "/choose Brianna", day + H)
    assert "Night 2: accepted: you chose Brianna." in to(said, "pm:gus")[0]
    assert "night 2's lock" in to(said, "pm:gus")[0]
    talk.st("!endday --yes", day + 2 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    entry = next(e for e in worded(talk.state.night).sheet if e.player == "Gus")
    assert entry.choice == "Brianna" and entry.suggestion.startswith("ST decides: the dead")


def test_travellers_and_fabled_are_announced_when_night_1_begins():
    from dataclasses import replace as _replace
    botf = load_script("botf")
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "barista"}
    setup = botf_setup(characters, script=botf, fabled=("djinn", "revolutionary"),
                       revolutionary=("Alex", "Brianna"))
    seats = tuple(_replace(s, traveller=s.name == "Gus") for s in setup.seats)
    said = Conversation(_replace(setup, seats=seats)).tick(START)
    (night,) = to(said, "topic")
    assert "- Gus: the **Barista**: Each night, until dusk" in night
    assert "**Djinn**: Use the Djinn's special rule." in night
    assert "  - Dreamer + Pit Hag: If the Pit Hag creates a Dreamer" in night
    assert "The two neighbouring players are Alex and Brianna." in night
    assert "Clockmaker" not in night and "Witch" not in night  # only the public roles


# -- several evil teams (seed 002's Djinn) ---------------------------------------------------------

def _teams_game():
    """Team 1: Derek (Poisoner) and Ellen (Imp); team 2: Fatima (Witch) and Gus (Vortox)."""
    from dataclasses import replace as _replace
    setup = botf_setup({"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem",
                        "Derek": "poisoner", "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"},
                       script=OOPS, bluffs=("moonchild", "lunatic", "pukka"))
    teams = {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2}
    grimoire = tuple((p, _replace(e, evil_team=teams.get(p))) for p, e in setup.grimoire)
    return day_one(_replace(setup, grimoire=grimoire))


def test_an_evil_team_without_a_demon_turns_good():
    talk, day = _teams_game()
    said = talk.st("Day 1.\n!execute Ellen --yes", day + H)
    assert talk.state.grimoire_of("Derek").alignment == "good"
    assert "Your evil team has lost: you are now good." in to(said, "pm:derek")[0]
    assert not any("looks over" in s.raw for s in said)  # team 2 plays on


def test_good_wins_when_every_evil_team_has_lost():
    """Seed 002, Djinn: "The winning team is the last team eligible to win." """
    talk, day = _teams_game()
    talk.st("!kill Ellen --yes\n!kill Gus --yes", day + H)
    assert ("good", "every evil team has lost (no living Demon)") in worded(talk.state.wins_detected)


def test_only_the_vortox_team_wins_a_day_without_an_execution():
    talk, day = _teams_game()
    said = talk.st("!endday --yes", day + H)
    assert any("the Vortox's team (2) wins" in s.raw for s in said)


def test_doppelganger_twin_executed_makes_evil_win_and_blocks_good():
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "doppelganger", "Ellen": "oracle", "Fatima": "nodashii",
                  "Gus": "towncrier"}
    talk, day = day_one(botf_setup(characters))
    talk.st("!reminder Alex twin", day + H)
    said = talk.st("!execute Fatima --yes", day + 2 * H)  # the Demon dies, both twins live
    assert not any("looks over" in s.raw for s in said)
    talk, day = day_one(botf_setup(characters))
    talk.st("!reminder Alex twin", day + H)
    said = talk.st("!execute Alex --yes", day + 2 * H)
    assert any("the Doppelgänger's Loyal twin was executed" in s.raw for s in said)


def test_lleech_dies_with_its_host_and_not_otherwise():
    characters = ("chef", "empath", "soldier", "poisoner", "lleech", "monk", "savant")
    _, _, talk = night_sheet(_game(*characters), choices=(("Ellen", "/choose Alex"),))
    talk.dawn()
    talk.st("!execute Ellen --yes", START + timedelta(hours=30))
    assert talk.state.seat("Ellen").alive  # the host lives: the Lleech survives execution
    said = talk.st("!kill Alex --yes", START + timedelta(hours=31))
    assert not talk.state.seat("Ellen").alive  # the host died: so does the Lleech
    assert any("every Demon is dead" in s.raw for s in said)

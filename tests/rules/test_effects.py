"""Ability effects and win conditions, first part (issue 7): protection from the Demon,
poison that later steps see and that ends at dusk, the Imp passing the Demon on, the Pukka,
the Lleech, the Gambler, the Assassin, the No Dashii's neighbours; good and evil wins noticed
and confirmed by the Storytellers. Each test is named after the character it drives.

Asserted at the core, as codes and values (tests/notices.py): the effects the sheet proposes
as (player, field, value, cause), the answers as `Say` codes, who is told what as notices."""

from dataclasses import replace
from datetime import timedelta

from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.wording import say
from modbot.files.scripts import load_script

from ..conversation import botf_setup
from ..helpers import START
from ..notices import Told, day_one, effects, lines_to, night_sheet, of, rejected, says

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


def _wins(told: Told) -> list[tuple[str, str]]:
    """The wins the Storytellers were told of, as (winner, the reason's code)."""
    return [(winner, reason.code) for winner, reason in WINS_DETECTED.of(told.state)]


def _dawn(told: Told) -> list:
    """Approve tonight an hour before dawn, then reach dawn: the notices of both."""
    told_now = told.approve(told.state.phase_ends_at - H)
    return told_now + told.tick(told.state.phase_ends_at)


BASE = ("monk", "empath", "soldier", "poisoner", "imp", "chef", "scarletwoman")


def test_monk_protects_from_the_demon():
    entries, night, _ = night_sheet(_game(*BASE), night=2, choices=(
        ("Alex", "/choose Brianna"), ("Ellen", "/choose Brianna")))
    assert night.deaths == ()
    assert entries["Ellen"].suggestion == say(
        "info.safe", by=say("by.character", character="Monk"), player="Brianna")


def test_soldier_is_safe_unless_poisoned():
    _, night, _ = night_sheet(_game(*BASE), night=2, choices=(("Ellen", "/choose Cameron"),))
    assert night.deaths == ()
    _, night, _ = night_sheet(_game(*BASE), night=2, choices=(
        ("Derek", "/choose Cameron"), ("Ellen", "/choose Cameron")))
    assert night.deaths == ("Cameron",)  # the Poisoner woke first


def test_poisoner_spoils_later_steps_and_the_poison_ends_at_dusk():
    entries, night, told = night_sheet(_game(*BASE), night=2, choices=(
        ("Derek", "/choose Brianna"),))
    assert entries["Brianna"].suggestion.code == "sheet.malfunctioning"
    assert effects(night) == [("Brianna", "poisoned", True, "by.poisoner")]
    assert [e.until_dusk for e in night.effects] == [True]
    _dawn(told)
    assert told.state.grimoire_of("Brianna").poisoned  # tomorrow day too
    told.st("!endday --yes", told.state.phase_ends_at - H)
    assert told.state.phase_label == "night 3"
    assert not told.state.grimoire_of("Brianna").poisoned


def test_imp_passes_the_demon_to_the_scarlet_woman():
    _entries, night, told = night_sheet(_game(*BASE), night=2, choices=(
        ("Ellen", "/choose Ellen"),))
    assert night.deaths == ("Ellen",)
    assert effects(night) == [("Gus", "character", "imp", "by.star_pass")]
    said = _dawn(told)
    assert told.state.grimoire_of("Gus").character == "imp"
    assert say("tell.now_the_imp") in lines_to(said, "Gus")
    assert of(said, "win_detected") == [] and _wins(told) == []  # a Demon lives: no win


def test_effect_off_drops_an_effect_before_dawn():
    characters = (*BASE[:-1], "witch")  # no Scarlet Woman: the Minion is the Witch
    _, _night, told = night_sheet(_game(*characters), night=2,
                                  choices=(("Ellen", "/choose Ellen"),))
    told.st("!effect 2 off", told.state.phase_ends_at - H)
    ((_line, why),) = told.command.failed
    ((code, params),) = [(w.code, dict(w.params)) for w in why]
    assert (code, params) == ("rejection.no_such_effect", {"number": "2", "count": 1})
    told.st("!effect 1 off", told.state.phase_ends_at - H)
    said = _dawn(told)
    assert told.state.grimoire_of("Gus").character == "witch"
    assert _wins(told) == [("good", "win.demons_dead")] and of(said, "win_detected")


def test_scarletwoman_becomes_the_demon_when_it_is_executed():
    told, _ = day_one(_game(*BASE))
    said = told.st("!execute Ellen --yes", START + timedelta(hours=30))
    assert told.state.grimoire_of("Gus").character == "imp"
    assert say("tell.scarlet_woman", character="Imp") in lines_to(said, "Gus")
    assert _wins(told) == []
    public = [n for n in said if n.to == "thread"]
    assert all("Gus" not in str(n.view) for n in public)  # nothing of it reaches the thread


def test_witch_curse_kills_a_cursed_nominator_and_the_nomination_counts():
    characters = ("chef", "empath", "soldier", "witch", "imp", "monk", "pixie")
    _entries, night, told = night_sheet(_game(*characters), night=2,
                                        choices=(("Derek", "/choose Alex"),))
    assert effects(night) == [("Alex", "cursed_day", 2, "by.witch")]
    _dawn(told)
    nominations = told.state.phase_ends_at
    told.tick(nominations)
    said = told.thread("Alex", "/nominate Brianna", nominations + H)
    assert not told.state.seat("Alex").alive
    assert told.state.today.nomination_of("Brianna") is not None
    (public,) = [n for n in of(said, "public_life") if n.view["player"] == "Alex"][:1]
    assert public.view == {"player": "Alex", "alive": False}  # no word of the Witch
    told.thread("Brianna", "/nominate Cameron", nominations + 2 * H)
    assert told.state.seat("Brianna").alive  # not cursed


def test_nodashii_poisons_its_townsfolk_neighbours():
    # The No Dashii (Ellen) sits between the Poisoner and the Monk: its closest Townsfolk are
    # the Soldier (Cameron, past the Poisoner) and the Monk (Fatima). The almanac: "the
    # Soldier's protection also prevents all other harmful effects of the Demon's ability, such
    # as poisoning" (issue 25): the Soldier stays sober, so the kill on it fails.
    characters = ("chef", "empath", "soldier", "poisoner", "nodashii", "monk", "pixie")
    _, night, _ = night_sheet(_game(*characters))
    assert night.result_of("Brianna") == say("result.empath", value="0")
    entries, night, _ = night_sheet(_game(*characters), night=2, choices=(
        ("Fatima", "/choose Cameron"), ("Ellen", "/choose Cameron")))
    assert night.deaths == ()  # the Monk is poisoned, but the Soldier is safe from the Demon
    assert say("status.malfunctioning", term="drunk or poisoned") in entries["Fatima"].status


def test_pukka_poisons_then_kills_the_previous_victim():
    characters = ("chef", "empath", "soldier", "poisoner", "pukka", "monk", "savant")
    told = Told(_game(*characters))
    told.tick(START)
    told.pm("Ellen", "/choose Alex", START + H)
    told.tick(START + timedelta(hours=22))
    assert told.state.night.deaths == ()
    assert effects(told.state.night) == [("Alex", "poisoned", True, "by.pukka")]
    told.approve(START + timedelta(hours=23))
    told.tick(START + timedelta(hours=24))
    assert told.state.grimoire_of("Alex").poisoned
    told.st("!endday --yes", START + timedelta(hours=30))
    told.pm("Ellen", "/choose Brianna", START + timedelta(hours=31))
    told.tick(told.state.phase_ends_at - 2 * H)
    assert told.state.night.deaths == ("Alex",)


def test_lleech_poisons_its_host_on_the_first_night():
    characters = ("chef", "empath", "soldier", "poisoner", "lleech", "monk", "savant")
    _, night, _ = night_sheet(_game(*characters), choices=(("Ellen", "/choose Alex"),))
    assert effects(night) == [("Alex", "poisoned", True, "by.lleech")]


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
    told, _ = day_one(_game(*BASE[:-1], "witch"))
    said = told.st("!execute Ellen --yes", START + timedelta(hours=30))
    (note,) = of(said, "win_detected")
    assert _wins(told) == [("good", "win.demons_dead")] and note.to == "storytellers"
    assert of(said, "game_over") == []  # nothing public until a Storyteller confirms
    said = told.st("!win good every Demon is dead --yes", START + timedelta(hours=31))
    (over,) = of(said, "game_over")
    assert (over.to, over.view["winner"]) == ("thread", "good")


def test_evil_wins_when_two_players_live():
    told = Told(_game(*BASE))
    told.tick(START)
    told.st("!kill Alex --yes\n!kill Brianna --yes\n!kill Cameron --yes\n"
            "!kill Fatima --yes", START + H)
    assert _wins(told) == []  # Derek, Ellen and Gus live
    told.st("!kill Gus --yes", START + 2 * H)
    assert _wins(told) == [("evil", "win.two_alive")]


def test_vortox_wins_a_day_without_an_execution():
    characters = ("chef", "empath", "soldier", "poisoner", "vortox", "monk", "pixie")
    told, _ = day_one(_game(*characters))
    told.st("!endday --yes", START + timedelta(hours=30))
    assert _wins(told) == [("evil", "win.vortox")]


def test_a_tie_goes_to_good():
    told = Told(_game(*BASE))
    told.tick(START)
    said = told.st("!kill Alex --yes\n!kill Brianna --yes\n!kill Cameron --yes\n"
                   "!kill Fatima --yes\n!kill Gus --yes\n!kill Ellen --yes", START + H)
    assert len(of(said, "win_detected")) == 1 and _wins(told)[0][0] == "good"


def test_snakecharmer_swaps_with_the_demon():
    characters = ("snakecharmer", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, night, told = night_sheet(_game(*characters), choices=(("Alex", "/choose Ellen"),))
    assert night.result_of("Alex") == say("result.snake_charmer", alignment="evil",
                                          character="Imp")
    told.approve(START + timedelta(hours=23))
    said = told.tick(START + timedelta(hours=24))
    alex, ellen = told.state.grimoire_of("Alex"), told.state.grimoire_of("Ellen")
    assert (alex.character, alex.alignment) == ("imp", "evil")
    assert (ellen.character, ellen.alignment, ellen.poisoned) == ("snakecharmer", "good", True)
    assert say("tell.now_the_and", alignment="good", character="Snake Charmer") in \
        lines_to(said, "Ellen")


def test_fanggu_jumps_to_the_first_outsider_it_kills():
    characters = ("chef", "mutant", "soldier", "poisoner", "fanggu", "monk", "pixie")
    _, night, _ = night_sheet(_game(*characters), night=2,
                              choices=(("Ellen", "/choose Brianna"),))
    assert night.deaths == ("Ellen",)
    assert effects(night) == [("Brianna", "character", "fanggu", "by.fang_gu"),
                              ("Brianna", "alignment", "evil", "by.fang_gu")]


def test_vigormortis_poisons_a_townsfolk_neighbour_of_a_killed_minion():
    characters = ("chef", "empath", "librarian", "poisoner", "vigormortis", "monk", "pixie")
    _, night, _ = night_sheet(_game(*characters), night=2, choices=(("Ellen", "/choose Derek"),))
    assert night.deaths == ("Derek",)
    assert effects(night) == [("Derek", "reminders", ("keeps its ability",), "by.vigormortis"),
                              ("Cameron", "poisoned", True, "by.vigormortis")]


def test_seed_000_the_soldier_is_safe_from_the_demons_poison_too():
    """Seed 000 (Soldier): "protected from all other harmful effects of the Demon's ability,
    such as poisoning": the Vigormortis' poison does not land on a working Soldier (the sheet
    says who stopped it), and a drunk Soldier is poisoned like anyone."""
    characters = ("chef", "empath", "soldier", "poisoner", "vigormortis", "monk", "pixie")
    entries, night, _ = night_sheet(_game(*characters), night=2, choices=(("Ellen", "/choose Derek"),))
    assert effects(night) == [("Derek", "reminders", ("keeps its ability",), "by.vigormortis")]
    assert says(entries["Ellen"].suggestion, "sheet.protected", player="Cameron")
    drunk = _game(*characters)
    drunk = replace(drunk, grimoire=tuple((p, replace(g, drunk=True) if p == "Cameron" else g)
                                          for p, g in drunk.grimoire))
    _, night, _ = night_sheet(drunk, night=2, choices=(("Ellen", "/choose Derek"),))
    assert ("Cameron", "poisoned", True, "by.vigormortis") in effects(night)


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
    assert effects(night) == [("Alex", "character", "noble", "by.pit_hag")]
    entries, night, _ = night_sheet(_game(*characters), night=2,
                                    choices=(("Derek", "/choose Alex as Empath"),))
    assert night.effects == ()
    assert entries["Derek"].suggestion == say("info.pit_hag_in_play", character="Empath",
                                              player="Alex")


# -- abilities used in the thread ---------------------------------------------------------------

def test_juggler_guesses_in_public_and_learns_how_many_were_right():
    told, day = day_one(_game("juggler", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    said = told.thread("Alex", "I think:\n/guess Ellen as Imp\n/guess Derek as Witch\n"
                       "/guess Cameron as Soldier", day + H)
    assert rejected(told) == [] and [n for n in said if n.player == "Alex"] == []  # silently
    told.thread("Alex", "/guess Brianna as Nobody", day + 2 * H)
    assert rejected(told) == ["unknown_character_public"]
    told.st("!endday --yes", day + 3 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    assert told.state.night.result_of("Alex") == say("result.juggler", value="2")


def test_klutz_choosing_a_cultist_makes_evil_win():
    told, day = day_one(_game("klutz", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    told.st("!kill Alex --yes", day + H)
    told.thread("Alex", "/choose Brianna", day + 2 * H)
    assert _wins(told) == []  # Brianna is good
    told.thread("Alex", "/choose Derek", day + 3 * H)
    assert rejected(told) == ["public_used"]


def test_klutz_has_six_hours_and_a_cultist_choice_ends_the_game():
    told, day = day_one(_game("klutz", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    told.st("!kill Alex --yes", day + H)
    told.thread("Alex", "/choose Derek", day + 8 * H)
    assert rejected(told) == ["klutz_late"] and told.rejected[0].params == {"hours": 6}
    told, day = day_one(_game("klutz", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    told.st("!kill Alex --yes", day + H)
    told.thread("Alex", "/choose Derek", day + 2 * H)
    assert WINS_DETECTED.of(told.state) == (("evil", say("win.klutz", team="evil")),)


def test_psychopath_kills_in_public_before_nominations():
    told, day = day_one(_game("chef", "empath", "soldier", "psychopath", "imp", "monk", "pixie"))
    said = told.thread("Derek", "/choose Alex", day + H)
    assert not told.state.seat("Alex").alive
    assert {"player": "Alex", "alive": False} in [n.view for n in of(said, "public_life")]
    told.thread("Derek", "/choose Brianna", day + 2 * H)
    assert rejected(told) == ["public_used"]


def test_moonchild_choice_kills_a_good_player_that_night():
    told, day = day_one(_game("moonchild", "empath", "soldier", "poisoner", "imp", "monk",
                              "pixie"))
    told.st("!execute Alex --yes", day + H)  # night 2 begins
    told.thread("Alex", "/choose Brianna", day + 2 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    assert told.state.night.deaths == ("Brianna",)


def test_damsel_guessed_by_a_minion_makes_evil_win():
    told, day = day_one(_game("damsel", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    told.thread("Brianna", "/guess Alex as Damsel", day + H)  # not a Minion
    assert rejected(told) == ["no_public_ability"]
    told.thread("Derek", "/guess Cameron as Damsel", day + H)
    assert _wins(told) == []
    told.thread("Derek", "/guess Alex as Damsel", day + 2 * H)
    assert rejected(told) == ["public_used"]
    told, day = day_one(_game("damsel", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    told.thread("Derek", "/guess Alex as Damsel", day + H)
    assert _wins(told) == [("evil", "win.damsel")]


def test_seed_000_a_dead_damsel_is_no_longer_at_risk_of_a_minions_guess():
    """Seed 000 (Damsel): "If the Damsel dies, they are no longer at risk of being guessed by
    a Minion." The guess is spent, as a wrong one is."""
    told, day = day_one(_game("damsel", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    told.st("!kill Alex --yes", day + H)
    told.thread("Derek", "/guess Alex as Damsel", day + 2 * H)
    assert _wins(told) == [] and told.state.winner is None
    told.thread("Derek", "/guess Alex as Damsel", day + 3 * H)
    assert rejected(told) == ["public_used"]


def test_golem_nominating_a_non_demon_kills_them_once():
    told, day = day_one(_game("golem", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    nominations = day + timedelta(hours=12)
    told.tick(nominations)
    said = told.thread("Alex", "/nominate Brianna", nominations + H)
    assert not told.state.seat("Brianna").alive
    assert {"player": "Brianna", "alive": False} in [n.view for n in of(said, "public_life")]


def test_golem_nominating_the_demon_kills_nobody():
    told, day = day_one(_game("golem", "empath", "soldier", "poisoner", "imp", "monk", "pixie"))
    nominations = day + timedelta(hours=12)
    told.tick(nominations)
    told.thread("Alex", "/nominate Ellen", nominations + H)
    assert told.state.seat("Ellen").alive


def test_fearmonger_choice_is_announced_and_its_execution_ends_the_game():
    characters = ("chef", "empath", "soldier", "fearmonger", "imp", "monk", "pixie")
    _, _, told = night_sheet(_game(*characters), choices=(("Derek", "/choose Alex"),))
    said = _dawn(told)
    (fear,) = of(said, "fear_announced")
    assert fear.to == "thread" and fear.view == {}  # the thread learns a choice, not whose
    nominations = START + timedelta(hours=36)
    told.tick(nominations)
    told.thread("Derek", "/nominate Alex", nominations + H)
    told.st("!execute Alex --yes", nominations + 2 * H)
    assert WINS_DETECTED.of(told.state) == (("evil", say("win.fearmonger", player="Alex")),)


def test_mezepheles_word_turns_the_first_good_speaker_evil():
    """Seed 002, Mezepheles: "The storyteller must hear/see the player use the word for the
    ability to work." (the thread's posts, outside quotes and code)"""
    characters = ("chef", "empath", "soldier", "mezepheles", "imp", "monk", "pixie")
    told = Told(_game(*characters))
    told.tick(START)
    told.tick(START + timedelta(hours=22))
    told.st("!result Derek Your secret word is pineapple.", START + timedelta(hours=22, minutes=5))
    told.approve(START + timedelta(hours=23))
    told.tick(START + timedelta(hours=24))
    day = START + timedelta(hours=24)
    told.thread("Ellen", "I love pineapple.", day + H)  # evil: nothing happens
    told.thread("Brianna", "> pineapple\nquoted, so it does not count", day + H)
    told.thread("Alex", "Who brought the Pineapple pizza?", day + 2 * H)
    told.thread("Cameron", "pineapple!", day + 3 * H)  # only the first good player
    told.st("!endday --yes", day + 4 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    night = told.state.night
    assert effects(night) == [("Alex", "alignment", "evil", "by.mezepheles")]
    assert ("Alex", say("tell.now_alignment", alignment="evil")) in night.tells


def test_bonecollector_and_hostess_choose_by_day_for_the_night():
    characters = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "bonecollector")
    setup = _game(*characters, dead=("Brianna",))
    seats = tuple(replace(s, traveller=s.name == "Gus") for s in setup.seats)
    told, day = day_one(replace(setup, seats=seats))
    (accepted,) = of(told.pm("Gus", "/choose Brianna", day + H), "night_choice")
    assert (accepted.player, accepted.view["night"]) == ("Gus", 2)
    assert accepted.view["choice"] == say("choice.players", players=("Brianna",))
    told.st("!endday --yes", day + 2 * H)
    told.tick(told.state.phase_ends_at - 2 * H)
    entry = next(e for e in told.state.night.sheet if e.player == "Gus")
    assert entry.choice == say("choice.players", players=("Brianna",))
    assert entry.suggestion.code == "sheet.st_decides"


def test_travellers_and_fabled_are_announced_when_night_1_begins():
    botf = load_script("botf")
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii", "Gus": "barista"}
    setup = botf_setup(characters, script=botf, fabled=("djinn", "revolutionary"),
                       revolutionary=("Alex", "Brianna"))
    seats = tuple(replace(s, traveller=s.name == "Gus") for s in setup.seats)
    (night,) = of(Told(replace(setup, seats=seats)).tick(START), "phase_night")
    roles = night.view["roles"]
    assert [(t["player"], t["character"]) for t in roles["travellers"]] == [("Gus", "Barista")]
    djinn, revolutionary = roles["fabled"]
    assert djinn["name"] == "Djinn" and [n.param("first") for n in djinn["notes"]] == [
        "Dreamer", "Seamstress"]
    assert revolutionary["notes"] == [say("public.revolutionary", players=("Alex", "Brianna"))]
    assert "Clockmaker" not in str(roles) and "Witch" not in str(roles)  # public roles only


# -- several evil teams (seed 002's Djinn) ---------------------------------------------------------

def _teams_game():
    """Team 1: Derek (Poisoner) and Ellen (Imp); team 2: Fatima (Witch) and Gus (Vortox)."""
    setup = botf_setup({"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem",
                        "Derek": "poisoner", "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"},
                       script=OOPS, bluffs=("moonchild", "lunatic", "pukka"))
    teams = {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2}
    grimoire = tuple((p, replace(e, evil_team=teams.get(p))) for p, e in setup.grimoire)
    return day_one(replace(setup, grimoire=grimoire))


def test_an_evil_team_without_a_demon_turns_good():
    told, day = _teams_game()
    said = told.st("Day 1.\n!execute Ellen --yes", day + H)
    assert told.state.grimoire_of("Derek").alignment == "good"
    assert "Derek" in [n.player for n in of(said, "night_results")]  # told: now good
    assert _wins(told) == []  # team 2 plays on


def test_good_wins_when_every_evil_team_has_lost():
    """Seed 002, Djinn: "The winning team is the last team eligible to win." """
    told, day = _teams_game()
    told.st("!kill Ellen --yes\n!kill Gus --yes", day + H)
    assert _wins(told) == [("good", "win.teams_lost")]


def test_only_the_vortox_team_wins_a_day_without_an_execution():
    told, day = _teams_game()
    told.st("!endday --yes", day + H)
    assert WINS_DETECTED.of(told.state) == (("evil", say("win.vortox_team", team=2)),)


def test_doppelganger_twin_executed_makes_evil_win_and_blocks_good():
    characters = {"Alex": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                  "Derek": "doppelganger", "Ellen": "oracle", "Fatima": "nodashii",
                  "Gus": "towncrier"}
    told, day = day_one(botf_setup(characters))
    told.st("!reminder Alex twin", day + H)
    told.st("!execute Fatima --yes", day + 2 * H)  # the Demon dies, both twins live
    assert _wins(told) == []
    told, day = day_one(botf_setup(characters))
    told.st("!reminder Alex twin", day + H)
    told.st("!execute Alex --yes", day + 2 * H)
    assert _wins(told) == [("evil", "win.twin_executed")]


def test_lleech_dies_with_its_host_and_not_otherwise():
    characters = ("chef", "empath", "soldier", "poisoner", "lleech", "monk", "savant")
    _, _, told = night_sheet(_game(*characters), choices=(("Ellen", "/choose Alex"),))
    _dawn(told)
    told.st("!execute Ellen --yes", START + timedelta(hours=30))
    assert told.state.seat("Ellen").alive  # the host lives: the Lleech survives execution
    told.st("!kill Alex --yes", START + timedelta(hours=31))
    assert not told.state.seat("Ellen").alive  # the host died: so does the Lleech
    assert _wins(told) == [("good", "win.demons_dead")]


def test_the_monks_choice_is_not_poisoned_by_the_demon_from_the_monks_step():
    """Seed 000, Monk: "the Monk's protection also prevents all other harmful effects of the
    Demon's ability, such as poisoning" (issue 25): from the Monk's step to dawn, the Pukka's
    poison on the Monk's choice fails, and a No Dashii's neighbour the Monk protects learns
    sober information (modbot's window, docs/st-night.md)."""
    pukka = ("monk", "empath", "soldier", "poisoner", "pukka", "chef", "savant")
    _, night, _ = night_sheet(_game(*pukka), night=2, choices=(
        ("Alex", "/choose Brianna"), ("Ellen", "/choose Brianna")))
    assert [e for e in effects(night) if e[0] == "Brianna"] == []
    entries, night, _ = night_sheet(_game(*pukka), night=2, choices=(("Ellen", "/choose Brianna"),))
    assert ("Brianna", "poisoned", True, "by.pukka") in effects(night)  # unprotected: poisoned
    _, night, _ = night_sheet(_game(*pukka), night=2, choices=(
        ("Alex", "/choose Brianna"), ("Derek", "/choose Brianna")))
    assert ("Brianna", "poisoned", True, "by.poisoner") in effects(night)  # a Minion's: not the Demon's
    # Fatima (the Empath) sits beside the No Dashii (Gus): its poison, but not under the Monk
    # (Brianna, away from the No Dashii: its other neighbour is Alex, the Chef)
    dashii = ("chef", "monk", "soldier", "poisoner", "imp", "empath", "nodashii")
    entries, _, _ = night_sheet(_game(*dashii), night=2)
    assert entries["Fatima"].suggestion.code == "sheet.malfunctioning"
    entries, night, _ = night_sheet(_game(*dashii), night=2,
                                    choices=(("Brianna", "/choose Fatima"),))
    assert entries["Fatima"].suggestion.code == "result.empath"
    assert night.result_of("Fatima") is not None

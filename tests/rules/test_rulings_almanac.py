"""Seed 000's rulings ("How to Run", "Examples & Notes"), each quoted and checked (issue 7).
Continues tests/rules/test_rulings.py; the Lil' Monsta rulings are in test_others_choose.py, the
Pixie's and the Mutant's in test_madness.py."""

from dataclasses import replace
from datetime import timedelta

from modbot.core.characters.wins import WINS_DETECTED
from modbot.core.setup.composition import problems
from modbot.core.state.grimoire import is_malfunctioning, players_of_team

from ..conversation import ALL, SEATS, seven
from ..helpers import START
from ..notices import (
    Told,
    day_one,
    effects,
    for_player,
    for_storytellers,
    night_sheet,
    public,
    rejected,
    says,
)
from ..notices import (
    roles as dealt_roles,
)

H = timedelta(hours=1)


game = seven


def test_seed_000_chef_counts_pairs_of_neighbouring_evil_players():
    """Seed 000, Chef: "Show the Chef fingers (0, 1, 2, etc.) equaling the number of pairs of
    neighboring evil players." (the circle wraps: the last seat neighbours the first)"""
    setup = game("poisoner", "chef", "soldier", "monk", "empath", "witch", "imp")
    entries, _, _ = night_sheet(setup)
    assert says(entries["Brianna"].suggestion, "result.chef", value="2")  # Fatima-Gus, Gus-Alex


def test_seed_000_librarian_points_to_the_outsider_and_one_other_player():
    """Seed 000, Librarian: "During the first night, wake the Librarian and point to the players
    marked OUTSIDER and WRONG. Show the character token marked OUTSIDER to the Librarian." """
    setup = game("librarian", "empath", "mutant", "poisoner", "imp", "monk", "chef")
    entries, night, _ = night_sheet(setup)
    assert night.result_of("Alex").code == "result.one_of"
    assert says(night.result_of("Alex"), "result.one_of", first="Brianna", second="Cameron",
                character="Mutant")
    assert says(entries["Alex"].suggestion, "info.show_one_of", player="Cameron",
                character="Mutant")


def test_seed_000_snake_charmer_choosing_a_non_demon_does_nothing():
    """Seed 000, Snake Charmer: "Each night, wake the Snake Charmer. They point at any player."
    and "If that player is not the Demon, nothing happens." """
    setup = game("snakecharmer", "empath", "soldier", "poisoner", "imp", "monk", "chef")
    entries, night, _ = night_sheet(setup, choices=(("Alex", "/choose Derek"),))
    assert says(entries["Alex"].suggestion, "info.not_the_demon", player="Derek")
    assert night.effects == ()


def test_seed_000_snake_charmer_evil_swaps_alignments_as_appropriate():
    """Seed 000, Snake Charmer: "In the strange situation that the Snake Charmer is evil, or the
    Demon good, swap their alignments as appropriate." """
    setup = game("snakecharmer", "empath", "soldier", "poisoner", "imp", "monk", "chef")
    setup = replace(setup, grimoire=tuple(
        (p, replace(e, alignment="evil") if p == "Alex" else e) for p, e in setup.grimoire))
    _, _, talk = night_sheet(setup, choices=(("Alex", "/choose Ellen"),))
    talk.dawn()
    alex, ellen = talk.state.grimoire_of("Alex"), talk.state.grimoire_of("Ellen")
    assert (alex.character, alex.alignment) == ("imp", "evil")
    assert (ellen.character, ellen.alignment) == ("snakecharmer", "evil")


def test_seed_000_monk_wakes_from_night_2_and_never_chooses_itself():
    """Seed 000, Monk: "Each night except the first, wake the Monk. The Monk points at any
    player except themself." """
    talk = Told(game("chef", "empath", "soldier", "poisoner", "imp", "monk", "savant"))
    talk.tick(START)
    talk.pm("Fatima", "/choose Alex", START + H)
    assert rejected(talk) == ["no_choice_tonight"]
    talk, day = day_one(game("chef", "empath", "soldier", "poisoner", "imp", "monk", "savant"))
    talk.st("!endday --yes", day + 13 * H)
    talk.pm("Fatima", "/choose Fatima", day + 14 * H)
    assert rejected(talk) == ["choice_self"]


def test_seed_000_monk_safe_reminder_is_removed_at_dawn():
    """Seed 000, Monk: "At dawn, remove the SAFE reminder token." (the protection is for that
    night only: the Demon's kill the night after succeeds)"""
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "savant")
    _, _night, talk = night_sheet(setup, night=2, choices=(("Fatima", "/choose Alex"),))
    talk.dawn()
    talk.st("!endday --yes", talk.state.phase_ends_at - H)
    talk.pm("Ellen", "/choose Alex", talk.state.phase_ends_at - 20 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert talk.state.night.deaths == ("Alex",)


def test_seed_000_soldier_survives_the_demon_and_no_one_died_is_declared():
    """Seed 000, Soldier: "if the Demon attacks the Soldier, the Soldier remains alive. (At
    dawn, declare that no one died at night.)" """
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "savant")
    _, night, talk = night_sheet(setup, night=2, choices=(("Ellen", "/choose Cameron"),))
    assert night.deaths == ()
    (post,) = public(talk.dawn())
    assert post.template == "phase_discussion" and post.view["deaths"] == ()


def test_seed_000_town_crier_learns_if_a_minion_nominated_today():
    """Seed 000, Town Crier: "Each dawn, mark the Town Crier with the MINIONS NOT NOMINATED
    reminder, and remove the MINION NOMINATED reminder, if any." "Each day, if any Minion makes
    a nomination, replace the MINIONS NOT NOMINATED reminder with the MINION NOMINATED reminder.
    Each night except the first, wake the Town Crier ... nod your head yes." (asking the
    Minions, "If you forget whether a Minion made a nomination", is never needed: the bot
    read every nomination)"""
    def minion_nominates(talk, at):
        talk.thread("Derek", "/nominate Alex", at)
        return at + H
    setup = game("towncrier", "empath", "soldier", "poisoner", "imp", "monk", "savant")
    entries, _, _ = night_sheet(setup, night=2, day=minion_nominates)
    assert says(entries["Alex"].suggestion, "result.towncrier", value="yes")
    entries, _, _ = night_sheet(setup, night=2)
    assert says(entries["Alex"].suggestion, "result.towncrier", value="no")


def test_seed_000_undertaker_learns_the_executed_character_only():
    """Seed 000, Undertaker: "If a player dies by execution, put the Undertaker's DIED TODAY
    reminder token by the dead player's character token." and "Each night except the first,
    if any player died by execution today, wake the Undertaker. Show the character token
    marked DIED TODAY." """
    def execute(talk, at):
        talk.st("!execute Gus --yes", at)
        return at + H
    setup = game("undertaker", "empath", "soldier", "poisoner", "imp", "monk", "savant")
    entries, _, _ = night_sheet(setup, night=2, day=execute)
    assert says(entries["Alex"].suggestion, "result.undertaker", player="Gus", value="Savant")
    entries, _, _ = night_sheet(setup, night=2)
    assert entries["Alex"].suggestion.code == "info.undertaker_none"


def test_seed_000_huntsman_chooses_once_and_turns_the_damsel_into_a_townsfolk():
    """Seed 000, Huntsman: "If they point to a player ... The Huntsman loses their ability ...
    If they chose the Damsel, wake the Damsel, show them the YOU ARE token and a not-in-play
    Townsfolk character token." """
    setup = game("huntsman", "empath", "damsel", "poisoner", "imp", "monk", "savant")
    _entries, night, talk = night_sheet(setup, choices=(("Alex", "/choose Cameron"),))
    (change,) = night.effects
    assert (change.player, change.field) == ("Cameron", "character")
    assert ALL.get(change.value).team == "townsfolk" and change.value not in (
        "huntsman", "empath", "monk", "savant")
    talk.dawn()
    talk.st("!endday --yes", talk.state.phase_ends_at - H)
    talk.pm("Alex", "/choose Brianna", talk.state.phase_ends_at - 20 * H)
    (refused,) = talk.rejected
    assert refused.code == "once_used" and refused.params == {"night": 1}


def test_seed_000_damsel_minions_learn_it_is_in_play():
    """Seed 000, Damsel: "During the first night, wake each Minion. Show the Damsel token." """
    setup = game("chef", "empath", "damsel", "poisoner", "imp", "monk", "witch")
    _, night, _ = night_sheet(setup)
    assert sorted(p for p, tell in night.tells if says(tell, "tell.damsel")) == ["Derek", "Gus"]


def test_seed_000_damsel_one_wrong_guess_spends_it_for_every_minion():
    """Seed 000, Damsel: "if a Minion publicly guesses which player is the Damsel and is
    incorrect, mark the Damsel with the GUESS USED reminder. Future guesses by Minion players
    have no effect." """
    talk, day = day_one(game("chef", "empath", "damsel", "poisoner", "imp", "monk", "witch"))
    talk.thread("Derek", "/guess Alex as Damsel", day + H)
    said = talk.thread("Gus", "/guess Cameron as Damsel", day + 2 * H)
    assert rejected(talk) == ["public_used"]
    assert not for_storytellers(said, "win_detected") and WINS_DETECTED.of(talk.state) == ()


def test_seed_000_damsel_correct_guess_ends_the_game_for_evil():
    """Seed 000, Damsel: "if a Minion publicly guesses which player is the Damsel and is
    correct, the game ends. Declare that the evil team wins." """
    talk, day = day_one(game("chef", "empath", "damsel", "poisoner", "imp", "monk", "witch"))
    talk.thread("Gus", "/guess Cameron as Damsel", day + H)
    ((team, why),) = WINS_DETECTED.of(talk.state)
    assert team == "evil" and why.code == "win.damsel"
    said = talk.st("!win evil a Minion guessed the Damsel --yes", day + 2 * H)
    assert [n.view["team"] for n in public(said) if n.template == "game_over"] == ["evil"]


def test_seed_000_drunk_acts_as_its_townsfolk_and_may_be_told_anything():
    """Seed 000, Drunk: "act as if the Drunk is actually this Townsfolk character. (If that
    character would wake to act at night, the Drunk wakes to act. If their ability would give
    them information, you can give false information.)" """
    setup = game("drunk", "empath", "soldier", "poisoner", "imp", "monk", "savant",
                 thinks={"Alex": "chef"})
    entries, _, _ = night_sheet(setup)
    assert entries["Alex"].character == "Chef"
    assert says(entries["Alex"].suggestion, "sheet.malfunctioning", term="drunk or poisoned")
    assert says(entries["Alex"].status, "status.is_really", character="Drunk")


def test_seed_000_mutant_may_be_executed_and_the_night_begins():
    """Seed 000, Mutant: "you can decide to execute the Mutant. Declare this to the group. ...
    If you execute them during the day before the normal execution happens, go to the night
    phase." """
    talk, day = day_one(game("chef", "empath", "mutant", "poisoner", "imp", "monk", "savant"))
    said = talk.st("!execute Cameron --yes", day + 2 * H)
    assert not talk.state.seat("Cameron").alive
    assert talk.state.phase.name == "NIGHT"
    assert [n.template for n in public(said)] == ["day_end"]  # declared to all: the day's end
    (notice,) = for_player(said, "Cameron", "death_notice")
    assert notice.view["cause"] == "execution"


def test_seed_000_lunatic_is_shown_demon_info_and_the_demon_learns_of_it():
    """Seed 000, Lunatic: "During the first night, wake the Lunatic and act as if they are the
    Demon ... wake the Demon ... Show them the THIS PLAYER IS info token, then the Lunatic
    token, then point at the Lunatic." """
    setup = game("lunatic", "empath", "soldier", "poisoner", "imp", "monk", "savant",
                 thinks={"Alex": "imp"})
    entries, night, _ = night_sheet(setup)
    assert says(entries["Alex"].suggestion, "sheet.lunatic_demon_info")
    assert any(p == "Ellen" and says(t, "tell.lunatic", player="Alex") for p, t in night.tells)


def test_seed_000_lunatic_choice_is_shown_to_the_demon_and_kills_nobody():
    """Seed 000, Lunatic: "Each night, before the Demon wakes to attack, wake the Lunatic to act
    as if they were that Demon. Put a CHOSEN reminder on each player they chose ... Wake the
    real Demon, point at the Lunatic, show the Lunatic's choices." """
    setup = game("lunatic", "empath", "soldier", "poisoner", "imp", "monk", "savant",
                 thinks={"Alex": "imp"})
    _, night, _ = night_sheet(setup, night=2, choices=(("Alex", "/choose Brianna"),))
    assert night.deaths == ()
    assert any(p == "Ellen" and says(t, "tell.lunatic_chose", lunatic="Alex", player="Brianna")
               for p, t in night.tells)


def test_seed_000_widow_poisons_its_choice_and_a_good_player_learns_it():
    """Seed 000, Widow: "While preparing the first night, mark a good player with the KNOW
    reminder." "The Widow points to a character token in the Grimoire. Mark them with a
    POISONED reminder. ... Wake the player marked KNOW. Show them the Widow character
    token." """
    setup = game("chef", "empath", "soldier", "widow", "imp", "monk", "savant")
    _, night, _ = night_sheet(setup, choices=(("Derek", "/choose Brianna"),))
    assert ("Brianna", "poisoned", True, "by.widow") in effects(night)
    (knows,) = [p for p, tell in night.tells if says(tell, "tell.widow")]
    assert knows not in players_of_team(night_sheet(setup)[2].state, "minion")


def test_the_almanac_widows_poison_ends_when_she_dies_by_day_too():
    """The almanac, Widow: "On your 1st night, look at the Grimoire and choose a player: they
    are poisoned until the Widow dies" (issue 25): her target is sober from her death on."""
    setup = game("chef", "empath", "soldier", "widow", "imp", "monk", "savant")
    _, _, talk = night_sheet(setup, choices=(("Derek", "/choose Brianna"),))
    talk.dawn()
    assert talk.state.grimoire_of("Brianna").poisoned
    talk.st("!kill Derek --yes", talk.state.phase_ends_at - 6 * H)  # by day
    assert not talk.state.seat("Derek").alive and not talk.state.grimoire_of("Brianna").poisoned
    assert not is_malfunctioning(talk.state, "Brianna")


def test_seed_000_witch_curse_kills_the_nominator_and_nominations_continue():
    """Seed 000, Witch: "Each night, wake the Witch. They point at any player. Put the Witch to
    sleep. Mark the chosen player with the CURSED reminder." and "The next day, if the player
    marked CURSED makes a nomination, immediately declare that they die. (Nominations continue
    as normal.)" """
    setup = game("chef", "empath", "soldier", "witch", "imp", "monk", "savant")
    _, _, talk = night_sheet(setup, choices=(("Derek", "/choose Alex"),))
    talk.dawn()
    day = talk.state.phase_ends_at - 12 * H
    said = talk.thread("Alex", "/nominate Brianna", day + 13 * H)
    assert not talk.state.seat("Alex").alive
    assert talk.state.today.nomination_of("Brianna") is not None
    talk.thread("Cameron", "/nominate Ellen", day + 14 * H)
    assert talk.state.today.nomination_of("Ellen") is not None
    assert any(n.view.get("player") == "Alex" and not n.view.get("alive", True)
               for n in public(said))


def test_seed_000_no_dashii_poisons_its_townsfolk_neighbours_and_follows_changes():
    """Seed 000, No Dashii: "the two Townsfolk neighboring the No Dashii become poisoned ... If
    a Townsfolk poisoned by the No Dashii becomes a non-Townsfolk character ... the new
    neighbors of the No Dashii become poisoned." Soldier: "the Soldier's protection also prevents
    all other harmful effects of the Demon's ability, such as poisoning": the Soldier beside it
    stays sober (and the poison does not move past it)."""
    setup = game("chef", "empath", "soldier", "poisoner", "nodashii", "monk", "savant")
    talk, day = day_one(setup)
    state = talk.state
    assert [p for p in SEATS if is_malfunctioning(state, p)] == ["Fatima"]  # not the Soldier
    talk.st("!character Fatima mutant", day + H)  # no longer a Townsfolk: the next one is
    assert [p for p in SEATS if is_malfunctioning(talk.state, p)] == ["Gus"]
    talk.st("!poison Cameron", day + 2 * H)  # poisoned otherwise, the Soldier has no protection
    assert [p for p in SEATS if is_malfunctioning(talk.state, p)] == ["Cameron", "Gus"]


def test_seed_000_vortox_townsfolk_get_false_information():
    """Seed 000, Vortox: "While the Vortox is alive, you must give false information whenever a
    Townsfolk ability prompts you to give information." """
    setup = game("chef", "empath", "soldier", "poisoner", "vortox", "monk", "savant")
    entries, night, _ = night_sheet(setup)
    assert entries["Alex"].suggestion.code == "sheet.vortox"
    assert says(entries["Alex"].suggestion.param("true"), "result.chef", value="1")
    assert night.result_of("Alex").param("value") != "1"


def test_the_vortox_makes_a_drunk_townsfolks_information_false_too():
    """The almanac, Vortox: "Anytime a Townsfolk player gets information from their ability,
    they get false information. Even if they are drunk or poisoned, it must be false" (issue
    25): a poisoned Chef is proposed a false number, never the true one, and a Townsfolk whose
    answer is the Storytellers' (the Dreamer) is told it must be false."""
    setup = game("chef", "empath", "soldier", "poisoner", "vortox", "monk", "dreamer")
    entries, night, _ = night_sheet(setup, changes=("!poison Alex",),
                                    choices=(("Gus", "/choose Derek"),))
    chef = entries["Alex"].suggestion
    assert chef.code == "sheet.vortox" and not says(chef, "sheet.malfunctioning")
    assert night.result_of("Alex").param("value") != "1"
    assert entries["Gus"].suggestion.code == "vortox_false.dreamer"
    assert night.result_of("Gus") is None


def test_seed_000_vortox_evil_wins_at_dusk_without_an_execution():
    """Seed 000, Vortox: "Each dusk, if no player was executed today, the game ends and the
    evil team wins." """
    talk, day = day_one(game("chef", "empath", "soldier", "poisoner", "vortox", "monk", "savant"))
    said = talk.st("!endday --yes", day + 30 * H)
    (noted,) = for_storytellers(said, "win_detected")
    assert says(noted.view, "win.vortox")


def test_seed_000_imp_dawn_names_the_dead_never_how():
    """Seed 000, Imp: "Each night except the first, wake the Imp. The Imp points at any player.
    Put the Imp to sleep. The chosen player dies" and "At dawn, declare which player died at
    night. (Do not say how they died.)" """
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "savant")
    _, _, talk = night_sheet(setup, night=2, choices=(("Ellen", "/choose Alex"),))
    (post,) = [n for n in public(talk.dawn()) if n.template == "phase_discussion"]
    assert post.view["deaths"] == ("Alex",)  # who, never how: no cause is in the view
    assert set(post.view) == {"cycle", "starts", "deadline", "deaths"}


def test_seed_000_imp_may_attack_a_dead_player():
    """Seed 000, Imp: "If the Imp attacks a dead player at night, let them do so. Whenever a
    character's ability says "choose a player," that means that any player—alive or dead—can
    be chosen." """
    setup = game("chef", "empath", "soldier", "poisoner", "imp", "monk", "savant",
                 dead=("Gus",))
    entries, night, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Gus"),))
    assert night.deaths == ()
    assert says(entries["Ellen"].suggestion, "info.already_dead", player="Gus")


def test_seed_000_monk_and_soldier_stop_the_demons_other_harmful_effects():
    """Seed 000, Monk: "The Monk's protection also prevents all other harmful effects of the
    Demon's ability, such as poisoning" and Soldier: "The Soldier is also protected from all
    other harmful effects of the Demon's ability, such as poisoning" (the Pukka's poison)."""
    setup = game("chef", "empath", "soldier", "poisoner", "pukka", "monk", "savant")
    _, night, talk = night_sheet(setup, night=2, choices=(("Ellen", "/choose Cameron"),))
    assert not [e for e in night.effects if e.player == "Cameron"]
    _, night, talk = night_sheet(setup, night=2, choices=(
        ("Fatima", "/choose Alex"), ("Ellen", "/choose Alex")))
    assert not [e for e in night.effects if e.player == "Alex"]
    talk.dawn()  # night 3: the protected player was never poisoned, so does not die
    talk.st("!endday --yes", talk.state.phase_ends_at - H)
    talk.pm("Ellen", "/choose Brianna", talk.state.phase_ends_at - 20 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert talk.state.night.deaths == ()


def test_seed_000_savant_and_artist_visit_the_storyteller_and_evil_may_too():
    """Seed 000, Savant: "Once per day, if the Savant requests a private chat with you ..."
    Artist: "During any day, the Artist can request a private chat with you." and "Like the
    Savant, evil players bluffing as the Artist may request a private chat with you and
    pretend to ask a question." (anyone's /whisper Storyteller reaches them; what to answer,
    "Keep the information you give helpful and related to the game", stays the
    Storytellers')"""
    talk, day = day_one(game("savant", "artist", "soldier", "poisoner", "imp", "monk", "chef"))
    for player in ("Alex", "Brianna", "Derek"):
        said = talk.thread(player, "/whisper Storyteller", day + H)
        assert [n.view.get("player") for n in for_storytellers(said) if n.template] == [player]


def test_seed_000_huntsman_set_up_adds_the_damsel():
    """Seed 000, Huntsman: "While setting up the game ... if the Damsel is not already in play,
    remove a Townsfolk character token and add the Damsel character token." """
    setup = game("huntsman", "empath", "soldier", "poisoner", "imp", "monk", "chef")
    assert says(problems(ALL, setup.seats, dict(setup.grimoire), setup.bluffs),
                "setup.requires")


def test_seed_000_huntsman_may_decline_and_keep_its_ability():
    """Seed 000, Huntsman: "Each night, wake the Huntsman." "If they shake their head no, put
    the Huntsman to sleep." (and it keeps its once-per-game choice)"""
    setup = game("huntsman", "empath", "damsel", "poisoner", "imp", "monk", "savant")
    _, night, talk = night_sheet(setup, choices=(("Alex", "/pass"),))
    assert night.effects == ()
    talk.dawn()
    talk.st("!endday --yes", talk.state.phase_ends_at - H)
    said = talk.pm("Alex", "/choose Cameron", talk.state.phase_ends_at - 20 * H)
    (accepted,) = for_player(said, "Alex", "night_choice")
    assert says(accepted.view["choice"], "choice.players", players=("Cameron",))


def test_seed_000_drunk_set_up_thinks_a_townsfolk_not_in_play():
    """Seed 000, Drunk: "remove the Drunk token and add a Townsfolk character token ... They are
    now an Outsider, and do not have the ability of this Townsfolk." """
    setup = game("drunk", "empath", "soldier", "poisoner", "imp", "monk", "chef",
                 thinks={"Alex": "empath"})
    assert says(problems(ALL, setup.seats, dict(setup.grimoire), setup.bluffs), "setup.drunk",
                player="Alex")
    told = Told(game("drunk", "empath", "soldier", "poisoner", "imp", "monk", "chef",
                     thinks={"Alex": "savant"})).tick(START)
    role = dealt_roles(told)["Alex"]
    assert role["character"] == "Savant" and role["team"] == "townsfolk"


def test_seed_000_lunatic_thinks_it_is_a_demon_possibly_another_one():
    """Seed 000, Lunatic: "swap the positions of the Lunatic and Demon tokens" and "You can make
    the Lunatic think they are a different Demon than the in-play Demon." """
    for thinks in ("imp", "vortox"):
        setup = game("lunatic", "empath", "soldier", "poisoner", "imp", "monk", "chef",
                     thinks={"Alex": thinks})
        assert not says(problems(ALL, setup.seats, dict(setup.grimoire), setup.bluffs),
                        "setup.lunatic")
    setup = game("lunatic", "empath", "soldier", "poisoner", "imp", "monk", "chef",
                 thinks={"Alex": "chef"})
    assert says(problems(ALL, setup.seats, dict(setup.grimoire), setup.bluffs), "setup.lunatic",
                player="Alex")


def test_seed_000_undertaker_with_two_executions_is_shown_the_main_one():
    """Seed 000, Undertaker: "In other editions, there may be more than one execution per day
    (in which case the Storyteller chooses which character to show)" (the bot proposes the
    main execution's; the Butcher's nominee is the other)."""
    setup = game("undertaker", "empath", "soldier", "poisoner", "imp", "monk", "butcher")
    setup = replace(setup, seats=tuple(replace(s, traveller=s.name == "Gus")
                                       for s in setup.seats))

    def two_executions(talk, at):
        talk.thread("Alex", "/nominate Brianna", at)
        for voter in talk.state.today.nomination_of("Brianna").order:
            talk.thread(voter, "/vote Brianna yes", at)
        talk.tick(at + 11 * H)
        talk.thread("Gus", "/nominate Cameron", at + 11 * H)
        for voter in talk.state.today.nomination_of("Cameron").order:
            talk.thread(voter, "/vote Cameron yes", at + 11 * H)
        return at + 12 * H
    entries, _, _ = night_sheet(setup, night=2, day=two_executions)
    assert says(entries["Alex"].suggestion, "result.undertaker", player="Brianna",
                value="Empath")


def test_seed_000_no_dashii_and_vortox_kill_from_night_2():
    """Seed 000, No Dashii: "Each night except the first, wake the No Dashii. They point at any
    player. That player dies - mark them with the DEAD reminder." Vortox: "Each night except
    the first, wake the Vortox. They point at any player. That player dies - mark them with the
    DEAD reminder." """
    for demon in ("nodashii", "vortox"):
        setup = game("chef", "empath", "soldier", "poisoner", demon, "monk", "savant")
        talk = Told(setup)
        talk.tick(START)
        talk.pm("Ellen", "/choose Alex", START + H)
        assert rejected(talk) == ["no_choice_tonight"]
        _, night, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Alex"),))
        assert night.deaths == ("Alex",)


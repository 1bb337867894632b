"""Seed 002's rulings ("Actually Oops All Evil": the notes under each character, its
"Examples", and the Djinn's rules for several evil teams), each quoted and checked (issue 7).
Continues tests/rules/test_rulings.py, which has the Imp's Scarlet Woman, the Scarlet Woman's type,
the Fang Gu jump, the poisoned Pukka, the Golem and the Moonchild. Asserted at the core, as
codes and values (tests/notices.py)."""

from dataclasses import replace
from datetime import timedelta

from modbot.core.characters.wins import GOOD_LOST, WINS_DETECTED
from modbot.core.setup.composition import problems
from modbot.core.state.grimoire import is_malfunctioning
from modbot.core.state.model import GrimoireEntry, Seat
from modbot.files.scripts import load_script

from ..conversation import botf_setup
from ..helpers import START
from ..notices import Told, day_one, effects, for_player, for_storytellers, night_sheet, says
from ..notices import roles as dealt_roles

OOPS = load_script("oopsallevil")
H = timedelta(hours=1)
GOOD = ("goon", "acrobat", "golem")


def noted(told: list, code: str, /, **params) -> bool:
    """Whether the Storytellers were told `code` (with these parameters)."""
    return says(for_storytellers(told), code, **params)


def told_to(told: list, player: str, code: str, /, **params) -> bool:
    """Whether `player`'s grimoire PM told them `code` (with these parameters)."""
    return says(for_player(told, player), code, **params)


def roles(setup) -> dict:
    """Each player's role PM's view at the deal."""
    return dealt_roles(Told(setup).tick(START))


def teams_game(characters: dict, teams: dict, **kw):
    """A seed 002 set-up: `teams` maps each evil player to its team number."""
    setup = botf_setup(characters, script=OOPS, bluffs=("moonchild", "lunatic", "pukka"), **kw)
    return replace(setup, grimoire=tuple((p, replace(e, evil_team=teams.get(p)))
                                         for p, e in setup.grimoire))


TWO_TEAMS = ({"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem", "Derek": "poisoner",
              "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"},
             {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})


def test_seed_002_goon_chosen_by_an_evil_player_turns_evil_and_drunks_them():
    """Seed 002, Goon: "Imp is the first to chose good Goon. Imp is drunk until dusk, Goon is
    informed they are now evil, Goon joins Imp's team." """
    _, night, _ = night_sheet(teams_game(*TWO_TEAMS), night=2,
                              choices=(("Ellen", "/choose Alex"),))
    assert ("Ellen", "drunk", True, "by.chose_goon") in effects(night)
    assert ("Alex", "alignment", "evil", "by.goon") in effects(night)
    (drunk,) = [e for e in night.effects if e.field == "drunk"]
    assert drunk.until_dusk


def test_seed_002_goon_chosen_by_a_player_of_its_own_alignment_changes_nothing():
    """Seed 002, Goon: "Moonchild chooses evil Goon. Nothing happens." (the chooser is still
    drunk; the Goon keeps its alignment)"""
    characters, teams = TWO_TEAMS
    setup = teams_game(characters, teams)
    setup = replace(setup, grimoire=tuple(
        (p, replace(e, alignment="evil") if p == "Alex" else e) for p, e in setup.grimoire))
    _, night, _ = night_sheet(setup, night=2, choices=(("Ellen", "/choose Alex"),))
    assert not [e for e in night.effects if e.field == "alignment"]


def test_seed_002_sweetheart_executed_the_storytellers_choose_who_is_drunk():
    """Seed 002, Sweetheart: "When Sweetheart dies, one player immediately becomes drunk for
    the rest of the game" (example: "Sweetheart is executed. Acrobat becomes drunk.")"""
    characters, teams = TWO_TEAMS
    talk, day = day_one(teams_game({**characters, "Alex": "sweetheart"}, teams))
    said = talk.st("!execute Alex --yes", day + H)
    assert noted(said, "st.sweetheart", player="Alex")
    talk.st("!drunk Brianna", day + 2 * H)
    assert talk.state.grimoire_of("Brianna").drunk


def test_seed_002_lunatic_poisoned_choice_is_not_told_to_the_demons():
    """Seed 002, Lunatic: "All Demons are told who the Lunatic is. When Lunatic chooses a
    player, all Demons are informed." Example: "Lunatic is poisoned when choosing who to kill.
    Other Demons are not informed." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Alex": "lunatic"}, teams, thinks={"Alex": "imp"})
    _, night, _ = night_sheet(setup, night=2, choices=(("Alex", "/choose Brianna"),))
    told = sorted(p for p, tell in night.tells
                  if says(tell, "tell.lunatic_chose", lunatic="Alex", player="Brianna"))
    assert told == ["Ellen", "Gus"]  # every Demon, of both teams
    _, night, _ = night_sheet(setup, night=2, changes=("!poison Alex",),
                              choices=(("Alex", "/choose Brianna"),))
    assert not [t for t in night.tells if says(t, "tell.lunatic_chose")]


def test_seed_002_cerenovus_may_choose_any_character_on_the_script():
    """Seed 002, Cerenovus: "In a game of Actually Oops All Evil the Cerenovus can choose any
    character that's on the script." Example: "Cerenovus chooses for Puzzlemaster to be mad
    about being the Vortox. Puzzlemaster is informed." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Alex": "puzzlemaster", "Fatima": "cerenovus"}, teams)
    _, night, _ = night_sheet(setup, choices=(("Fatima", "/choose Alex as Vortox"),))
    assert any(p == "Alex" and says(tell, "tell.cerenovus", character="Vortox")
               for p, tell in night.tells)


def test_seed_002_assassin_kills_even_a_protected_player():
    """Seed 002, Assassin: "Once per game, at night*, choose a player: they die, even if for
    some reason they could not." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Fatima": "assassin", "Alex": "devilsadvocate"},
                       {**teams, "Alex": 1})
    _, night, _ = night_sheet(setup, night=2, choices=(("Fatima", "/choose Cameron"),))
    assert "Cameron" in night.deaths


def test_seed_002_scarlet_woman_evil_only_for_a_demon_of_her_team():
    """Seed 002, Scarlet Woman: "Evil Scarlet Woman only becomes a Demon if a Demon on their
    team dies." Example: "Scarlet Woman is evil and a Demon from another team dies. Nothing
    happens." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Fatima": "scarletwoman"}, teams)
    talk, day = day_one(setup)
    talk.st("!kill Ellen --yes", day + H)  # team 1's Imp; the Scarlet Woman is team 2
    assert talk.state.grimoire_of("Fatima").character == "scarletwoman"
    talk, day = day_one(setup)
    talk.st("!kill Gus --yes", day + H)  # her own team's Vortox
    assert talk.state.grimoire_of("Fatima").character == "vortox"


def test_seed_002_marionette_only_its_team_demon_is_told():
    """Seed 002, Marionette: "Only Marionette's team Demon is told know who they are." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Fatima": "marionette"}, {**teams, "Fatima": 2},
                       thinks={"Fatima": "golem"})
    dealt = roles(setup)
    assert {"player": "Fatima", "team": "minion", "is_marionette": True} in \
        dealt["Gus"]["cultists"]
    assert "Fatima" not in [c["player"] for c in dealt["Ellen"]["cultists"]]
    assert dealt["Fatima"]["character"] == "Golem" and dealt["Fatima"]["cultists"] == []


def test_seed_002_pukka_choosing_itself_dies_the_following_night():
    """Seed 002, Pukka: "Pukka chooses themselves, is briefly poisoned and immediately looses
    their ability, thus becoming healthy. They are the previously poisoned player and are slated
    to die to their ability the following night." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Ellen": "pukka"}, teams)
    _, _night, talk = night_sheet(setup, choices=(("Ellen", "/choose Ellen"),))
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    talk.end_day(talk.state.phase_ends_at - H)
    talk.pm("Ellen", "/choose Brianna", talk.state.phase_ends_at - 20 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert "Ellen" in talk.state.night.deaths


def test_seed_002_vortox_only_its_team_wins():
    """Seed 002, Vortox: "Only Vortox's team wins." Example: "Noone is executed. All other evil
    teams lose and become good, their Demons die. Evil wins." """
    talk, day = day_one(teams_game(*TWO_TEAMS))
    talk.end_day(day + H)
    (win,) = WINS_DETECTED.of(talk.state)
    assert win[0] == "evil" and says(win[1], "win.vortox_team", team=2)


def test_seed_002_djinn_a_team_without_a_living_demon_loses_and_turns_good():
    """Seed 002, Djinn: "An evil team loses if they have no alive Demon." and "When an evil
    team loses and there is at least one other evil team still in play, players from the evil
    team that lost become good." """
    talk, day = day_one(teams_game(*TWO_TEAMS))
    said = talk.st("!execute Ellen --yes", day + H)
    assert talk.state.grimoire_of("Derek").alignment == "good"
    assert told_to(said, "Derek", "tell.team_lost")


def test_seed_002_djinn_good_loses_when_two_live_and_one_is_an_evil_demon():
    """Seed 002, Djinn: "The good team loses if there are two or less players alive and one
    of them is an evil Demon." and "In the event of a tie, the good team wins." """
    characters, teams = TWO_TEAMS
    talk, day = day_one(teams_game(characters, teams))
    talk.st("\n".join(f"!kill {p} --yes" for p in ("Alex", "Brianna", "Cameron", "Derek",
                                                   "Fatima")), day + H)
    assert WINS_DETECTED.of(talk.state)[-1][0] == "good"  # Ellen's and Gus' teams: a tie
    talk, day = day_one(teams_game(characters, teams))
    talk.st("\n".join(f"!kill {p} --yes" for p in ("Brianna", "Cameron", "Derek", "Fatima",
                                                   "Gus")), day + H)
    assert WINS_DETECTED.of(talk.state)[-1][0] == "evil"


def test_seed_002_djinn_each_team_learns_only_its_own_members():
    """Seed 002: "Each evil team learns their teammates and receives bluffs as normal, but they
    don't learn of other evil teams." Djinn: "Each evil team starts informed of their team like
    in a regular game, but know nothing about the other team(s)." """
    dealt = roles(teams_game(*TWO_TEAMS))
    assert [c["player"] for c in dealt["Ellen"]["cultists"]] == ["Derek"]
    assert "Moonchild" in dealt["Ellen"]["bluffs"] and "Moonchild" in dealt["Gus"]["bluffs"]


def said_the_word(setup, speaker, changes=(), choices=()):
    """Night 1 gives Derek (the Mezepheles) the word; `speaker` says it on day 1; the night 2
    sheet is returned (after `choices`: (player, PM) sent on night 2)."""
    talk = Told(setup)
    talk.tick(START)
    talk.tick(START + 22 * H)
    talk.st("!result Derek Your secret word is pineapple.", START + 22 * H)
    talk.approve(START + 23 * H)
    talk.tick(START + 24 * H)
    talk.thread(speaker, "pineapple, anyone?", START + 25 * H)
    if changes:
        talk.st("\n".join(changes), START + 26 * H)
    talk.end_day(START + 27 * H)
    for player, text in choices:
        talk.pm(player, text, START + 28 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    return talk.state.night


MEZ = ({**TWO_TEAMS[0], "Derek": "mezepheles", "Fatima": "cerenovus"}, TWO_TEAMS[1])


def test_seed_002_mezepheles_turns_a_player_of_another_evil_team():
    """Seed 002, Mezepheles: "Storyteller heard Cerenovus from another evil team say the secret
    word yesterday. Tonight, if Mezepheles is sober, healthy and has not used their ability
    yet, Cerenovus is shown "You are" card and thumbs down. They are now part of Mezepheles'
    team." """
    night = said_the_word(teams_game(*MEZ), "Fatima")
    assert [e for e in effects(night) if e[3] == "by.mezepheles"] == [
        ("Fatima", "alignment", "evil", "by.mezepheles"),
        ("Fatima", "evil_team", 1, "by.mezepheles")]


def test_seed_002_mezepheles_poisoned_spends_its_ability_for_nothing():
    """Seed 002, Mezepheles: "Storyteller heard Cerenovus from another evil team say the secret
    word yesterday. Mezepheles is poisoned. Nothing happens, but Mezepheles has "used their
    ability" and may not turn a player later on." """
    night = said_the_word(teams_game(*MEZ), "Fatima", changes=("!poison Derek",))
    (entry,) = [e for e in night.sheet if says(e.character, "label.mezepheles")]
    assert says(entry.suggestion, "sheet.word_spent", player="Fatima")
    assert not [e for e in effects(night) if e[3] == "by.mezepheles"]


def test_a_mezepheles_poisoned_at_its_turn_the_night_after_changes_nobody():
    """Oops All Evil, Mezepheles: "Mezepheles is poisoned. Nothing happens" (issue 25, a
    regression): the Poisoner chooses it tonight, before its step, so at its step it is
    poisoned and the word turns nobody."""
    characters = {**MEZ[0], "Brianna": "poisoner"}
    game = teams_game(characters, {**MEZ[1], "Brianna": 2})
    night = said_the_word(game, "Fatima", choices=(("Brianna", "/choose Derek"),))
    assert not [e for e in effects(night) if e[3] == "by.mezepheles"]
    night = said_the_word(game, "Fatima")  # unpoisoned: she is turned
    assert [e[1] for e in effects(night) if e[3] == "by.mezepheles"] == ["alignment",
                                                                         "evil_team"]


def test_seed_002_mezepheles_a_demon_or_a_teammate_is_not_turned():
    """Seed 002, Mezepheles: "The first non-Demon player from another team to say the secret
    word becomes Mezepheles' alignment and joins their team." """
    for speaker in ("Gus", "Ellen"):  # another team's Demon; its own team's Demon
        night = said_the_word(teams_game(*MEZ), speaker)
        assert not [e for e in night.sheet if says(e.character, "label.mezepheles")]


def test_seed_002_imp_passes_to_a_minion_of_its_own_team():
    """Seed 002, Imp: "If an Imp kills themselves, an alive Minion on their team becomes an
    Imp." """
    _, night, _ = night_sheet(teams_game(*TWO_TEAMS), night=2,
                              choices=(("Ellen", "/choose Ellen"),))
    # Derek is team 1; Fatima (team 2) is not
    assert ("Derek", "character", "imp", "by.star_pass") in effects(night)


def test_seed_002_imp_without_a_minion_of_its_team_passes_to_a_good_minion():
    """Seed 002, Imp: "If an evil Imp kills themselves and there are no alive Minions on an that
    Imp's team and there are other evil Demons alive, the Imp's team loses (becomes good) and a
    good Minion becomes an Imp. It might be a dead Minion." Example: "Imp chose themselves when
    no Minions on their team were alive. Evil Vortox is alive. Imp dies and their team becomes
    good. A good Scarlet Woman is dead. A good Cerenovus becomes an Imp." """
    entries, night, _ = night_sheet(teams_game(*TWO_TEAMS, dead=("Derek",)), night=2,
                                    choices=(("Ellen", "/choose Ellen"),))
    assert night.deaths == ("Ellen",)
    # Derek (dead, of the losing team, so good by then) is proposed; Fatima is team 2's
    assert ("Derek", "character", "imp", "by.star_pass") in effects(night)
    assert says(entries["Ellen"].suggestion, "info.star_pass_good_minion", heir="Derek")


def test_seed_002_good_imp_passes_to_a_good_minion():
    """Seed 002, Imp: "If a good imp kills themselves a good Minion becomes an Imp. It might be
    a dead Minion." Example: "A good Imp chose themselves. There are alive good Minions, but a
    dead good Mezepheles becomes an Imp." (the first good Minion is proposed; the Storytellers
    may pick another)"""
    characters, teams = TWO_TEAMS
    setup = teams_game(characters, teams)
    setup = replace(setup, grimoire=tuple(
        (p, replace(e, alignment="good") if p in ("Ellen", "Fatima") else e)
        for p, e in setup.grimoire))
    _, night, talk = night_sheet(setup, night=2, choices=(("Ellen", "/choose Ellen"),))
    # Team 1 lost when its only Demon turned good, so Derek is good too: the first living
    # good Minion in seat order is proposed.
    assert talk.state.grimoire_of("Derek").alignment == "good"
    assert [e.player for e in night.effects if e.field == "character"] == ["Derek"]


LLEECH = ({**TWO_TEAMS[0], "Ellen": "lleech"}, TWO_TEAMS[1])


def test_seed_002_lleech_hosting_itself_can_die():
    """Seed 002, Lleech: "Self-hosting Lleech is briefly poisoned and immediately looses their
    ability, thus becoming healthy. Host part of the ability has no effect (Lleech can die), but
    they will be able to choose players to die." """
    entries, night, talk = night_sheet(teams_game(*LLEECH), choices=(("Ellen", "/choose Ellen"),))
    assert says(entries["Ellen"].suggestion, "info.lleech_itself", player="Ellen")
    assert not [e for e in night.effects if e.player == "Ellen"]
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    talk.st("!execute Ellen --yes", talk.state.phase_ends_at - 10 * H)
    assert not talk.state.seat("Ellen").alive


def test_seed_002_lleech_poisoned_when_its_host_dies_survives_and_can_die_later():
    """Seed 002, Lleech: "If the host dies while the Lleech is poisoned, the Lleech does not
    die. When the Lleech becomes healthy again the host part of the ability has no effect
    (Lleech can die)." """
    _, _, talk = night_sheet(teams_game(*LLEECH), choices=(("Ellen", "/choose Cameron"),))
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    day = talk.state.phase_ends_at - 12 * H
    talk.st("!poison Ellen\n!kill Cameron --yes", day + H)
    assert talk.state.seat("Ellen").alive  # poisoned: it does not die with its host
    talk.st("!heal Ellen", day + 2 * H)
    talk.st("!execute Ellen --yes", day + 3 * H)
    assert not talk.state.seat("Ellen").alive  # healthy again, but the host is gone


def test_seed_002_psychopath_executed_plays_roshambo_before_dying():
    """Seed 002, Psychopath: "If executed, you only die if you lose roshambo." and "If executed
    after self-nomination or Cerenovus madness, Psychopath plays roshambo against the
    storyteller." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Fatima": "psychopath"}, teams)
    talk, day = day_one(setup)
    talk.thread("Alex", "/nominate Fatima", day + 13 * H)
    for i, voter in enumerate(talk.state.today.nomination_of("Fatima").order):
        talk.thread(voter, "/vote Fatima yes", day + 14 * H + i * timedelta(minutes=1))
    said = talk.end_day(day + 30 * H)
    assert talk.state.seat("Fatima").alive
    assert noted(said, "st.roshambo", player="Fatima", against="Alex")
    talk, day = day_one(setup)
    said = talk.st("!execute Fatima --yes", day + H)  # the Storytellers' call (madness)
    assert talk.state.seat("Fatima").alive
    assert noted(said, "st.roshambo", player="Fatima")
    assert not noted(said, "st.roshambo", against="Alex")  # against the Storyteller


def test_seed_002_fang_gu_jump_takes_its_alignment_and_team():
    """Seed 002, Fang Gu: "The first time Fang Gu would kill an Outsider, the Outsider becomes a
    Fang Gu of the other Fang Gu's alignment and joins their team." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Gus": "fanggu"}, teams)
    _, night, _ = night_sheet(setup, night=2, choices=(("Gus", "/choose Brianna"),))
    assert night.deaths == ("Gus",)
    assert ("Brianna", "evil_team", 2, "by.fang_gu") in effects(night)


def test_seed_002_assassin_choosing_the_goon_still_kills_it():
    """Seed 002, Assassin: "If Assassin is the first to choose the Goon, they join the
    Assassin's team and die." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Fatima": "assassin"}, teams)
    _, night, _ = night_sheet(setup, night=2, choices=(("Fatima", "/choose Alex"),))
    assert "Alex" in night.deaths
    assert ("Alex", "alignment", "evil", "by.goon") in effects(night)
    assert ("Alex", "evil_team", 2, "by.goon") in effects(night)


def test_seed_002_sweetheart_killed_at_night_the_storytellers_choose_who_is_drunk():
    """Seed 002, Sweetheart: "Imp kills the Sweetheart. Cerenovus becomes drunk." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Alex": "sweetheart", "Fatima": "cerenovus"}, teams)
    _, _, talk = night_sheet(setup, night=2, choices=(("Ellen", "/choose Alex"),))
    talk.approve(talk.state.phase_ends_at - H)
    said = talk.tick(talk.state.phase_ends_at)
    assert not talk.state.seat("Alex").alive
    assert noted(said, "st.sweetheart", player="Alex")


def test_seed_002_djinn_outsider_count_is_arbitrary_and_good_may_be_empty():
    """Seed 002, Djinn: "Outsider count is arbitrary, setup modyfing abilities pertaining to
    Outsiders are ignored." and "The good team may start with no players." """
    seats = tuple(Seat(n) for n in ("A", "B", "C", "D", "E", "F"))
    deal = {"A": ("fanggu", 1), "B": ("poisoner", 1), "C": ("witch", 1), "D": ("vortox", 2),
            "E": ("cerenovus", 2), "F": ("fearmonger", 2)}
    own = {"A": ("goon", "acrobat", "imp"), "D": ("golem", "lunatic", "imp")}
    grimoire = {n: GrimoireEntry(character=c, evil_team=t, bluffs=own.get(n, ()))
                for n, (c, t) in deal.items()}
    assert problems(OOPS, seats, grimoire, ()) == []


def test_seed_002_lunatic_as_a_lleech_is_told_like_any_choice():
    """Seed 002, Lunatic: "If the Lunatic thinks they are a Lleech, the actual Demons are told
    who Lunatic picked as host, but this is not differentiated from, for example, the Lunatic
    thinking they are a Pukka and choosing who to poison" """
    characters, teams = TWO_TEAMS
    tells = []
    for thinks in ("lleech", "pukka"):
        setup = teams_game({**characters, "Alex": "lunatic"}, teams, thinks={"Alex": thinks})
        _, night, _ = night_sheet(setup, choices=(("Alex", "/choose Brianna"),))
        tells.append(sorted(p for p, t in night.tells
                            if says(t, "tell.lunatic_chose", lunatic="Alex", player="Brianna")))
    assert tells[0] == tells[1] == ["Ellen", "Gus"]


def test_seed_002_pit_hag_making_a_demon_leaves_tonights_deaths_to_the_storytellers():
    """Seed 002, Pit-Hag: "If a Demon is made, deaths tonight are arbitrary with respect to the
    Pit-Hag's team" Example: "Pit-Hag is on Imp's team and changes Cerenovus on Pukka's team
    into a Lleech. Storryteller chooses for Pit-Hag, Pukka and Acrobat to die." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Derek": "pithag", "Fatima": "cerenovus",
                        "Gus": "pukka"}, teams)
    entries, _night, talk = night_sheet(setup, night=2,
                                       choices=(("Derek", "/choose Fatima as Lleech"),))
    assert says(entries["Derek"].suggestion, "info.pit_hag_demon", player="Fatima")
    talk.st("!dies Derek\n!dies Gus\n!dies Brianna", talk.state.phase_ends_at - H)
    assert set(talk.state.night.deaths) >= {"Derek", "Gus", "Brianna"}


def test_seed_002_good_scarlet_woman_follows_any_demon():
    """Seed 002, Scarlet Woman: "Good Scarlet Woman becomes a Demon if any Demon dies." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Alex": "scarletwoman"}, teams)
    setup = replace(setup, grimoire=tuple(
        (p, replace(e, alignment="good") if p == "Alex" else e) for p, e in setup.grimoire))
    talk, day = day_one(setup)
    talk.st("!kill Gus --yes", day + H)
    assert talk.state.grimoire_of("Alex").character == "vortox"


def test_seed_002_marionette_is_not_changed_by_the_fearmonger():
    """Seed 002, Marionette: "Marionette thinks they are a Goon. Fearmonger chooses Marionette.
    Marionette does not change alignment and is not informed of anything." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Alex": "marionette", "Derek": "fearmonger"},
                       {**teams, "Alex": 1}, thinks={"Alex": "goon"})
    _, night, _ = night_sheet(setup, choices=(("Derek", "/choose Alex"),))
    assert not [e for e in night.effects if e.player == "Alex"]
    assert not [t for t in night.tells if t[0] == "Alex"]


def test_seed_002_fang_gu_jumps_into_a_turned_outsider_of_another_team():
    """Seed 002, Fang Gu: "Acrobat was turned evil by Mezepheles and joined Imp's team. Fang Gu
    chooses the Acrobat. Fang Gu dies and the Acrobat becomes a Fang Gu, they are informed they
    are evil and they join the first Fang Gu's team." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Gus": "fanggu"}, teams)
    setup = replace(setup, grimoire=tuple(
        (p, replace(e, alignment="evil", evil_team=1) if p == "Brianna" else e)
        for p, e in setup.grimoire))
    _, night, _ = night_sheet(setup, night=2, choices=(("Gus", "/choose Brianna"),))
    assert night.deaths == ("Gus",)
    assert {e for e in effects(night) if e[0] == "Brianna"} >= {
        ("Brianna", "character", "fanggu", "by.fang_gu"),
        ("Brianna", "evil_team", 2, "by.fang_gu")}
    assert any(p == "Brianna" and says(t, "tell.fang_gu", alignment="evil")
               for p, t in night.tells)


def test_seed_002_moonchild_poisoned_when_choosing_kills_once_healthy():
    """Seed 002, Moonchild: "Moonchild is poisoned on Night 1 then killed by Psychopath on Day 1
    and chose the Goon who at the time was good. On Night 2, if the Moonchild is sober and
    healthy, Goon dies regardless of current alignment." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Cameron": "moonchild", "Fatima": "psychopath"}, teams)
    _, _, talk = night_sheet(setup, choices=(("Derek", "/choose Cameron"),))
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    day = talk.state.phase_ends_at - 12 * H
    assert talk.state.grimoire_of("Cameron").poisoned
    talk.thread("Fatima", "/choose Cameron", day + H)
    talk.thread("Cameron", "/choose Alex", day + 2 * H)  # the Goon, good now
    talk.st("!alignment Alex evil", day + 3 * H)
    talk.end_day(day + 4 * H)  # dusk: the Poisoner's poison ends
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert "Alex" in talk.state.night.deaths


def test_seed_002_golem_second_nomination_is_the_storytellers_to_allow_or_deny():
    """Seed 002, Golem: "If Golem already nominated once, is now poisoned and nominates again -
    storyteller can choose to allow or deny that nomination." (the bot counts it and kills
    nobody; `!cancel nomination` denies it)"""
    talk, day = day_one(teams_game(*TWO_TEAMS))
    talk.thread("Cameron", "/nominate Alex", day + 13 * H)  # the Golem's one nomination
    assert not talk.state.seat("Alex").alive
    talk.end_day(day + 14 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    day2 = talk.state.phase_ends_at - 12 * H
    talk.st("!poison Cameron", day2 + H)
    talk.thread("Cameron", "/nominate Brianna", day2 + 13 * H)
    assert talk.state.seat("Brianna").alive
    assert talk.state.today.nomination_of("Brianna") is not None
    talk.st("!cancel nomination Brianna", day2 + 14 * H)
    assert talk.state.today.nomination_of("Brianna") is None


GODFATHER = ({**TWO_TEAMS[0], "Derek": "godfather"}, TWO_TEAMS[1])


def test_seed_002_godfather_kills_only_after_an_outsider_died_today():
    """Seed 002, Godfather: "You start knowing which Outsiders are in play. If 1 died today,
    choose a player tonight: they die." """
    entries, _, _ = night_sheet(teams_game(*GODFATHER))
    assert says(entries["Derek"].suggestion, "result.godfather", value="Acrobat, Golem, Goon")
    talk = Told(teams_game(*GODFATHER))
    talk.tick(START)
    talk.pm("Derek", "/choose Alex", START + H)
    assert [r.code for r in talk.rejected] == ["no_choice_tonight"]

    def outsider_dies(talk, at):
        talk.st("!kill Brianna --yes", at)  # the Acrobat
        return at + H
    _, night, _ = night_sheet(teams_game(*GODFATHER), night=2, day=outsider_dies,
                              choices=(("Derek", "/choose Cameron"),))
    assert "Cameron" in night.deaths
    entries, night, _ = night_sheet(teams_game(*GODFATHER), night=2,
                                    choices=(("Derek", "/choose Cameron"),))
    assert "Cameron" not in night.deaths
    assert says(entries["Derek"].suggestion, "info.godfather_no_outsider")


def test_seed_002_marionette_is_not_told_its_team_lost_unless_impaired():
    """Seed 002, Marionette: "The Marionette is never informed of changes to their
    alignment/team, unless they are drunk or poisoned at the time." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Alex": "marionette"}, {**teams, "Alex": 1},
                       thinks={"Alex": "goon"})
    for changes, told in (("", False), ("!poison Alex\n", True)):
        talk, day = day_one(setup)
        said = talk.st(changes + "!execute Ellen --yes", day + H)
        assert talk.state.grimoire_of("Alex").alignment == "good"
        assert bool(for_player(said, "Alex")) is told
        assert told_to(said, "Derek", "tell.team_lost")


def test_seed_002_pukka_impaired_kills_its_last_victim_once_healthy():
    """Seed 002, Pukka: "Once drunkness or poison affecting the Pukka ends, next time they
    choose the last successfully poisoned player dies then becomes healthy." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Ellen": "pukka"}, teams)
    _, _, talk = night_sheet(setup, choices=(("Ellen", "/choose Brianna"),))  # reached
    for night in (2, 3):
        talk.approve(talk.state.phase_ends_at - H)
        talk.tick(talk.state.phase_ends_at)
        talk.end_day(talk.state.phase_ends_at - 11 * H)
        if night == 2:
            talk.st("!poison Ellen", talk.state.phase_ends_at - 21 * H)
        talk.pm("Ellen", "/choose Cameron", talk.state.phase_ends_at - 20 * H)
        talk.tick(talk.state.phase_ends_at - 2 * H)
        if night == 2:
            assert talk.state.night.deaths == ()  # impaired: nothing happens
            talk.st("!heal Ellen", talk.state.phase_ends_at - 90 * timedelta(minutes=1))
    assert talk.state.night.deaths == ("Brianna",)


def test_seed_002_puzzlemaster_drunk_is_sober_while_the_puzzlemaster_is_impaired():
    """Seed 002, Puzzlemaster: "Storyteller chooses one player to be drunked by the
    Puzzlemaster throughout the whole game. When the Puzzlemaster is drunk or poisoned, that
    player is sober." (`!reminder PLAYER puzzled`)"""
    characters, teams = TWO_TEAMS
    talk, day = day_one(teams_game({**characters, "Brianna": "puzzlemaster"}, teams))
    talk.st("!reminder Cameron puzzled", day + H)
    assert is_malfunctioning(talk.state, "Cameron")
    talk.st("!kill Brianna --yes", day + 2 * H)  # "1 player is drunk, even if you die"
    assert is_malfunctioning(talk.state, "Cameron")
    talk.st("!poison Brianna", day + 3 * H)
    assert not is_malfunctioning(talk.state, "Cameron")


def test_seed_002_puzzlemaster_guess_is_answered_by_the_storytellers():
    """Seed 002, Puzzlemaster: "During the day, after publicly or privately guessing,
    Puzzlemaster learns one player." Example: "Puzzlemaster correctly guesses that Moonchild is
    their drunk. Imp and Vortox are alive. Storyteller privately tells the Puzzlemaster who the
    Vortox is." """
    characters, teams = TWO_TEAMS
    talk, day = day_one(teams_game({**characters, "Brianna": "puzzlemaster"}, teams))
    talk.st("!reminder Cameron puzzled", day + H)
    said = talk.thread("Brianna", "/guess Cameron as Drunk", day + 2 * H)
    assert noted(said, "st.puzzle_right", player="Brianna", target="Cameron")
    talk.thread("Brianna", "/guess Alex as Drunk", day + 3 * H)
    assert [r.code for r in talk.rejected] == ["public_used"]
    talk, day = day_one(teams_game({**characters, "Brianna": "puzzlemaster"}, teams))
    talk.st("!reminder Cameron puzzled", day + H)
    said = talk.thread("Brianna", "/guess Alex as Drunk", day + 2 * H)
    assert noted(said, "st.puzzle_wrong", player="Brianna", target="Alex")


def test_seed_002_scarlet_woman_changed_by_day_is_told_at_night():
    """Seed 002, Scarlet Woman: "Changes occur immediately after a viable Demon dies and the
    Scarlet Woman is informed at the earliest convenience, but only at night." """
    characters, teams = TWO_TEAMS
    talk, day = day_one(teams_game({**characters, "Derek": "scarletwoman"}, teams))
    said = talk.st("!kill Ellen --yes", day + H)  # team 1's Imp dies by day
    assert talk.state.grimoire_of("Derek").character == "imp"  # at once
    assert for_player(said, "Derek") == []
    assert noted(said, "st.told_at_dusk")
    said = talk.end_day(day + 2 * H)
    assert told_to(said, "Derek", "tell.scarlet_woman", character="Imp")


def test_seed_002_djinn_a_team_that_loses_to_an_ability_loses_its_demon():
    """Seed 002, Djinn: "After an evil team loses to an ability, their Demon dies." (the
    Fearmonger executing the player it feared, of another evil team)"""
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Derek": "fearmonger"}, teams)
    _, _, talk = night_sheet(setup, choices=(("Derek", "/choose Fatima"),))
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at)
    day = talk.state.phase_ends_at - 12 * H
    talk.thread("Derek", "/nominate Fatima", day + 13 * H)
    for i, voter in enumerate(talk.state.today.nomination_of("Fatima").order):
        talk.thread(voter, "/vote Fatima yes", day + 14 * H + i * timedelta(minutes=1))
    said = talk.end_day(day + 30 * H)
    assert not talk.state.seat("Fatima").alive and not talk.state.seat("Gus").alive
    assert talk.state.grimoire_of("Gus").alignment == "good"  # team 2 lost, turned good
    assert talk.state.winner is None and WINS_DETECTED.of(talk.state) == ()
    assert not for_storytellers(said, "win_detected")


def test_seed_002_marionette_made_the_goon_by_the_pit_hag_is_told():
    """Seed 002, Marionette: "Marionette thinks they are a Goon. There is no Goon in play and
    Pit-Hag chooses that player to be a Goon. The player who was previously a Marionette is
    woken up and informed they are now the Goon." (still evil: a new character keeps the
    alignment)"""
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Alex": "marionette", "Derek": "pithag"},
                       {**teams, "Alex": 1}, thinks={"Alex": "goon"})
    _, night, talk = night_sheet(setup, night=2, choices=(("Derek", "/choose Alex as Goon"),))
    assert any(p == "Alex" and says(t, "tell.now_the", character="Goon")
               for p, t in night.tells)
    talk.dawn()
    alex = talk.state.grimoire_of("Alex")
    assert (alex.character, alex.thinks, alex.alignment) == ("goon", None, "evil")


def test_seed_002_lleech_with_a_living_host_cannot_die_to_arbitrary_deaths():
    """Seed 002, Lleech: "Sober and healthy Lleech cannot be killed directly via arbitrary
    deaths caused by Pit-Hag, but it can die to their ability if storyteller chooses to kill
    the host." """
    _, _, talk = night_sheet(teams_game(*LLEECH), choices=(("Ellen", "/choose Cameron"),))
    talk.dawn()
    talk.end_day(talk.state.phase_ends_at - 11 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    talk.st("!dies Ellen", talk.state.phase_ends_at - H)
    assert says(talk.command.failed, "rejection.lleech_lives", player="Ellen")
    talk.st("!dies Cameron", talk.state.phase_ends_at - H)
    talk.dawn()
    assert not talk.state.seat("Cameron").alive and not talk.state.seat("Ellen").alive


def test_seed_002_scarlet_woman_become_lleech_chooses_a_host_and_survives_till_then():
    """Seed 002, Scarlet Woman: "Scarlet Woman is evil and Lleech from their team dies because
    Psychopath killed their host. Scarlet Woman immediately becomes a Lleech. Scarlet Woman is
    executed and does not die. At the start of the night, Scarlet Woman is asked to choose a
    host." """
    characters, teams = TWO_TEAMS
    setup = teams_game({**characters, "Ellen": "lleech", "Derek": "scarletwoman",
                        "Fatima": "psychopath"}, teams)
    _, _, talk = night_sheet(setup, choices=(("Ellen", "/choose Cameron"),))
    talk.dawn()
    day = talk.state.phase_ends_at - 12 * H
    talk.thread("Fatima", "/choose Cameron", day + H)  # the host dies, and the Lleech with it
    assert not talk.state.seat("Ellen").alive
    assert talk.state.grimoire_of("Derek").character == "lleech"
    talk.st("!execute Derek --yes", day + 2 * H)
    assert talk.state.seat("Derek").alive  # no host yet: it does not die
    talk.pm("Derek", "/choose Alex", day + 3 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    entry = next(e for e in talk.state.night.sheet if e.player == "Derek")
    assert says(entry.suggestion, "info.lleech_host", player="Alex")


FEAR = ({**TWO_TEAMS[0], "Derek": "fearmonger"}, TWO_TEAMS[1])


def good_lost_to_the_fearmonger():
    """Derek (team 1's Fearmonger) fears Brianna (good), nominates her and she is executed."""
    _, _, talk = night_sheet(teams_game(*FEAR), choices=(("Derek", "/choose Brianna"),))
    talk.dawn()
    day = talk.state.phase_ends_at - 12 * H
    talk.thread("Derek", "/nominate Brianna", day + 13 * H)
    for i, voter in enumerate(talk.state.today.nomination_of("Brianna").order):
        talk.thread(voter, "/vote Brianna yes", day + 14 * H + i * timedelta(minutes=1))
    said = talk.end_day(day + 30 * H)
    return talk, said, talk.state.phase_ends_at


def test_seed_002_djinn_good_lost_to_an_ability_the_last_eligible_team_wins():
    """Seed 002, Djinn: "The winning team is the last team eligible to win." (good lost to the
    Fearmonger; the game goes on until one evil team is left)"""
    talk, said, night = good_lost_to_the_fearmonger()
    assert says(GOOD_LOST.of(talk.state), "win.fearmonger", player="Brianna")
    assert WINS_DETECTED.of(talk.state) == ()  # good lost, but no team has won yet
    assert not for_storytellers(said, "win_detected")
    talk.st("!kill Gus --yes", night - 20 * H)  # team 2 loses: team 1 is the last
    team, why = WINS_DETECTED.of(talk.state)[-1]
    assert team == "evil" and says(why, "win.last_team", team=1)


def test_seed_002_djinn_good_that_lost_to_an_ability_still_wins_a_tie():
    """Seed 002, Djinn: "The good team that has already lost to an ability can still win
    because of a tie." """
    talk, _, night = good_lost_to_the_fearmonger()
    talk.st("\n".join(f"!kill {p} --yes" for p in ("Alex", "Cameron", "Derek", "Fatima")),
            night - 20 * H)
    team, why = WINS_DETECTED.of(talk.state)[-1]
    assert team == "good" and why.code == "win.two_alive_tie"


def test_seed_002_marionette_belief_may_be_another_teams_bluff():
    """Seed 002, Marionette: "Marionette thinks they are a Goon. Vortox from a different evil
    team is shown Goon as one of the three not play characters." """
    seats = tuple(Seat(n) for n in ("A", "B", "C", "D", "E", "F", "G"))
    deal = {"A": ("imp", 1), "B": ("marionette", 1), "C": ("acrobat", None),
            "D": ("vortox", 2), "E": ("witch", 2), "F": ("golem", None), "G": ("puzzlemaster", None)}
    own = {"A": ("moonchild", "lleech", "pukka"), "D": ("goon", "sweetheart", "pukka")}
    grimoire = {n: GrimoireEntry(character=c, evil_team=t, bluffs=own.get(n, ()),
                                 thinks="goon" if n == "B" else None)
                for n, (c, t) in deal.items()}
    assert problems(OOPS, seats, grimoire, ()) == []
    grimoire["A"] = replace(grimoire["A"], bluffs=("goon", "lleech", "pukka"))  # its own team
    assert says(problems(OOPS, seats, grimoire, ()), "setup.bluff_in_play", bluff="Goon")



def test_a_cerenovus_drunk_by_choosing_the_goon_makes_nobody_mad():
    """Oops All Evil, Goon: "the 1st player to choose you with their ability is drunk until
    dusk": a Cerenovus that chooses the Goon malfunctions, so nobody is made mad and nobody is
    told so (issue 25: "a malfunctioning chooser changes nothing")."""
    characters = {"Alex": "goon", "Brianna": "acrobat", "Cameron": "golem",
                  "Derek": "cerenovus", "Ellen": "imp", "Fatima": "witch", "Gus": "vortox"}
    game = teams_game(characters, {"Derek": 1, "Ellen": 1, "Fatima": 2, "Gus": 2})
    entries, night, _ = night_sheet(game, night=2, choices=(("Derek", "/choose Alex as Imp"),))
    assert not [tell for player, tell in night.tells if player == "Alex"]
    assert not [e for e in night.effects if e.field == "mad_as"]
    assert entries["Derek"].suggestion.code == "info.cerenovus_malfunctioning"


def test_a_goon_whose_team_changed_is_told_at_dawn():
    """Oops All Evil: "If their alignment or team changed, they are informed" (issue 25): the
    Goon the Imp chose is told at dawn, in its grimoire PM, that it is now on the evil team."""
    _, _, talk = night_sheet(teams_game(*TWO_TEAMS), night=2, choices=(("Ellen", "/choose Alex"),))
    said = talk.dawn()
    (changed,) = [n for n in for_player(said, "Alex") if n.template == "role"]
    role = changed.view["role"]
    assert role["changed"] and role["character"] == "Goon" and role["alignment"] == "evil"

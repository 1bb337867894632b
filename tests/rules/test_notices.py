"""Who is told what, asserted at the core as codes and values (tests/notices.py): the deal's
team views, the Marionette kept unaware, the vote count's marks, deaths and their echoes."""

from __future__ import annotations

from datetime import timedelta

from modbot.core import (
    CHANGED,
    COUNT,
    DAY_END,
    PLAYER,
    STORYTELLERS,
    THREAD,
    EvilTeamLost,
    notices_of,
)
from modbot.core.state.night_model import Effect
from modbot.core.state.script import Terms
from modbot.core.wording import say

from ..conversation import DAWN1, NIGHT1_LOCK, seven
from ..helpers import START
from ..notices import Told, day_one, of, to_whom
from ..notices import roles as dealt_roles

# Brianna, the Marionette, sits beside Cameron, the Imp; she believes she is the Chef
DEAL = seven("clockmaker", "marionette", "imp", "poisoner", "oracle", "dreamer", "seamstress",
             thinks={"Brianna": "chef"})


def _dealt() -> tuple[Told, dict]:
    told = Told(DEAL)
    roles = dealt_roles(told.tick(START))
    return told, roles


def test_each_player_is_told_their_character_in_their_own_pm():
    _, roles = _dealt()
    assert sorted(roles) == ["Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"]
    assert roles["Brianna"]["character"] == "Chef" and roles["Brianna"]["cultists"] == []


def test_the_demon_learns_the_marionette_and_the_minions_do_not():
    _, roles = _dealt()
    assert roles["Cameron"]["cultists"] == [
        {"player": "Brianna", "team": "minion", "is_marionette": True},
        {"player": "Derek", "team": "minion", "is_marionette": False}]
    assert roles["Derek"]["cultists"] == [
        {"player": "Cameron", "team": "demon", "is_marionette": False}]
    assert roles["Cameron"]["bluffs"] and roles["Derek"]["bluffs"] == []


def test_a_sober_marionette_is_not_told_that_its_team_lost_and_a_poisoned_one_is():
    told, _ = _dealt()
    lost = EvilTeamLost(1, ("Brianna", "Derek"), DAWN1)
    sober = to_whom(list(notices_of(told.state, lost)))
    assert sober == [(PLAYER, "Derek", "night_results"), (STORYTELLERS, "", "st_note")]
    poisoned = told.state.with_entry("Brianna", poisoned=True)
    assert (PLAYER, "Brianna", "night_results") in to_whom(list(notices_of(poisoned, lost)))


def _night_approved() -> Told:
    told, _ = _dealt()
    told.tick(NIGHT1_LOCK)
    missing = told.state.night.missing_results()
    told.st("".join(f"!result {p} none\n" for p in missing) + "!approve",
            NIGHT1_LOCK + timedelta(hours=1))
    return told


def _nominations() -> tuple[Told, object]:
    told = _night_approved()
    told.tick(DAWN1)
    nominations = told.state.phase_ends_at
    told.tick(nominations)
    return told, nominations


def test_dawn_opens_the_day_with_its_deaths_as_names():
    told = _night_approved()
    opened = of(told.tick(DAWN1), "phase_discussion")
    assert [(n.to, n.view["cycle"], n.view["deaths"]) for n in opened] == [(THREAD, 1, ())]


def test_a_nomination_asks_for_a_count_and_a_vote_marks_the_count_owed():
    told, nominations = _nominations()
    nominated = told.thread("Alex", "/nominate Cameron", nominations + timedelta(minutes=5))
    assert [(n.count, n.key) for n in nominated if n.count] == [(COUNT, "open:execution:Cameron")]
    voted = told.thread("Ellen", "/vote Cameron yes", nominations + timedelta(minutes=6))
    assert [n.count for n in voted] == [CHANGED] and to_whom(voted) == []


def test_the_days_end_is_one_final_count_with_the_night_it_opens():
    told, nominations = _nominations()
    told.thread("Alex", "/nominate Cameron", nominations + timedelta(minutes=5))
    ended = told.st("!endday --yes", nominations + timedelta(hours=1))
    final = [n for n in ended if n.count == DAY_END]
    assert [(n.count, n.key, n.day, n.view["cycle"]) for n in final] == [
        (DAY_END, "end:1", 1, 2)]
    assert [n.key for n in ended if n.count == COUNT] == []  # nor the closed nomination


def test_a_storytellers_kill_is_echoed_and_the_player_told_how_they_vote_now():
    told, _ = _nominations()
    killed = told.thread("nightingale", "!kill Alex --yes", told.state.phase_ends_at - timedelta(hours=1))
    echo = [n for n in killed if n.echo]
    assert [(n.template, n.view) for n in echo] == [
        ("public_life", {"player": "Alex", "alive": False})]
    notice = of(killed, "death_notice")[0]
    assert (notice.player, notice.view["cause"], notice.view["ghost_vote"]) == \
        ("Alex", "storyteller", True)


def test_the_night_sheets_effects_name_characters_and_teams_as_the_script_does():
    terms, names = DEAL.script.terms, {"nodashii": "No Dashii", "imp": "Imp"}
    why = say("by.pit_hag")
    became = Effect("Alex", "character", "nodashii", why).describe(names, terms)
    turned = Effect("Alex", "alignment", "evil", why).describe(names, terms)
    assert (became.code, dict(became.params)["value"]) == ("effect.character", "No Dashii")
    assert (turned.code, dict(turned.params)["value"]) == ("effect.alignment", "evil")  # ALL
    botf = Terms(good="Loyal", evil="Cultist")
    assert dict(Effect("Alex", "alignment", "evil", why).describe(names, botf).params)[
        "value"] == "Cultist"


def test_a_stalled_clock_hand_is_one_timed_rule_of_the_core_table():
    """The reminder (deciding/hand_nudge.py) is in the engine's one table: `next_due` names
    its moment, the tick that reaches it tells the player the hand waits on, once."""
    from modbot.core import next_due
    told, at = _nominations()
    told.thread("Alex", "/nominate Derek\nQuiet all day.", at + timedelta(minutes=5))
    nominated = at + timedelta(minutes=5)
    due = nominated + timedelta(hours=DEAL.hand_nudge_hours)
    assert next_due(told.state) == due
    assert of(told.tick(due - timedelta(minutes=1)), "hand_nudge") == []
    (nudge,) = of(told.tick(due), "hand_nudge")
    assert (nudge.to, nudge.player, nudge.key) == (PLAYER, "Ellen", "nudge:1:execution:Derek:Ellen")
    assert nudge.view == {"nominee": "Derek", "since": nominated, "exile": False}
    assert told.state.today.nudged == ("execution:Derek:Ellen",)
    assert of(told.tick(due + timedelta(hours=3)), "hand_nudge") == []
    assert next_due(told.state) != due  # nobody else waits yet: no reminder is due again


def test_a_scarlet_woman_made_the_demon_by_day_learns_her_ability_and_commands_at_dusk():
    """Oops All Evil, Scarlet Woman: she is told "at the earliest convenience, but only at
    night" (issue 25): by day nothing; at dusk her role PM as the Demon, with its commands."""
    woman = seven("chef", "empath", "soldier", "poisoner", "imp", "monk", "scarletwoman")
    told, _ = day_one(woman)
    executed = told.st("!execute Ellen --yes", DAWN1 + timedelta(hours=2))
    roles = [n for n in executed if n.template == "role" and n.player == "Gus"]
    assert len(roles) == 1 and told.state.phase.value == "night"  # the execution ended the day
    role = roles[0].view["role"]
    assert (role["character"], role["changed"], role["choose"]) == ("Imp", True, "/choose NAME")
    assert "Each night*, choose a player: they die" in role["ability"]


def test_a_scarlet_woman_promoted_mid_day_waits_for_dusk():
    woman = seven("chef", "empath", "soldier", "poisoner", "imp", "monk", "scarletwoman")
    told, _ = day_one(woman)
    killed = told.st("!kill Ellen --yes", DAWN1 + timedelta(hours=2))
    assert told.state.phase.is_day and told.state.grimoire_of("Gus").character == "imp"
    assert [n for n in killed if n.player == "Gus"] == []  # by day: nothing yet
    dusk = told.st("!endday --yes", DAWN1 + timedelta(hours=3))
    assert [n.template for n in dusk if n.player == "Gus"] == ["night_results", "role"]

"""Trouble Brewing's Beggar and Scapegoat (issue 54, characters/tb_travellers.py): the Beggar's
execute vote needs a vote token a player gave it (`/give BEGGAR`; a dead giver's ghost vote is
spent and the Beggar learns its alignment); the Scapegoat is executed instead of a player of
its alignment when the Storytellers so ruled beforehand (a reminder), else they are told it
might have been."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ..conversation import to_dawn_one
from ..notices import Told, for_storytellers, of, public, rejected
from .test_trouble_brewing import BASE, SEATS, TB

H = timedelta(hours=1)


def _town(traveller: str, *, dead=(), alignment="good"):
    """Seven residents and Hana, a traveller holding `traveller` (of `alignment`)."""
    from ..conversation import botf_setup, with_traveller
    characters = dict(zip((*SEATS, "Hana"), [*BASE, traveller], strict=True))
    setup = botf_setup(characters, script=TB, bluffs=("librarian", "virgin", "mayor"),
                       dead=dead)
    return with_traveller(setup, "Hana", alignment)


def _day(setup):
    told, day = to_dawn_one(Told(setup))
    told.tick(day + 12 * H)  # nominations open
    return told, day + 12 * H


def _vote_on(told, at, nominee, voters, nominator="Alex"):
    told.thread(nominator, f"/nominate {nominee}", at)
    for i, voter in enumerate(voters):
        told.thread(voter, f"/vote {nominee} yes", at + (i + 1) * timedelta(minutes=1))


def beggar_votes_only_with_a_vote_token():
    """Without a token the Beggar's yes counts as pardon; a living player's token lets one
    yes count, and is used by it."""
    told, at = _day(_town("beggar"))
    _vote_on(told, at, "Gus", ("Hana",))
    told.end_day(at + 20 * H)
    (locked,) = [v for v in told.state.past_days[-1].nomination_of("Gus").locked
                 if v.player == "Hana"]
    assert (locked.cast, locked.vote) == ("yes", "no")
    told, at = _day(_town("beggar"))
    told.thread("Brianna", "/give Hana", at)
    _vote_on(told, at + H, "Gus", ("Hana",))
    _vote_on(told, at + 2 * H, "Fatima", ("Hana",), nominator="Cameron")  # the token is used
    told.end_day(at + 20 * H)
    day = told.state.past_days[-1]
    assert day.nomination_of("Gus").yes == 1 and day.nomination_of("Fatima").yes == 0
    assert told.state.seat("Brianna").alive


def test_a_dead_player_gives_its_ghost_vote_and_the_beggar_learns_its_alignment():
    told, at = _day(_town("beggar", dead=("Derek",)))
    said = told.thread("Derek", "/give Hana", at)
    assert not told.state.seat("Derek").ghost_vote
    (learnt,) = of(said, "beggar_learns")
    assert learnt.player == "Hana" and learnt.view["alignment"] == "evil"
    assert public(said) and of(said, "vote_token_given")[0].view["dead"]


@pytest.mark.parametrize(("giver", "target", "code"), [
    ("Brianna", "Cameron", "give_not_beggar"),  # not a Beggar
    ("Hana", "Hana", "give_own"),
])
def test_a_token_given_wrongly_is_refused_and_changes_nothing(giver, target, code):
    told, at = _day(_town("beggar"))
    told.thread(giver, f"/give {target}", at)
    assert rejected(told) == [code]


def test_a_living_player_gives_once_a_day_and_a_spent_ghost_vote_cannot_be_given():
    told, at = _day(_town("beggar", dead=("Derek",)))
    told.thread("Brianna", "/give Hana", at)
    told.thread("Brianna", "/give Hana", at + H)
    assert rejected(told) == ["give_again"]
    told.thread("Derek", "/give Hana", at + H)
    told.thread("Derek", "/give Hana", at + 2 * H)
    assert rejected(told) == ["give_no_token"]


def scapegoat_is_executed_instead_when_the_storytellers_ruled_so():
    """Gus (good) about to be executed: the good Scapegoat with the reminder dies instead; the
    thread says so."""
    told, at = _day(_town("scapegoat"))
    told.st("!reminder Hana takes the execution", at)
    _vote_on(told, at + H, "Gus", ("Alex", "Brianna", "Cameron", "Fatima"))
    said = told.end_day(at + 20 * H)
    assert told.state.seat("Gus").alive and not told.state.seat("Hana").alive
    assert told.state.past_days[-1].executed == "Hana"
    assert of(said, "scapegoat_executed")[0].view["instead_of"] == "Gus"


def test_without_the_ruling_the_execution_stands_and_the_storytellers_are_told():
    told, at = _day(_town("scapegoat"))
    _vote_on(told, at + H, "Gus", ("Alex", "Brianna", "Cameron", "Fatima"))
    said = told.end_day(at + 20 * H)
    assert not told.state.seat("Gus").alive and told.state.seat("Hana").alive
    assert [n.view["scapegoat"] for n in for_storytellers(said)
            if n.template == "scapegoat_might"] == ["Hana"]


def test_the_scapegoat_takes_no_execution_of_the_other_alignment():
    told, at = _day(_town("scapegoat"))
    told.st("!reminder Hana takes the execution", at)
    _vote_on(told, at + H, "Derek", ("Alex", "Brianna", "Cameron", "Fatima"))  # the Poisoner
    told.end_day(at + 20 * H)
    assert not told.state.seat("Derek").alive and told.state.seat("Hana").alive


TB_TRAVELLERS = {
    "beggar": beggar_votes_only_with_a_vote_token,
    "scapegoat": scapegoat_is_executed_instead_when_the_storytellers_ruled_so,
}


@pytest.mark.parametrize("character", sorted(TB_TRAVELLERS))
def test_trouble_brewing_traveller(character):
    TB_TRAVELLERS[character]()

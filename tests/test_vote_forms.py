"""Vote forms players bring from other forums, end to end: what counts, and what they are told."""

from datetime import timedelta

from modbot.core import Phase

from .conversation import botf_setup, day_one, to

H = timedelta(hours=1)


def _nominations_open():
    talk, dawn = day_one(botf_setup())
    at = dawn
    while talk.state.phase is not Phase.NOMINATION:
        at += H
        talk.tick(at)
    talk.thread("Brianna", "/nominate Derek\nHe has been quiet all day.", at + H)
    return talk, at + 2 * H


def voted(talk, player: str) -> bool:
    """The player's vote on Derek is cast or already locked."""
    nomination = talk.state.today.nomination_of("Derek", "execution")
    return player in nomination.cast or any(v.player == player and v.cast for v in nomination.locked)


def test_a_players_bang_vote_counts_and_they_are_told_the_usual_form():
    talk, at = _nominations_open()
    said = talk.thread("Alex", "!vote Derek", at)
    assert voted(talk, "Alex")
    hint = to(said, "pm:alex")
    assert len(hint) == 1 and "The usual form is `/vote NAME`" in hint[0]


def test_an_empty_vote_counts_nothing_and_the_player_is_asked_to_name_someone():
    talk, at = _nominations_open()
    said = talk.thread("Alex", "VOTE:", at)
    assert not voted(talk, "Alex")
    reply = to(said, "pm:alex")
    assert len(reply) == 1 and "names nobody to vote on" in reply[0]


def test_a_storytellers_bang_vote_keeps_its_console_meaning():
    talk, at = _nominations_open()
    said = talk.thread("nightingale", "!vote Ellen yes on Derek", at)
    assert voted(talk, "Ellen")
    assert not [s for s in said if "usual form" in s.raw]

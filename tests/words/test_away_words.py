"""Away notices in words (issue 41): the player's answer, the Storytellers' note, "away until"
beside the seat in the vote count, and the answer to a form the bot cannot read."""

from datetime import timedelta

from modbot.core.deciding.away import AWAY

from ..conversation import DAWN1, NIGHT1_LOCK, START, Conversation, botf_setup, to

H = timedelta(hours=1)


def _day_one():
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.tick(NIGHT1_LOCK)
    talk.approve(NIGHT1_LOCK + H)
    talk.tick(DAWN1)
    return talk


def test_the_player_and_the_storytellers_are_told_and_the_count_shows_it():
    talk = _day_one()
    said = talk.thread("Gus", "/away until 2026-12-04 06:00\nA work trip, back Friday.", DAWN1 + H)
    assert len({s.key for s in said}) == len(said)  # each its own key: the outbox sends each
    (ack,) = [s.raw for s in said if s.thread == "pm:gus"]
    assert ack.startswith('## Away until [date=2026-12-04 time=06:00:00 timezone="UTC"]')
    assert "Post `/back`" in ack
    (note,) = to(said, "pm:storytellers")
    assert "Gus is away until Fri 04 Dec 06:00 UTC" in note
    talk.tick(DAWN1 + 12 * H)
    said = talk.thread("Alex", "/nominate Fatima\nShe is too quiet.", DAWN1 + 13 * H)
    (count,) = to(said, "topic")
    assert 'Gus (away until [date=2026-12-04 time=06:00:00 timezone="UTC"])' in count


def test_a_form_the_bot_cannot_read_is_answered_with_the_forms():
    talk = _day_one()
    said = talk.pm("Gus", "/away until whenever\nNot sure when I am back.", DAWN1 + H)
    (answer,) = [s.raw for s in said if s.raw]
    assert "/away until 2026-12-05 18:00" in answer and "/away 2d" in answer
    assert AWAY.of(talk.state) == ()

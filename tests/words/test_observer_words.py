"""Observers in words (issue 41): the observer is invited into the observers' conversation
(with the Storytellers) before its welcome, which shows the grimoire; each dawn's digest names
every character, the night's choices and what each player learned; none of it goes to the
thread or a player's PM."""

from datetime import timedelta

from ..conversation import NIGHT1_LOCK, START, Conversation, botf_setup

H = timedelta(hours=1)


def test_the_observer_is_invited_then_welcomed_with_the_grimoire():
    talk = Conversation(botf_setup())
    talk.tick(START)
    said = talk.st("!observer Quinn --yes", START + H)
    observed = [s for s in said if s.thread == "pm:observers"]
    assert observed[0].raw == "invite:Quinn"
    welcome = observed[1]
    assert set(welcome.recipients) == {"Quinn", "nightingale"}
    assert "Quinn is watching the grimoire" in welcome.raw
    assert "| 1 | Alex | Clockmaker | Loyal | alive |" in welcome.raw
    assert not [s for s in said if s.thread == "topic"]


def test_the_dawn_digest_goes_to_the_observers_alone():
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.st("!observer Quinn --yes", START + H)
    talk.pm("Brianna", "/choose Alex\nMy choice for tonight.", START + 2 * H)
    talk.tick(NIGHT1_LOCK)
    said = talk.approve(NIGHT1_LOCK + H) + talk.tick(talk.state.phase_ends_at)
    (digest,) = [s.raw for s in said if s.thread == "pm:observers"]
    assert digest.startswith("## Dawn after night 1")
    assert "Brianna (Dreamer): Alex" in digest and "### What each player learned" in digest
    public = [s.raw for s in said if s.thread == "topic"]
    assert public and not any("Dreamer" in p or "Clockmaker" in p for p in public)

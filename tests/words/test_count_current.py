"""`!vc` right after a count, with no vote changed since, does not post the same count twice
(issue 42): the Storytellers are told it still stands; a change, or the interval, posts
again."""

from datetime import timedelta

from ..conversation import DAWN1, NIGHT1_LOCK, START, Conversation, botf_setup, to

H = timedelta(hours=1)
M = timedelta(minutes=1)


def _counts(said) -> list[str]:
    return [raw for raw in to(said, "topic") if "Vote count 1." in raw]


def test_a_count_asked_for_right_after_one_is_not_posted_again():
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.tick(NIGHT1_LOCK)
    talk.dawn()
    at = DAWN1 + 13 * H  # nominations are open
    nominated = talk.thread("Alex", "/nominate Derek", at)
    assert len(_counts(nominated)) == 1  # the nomination's own count
    again = talk.st("!vc", at + 2 * M)
    assert _counts(again) == []
    note = " ".join(to(again, "pm:storytellers") + to(again, "pmtopic"))
    assert "No vote has changed since vote count 1." in note
    talk.thread("Brianna", "/vote Derek", at + 3 * M)
    changed = talk.st("!vc", at + 4 * M)
    assert len(_counts(changed)) == 1  # a vote changed: a new count
    assert _counts(talk.st("!vc", at + 5 * M)) == []
    later = talk.st("!vc", at + 4 * M + 61 * M)
    assert len(_counts(later)) == 1  # the interval passed: posted anew on request

"""A player who dies is told by PM, with how their vote works from now on (issue 16)."""

from __future__ import annotations

from .test_vote_forms import H, _nominations_open


def _notices(said) -> list:
    return [s for s in said if s.raw.startswith("## You died")]


def test_an_executed_player_is_told_and_learns_how_the_vote_token_works():
    talk, at = _nominations_open()
    said = talk.st("!execute Derek --yes", at + H)
    (notice,) = _notices(said)
    assert notice.thread == "pm:derek" and "Derek" in notice.recipients
    assert notice.raw.splitlines()[2].startswith("You were executed ([date=")
    assert "one vote token" in notice.raw and "cannot nominate" in notice.raw


def test_a_player_killed_by_the_storytellers_is_told_once():
    talk, at = _nominations_open()
    (notice,) = _notices(talk.st("!kill Alex --yes", at + H))
    assert notice.thread == "pm:alex" and "You died ([date=" in notice.raw
    assert _notices(talk.tick(at + 2 * H)) == []


def test_no_one_alive_is_told_they_died():
    talk, at = _nominations_open()
    assert _notices(talk.tick(at + H)) == []

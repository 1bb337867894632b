"""Countdowns (issue 41): every deadline in a public post is a [date] tag with
countdown="true" (its date beside it) and each phase post gives its phase as a [date-range];
private messages keep plain [date] tags."""

import re
from datetime import timedelta

from ..conversation import DAWN1, NIGHT1_LOCK, START, Conversation, botf_setup

COUNTDOWN = re.compile(r'\[date=[^\]]* countdown="true"\]')
RANGE = re.compile(r"\[date-range from=\S+ to=\S+ timezone=\"UTC\"\]")


def _a_day_and_a_night():
    talk = Conversation(botf_setup())
    said = list(talk.tick(START))
    said += talk.tick(NIGHT1_LOCK)
    said += talk.approve(NIGHT1_LOCK + timedelta(hours=1))
    said += talk.tick(DAWN1)
    for hours in (12, 24, 48):  # nominations, voting, then the day ends
        said += talk.tick(DAWN1 + timedelta(hours=hours))
    said += talk.thread("Alex", "/vc\nWhere do the votes stand now?", DAWN1 + timedelta(hours=30))
    return talk, said


def test_public_deadlines_count_down_and_phases_are_ranges():
    _, said = _a_day_and_a_night()
    public = [s.raw for s in said if s.thread == "topic"]
    phases = [p for p in public if p.startswith(("## Night", "## Day", "## Nominations are open"))]
    assert phases, public
    for post in phases:
        assert COUNTDOWN.search(post), post
        assert RANGE.search(post), post
    for post in public:
        for tag in re.findall(r"\[date=[^\]]*\]", post):
            if "time left: " + tag in post:
                assert 'countdown="true"' in tag


def test_private_messages_keep_plain_dates():
    _, said = _a_day_and_a_night()
    private = [s.raw for s in said if s.thread != "topic"]
    assert any("[date=" in p for p in private)
    assert not any('countdown="true"' in p or "[date-range" in p for p in private)

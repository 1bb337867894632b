"""A User API key's day (app/reading/request_plan.py): the bus's polls are held back to back
while a game is busy and a quarter of the day is left, 50 s apart after a quiet one otherwise,
and further apart as the day's budget runs low; without the bus, the full reads spend what
the day allows for the next hour, slowing smoothly as it runs down, never its last tenth."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from modbot.app.reading.bus_watch import user_key_pace
from modbot.app.reading.request_plan import IDLE_GAP, LONGEST, poll_every, sustains

NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)


def _game(deadline_in: timedelta, last_post_ago: timedelta | None):
    return SimpleNamespace(state=SimpleNamespace(phase_ends_at=NOW + deadline_in),
                           clock_at=NOW - last_post_ago if last_post_ago is not None else None)


BUSY = _game(timedelta(hours=1), None)  # a deadline near
QUIET = _game(timedelta(hours=9), timedelta(hours=3))


def test_a_busy_game_keeps_the_poll_held_and_a_quiet_one_spaces_it():
    assert user_key_pace([BUSY], NOW) == 0
    assert user_key_pace([_game(timedelta(hours=9), timedelta(minutes=5))], NOW) == 0  # posting
    assert user_key_pace([QUIET], NOW) == IDLE_GAP
    assert user_key_pace([QUIET, BUSY], NOW) == 0
    assert user_key_pace([], NOW) == IDLE_GAP


def test_the_days_budget_left_spaces_the_polls_as_it_runs_down():
    day = 2_800
    assert user_key_pace([QUIET], NOW, 2_000, day) == IDLE_GAP  # more than half left
    assert user_key_pace([QUIET], NOW, 700, day) == 2 * IDLE_GAP  # a quarter
    assert user_key_pace([QUIET], NOW, 350, day) == 4 * IDLE_GAP  # an eighth
    assert user_key_pace([QUIET], NOW, 10, day) == LONGEST
    assert user_key_pace([BUSY], NOW, 700, day) == 0  # busy, a quarter left: still held
    assert user_key_pace([BUSY], NOW, 600, day) > 0  # less: the day's budget wins


class _Client:
    """A forum client that answers one bus poll with the given messages."""

    def __init__(self, messages) -> None:
        from modbot.adapters.budget import Budget
        self.budget, self.timeout, self.messages = Budget(0), 10, messages

    def _request(self, *_args, **_kwargs):
        return self.messages


def test_the_bots_own_post_moves_the_channels_id_but_wakes_nobody():
    import threading

    from modbot.app.reading.bus_watch import BusWatch
    own = [{"channel": "/topic/7", "message_id": 4, "data": {"user_id": 2, "post_number": 9}}]
    wake = threading.Event()
    watch = BusWatch(lambda: _Client(own), lambda: ["/topic/7"], wake, {"/topic/7": 3},
                     own=lambda: 2)
    assert watch.poll_once() == [] and not wake.is_set() and watch.last["/topic/7"] == 4
    theirs = [{"channel": "/topic/7", "message_id": 5, "data": {"user_id": 5, "post_number": 10}}]
    watch.client = _Client(theirs)
    assert watch.poll_once() == theirs and wake.is_set() and watch.last["/topic/7"] == 5


def test_a_wake_up_names_the_topics_and_whether_a_pm_came():
    from modbot.app.reading.intake import Wake
    assert Wake.of({"/topic/12", "/topic/7"}) == Wake(frozenset({7, 12}), False)
    assert Wake.of({"/topic/12", "/notification-alert/3"}) == Wake(frozenset({12}), True)
    assert Wake.of({"/topic/12", "/latest"}) is None  # a channel it cannot place: read it all


def test_the_watch_hands_over_what_its_news_named_once():
    import threading

    from modbot.app.reading.bus_watch import BusWatch
    from modbot.app.reading.intake import Wake
    news = [{"channel": "/topic/7", "message_id": 5, "data": {"user_id": 5}},
            {"channel": "/notification-alert/2", "message_id": 1, "data": {}}]
    watch = BusWatch(lambda: _Client(news), lambda: ["/topic/7", "/notification-alert/2"],
                     threading.Event(), {"/topic/7": 4, "/notification-alert/2": 0})
    assert watch.take_wake() is None  # nothing yet: a cycle would read everything
    watch.poll_once()
    assert watch.take_wake() == Wake(frozenset({7}), True)
    assert watch.take_wake() is None  # handed over once


def test_without_the_bus_the_poll_keeps_to_the_keys_minute_and_day():
    """request_plan.py: a full read costs 2 requests; polls take a quarter of the minute; on a
    User API key the next hour may spend what comes back to the day in it and the remainder
    above a tenth of the day spread over eight hours, less what the last hour spent beside
    reads; a quiet game no more often than half the day on polling allows."""
    admin = poll_every(1, 55)  # an admin's key: 55 a minute, no day
    assert admin == pytest.approx(2 * 60 / (55 / 4))
    assert poll_every(30, 55) == 30  # a longer poll_seconds is kept
    user = {"per_minute": 18, "per_day": 2_800}
    busy = poll_every(15, **user, day_left=2_800, busy=True)
    quiet = poll_every(15, **user, day_left=2_800)
    assert busy == pytest.approx(2 * 60 / (18 / 4))  # 27 s: the minute's floor, a full day
    assert quiet == pytest.approx(2 * 86_400 / 1_400)  # 123 s: half the day on polling
    assert poll_every(15, **user, day_left=700) == pytest.approx(2 * quiet)  # a quarter left
    paces = [poll_every(15, **user, day_left=left, busy=True, others=60)
             for left in (2_800, 2_000, 1_400, 1_000)]  # 28 s, 46 s, 90 s, 240 s
    assert paces == sorted(paces) and busy < paces[0] and paces[-1] < LONGEST  # slows smoothly
    # (700 left, 60 an hour beside reads: (700 - 280) / 8 - 60 = -7.5 an hour: the slow sweep)
    assert poll_every(15, **user, day_left=300, busy=True, others=60) == LONGEST
    assert poll_every(15, **user, day_left=300, busy=True, leaving=200) < LONGEST  # coming back
    plan = sustains(18, 2_800)
    assert (plan.poll_floor, plan.quiet_floor) == (busy, quiet) and plan.games_a_day == 1

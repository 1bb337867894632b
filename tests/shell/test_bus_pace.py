"""A User API key's day (app/reading/request_plan.py): the bus's polls follow the day plan,
held back to back while a busy game leaves the hour room, spaced smoothly as the day runs down,
a quiet game's a held poll and 50 s apart at most often; without the bus, the full reads
spend what the day allows for the next hour, slowing smoothly as it runs down, never its last
tenth."""

from datetime import UTC, datetime, timedelta
from itertools import pairwise
from types import SimpleNamespace

import pytest

from modbot.adapters.budget import Budget
from modbot.app.reading.bus_watch import user_key_pace
from modbot.app.reading.request_plan import (
    BUS_HOLD,
    DAY_RESERVE,
    IDLE_GAP,
    LONGEST,
    bus_interval,
    poll_every,
    sustains,
)

NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)
DAY = 2_800


def _game(deadline_in: timedelta, last_post_ago: timedelta | None):
    return SimpleNamespace(state=SimpleNamespace(phase_ends_at=NOW + deadline_in),
                           clock_at=NOW - last_post_ago if last_post_ago is not None else None)


BUSY = _game(timedelta(hours=1), None)  # a deadline near
QUIET = _game(timedelta(hours=9), timedelta(hours=3))


def _spent(count: int, per_day: int = DAY) -> Budget:
    """A User API key's budget that has made `count` requests in the last minutes."""
    at = [10_000.0]
    budget = Budget(18, per_day=per_day, clock=lambda: at[0])
    budget.day_times.extend(at[0] - 60 - i * 0.5 for i in range(count))
    return budget


def test_a_busy_game_polls_as_the_day_allows_and_a_quiet_one_spaces_it():
    fresh = _spent(0)  # a whole day left: (2,800 - 280) / 12 = 210 requests an hour
    busy = user_key_pace([BUSY], NOW, fresh, 0)
    assert busy == pytest.approx(3600 / 210) and busy < BUS_HOLD  # held back to back
    posting = _game(timedelta(hours=9), timedelta(minutes=5))
    assert user_key_pace([posting], NOW, fresh, 0) == busy
    assert user_key_pace([QUIET], NOW, fresh, 0) == BUS_HOLD + IDLE_GAP
    assert user_key_pace([QUIET, BUSY], NOW, fresh, 0) == busy
    assert user_key_pace([], NOW, fresh, 0) == BUS_HOLD + IDLE_GAP
    # a poll that announced a post: busy, though the daemon has not read the post yet
    assert user_key_pace([QUIET], NOW, fresh, 0, news=True) == busy
    assert user_key_pace([BUSY], NOW, Budget(55), 0) == 0  # an admin's key: no day to plan


def test_the_polls_share_the_hour_with_the_other_requests():
    """The last hour's requests beside the polls come out of the hour's allowance; the
    polls' own do not (they are what the plan spaces)."""
    budget = _spent(200)
    assert user_key_pace([BUSY], NOW, budget, 200) < user_key_pace([BUSY], NOW, budget, 0)
    assert user_key_pace([BUSY], NOW, budget, 0) > BUS_HOLD  # 200 reads and posts: spaced
    assert user_key_pace([BUSY], NOW, budget, 200) < BUS_HOLD  # 200 polls: held again


def test_the_days_budget_left_spaces_the_polls_as_it_runs_down():
    assert bus_interval(DAY, 2_000, False) == BUS_HOLD + IDLE_GAP  # more than half left
    for left in (1_400, 1_000, 700, 350):  # a quiet game: the idle gap, longer below half
        assert bus_interval(DAY, left, False) >= BUS_HOLD + IDLE_GAP * 1_400 / left
    assert bus_interval(DAY, 10, False) == BUS_HOLD + LONGEST
    busy = [bus_interval(DAY, left, True, others=10) for left in (2_800, 2_000, 1_400, 1_000)]
    assert busy == sorted(busy)  # 18 s, 27 s, 43 s, 72 s: slower smoothly, no cliff
    assert all(later < 2 * sooner for sooner, later in pairwise(busy))
    assert busy[-1] < BUS_HOLD + LONGEST
    # the day's last tenth is never planned for polling: only what comes back to the day
    assert bus_interval(DAY, int(DAY * DAY_RESERVE), True) == BUS_HOLD + LONGEST
    assert bus_interval(DAY, int(DAY * DAY_RESERVE), True, leaving=144) == 25
    assert bus_interval(0, None, True) == 0  # no day kept: the bus polls at will


@pytest.mark.parametrize("others_an_hour", [0, 40, 80])
def test_a_day_busy_from_dawn_to_dusk_never_runs_the_key_dry(others_an_hour):
    """The bus's plan over a day, a busy game every hour of it, the other requests (woken
    reads, posts, the sweep) steady: the polls and the rest stay within the key's day, and the
    polls never spend its last tenth."""
    polls: list[float] = []
    others: list[float] = []
    at, owed = 0.0, 0.0
    while at < 86_400:
        hour_others = sum(1 for t in others if at - t <= 3600)
        left = DAY - len(polls) - len(others)
        step = max(bus_interval(DAY, left, True, others=hour_others), BUS_HOLD)
        if left <= DAY * DAY_RESERVE:  # the last tenth: the slowest poll, no more
            assert step == BUS_HOLD + LONGEST
        polls.append(at)
        owed += others_an_hour * step / 3600
        while owed >= 1:
            others.append(at)
            owed -= 1
        at += step
    assert len(polls) + len(others) <= DAY
    assert len(polls) > 24 * 3600 / (BUS_HOLD + LONGEST)  # the bus was never given up


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


def test_the_sandboxs_bus_holds_a_poll_for_the_forums_seconds():
    """At 60x a quiet poll's 25 s hold passes in under half a real second, as a forum on that
    clock would hold it; a clock standing still between a script's moves holds real ones."""
    import time

    from modbot.sandbox.message_bus import Bus
    fast, still = Bus(speed=lambda: 60.0), Bus(hold=0.2, speed=lambda: 0.0)
    began = time.monotonic()
    assert fast.poll(1, {"/topic/7": 0}) == []
    assert time.monotonic() - began < 5  # 25 forum seconds, not 25 real ones
    began = time.monotonic()
    still.poll(1, {"/topic/7": 0})
    assert time.monotonic() - began >= 0.2


def test_the_watch_counts_its_gaps_on_the_budgets_clock_and_waits_them_in_real_seconds():
    """On the sandbox's clock at 60x the plan's 120 forum seconds are 2 real ones; the watch
    counts its polls of the last hour apart from the key's other requests."""
    import threading

    from modbot.app.reading.bus_watch import BusWatch
    at = [0.0]
    budget = Budget(18, per_day=DAY, clock=lambda: at[0])
    waited: list[float] = []
    watch = BusWatch(lambda: _Client([]), lambda: ["/topic/7"], threading.Event(),
                     {"/topic/7": 3}, lambda polls, _news: 120.0 + polls, budget,
                     real=lambda seconds: seconds / 60)
    watch.stopping = SimpleNamespace(wait=waited.append, is_set=lambda: False)
    watch.poll_once()
    at[0] = 4_000.0  # over an hour later: that poll no longer counts
    watch.poll_once()
    assert watch.recent_polls() == 1
    watch._wait(watch.pace(watch.recent_polls(), False))
    assert waited == [pytest.approx(121 / 60)]


def test_while_the_bus_works_the_sweep_slows_as_the_day_runs_down():
    from modbot.app.reading.request_plan import sweep_every
    assert sweep_every(300, DAY, DAY) == sweep_every(300, DAY, 1_400) == 300
    assert sweep_every(300, DAY, 700) == 600  # a quarter of the day left: half as often
    assert sweep_every(300, 0, None) == 300  # an admin's key: no day to plan

"""The request budget (modbot/adapters/budget.py): a sliding minute as Discourse counts it,
spent by priority."""

from modbot.adapters.budget import DAY, HOUR, POSTS_SHARE, RESERVE, Budget, Priority, day_cursors, restore_day


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_full_minute_refuses_until_its_oldest_request_is_a_minute_old():
    clock = Clock()
    budget = Budget(10, clock=clock)
    for n in range(10):
        clock.t = n
        assert budget.charge() == 0
    clock.t = 30
    assert budget.charge() == 30  # the first request (at 0 s) leaves the minute at 60 s
    clock.t = 60
    assert budget.charge() == 0
    assert budget.spent == 11 and budget.refused == 1


def test_live_reads_may_spend_what_background_work_leaves():
    clock = Clock()
    budget = Budget(20, clock=clock)
    with budget.spending(Priority.BACKGROUND):
        spent = 0
        while budget.charge() == 0:
            spent += 1
    assert spent == 20 - RESERVE[Priority.BACKGROUND]
    with budget.spending(Priority.DUE):
        assert budget.charge() == 0  # posts that are due still go
    with budget.spending(Priority.LIVE):
        while budget.charge() == 0:
            spent += 1
    assert len(budget.times) == 20  # the last requests of the minute were the live games'


def test_reads_leave_the_posts_owed_now_their_share_of_the_minute():
    """A busy minute of reads (a start-up, polls) never holds every post back: while posts
    are owed, live reads stop POSTS_SHARE short of the minute; posts still leave the reads
    RESERVE[DUE]."""
    budget = Budget(18, clock=Clock())
    budget.due_waiting = 3
    with budget.spending(Priority.LIVE):
        reads = 0
        while budget.charge() == 0:
            reads += 1
    assert reads == 18 - 3  # three posts owed: three requests kept for them
    with budget.spending(Priority.DUE):
        posts = 0
        while budget.charge() == 0:
            posts += 1
    assert posts == 3 - RESERVE[Priority.DUE]  # the rest of the minute is the reads' again
    budget = Budget(18, clock=Clock())
    budget.due_waiting = 50
    with budget.spending(Priority.LIVE):
        assert sum(budget.charge() == 0 for _ in range(30)) == 18 - POSTS_SHARE


def test_no_budget_kept_when_the_forum_has_no_limit():
    budget = Budget(0, clock=Clock())
    assert all(budget.charge() == 0 for _ in range(1000))


def test_background_work_leaves_room_for_the_posts_that_are_due():
    def background_share(due_waiting: int) -> int:
        budget = Budget(40, clock=Clock())
        budget.due_waiting = due_waiting
        spent = 0
        with budget.spending(Priority.BACKGROUND):
            while budget.charge() == 0:
                spent += 1
        return spent

    assert background_share(0) == 40 - RESERVE[Priority.BACKGROUND]
    assert background_share(15) == 25  # the 15 posts owed now can still go this minute
    assert background_share(500) == 20  # never less than half the minute for the background


def test_a_day_kept_refuses_past_its_size_until_the_oldest_request_is_a_day_old():
    clock = Clock()
    budget = Budget(0, per_day=3, clock=clock)  # a User API key's day, no minute kept
    for n in range(3):
        clock.t = n * 600
        assert budget.charge() == 0
    assert budget.day_left() == 0
    clock.t = 3600
    assert budget.charge() == 86400 - 3600 and budget.spent == 3
    clock.t = 86400
    assert budget.day_left() == 1 and budget.charge() == 0
    assert Budget(10).day_left() is None  # an admin's key: no day kept


def test_a_charge_of_its_own_priority_ignores_the_current_one():
    """The bus's thread charges as a live read while the daemon's thread spends background."""
    clock = Clock()
    budget = Budget(20, clock=clock)
    with budget.spending(Priority.BACKGROUND):
        while budget.charge() == 0:
            pass
        assert budget.charge(Priority.LIVE) == 0  # what background work left
        assert budget.charge() > 0



WALL = 1_796_148_000.0  # 2026-12-01 18:00 UTC: the wall clock's hour 498,930


def _spent_at(ages_in_hours: list[float]) -> Budget:
    """A key's budget (100 a day) whose requests were made these many hours before its now."""
    clock = Clock()
    clock.t = 500_000.0  # the budget's clock (monotonic) is not the wall clock
    budget = Budget(0, per_day=100, clock=clock)
    for age in sorted(ages_in_hours, reverse=True):
        budget.day_times.append(clock.t - age * HOUR)
    return budget


def test_a_restart_charges_again_what_an_earlier_run_spent_of_the_keys_day():
    ages = [0.2, 0.4, 3.5, 23.9]  # hours before 18:30: 18:18, 18:06, 15:00, and 18:36 the day
    now = WALL + HOUR / 2  # before, whose hour of the day is today's 18:00 too
    cursors = day_cursors(_spent_at(ages), now)
    assert len(cursors) == 3 and sum(v % 100_000 for v in cursors.values()) == 4
    after = Budget(0, per_day=100, clock=lambda: 7.0)  # a new process, another monotonic clock
    assert restore_day(after, cursors, now) == 4
    assert after.day_left() == 96
    # each at its hour's end (or now): none leaves the day before the request it stands for
    real_leaves = sorted(now - a * HOUR + DAY for a in ages)
    restored_leaves = sorted(now - (7.0 - t) + DAY for t in after.day_times)
    assert all(r >= t for r, t in zip(restored_leaves, real_leaves, strict=True))


def test_an_hour_a_day_old_is_not_charged_again():
    cursors = day_cursors(_spent_at([0.5, 25.0]), WALL)  # the second has left the key's day
    after = Budget(0, per_day=100, clock=lambda: 0.0)
    assert restore_day(after, {**cursors, "bus:/topic/12": 40}, WALL) == 1
    assert restore_day(Budget(0, per_day=100), cursors, WALL + DAY + HOUR) == 0

"""Theory of operation: how often the bot may read, from the key's two limits: the plan of the
run loop's full reads and of the bus's quiet polls, in one place.

Discourse meters a key by the minute (an admin's key: 60 shared by every admin key, the bot
keeps 55; a User API key: 20, the bot keeps 18) and a User API key by the day too (2,880; the
bot keeps 2,800), every request counted, the MessageBus's polls included: 2 a minute on
average for everything. So no setting may make the bot read so often that the key runs dry;
`poll_seconds` is the shortest interval the plan polls at, never a promise:

- a full read (the listing of the game threads and the PM inbox) costs about
  `REQUESTS_A_READ` requests; polls may take `POLL_SHARE` of the minute, so a full read
  comes at most every 2 × 60 / (per_minute / 4) seconds: 27 s on a User API key, 9 s on an
  admin's;
- on a User API key the day sets the pace: the next hour may spend what comes back to the
  sliding day within it and the day's remainder above a tenth of it (`DAY_RESERVE`, for the
  posts owed and a burst's answers) spread over eight hours (`HORIZON`), less what the last
  hour spent beside reads (posts, counts, the sweep); the reads take that, a busy game's (a
  deadline near, a post in the last half hour) as often as it allows down to the minute's
  floor, a quiet game's never more often than half the day on polling (123 s while half the
  day is left, slower in proportion below); neither beyond `LONGEST`, 300 s. So a day busy
  from dawn to dusk slows smoothly as it spends and never spends the day's last tenth on
  reading (`poll_every`; before, a busy game was read at the minute's floor until a quarter of
  the day was left and then at once at the quiet pace, and a day busy to its end still ran
  dry an hour and a half before it ended: benchmarks/key_rehearsed_day.py);
- with the bus, its polls follow the same day plan (`bus_interval`): the next hour's polls
  may spend what `hour_allowance` gives over twelve hours less the last hour's other requests
  (the woken reads, the sweep, the posts), so a busy game's poll is held back to back while
  the day has room
  and spaced as it runs down, smoothly, never its last tenth; a quiet game's no more often
  than one held poll and `IDLE_GAP` (50 s) while half the day is left, slower in proportion
  below; never more than `LONGEST` beyond the hold. Before, the polls were held back to back
  while a game was busy and a quarter of the day was left, then at once 100 s apart: a day
  busy to its end ran dry as the reads' old plan did (benchmarks/key_rehearsed_day.py);
- while the bus works, a full read sweeps every `bus_sweep_seconds` (300 s), slower as a User
  API key's day runs down below half (`sweep_every`);
- in a busy minute the bus's polls keep to a quarter of the minute too (bus_watch.py), and a
  cycle never starts while the minute is spent (run_loop.py): people's posts are read in
  batches instead of a request each.

`poll_every` gives the interval the daemon polls at now; `sustains` what the key sustains,
for `modbot check` to say.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

REQUESTS_A_READ = 2  # a full read: the listing of the game threads, the PM inbox
POLL_SHARE = 0.25  # of the minute, what polling may take
DAY_SHARE = 0.5  # of a User API key's day, what polling may take (the rest: people's posts)
USER_KEY_MINUTE, USER_KEY_DAY = 18, 2_800  # what the bot keeps of a User API key's limits
ACTIONS_A_GAME_DAY = 200  # posts with an action a busy game makes in a day (key_day.py)
REQUESTS_AN_ACTION = 4  # requests a post with an action costs (a read, a count, a post, a poll)


BUS_HORIZON = 12 * 3600.0  # seconds: the bus spreads the remainder over half a day
BUS_HOLD = 25.0  # seconds: the forum holds a quiet bus poll this long (long_polling_interval)
HORIZON = 8 * 3600.0  # seconds: the day's remainder above its reserve is spread over this
DAY_RESERVE = 0.1  # of the key's day, never planned for reads: the posts owed, a burst's answers
LONGEST = 300.0  # seconds: the longest interval between full reads of a quiet game (the sweep's)
IDLE_GAP = 50.0  # seconds between a User API key's quiet bus polls, half the day left: a post
# waits at most this (and a read) to be seen, under the minute a player should wait off-peak


class LastHour:
    """Moments of one kind of request in the last hour (the run loop's full reads, the bus's
    polls): the plan counts them apart from the key's other requests."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def add(self, at: float) -> None:
        self.times.append(at)

    def count(self, now: float) -> int:
        while self.times and now - self.times[0] > 3600:
            self.times.popleft()
        return len(self.times)


@dataclass(frozen=True)
class Sustains:
    """What a key sustains: the shortest interval between full reads (a busy game's), the
    interval while no game is busy, the busy games a day, and the gap in a busy minute."""

    poll_floor: float  # seconds
    quiet_floor: float  # seconds
    games_a_day: int | None  # busy games its day serves (None: no day is kept)
    busy_gap: float  # seconds between reads in a busy minute


def sustains(per_minute: float, per_day: int) -> Sustains:
    games = int(per_day * (1 - DAY_SHARE) // (ACTIONS_A_GAME_DAY * REQUESTS_AN_ACTION)) \
        if per_day else None
    gap = 60 / max(per_minute * POLL_SHARE, 1e-9) if per_minute else 0.0
    return Sustains(poll_every(0, per_minute, per_day, per_day, busy=True),
                    max(_minute_floor(per_minute), day_pace(per_day, 1.0)), games, gap)


def day_share(day_left: int | None, per_day: int) -> float:
    """The share of the key's day still to spend (1: no day kept)."""
    return day_left / per_day if day_left is not None and per_day else 1.0


def poll_every(poll_seconds: float, per_minute: float, per_day: int = 0,
               day_left: int | None = None, busy: bool = False, *, leaving: int = 0,
               others: int = 0) -> float:
    """The interval the daemon polls at now: `poll_seconds`, or what the key sustains if
    longer: the minute's floor; on a key with a day, what the day allows for reading in the
    next hour (`hour_allowance`, less `others`: the last hour's requests beside reads), a
    quiet game no more often than the day's quiet pace; never beyond `LONGEST`."""
    floor = max(poll_seconds, _minute_floor(per_minute))
    if not per_day or day_left is None:
        return floor
    for_reads = hour_allowance(per_day, day_left, leaving) - others
    pace = REQUESTS_A_READ * 3600 / max(for_reads, 1e-3)
    if not busy:
        pace = max(pace, day_pace(per_day, day_share(day_left, per_day)))
    return max(floor, min(pace, LONGEST))


def hour_allowance(per_day: int, day_left: int, leaving: int,
                   horizon: float = HORIZON) -> float:
    """Requests the next hour may spend: those that come back to the day within it, and the
    day's remainder above its reserve (`DAY_RESERVE`) spread over `horizon`."""
    spare = max(0.0, day_left - per_day * DAY_RESERVE)
    return leaving + spare * 3600 / horizon


def day_pace(per_day: int, share: float) -> float:
    """Seconds between full reads of a quiet game: half the day on polling while half of it
    is left, slower in proportion below (never beyond `LONGEST`)."""
    if not per_day:
        return 0.0
    return min(REQUESTS_A_READ * 86_400 / (per_day * DAY_SHARE) * _running_down(share), LONGEST)


def bus_interval(per_day: int, day_left: int | None, busy: bool, *, leaving: int = 0,
                 others: int = 0) -> float:
    """Seconds from one bus poll's start to the next's on a key with a day (0: no day, poll
    at will): the next hour's polls spend what the day allows for it (`hour_allowance`, the
    remainder spread over `BUS_HORIZON`) less `others`, the last hour's requests beside the
    polls; a quiet game's no more often than a held poll and `IDLE_GAP`, growing as the day
    runs down; never beyond `LONGEST` after the hold. The bus spreads over twelve hours where
    the reads spread over eight: held polls are most of what a key spends while the bus works
    (144 an hour back to back) and a request spent now stays in the day for 24 hours, so over
    eight hours a day with a steady 80 other requests an hour (woken reads, counts: a busy
    day's is some 45) runs dry before it ends, and over 24 hours the polls are spaced twice as
    far as they need be and a third of the day is never spent (tests/shell/test_bus_pace.py
    plays such days; benchmarks/key_rehearsed_day.py measured 24 hours: 1,868 requests, the
    median action read in 79 s)."""
    if not per_day or day_left is None:
        return 0.0
    for_polls = hour_allowance(per_day, day_left, leaving, BUS_HORIZON) - others
    interval = 3600 / max(for_polls, 1e-3)
    if not busy:
        interval = max(interval, BUS_HOLD + IDLE_GAP * _running_down(day_share(day_left, per_day)))
    return min(interval, BUS_HOLD + LONGEST)


def sweep_every(bus_sweep_seconds: float, per_day: int, day_left: int | None) -> float:
    """Seconds between full reads while the bus works: `bus_sweep_seconds`, longer as a User
    API key's day runs down below half (a quarter left: twice as long). A sweep is two requests
    the bus makes mostly needless (300 s apart: 576 a day, a fifth of the key's)."""
    return bus_sweep_seconds * _running_down(day_share(day_left, per_day))


def _running_down(share: float) -> float:
    """1 while half the day or more is left; then in proportion (a quarter: 2, an eighth: 4)."""
    return max(1.0, 0.5 / max(share, 1e-3))


def _minute_floor(per_minute: float) -> float:
    return REQUESTS_A_READ * 60 / (per_minute * POLL_SHARE) if per_minute > 0 else 0.0

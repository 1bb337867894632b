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
- the bus's quiet polls (bus_watch.py, `bus_gap`) keep the law measured with them
  (benchmarks/key_day.py, key_busy_day.py): held back to back while a game is busy and a
  quarter of the day is left; otherwise 50 s apart, longer as the day runs down (a quarter
  left: 100 s; never more than 300 s);
- in a busy minute the bus's polls keep to a quarter of the minute too (bus_watch.py), and a
  cycle never starts while the minute is spent (run_loop.py): people's posts are read in
  batches instead of a request each.

`poll_every` gives the interval the daemon polls at now; `sustains` what the key sustains,
for `modbot check` to say.
"""

from __future__ import annotations

from dataclasses import dataclass

REQUESTS_A_READ = 2  # a full read: the listing of the game threads, the PM inbox
POLL_SHARE = 0.25  # of the minute, what polling may take
DAY_SHARE = 0.5  # of a User API key's day, what polling may take (the rest: people's posts)
USER_KEY_MINUTE, USER_KEY_DAY = 18, 2_800  # what the bot keeps of a User API key's limits
ACTIONS_A_GAME_DAY = 200  # posts with an action a busy game makes in a day (key_day.py)
REQUESTS_AN_ACTION = 4  # requests a post with an action costs (a read, a count, a post, a poll)


BUSY_FLOOR = 0.25  # the bus is held back to back for a busy game while this much of the day is left
HORIZON = 8 * 3600.0  # seconds: the day's remainder above its reserve is spread over this
DAY_RESERVE = 0.1  # of the key's day, never planned for reads: the posts owed, a burst's answers
LONGEST = 300.0  # seconds: the longest interval between full reads of a quiet game (the sweep's)
IDLE_GAP = 50.0  # seconds between a User API key's quiet bus polls, half the day left: a post
# waits at most this (and a read) to be seen, under the minute a player should wait off-peak


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


def hour_allowance(per_day: int, day_left: int, leaving: int) -> float:
    """Requests the next hour may spend: those that come back to the day within it, and the
    day's remainder above its reserve (`DAY_RESERVE`) spread over `HORIZON`."""
    spare = max(0.0, day_left - per_day * DAY_RESERVE)
    return leaving + spare * 3600 / HORIZON


def day_pace(per_day: int, share: float) -> float:
    """Seconds between full reads of a quiet game: half the day on polling while half of it
    is left, slower in proportion below (never beyond `LONGEST`)."""
    if not per_day:
        return 0.0
    return min(REQUESTS_A_READ * 86_400 / (per_day * DAY_SHARE) * _running_down(share), LONGEST)


def bus_gap(share: float, busy: bool) -> float:
    """Seconds to wait after a quiet bus poll on a User API key: none while a game is busy and
    a quarter of the day is left (`BUSY_FLOOR`); `IDLE_GAP` otherwise, growing as the day runs
    down, up to `LONGEST`."""
    if busy and share >= BUSY_FLOOR:
        return 0.0
    return min(LONGEST, IDLE_GAP * _running_down(share))


def _running_down(share: float) -> float:
    """1 while half the day or more is left; then in proportion (a quarter: 2, an eighth: 4)."""
    return max(1.0, 0.5 / max(share, 1e-3))


def _minute_floor(per_minute: float) -> float:
    return REQUESTS_A_READ * 60 / (per_minute * POLL_SHARE) if per_minute > 0 else 0.0

"""Theory of operation: how often the bot may read, from the key's two limits.

Discourse meters a key by the minute (an admin's key: 60 shared by every admin key, the bot
keeps 55; a User API key: 20, the bot keeps 18) and a User API key by the day too (2,880; the
bot keeps 2,800), every request counted, the MessageBus's polls included: 2 a minute on
average for everything. So no setting may make the bot read so often that the key runs dry;
`poll_seconds` is the shortest interval the plan polls at, never a promise:

- a full read (the listing of the game threads and the PM inbox) costs about
  `REQUESTS_A_READ` requests; polls may take `POLL_SHARE` of the minute, so a full read
  comes at most every 2 × 60 / (per_minute / 4) seconds: 27 s on a User API key, 9 s on an
  admin's;
- on a User API key without a working MessageBus (with one, the bot reads on its news and
  polls fully only every `bus_sweep_seconds`), the day is spent as the bus's polls spend it
  (bus_watch.py `user_key_pace`): at the minute's floor while a game is busy (a deadline
  near, a post in the last half hour) and a quarter of the day is left; otherwise at the pace
  that spends `DAY_SHARE` of the day on polling, a full read every 2 × 86,400 / (2,800 / 2)
  = 123 s, longer as the day runs down (a quarter left: 246 s; never more than 300 s);
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


BUSY_FLOOR = 0.25  # below this share of the day left, no game is polled at the minute's pace
LONGEST = 300.0  # seconds: the longest interval between full reads (the slow sweep's)


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
    busy = _minute_floor(per_minute)
    return Sustains(busy, max(busy, _day_pace(per_day, 1.0)), games, gap)


def poll_every(poll_seconds: float, per_minute: float, per_day: int = 0,
               day_left: int | None = None, busy: bool = False) -> float:
    """The interval the daemon polls at now: `poll_seconds`, or what the key sustains if
    longer: the minute's floor; on a key with a day, while no game is busy (or the day runs
    low), the day's pace too, longer as the day runs down."""
    share = day_left / per_day if day_left is not None and per_day else 1.0
    day = 0.0 if busy and share >= BUSY_FLOOR else _day_pace(per_day, share)
    return max(poll_seconds, _minute_floor(per_minute), day)


def _minute_floor(per_minute: float) -> float:
    return REQUESTS_A_READ * 60 / (per_minute * POLL_SHARE) if per_minute > 0 else 0.0


def _day_pace(per_day: int, share: float) -> float:
    if not per_day:
        return 0.0
    pace = REQUESTS_A_READ * 86_400 / (per_day * DAY_SHARE) * max(1.0, 0.5 / max(share, 1e-3))
    return min(pace, LONGEST)

"""Theory of operation: the edit sweep, on a request budget.

Discourse tells no one about an edit, so the bot reads again, every `sweep_minutes`, each
game's posts of today whose first version carried actions (the only posts an edit could
matter in; after the day's end, that day's until the next dawn: an edit made after it, even
in Discourse's grace period, is reported, never applied), and its posts hidden by flags that
it could not read yet (20 ids a request, `/t/ID/posts.json?post_ids[]=`): it flags a changed
or self-deleted one to the Storytellers, and reads a hidden one once it is visible again.

A sweep *round* starts when the previous one has ended and `sweep_minutes` have passed since
it started: it queues every game with such posts. The round is worked through on a budget of
`RATE` requests a forum minute (at most `BURST` saved up), so with a 15 s poll the sweep costs
0.5 requests a cycle on average whatever the number of games: with a few busy games each is
read every `sweep_minutes`; with fifty, the round stretches (about 25 minutes at 15 s polls).
A game's read error is logged and the others go on.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ...adapters.forum import ForumError, OverBudget, TransientError

log = logging.getLogger("modbot.app.reading.edit_sweep")
RATE = 2.0  # requests a minute of forum time the sweep may spend, on average
BURST = 2.0  # requests it may spend in one cycle after a quiet spell
BATCH = 20  # post ids a request


class EditSweep:
    def __init__(self, minutes: float) -> None:
        self.minutes = minutes
        self.last_round: datetime | None = None  # when the current (or last) round started
        self.queue: deque[int] = deque()  # topic ids still to read this round
        self.credit = BURST
        self.credit_at: datetime | None = None

    def step(self, now: datetime, games: dict[int, Any],
             read_game: Callable[[Any], object]) -> None:
        """One cycle's share: start a round when one is due, then read games while the budget
        allows. `read_game(game)` reads one game's posts again and flags what changed."""
        self._earn(now)
        if not self.queue and self._round_due(now):
            self.queue.extend(t for t, g in games.items() if g.sweep_posts)
            self.last_round = now
        while self.queue and self.credit >= 1:
            game = games.get(self.queue.popleft())
            if game is None or not game.sweep_posts:
                continue
            self.credit -= -(-len(game.sweep_posts) // BATCH)  # its requests
            try:
                read_game(game)
            except OverBudget as exc:  # the key's minute is for live reads: later, in turn
                self.queue.appendleft(game.topic_id)
                log.info("game %s: edit sweep waits for the request budget (%.0fs)",
                         game.topic_id, exc.retry_after)
                return
            except TransientError as exc:  # the forum's limit, a 5xx, a timeout: nothing
                self.queue.appendleft(game.topic_id)  # failed a host could see; later, in turn
                log.info("game %s: edit sweep put off (%s): read again next round",
                         game.topic_id, exc)
                return
            except ForumError as exc:  # one game's error never stops the others
                log.error("game %s: edit sweep failed (tried again next round): %s",
                          game.topic_id, exc)

    def _earn(self, now: datetime) -> None:
        if self.credit_at is not None and now > self.credit_at:
            minutes = (now - self.credit_at).total_seconds() / 60
            self.credit = min(BURST, self.credit + RATE * minutes)
        self.credit_at = now if self.credit_at is None else max(now, self.credit_at)

    def _round_due(self, now: datetime) -> bool:
        return self.last_round is None or \
            now - self.last_round >= timedelta(minutes=self.minutes)

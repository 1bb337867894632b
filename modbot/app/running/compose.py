"""Theory of operation: the bot put together one way, wherever it runs.

`modbot run` (daemon.py), `modbot recover` (cli/recover.py), the scripted rehearsals
(cli/rehearsal.py) and `modbot rehearse` (cli/browser_rehearsal.py) each need the same parts: a store
on the database, the forum client with its request budget, and the service over both. They
differ only in what they say: which key (an admin's, or the bot's own User API key, which
has 20 requests a minute and 2,880 a day of its own: the bot keeps 18 and 2,800, the rest
for a `modbot check` or a restart), and which clock the forum keeps (a rehearsal's runs
faster than real time: its limiter counts the forum's minutes, so the budget must too;
`forum_seconds`, when the bot can read that clock for free, else `unmetered`: the forum's own
limiter answers instead; `forum_gaps`: the outbox spaces its posts on that clock too, where it
runs by itself rather than as a script moves it). `compose` builds them in that one order, so a budget is never set
in one place and undone in another: the service itself never configures the client. Then
every collaborator of the service's cycle, by `parts.assemble`, each from the narrow things it
uses (none is handed the service: the handling's way to make a game again from the store is
the service's start-up, bound once the service exists), and the service over them.
"""

from __future__ import annotations

from collections.abc import Callable

from ...adapters.forum_port import ForumPort
from ...adapters.store import Store
from ...core import GameSetup
from .parts import assemble
from .service import Service
from .settings import Settings

USER_KEY_PER_MINUTE = 18  # of a User API key's 20 a minute (the bus's polls charged to it too)
USER_KEY_PER_DAY = 2_800  # of its 2,880 a day: a margin for `modbot check` and a restart


def compose(client: ForumPort, database: str | Store, games: list[GameSetup],
            settings: Settings, *, user_key: bool = False, budget_set: bool = False,
            forum_seconds: Callable[[], float] | None = None,
            unmetered: bool = False, forum_gaps: bool = False) -> Service:
    """The service over `client` and a store on `database` (a URL, or a store opened
    already), its budget as the key and the forum's clock want (`budget_set`: the
    configuration named the minute's requests)."""
    store = Store(database) if isinstance(database, str) else database
    if forum_seconds is not None:
        client.budget.clock = forum_seconds  # the key's minute is the forum's
    if user_key:  # the key's own limits, from its first request
        client.budget.per_day = USER_KEY_PER_DAY
        minute = settings.requests_per_minute if budget_set else USER_KEY_PER_MINUTE
    else:  # an admin's key: unmetered on a forum clock the bot cannot read for free
        minute = 0 if unmetered else settings.requests_per_minute
    client.budget.per_minute = minute
    # every collaborator of the cycle, each from the narrow things it uses (parts.py); a game
    # is made again from the store by the service's start-up, known once the service is
    started: list[Service] = []
    parts = assemble(client, store, settings, reload=lambda game: started[0].reload(game))
    # the outbox's gaps between posts on the forum's clock too, where it runs by itself (a
    # rehearsal's sandbox at its speed); a scripted clock moves only when told: real time
    service = Service(client, store, games, settings, parts=parts,
                      wall=forum_seconds if forum_gaps else None)
    started.append(service)
    return service

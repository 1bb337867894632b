"""Theory of operation: the service's collaborators, assembled in one place.

`assemble` builds every part the service's cycle uses, each from the narrow things it needs:
the forum client (`ForumPort`), the store, the settings, and the one dict of running games
they share. No part is handed the service: the outbox's hooks get the games, the identities,
the store and the bot's name, and are told where to commit and whom the router knows once
the handling exists (`OutboxHooks.attach`), and which outbox and bot account once the service
has connected (`OutboxHooks.connected`). `compose.py` calls it with the client and budget it
set up; a `Service` made without parts assembles its own the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from ...adapters.forum_port import ForumPort
from ...adapters.store import Store
from ..games.handling import Handling
from ..games.identities import Identities
from ..games.quarantine import Quarantine
from ..games.runtime import GameRuntime
from ..posting.outbox_hooks import OutboxHooks
from ..posting.own_edits import OwnEdits
from ..posting.thread_index import ThreadIndex
from ..reading.edit_sweep import EditSweep
from ..reading.intake import Intake
from ..reading.thread_reads import PagedReads
from ..reading.watermark import Watermark
from ..recovery.snapshot import Snapshots
from ..starting.deal_guard import DealGuard
from .settings import Settings


@dataclass
class Parts:
    games: dict[int, GameRuntime]  # the running games, by topic id: one dict, shared
    guard: DealGuard  # no deal to a name the forum does not know
    sweeper: EditSweep  # the edit sweep, on a request budget
    snapshots: Snapshots
    identities: Identities
    long_reads: PagedReads  # a new or rebuilt game's thread, by id
    own_edits: OwnEdits
    index: ThreadIndex  # the bot's index post in each game thread
    watermark: Watermark
    hooks: OutboxHooks  # what the outbox asks of the games
    quarantine: Quarantine  # inputs that could not be handled
    handling: Handling
    intake: Intake


def assemble(client: ForumPort, store: Store, settings: Settings,
             reload: Callable[[GameRuntime], None]) -> Parts:
    """Every collaborator of the service's cycle; `reload` makes a game again from what the
    store committed (startup.py), for the handling after an input that raised."""
    games: dict[int, GameRuntime] = {}
    identities = Identities(client, store, settings.names_minutes * 60)
    watermark = Watermark(timedelta(seconds=settings.settle_seconds))
    sweeper = EditSweep(settings.sweep_minutes)
    hooks = OutboxHooks(games, identities, store, settings.bot_username)
    quarantine = Quarantine(store)
    handling = Handling(client, store, settings, games, identities, watermark, hooks,
                        quarantine, reload)
    hooks.attach(handling.commit_outgoing, handling.router)
    return Parts(games=games, guard=DealGuard(client), sweeper=sweeper,
                 snapshots=Snapshots(store, settings.snapshot_seconds), identities=identities,
                 long_reads=PagedReads(store=store), own_edits=OwnEdits(client, store),
                 index=ThreadIndex(store), watermark=watermark, hooks=hooks,
                 quarantine=quarantine, handling=handling,
                 intake=Intake(client, store, games, watermark, sweeper, handling))

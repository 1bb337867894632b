"""Theory of operation: what `modbot game new` posts: the game thread's opening post, rendered
from the game file, and the Storytellers' conversation with the bot.

The conversation's first note has the key the running game derives at its first reaction
(`Reactor.welcome`), and goes out through the outbox into the database `modbot run` will
use: so the daemon knows the conversation as its own (every later note goes into it), a
restart never posts the note again, and a rebuild from the forum finds it like the bot's
other PMs, by its marker.
"""

from __future__ import annotations

from datetime import timedelta

from ...adapters.forum_port import ForumPort
from ...adapters.outbox import Outbox
from ...adapters.outgoing import Batch
from ...adapters.store_port import OutboxStore
from ...core import GameSetup
from ..posting.reactions import GameOptions, Reactor
from ..posting.render import render
from ..posting.views import date_tag


def opening_post(setup: GameSetup, guide_url: str | None = None) -> str:
    """The schedule, the seats and the voting rules, then a short guide folded in a
    `[details]` block (with a link to the full player guide when the configuration has one)."""
    lengths = setup.lengths
    discussion = setup.first_night_starts + timedelta(hours=lengths.night)
    nomination = discussion + timedelta(hours=lengths.discussion)
    voting = nomination + timedelta(hours=lengths.nomination)
    day1 = {"discussion": date_tag(discussion), "nomination": date_tag(nomination),
            "voting": date_tag(voting),
            "end": date_tag(voting + timedelta(hours=lengths.voting))}
    return render("opening_post.md.j2", game=setup, lengths=lengths, day1=day1,
                  night1=date_tag(setup.first_night_starts),
                  has_travellers=any(s.traveller for s in setup.seats), guide_url=guide_url)


def open_storytellers_conversation(client: ForumPort, store: OutboxStore, setup: GameSetup,
                                   topic_id: int) -> int:
    """Post the Storytellers' conversation's first note now; its topic id."""
    reactor = Reactor(GameOptions(topic_id, f"g{topic_id}", storytellers=setup.storytellers,
                                  name=setup.name))
    note = reactor.welcome(setup)
    store.commit(Batch(outbox=[note]))
    Outbox(client, store).drain()
    row = store.row(note.key)
    if row is None or row.status != "sent" or row.topic_id is None:
        raise RuntimeError(f"the forum did not take the Storytellers' note ({row and row.status})")
    return int(row.topic_id)

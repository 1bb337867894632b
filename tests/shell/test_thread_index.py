"""The thread index's keeper (app/posting/thread_index.py), against a real store: the index post is
owed once, then an edit only when its words change, one waiting at a time, at most once every
`vote_count_minutes` of forum time."""

from datetime import timedelta
from types import SimpleNamespace

from modbot.adapters.outgoing import Batch, Outgoing
from modbot.adapters.store import OutboxRow, Store
from modbot.app.posting.reactions import GameOptions
from modbot.app.posting.thread_index import ThreadIndex
from modbot.core import GameState

from ..conversation import START, botf_setup


def _game():
    return SimpleNamespace(options=GameOptions(1, "g1", vote_count_minutes=60), topic_id=1,
                           state=GameState.from_setup(botf_setup()))


def _owed(keeper: ThreadIndex, store: Store, game, at) -> list[Outgoing]:
    rows = keeper.owed([game], at)
    store.commit(Batch(outbox=rows))
    return rows


def _posted(store: Store, key: str, number: int) -> None:
    """The bot's post `key` went out as post #`number` of the game thread."""
    if store.row(key) is None:
        store.commit(Batch(outbox=[Outgoing(key, "g1:topic", f"A post of the bot's ({key}).", topic_id=1)]))
    OutboxRow.update(status="sent", post_id=number * 10, post_number=number).where(
        OutboxRow.key == key).execute()


def test_owed_once_then_edited_only_as_its_words_change_and_its_pace_allows(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
    try:
        keeper, game, hour = ThreadIndex(store), _game(), timedelta(hours=1)
        (first,) = _owed(keeper, store, game, START)
        assert (first.key, first.kind, first.thread) == ("g1:index", "post", "g1:index")
        assert _owed(keeper, store, game, START + 2 * hour) == []  # not sent yet
        OutboxRow.update(status="sent", post_id=20, post_number=2).where(OutboxRow.key == "g1:index").execute()
        assert _owed(keeper, store, game, START + 2 * hour) == []  # the same words
        _posted(store, "g1:night:1", 3)
        (edit,) = _owed(keeper, store, game, START + 2 * hour)
        assert (edit.kind, edit.edit_of) == ("revise", "g1:index") and "[Night 1](/t/1/3)" in edit.raw
        _posted(store, "g1:discussion:1", 5)
        assert _owed(keeper, store, game, START + 3 * hour) == []  # one waiting at a time,
        waiting = OutboxRow.get(OutboxRow.key == edit.key)  # which takes the newest words
        assert waiting.status == "pending" and "[Day 1](/t/1/5)" in waiting.raw
        OutboxRow.update(status="sent").where(OutboxRow.key == edit.key).execute()
        _posted(store, "g1:nomination:1", 8)
        assert _owed(keeper, store, game, START + 2.5 * hour) == []  # its pace: the counts'
        (later,) = _owed(keeper, store, game, START + 3 * hour)
        assert "[Nominations, day 1](/t/1/8)" in later.raw
    finally:
        store.close()

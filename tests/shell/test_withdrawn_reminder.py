"""A night reminder the outbox has not sent yet when the player's choice arrives is withdrawn
(issue 42): never sent, so the player does not read "your choice has not arrived" just
before "accepted"; one the outbox already tried (it may be on the forum) stays."""

from datetime import timedelta

from modbot.adapters.outgoing import Batch, Outgoing
from modbot.adapters.store import OutboxRow, Store
from modbot.app.games.runtime import GameRuntime
from modbot.app.posting.reactions import GameOptions
from modbot.core import Post

from ..conversation import NIGHT1_LOCK, START, botf_setup

REMIND = "g1:remind:1:Brianna"


def test_a_choice_withdraws_the_reminder_still_unsent(tmp_path):
    runtime = GameRuntime(botf_setup(remind_before_lock=5), GameOptions(1, "g1"), 1)
    runtime.on_tick(START)
    due = NIGHT1_LOCK - timedelta(hours=5)
    reminded = runtime.on_tick(due).outgoing
    assert REMIND in {o.key for o in reminded}
    chose = runtime.on_pm(Post(2, "Brianna", due + timedelta(seconds=20), "/choose Derek", 501),
                          7, participants=("brianna", "modbot", "nightingale")).outgoing
    (withdrawal,) = [o for o in chose if o.kind == "withdraw"]
    assert withdrawal.edit_of == REMIND
    store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
    try:
        store.commit(Batch(outbox=list(reminded)))
        store.commit(Batch(outbox=list(chose)))
        assert OutboxRow.get(OutboxRow.key == REMIND).status == "withdrawn"
        assert all(r.key != REMIND for r in store.pending())
        assert OutboxRow.get_or_none(OutboxRow.key == withdrawal.key) is None  # no row
        tried = Outgoing("g1:remind:1:Cameron", "g1:pm:cameron", "Reminder", kind="post")
        store.commit(Batch(outbox=[tried]))
        store.mark_attempt(OutboxRow.get(OutboxRow.key == tried.key))
        store.commit(Batch(outbox=[Outgoing("g1:withdraw:x", "g1:topic", "", kind="withdraw",
                                            edit_of=tried.key)]))
        assert OutboxRow.get(OutboxRow.key == tried.key).status == "pending"  # maybe posted
    finally:
        store.close()

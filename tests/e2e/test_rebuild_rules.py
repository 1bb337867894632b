"""The rules of a rebuild from the forum (docs/operations.md), one by one, on the sandbox:
a post counts in its first version; a post deleted by a moderator counts if it was deleted a
minute or more after it was made, and is left out and reported otherwise; a marker in anyone's
post but the bot's adopts nothing; the inputs are numbered by the forum's post ids, so `!log`
and `!undo` (#N in the thread, id:N) name the same inputs after a rebuild."""

from datetime import datetime, timedelta

import pytest

from modbot.cli.rehearsal import demo_rehearsal

from ..sandbox_fixtures import played_demo
from .test_e2e import markers

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP


def _at(item) -> datetime:
    return datetime.fromisoformat(item["created_at"])


@pytest.fixture
def thread_game(tmp_path):
    """The demo's thread (no PMs) played to Ellen's vote (08:30 on day 1), the bot live."""
    rehearsal = played_demo(tmp_path, 10, private=False)
    rehearsal.tmp_path = tmp_path
    yield rehearsal
    rehearsal.stop()


def _post_of(rehearsal, author: str, text: str):
    topic = rehearsal.server.forum.topics[rehearsal.setup.topic_id]
    return next(p for p in topic.posts if p.username == author and text in p.raw)


def _lose_database_and_restart(rehearsal, at: datetime):
    rehearsal.store.close()
    rehearsal.database_url = rehearsal.database_url.replace(".sqlite", "-empty.sqlite")
    rehearsal.start_bot()
    rehearsal.clock.set(at)
    rehearsal.service.cycle(at)
    return next(iter(rehearsal.service.games.values()))


def _votes(game, nominee: str = "Derek") -> dict[str, str]:
    """Each voter's vote on the nomination, cast or locked."""
    nomination = game.state.today.nomination_of(nominee)
    votes = {player: cast.value for player, cast in nomination.cast.items()}
    votes.update({v.player: v.vote for v in nomination.locked})
    return votes


def test_an_edited_post_counts_in_its_first_version(thread_game):
    forum = thread_game.server.forum
    fatima = _post_of(thread_game, "Fatima", "/vote Derek")
    before = _votes(thread_game.service.games[thread_game.setup.topic_id])
    assert before["Fatima"] == "yes"
    at = _at(thread_game.script[9]) + timedelta(minutes=10)
    thread_game.clock.set(at)
    forum.edit(fatima, forum.user("Fatima"), "/vote Derek no\nChanged my mind.", reason="mind")
    thread_game.service.cycle(at)  # the live sweep flags the edit to the Storytellers
    assert fatima.version == 2
    game = _lose_database_and_restart(thread_game, at + timedelta(minutes=5))
    assert _votes(game) == before  # the first version counted
    edit_notes = [m for m in markers(thread_game) if ":edit:" in m]
    assert len(edit_notes) == 1  # the live flag was recognised, not sent again
    assert not thread_game.service.rebuilt[game.topic_id].unmatched


def test_a_post_deleted_too_soon_is_left_out_and_reported_a_later_one_counts(thread_game):
    forum = thread_game.server.forum
    ellen = _post_of(thread_game, "Ellen", "/vote Derek yes")
    thread_game.clock.set(ellen.created_at + timedelta(seconds=30))
    forum.delete(ellen, forum.user("nightingale"))  # 30 s after: the rebuild cannot know
    fatima = _post_of(thread_game, "Fatima", "/vote Derek")
    thread_game.clock.set(_at(thread_game.script[9]) + timedelta(minutes=5))
    forum.delete(fatima, forum.user("nightingale"))  # long after the bot had read it
    game = _lose_database_and_restart(thread_game, _at(thread_game.script[9])
                                      + timedelta(minutes=10))
    done = thread_game.service.rebuilt[game.topic_id]
    assert [p.id for p in done.left_out] == [ellen.id]
    votes = _votes(game)
    assert votes.get("Fatima") == "yes" and "Ellen" not in votes
    note = next(p.raw for p in forum.posts.values() if ":rebuilt:" in p.raw)
    assert f"post #{ellen.post_number}](/t/{game.topic_id}/{ellen.post_number}) by Ellen" in note
    assert "left out" in note


def test_a_forged_marker_adopts_nothing(thread_game):
    """Fatima copies the marker of the vote count the bot will post next; after a rebuild the
    bot still posts it (only the bot's own posts prove anything)."""
    forged = f"g{thread_game.setup.topic_id}:vc:1.2:open:execution:Fatima"  # predictable
    assert forged not in markers(thread_game)
    at = _at(thread_game.script[9]) + timedelta(minutes=1)
    thread_game.clock.set(at)
    thread_game.post("Fatima", f"Nothing to see here, just a long enough post.\n"
                     f"<!-- modbot:{forged} -->", at.isoformat())
    _lose_database_and_restart(thread_game, at + timedelta(minutes=1))
    thread_game.play(thread_game.script[10:14])
    bot_posts = [p for p in thread_game.server.forum.posts.values()
                 if p.username == "modbot" and f"<!-- modbot:{forged} -->" in p.raw]
    assert len(bot_posts) == 1


def test_inputs_are_numbered_by_the_forums_post_ids(thread_game):
    live = thread_game.service.games[thread_game.setup.topic_id]
    numbers = [post_id for kind, _, post_id in live.inputs if kind == "post"]
    game = _lose_database_and_restart(thread_game, _at(thread_game.script[9])
                                      + timedelta(minutes=1))
    assert [post_id for kind, _, post_id in game.inputs if kind == "post"] == numbers
    topic = thread_game.server.forum.topics[thread_game.setup.topic_id]
    id_of = {p.post_number: p.id for p in topic.posts}
    logged = [(e["input"], id_of[e["post_number"]]) for e in game.history
              if e["channel"] == "thread"]
    assert logged and all(number == post_id for number, post_id in logged)  # what !log shows


def test_a_hidden_post_counts(thread_game):
    """A post the forum hid after flags (the live bot had counted it) counts in a rebuild."""
    fatima = _post_of(thread_game, "Fatima", "/vote Derek")
    fatima.hidden = True
    game = _lose_database_and_restart(thread_game, _at(thread_game.script[9])
                                      + timedelta(minutes=1))
    assert _votes(game).get("Fatima") == "yes"


def test_a_game_dealt_whose_thread_shows_no_post_of_the_bot_is_rebuilt_from_its_pms(tmp_path):
    """The database lost right after the deal, before "Night 1 begins" reached the thread:
    the character PMs prove the game ran; none is sent again, the thread post goes out once."""
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite")
    try:
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        drain, rehearsal.service.drain = rehearsal.service.drain, lambda: 0
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)  # the deal, not yet sent
        for row in rehearsal.store.pending():
            if row.topic_id == rehearsal.setup.topic_id:  # the thread's posts never go out
                rehearsal.store.defer(row, 10**6, "held back by the test")
        while drain():
            pass
        roles = [m for m in markers(rehearsal) if ":role:" in m]
        assert len(roles) == 7 and not [m for m in markers(rehearsal) if ":night:1" in m]
        rehearsal.tmp_path = tmp_path
        game = _lose_database_and_restart(rehearsal, rehearsal.setup.first_night_starts
                                          + timedelta(minutes=1))
        assert game.topic_id in rehearsal.service.rebuilt
        rehearsal.service.drain()
        found = markers(rehearsal)
        assert [m for m in found if ":role:" in m] == roles  # not one sent twice
        assert len([m for m in found if m.endswith(":night:1")]) == 1
    finally:
        rehearsal.stop()

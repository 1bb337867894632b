"""What a real Discourse does to a live day, third round (issue 58), on the sandbox over HTTP:
a split topic's reused post numbers, a hidden post's words, an edit after the deadline, a
wake that reads one source, a seated moderator's whisper. Each is played against what the
undisturbed day would have counted."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from modbot.adapters.store import OutboxRow
from modbot.cli.rehearsal import day_end, demo_rehearsal

from .test_real_forum import RENAME_AT, _game, _start
from .test_who_is_who import _as, _cycle

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

AT = datetime.fromisoformat(RENAME_AT)  # day 1's nominations, after Fatima's vote on Derek


def _day(tmp_path, name: str):
    rehearsal, script = _start(tmp_path, name)
    cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
    rehearsal.play(script[:cut])
    return rehearsal


def _votes(game, nominee: str) -> dict[str, str]:
    nomination = next(n for n in game.state.today.nominations if n.nominee == nominee)
    locked = {v.player: str(v.cast) for v in nomination.locked if v.cast is not None}
    return {**locked, **{p: str(v.value) for p, v in nomination.cast.items()}}


def test_posts_at_numbers_a_split_reused_are_read_and_counted(tmp_path):
    """A moderator splits the end of the thread (a side argument, one of its posts a vote)
    into a new topic; Discourse numbers the next posts from the highest left, so Gus's vote
    and Cameron's nomination take numbers the bot read before. Both count."""
    rehearsal = _day(tmp_path, "split")
    try:
        topic = rehearsal.setup.topic_id
        side = [_as(rehearsal, name, raw, AT + timedelta(minutes=m)) for name, raw, m in (
            ("Cameron", "An aside about the last game, nothing to do with votes.", 1),
            ("Brianna", "/vote Derek yes\nAnd on the aside, I disagree.", 2),
            ("Derek", "The aside goes on and on, let us stop it here.", 3))]
        _cycle(rehearsal, AT + timedelta(minutes=4))
        game = _game(rehearsal)
        cursor = game.last_post_number
        assert _votes(game, "Derek").get("Brianna") == "yes"
        other = rehearsal.request("POST", "/posts.json", as_user="nightingale", category=1,
                                  title="The aside, moved out of the game",
                                  raw="Posts moved here from the game thread.")["topic_id"]
        rehearsal.request("POST", f"/t/{topic}/move-posts.json", as_user="nightingale",
                          **{"post_ids[]": [p["id"] for p in side], "destination_topic_id": other})
        vote = _as(rehearsal, "Gus", "/vote Derek\nMy ghost vote goes here.", AT + timedelta(minutes=6))
        nomination = _as(rehearsal, "Cameron", "/nominate Fatima\nI want to hear her too.",
                         AT + timedelta(minutes=7))
        assert vote["post_number"] <= cursor and nomination["post_number"] <= cursor  # reused
        _cycle(rehearsal, AT + timedelta(minutes=8))
        game = _game(rehearsal)
        assert vote["id"] in game.seen and nomination["id"] in game.seen
        assert _votes(game, "Derek").get("Gus") == "yes"
        assert [n.nominee for n in game.state.today.nominations if n.nominator == "Cameron"] \
            == ["Fatima"]
    finally:
        rehearsal.stop()


def _non_staff_day(tmp_path, name: str):
    """Day 1's nominations with the bot a regular account (it reads no hidden post's words)."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/{name}.sqlite")
    rehearsal.server.forum.user("modbot").moderator = False
    rehearsal.settings.post_spacing = 0  # real seconds would only slow this test
    rehearsal.start_bot()
    rehearsal.clock.set(rehearsal.setup.first_night_starts)
    rehearsal.service.cycle(rehearsal.setup.first_night_starts)
    cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
    rehearsal.play(script[:cut])
    return rehearsal


def _deliver(rehearsal) -> None:
    """What a regular account's pace held back goes out as the forum's clock moves on."""
    for _ in range(20):
        if not rehearsal.store.pending():
            return
        rehearsal.clock.set(rehearsal.clock.now() + timedelta(seconds=20))
        OutboxRow.update(not_before=0).execute()  # the forum's seconds passed (its clock)
        rehearsal.service.outbox.quiet_until = rehearsal.service.quiet_until = 0
        rehearsal.service.outbox.new_pms_until = 0
        rehearsal.service.drain()


def _flag(rehearsal, post_id: int, flaggers=("Alex", "Brianna", "Cameron")) -> None:
    for name in flaggers:
        rehearsal.request("POST", "/post_actions.json", as_user=name, id=post_id,
                          post_action_type_id=4)


def _notes(rehearsal, name: str, text: str) -> list[str]:
    forum = rehearsal.server.forum
    return [p.raw for t in forum.topics.values() if t.is_pm and name in t.allowed
            for p in t.posts if p.username == "modbot" and text in p.raw]


def test_a_vote_hidden_before_it_is_read_is_no_empty_post_and_counts_once_visible(tmp_path):
    """Ellen's vote, hidden by three players' flags before the bot (not staff) reads it: the
    bot cannot read its words, so it counts for nothing yet; the Storytellers are told once
    with its link, Ellen once. A moderator unhides it: the sweep reads it, at its own time."""
    rehearsal = _non_staff_day(tmp_path, "hidden")
    try:
        vote = _as(rehearsal, "Ellen", "/vote Derek yes\nAgreed, his claim is odd.",
                   AT + timedelta(minutes=1))
        _flag(rehearsal, vote["id"])
        for minute in (2, 3, 4):
            _cycle(rehearsal, AT + timedelta(minutes=minute))
        _deliver(rehearsal)
        game = _game(rehearsal)
        assert "Ellen" not in _votes(game, "Derek") and vote["id"] in game.hidden_ids
        assert len(_notes(rehearsal, "nightingale", "A post is hidden")) == 1
        assert len(_notes(rehearsal, "Ellen", "is hidden (flagged")) == 1
        rehearsal.request("PUT", f"/posts/{vote['id']}/unhide.json", as_user="nightingale")
        rehearsal.service.intake.sweep()
        _cycle(rehearsal, AT + timedelta(minutes=5))
        _deliver(rehearsal)
        game = _game(rehearsal)
        assert _votes(game, "Derek").get("Ellen") == "yes" and not game.hidden_ids
        assert len(_notes(rehearsal, "nightingale", "A post is hidden")) == 1
    finally:
        rehearsal.stop()


def test_a_counted_vote_hidden_later_keeps_its_words_and_is_no_edit(tmp_path):
    rehearsal = _non_staff_day(tmp_path, "hidden-later")
    try:
        vote = _as(rehearsal, "Ellen", "/vote Derek yes\nAgreed, his claim is odd.",
                   AT + timedelta(minutes=1))
        _cycle(rehearsal, AT + timedelta(minutes=2))
        assert _votes(_game(rehearsal), "Derek").get("Ellen") == "yes"
        _flag(rehearsal, vote["id"])
        rehearsal.service.intake.sweep()
        _cycle(rehearsal, AT + timedelta(minutes=3))
        _deliver(rehearsal)
        assert _votes(_game(rehearsal), "Derek").get("Ellen") == "yes"
        assert _notes(rehearsal, "nightingale", "after it was counted") == []
    finally:
        rehearsal.stop()


def test_an_edit_after_the_deadline_is_reported_once_never_applied(tmp_path):
    """Ellen casts "no" two minutes before the day ends and edits it to "yes" 30 seconds after,
    inside the forum's grace period (no revision). The day's posts stay in the sweep until the
    next dawn: the Storytellers are told once that it came after the day's end; nothing is
    applied."""
    rehearsal = _day(tmp_path, "late-edit")
    try:
        end = day_end(rehearsal.setup)
        vote = _as(rehearsal, "Ellen", "/vote Derek no\nI am not sure about him.",
                   end - timedelta(minutes=2))
        _cycle(rehearsal, end - timedelta(minutes=1))
        _cycle(rehearsal, end + timedelta(seconds=10))  # the day ends
        game = _game(rehearsal)
        locked = {v.player: str(v.vote) for d in game.state.past_days for n in d.nominations
                  if n.nominee == "Derek" for v in n.locked}
        rehearsal.clock.set(end + timedelta(seconds=30))
        rehearsal.request("PUT", f"/posts/{vote['id']}.json", as_user="Ellen",
                          **{"post[raw]": "/vote Derek yes\nI am sure about him now."})
        assert rehearsal.server.forum.posts[vote["id"]].version == 1  # the grace period
        for minutes in (5, 10):
            rehearsal.service.intake.sweep()
            _cycle(rehearsal, end + timedelta(minutes=minutes))
        told = _notes(rehearsal, "nightingale", "after day 1 had ended")
        assert len(told) == 1 and "/vote Derek no" in told[0]
        game = _game(rehearsal)
        assert {v.player: str(v.vote) for d in game.state.past_days for n in d.nominations
                if n.nominee == "Derek" for v in n.locked} == locked
    finally:
        rehearsal.stop()


def test_a_wake_that_reads_only_the_inbox_never_moves_the_clock_past_the_thread(tmp_path):
    """Cameron nominates a minute before nominations close; the bot's last full read of the
    thread was earlier. A MessageBus wake naming only the bot's inbox (a Storyteller's PM
    after the close) must not tick the game past the close before the thread is read through
    it: the PM waits, the next full read counts the nomination in its place, then the PM."""
    from modbot.app.reading.intake import Wake
    rehearsal = _day(tmp_path, "wake")
    try:
        close = _game(rehearsal).state.phase_ends_at  # nominations close
        _cycle(rehearsal, close - timedelta(minutes=10))  # the thread read through then
        nomination = _as(rehearsal, "Cameron", "/nominate Fatima\nI want to hear her too.",
                         close - timedelta(minutes=1))
        conversation = next(t for t in rehearsal.server.forum.topics.values()
                            if t.is_pm and "notes for the Storytellers" in t.title)
        _as(rehearsal, "nightingale", "!status\nWhere do we stand?", close + timedelta(seconds=30),
            topic_id=conversation.id)
        rehearsal.clock.set(close + timedelta(minutes=1))
        rehearsal.service.cycle(close + timedelta(minutes=1), Wake(frozenset(), True))
        game = _game(rehearsal)
        assert game.state.phase.value == "nomination"  # the close waits for the thread
        _cycle(rehearsal, close + timedelta(minutes=2))  # a full cycle: thread and inbox
        game = _game(rehearsal)
        assert nomination["id"] in game.seen and nomination["id"] not in game.late_ids
        nominated = [n.nominee for d in (game.state.today, *game.state.past_days) if d
                     for n in d.nominations if n.nominator == "Cameron"]
        assert nominated == ["Fatima"]
        assert len(_notes(rehearsal, "nightingale", "| Player |")) >= 1  # the !status answered
    finally:
        rehearsal.stop()


def test_a_seated_moderators_vote_as_a_whisper_counts_for_nothing_and_is_said(tmp_path):
    rehearsal = _day(tmp_path, "whisper")
    try:
        rehearsal.server.forum.user("Ellen").moderator = True  # a seated moderator
        _as(rehearsal, "Ellen", "/vote Derek yes\nStaff-only by mistake.",
            AT + timedelta(minutes=1), topic_id=rehearsal.setup.topic_id, whisper="true")
        for minute in (2, 3):
            _cycle(rehearsal, AT + timedelta(minutes=minute))
        assert "Ellen" not in _votes(_game(rehearsal), "Derek")
        assert len(_notes(rehearsal, "Ellen", "is a staff whisper")) == 1
        assert len(_notes(rehearsal, "nightingale", "posted a staff whisper")) == 1
    finally:
        rehearsal.stop()

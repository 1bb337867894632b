"""The Storyteller's console over real HTTP: commands by PM and in the game thread."""

from datetime import datetime, timedelta

import pytest

from modbot.rehearsal import demo_rehearsal


@pytest.fixture()
def game(tmp_path):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite")
    rehearsal.start_bot()
    rehearsal.play(script[:8])  # day 1, nominations open, Derek nominated
    yield rehearsal, datetime.fromisoformat(script[7]["created_at"])
    rehearsal.stop()


def _pm(rehearsal, raw: str, at: datetime, topic_id: int | None = None) -> int:
    rehearsal.clock.set(at)
    data = {"raw": raw, "created_at": at.isoformat()}
    if topic_id is None:
        data.update(title="Commands for modbot", archetype="private_message",
                    target_recipients="modbot")
    else:
        data["topic_id"] = topic_id
    post = rehearsal.request("POST", "/posts.json", as_user="nightingale", **data)
    rehearsal.service.cycle(at)
    rehearsal.service.drain()
    return post["topic_id"]


def _replies(rehearsal, topic_id: int) -> list[str]:
    topic = rehearsal.server.forum.topics[topic_id]
    return [p.raw for p in topic.posts if p.username == "modbot"]


def test_pm_commands_are_confirmed_and_answered_in_the_same_pm(game):
    rehearsal, at = game
    topic = _pm(rehearsal, "!kill Derek died in the night\nPlease do it.", at + timedelta(minutes=1))
    (question,) = _replies(rehearsal, topic)
    assert "Please confirm" in question and "Derek dies now (not an execution)" in question
    assert rehearsal.service.games[1].state.seat("Derek").alive
    _pm(rehearsal, "Go ahead, as asked.\n!confirm", at + timedelta(minutes=2), topic)
    answer = _replies(rehearsal, topic)[-1]
    assert "Done:" in answer and "!kill Derek died in the night" in answer
    assert not rehearsal.service.games[1].state.seat("Derek").alive
    thread = [p["raw"] for p in rehearsal.thread()]
    assert not any("has died" in raw for raw in thread)  # a PM command has no public echo


def test_thread_commands_act_publicly_and_answer_by_pm(game):
    rehearsal, at = game
    later = at + timedelta(minutes=3)
    rehearsal.clock.set(later)
    rehearsal.post("nightingale", "Housekeeping.\n!kill Gus --yes\n!vc", later.isoformat())
    rehearsal.service.cycle(later)
    rehearsal.service.drain()
    thread = [p["raw"] for p in rehearsal.thread()]
    assert not any(raw.startswith("**Gus** has died.") for raw in thread)  # already dead
    notes = [t for t in rehearsal.server.forum.topics.values()
             if t.is_pm and "Storytellers" in t.title]
    assert "Gus is already dead." in notes[0].posts[-1].raw
    rehearsal.post("nightingale", "Housekeeping, again.\n!kill Fatima --yes\n!vc",
                   (later + timedelta(minutes=1)).isoformat())
    rehearsal.service.cycle(later + timedelta(minutes=1))
    rehearsal.service.drain()
    thread = [p["raw"] for p in rehearsal.thread()]
    assert any(raw.startswith("**Fatima** has died.") for raw in thread)
    assert "## Vote count" in thread[-1] and "(5 living)" in thread[-1]


def test_a_players_command_changes_nothing(game):
    rehearsal, at = game
    later = at + timedelta(minutes=4)
    rehearsal.clock.set(later)
    rehearsal.post("Alex", "I am the Storyteller now!\n!kill Derek --yes", later.isoformat())
    rehearsal.service.cycle(later)
    assert rehearsal.service.games[1].state.seat("Derek").alive

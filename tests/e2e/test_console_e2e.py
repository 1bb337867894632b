"""The Storyteller's console over real HTTP: commands by PM and in the game thread."""

import re
from datetime import datetime, timedelta

import pytest

from modbot.cli.rehearsal import demo_rehearsal

from ..helpers import public_game_text

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)


@pytest.fixture()
def game(tmp_path):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
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


def _say(rehearsal, author: str, raw: str, at: datetime) -> None:
    """A game-thread post at `at`, then a bot cycle and delivery (Rehearsal.play)."""
    rehearsal.play([{"username": author, "raw": raw, "created_at": at.isoformat()}])


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
    _say(rehearsal, "nightingale", "Housekeeping.\n!kill Gus --yes\n!vc", later)
    thread = [p["raw"] for p in rehearsal.thread()]
    assert not any(raw.startswith("**Gus** has died.") for raw in thread)  # already dead
    notes = [t for t in rehearsal.server.forum.topics.values()
             if t.is_pm and "Storytellers" in t.title]
    assert "Gus is already dead." in notes[0].posts[-1].raw
    _say(rehearsal, "nightingale", "Housekeeping, again.\n!kill Fatima --yes\n!vc",
         later + timedelta(minutes=1))
    thread = [p["raw"] for p in rehearsal.thread()]
    assert any(raw.startswith("**Fatima** has died.") for raw in thread)
    assert "## Vote count" in thread[-1] and "(5 living)" in thread[-1]


def test_a_players_command_changes_nothing(game):
    rehearsal, at = game
    _say(rehearsal, "Alex", "I am the Storyteller now!\n!kill Derek --yes",
         at + timedelta(minutes=4))
    assert rehearsal.service.games[1].state.seat("Derek").alive


def test_audit_replays_the_stored_inputs_to_the_same_events(game, tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path
    rehearsal, at = game
    _pm(rehearsal, "!kill Fatima --yes\n!ghostvote Gus take", at + timedelta(minutes=1))
    rehearsal.play([])  # deliver what is owed
    root = Path(__file__).resolve().parents[2]
    game_file = tmp_path / "game.toml"
    game_file.write_text(public_game_text((root / "config/demo-game.toml").read_text()))
    url = rehearsal.database_url
    rehearsal.store.close()

    def modbot(*args):
        return subprocess.run([sys.executable, "-m", "modbot", *args], capture_output=True,
                              text=True, cwd=root, timeout=60)
    result = modbot("audit", str(game_file), "--database", url, "--json")
    assert result.returncode == 0, result.stderr
    audit = json.loads(result.stdout)
    assert audit["replay_matches"]
    types = [e["type"] for entry in audit["entries"] for e in entry["events"]]
    assert {"PhaseChanged", "Nominated", "WhisperRequested", "PlayerDied",
            "GhostVoteChanged"} <= set(types)
    kinds = {entry["input"]["kind"] for entry in audit["entries"]}
    assert {"post", "pm"} <= kinds
    text = modbot("audit", str(game_file), "--database", url).stdout
    assert "PM by nightingale: GhostVoteChanged(player=Gus, has_token=False)" in text
    assert text.rstrip().endswith("reproduces the stored events: yes")
    status = modbot("game", "status", str(game_file), "--database", url)
    assert "day 1 nomination" in status.stdout and "Gus (dead, no token)" in status.stdout


def test_log_shows_the_last_events_with_their_posts(game):
    rehearsal, at = game
    topic = _pm(rehearsal, "What happened lately?\n!log 3", at + timedelta(minutes=1))
    answer = _replies(rehearsal, topic)[-1]
    assert "Last 3 events:" in answer and "Alex: Alex nominates Derek" in answer
    assert re.search(r"^- #\d+ Alex: ", answer, re.M)  # the thread's post number, as hosts see it


def test_status_sends_the_whole_state_privately(game):
    rehearsal, at = game
    topic = _pm(rehearsal, "Where are we now?\n!status", at + timedelta(minutes=1))
    answer = _replies(rehearsal, topic)[-1]
    assert "day 1 nomination" in answer and "Nomination: Alex -> Derek" in answer
    assert not any("day 1 nomination (" in p["raw"] for p in rehearsal.thread())


def test_an_admin_bot_ignores_commands_in_pms_it_is_not_part_of(game):
    rehearsal, at = game
    rehearsal.server.forum.user("modbot").admin = True  # admins see every PM on the site
    later = at + timedelta(minutes=1)
    rehearsal.clock.set(later)
    rehearsal.request("POST", "/posts.json", as_user="nightingale", title="Just between us",
                      raw="!kill Derek --yes\nfor the record", archetype="private_message",
                      target_recipients="Alex", created_at=later.isoformat())
    rehearsal.service.cycle(later)
    assert rehearsal.service.games[1].state.seat("Derek").alive
    topic = _pm(rehearsal, "Now to the bot itself.\n!kill Derek --yes", later)
    assert not rehearsal.service.games[1].state.seat("Derek").alive
    assert "Done:" in _replies(rehearsal, topic)[-1]


def test_grimoire_stays_private_and_the_end_of_the_game_is_public(game):
    rehearsal, at = game
    topic = _pm(rehearsal, "Setting up the grimoire.\n!character Derek imp\n"
                "!alignment Derek evil\n!reminder Ellen protected\n!status",
                at + timedelta(minutes=1))
    answer = _replies(rehearsal, topic)[-1]
    assert "Derek: Imp, " in answer and "character=" not in answer  # in game terms
    public = "\n".join(p["raw"] for p in rehearsal.thread())
    for secret in ("imp", "alignment", "protected"):
        assert secret not in public
    _pm(rehearsal, "It is over.\n!win good the imp was executed --yes", at + timedelta(minutes=2),
        topic)
    last = rehearsal.thread()[-1]["raw"]
    assert last.startswith("## The game is over: good wins") and "the imp was executed" in last


def test_a_forged_command_is_logged(game, caplog):
    rehearsal, at = game
    with caplog.at_level("WARNING", logger="modbot.app.games.runtime"):
        _say(rehearsal, "Brianna", "Let me help.\n!execute Alex --yes",
             at + timedelta(minutes=4))
    assert "Brianna is not a Storyteller; its ! commands are ignored" in caplog.text
    assert rehearsal.service.games[1].state.phase.value == "nomination"


def test_answers_never_go_to_a_pm_that_players_read(game):
    rehearsal, at = game
    later = at + timedelta(minutes=1)
    rehearsal.clock.set(later)
    shared = rehearsal.request("POST", "/posts.json", as_user="nightingale",
                               title="Whisper check", archetype="private_message",
                               target_recipients="modbot,Alex",
                               raw="Checking something.\n!character Derek imp\n!status",
                               created_at=later.isoformat())["topic_id"]
    rehearsal.service.cycle(later)
    rehearsal.service.drain()
    assert _replies(rehearsal, shared) == []  # Alex reads that PM: nothing there
    notes = next(t for t in rehearsal.server.forum.topics.values()
                 if t.is_pm and "Storytellers" in t.title)
    assert "Derek: Imp" in notes.posts[-1].raw
    assert rehearsal.service.games[1].state.grimoire_of("Derek").character == "imp"


def test_both_players_hear_when_their_whisper_breaks(tmp_path):
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite", private=False)
    try:
        rehearsal.start_bot()
        rehearsal.play(script[:10])  # Derek whispers Ellen, Ellen accepts, Ellen votes later
        pms = {t.allowed[1]: t for t in rehearsal.server.forum.topics.values() if t.is_pm}
        for player, other in (("Derek", "Ellen"), ("Ellen", "Derek")):
            note = pms[player].posts[-1].raw
            assert f"Your whisper with {other} has ended: Ellen posted" in note
    finally:
        rehearsal.stop()


def test_status_reads_like_a_grimoire(game):
    """Messages that fit: `!status` is a table in clock order (character, alignment, life,
    status, reminders), the deadline a [date] tag; the replay is folded away below."""
    rehearsal, at = game
    topic = _pm(rehearsal, "Setting up.\n!character Derek imp\n!alignment Derek evil\n"
                "!poison Alex\n!reminder Ellen protected\n!status", at + timedelta(minutes=1))
    answer = _replies(rehearsal, topic)[-1]
    table = [line for line in answer.splitlines() if line.startswith("| ")]
    assert table[0] == "| # | Player | Character | Alignment | Life | Status | Reminders |"
    assert "| 1 | Alex | clockmaker |  | alive | poisoned |  |" in table
    assert "| 4 | Derek | imp | evil | alive |  |  |" in table
    assert "| 5 | Ellen | oracle |  | alive |  | protected |" in table
    assert '[date=' in answer.split("\n\n")[1] or '[date=' in answer
    assert '[details="The whole game so far"]' in answer

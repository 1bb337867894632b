"""The command line as a host uses it: `cli.main` with its own stdin, stdout, stderr and
working folder (one test starts the real process), real files."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from modbot.files.threadfile import ThreadFileError, posts_from_json

from ..helpers import run_modbot as modbot

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_the_console_script_runs_as_a_process():
    """One real process: the entry point a host's shell starts (the rest run in-process)."""
    result = subprocess.run([sys.executable, "-m", "modbot", "--help"], capture_output=True,
                            text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            timeout=60)
    assert result.returncode == 0 and "usage: modbot" in result.stdout


def test_parse_prints_the_documented_json():
    post = ("/nominate Brianna\n/vote Brianna no\n/unvote\n/whisper @Cameron\n"
            "/whisper Storyteller\n/accept Alex\n/decline Alex\n/skip\n/vote Al")
    result = modbot("parse", "--players", "Alex,Albert,Brianna,Cameron", "--open", "Brianna",
                    stdin=post)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "actions": [
            {"type": "nominate", "target": "Brianna"},
            {"type": "vote", "nominee": "Brianna", "value": "no"},
            {"type": "unvote", "nominee": "Brianna"},  # the vote just before it
            {"type": "whisper", "with": ["Cameron"]},
            {"type": "whisper_storyteller"},
            {"type": "accept_whisper", "from": "Alex"},
            {"type": "decline_whisper", "from": "Alex"},
            {"type": "skip_nomination"},
        ],
        "rejections": [{"code": "ambiguous", "text": "/vote Al",
                        "candidates": ["Alex", "Albert"]}],
    }


def test_parse_aliases_and_bare_votes():
    result = modbot("parse", "--players", "Alex,Brianna,Cameron", "--alias", "Bri=Brianna",
                    "--open", "bri", stdin="hands up\n/vote bri no")
    assert json.loads(result.stdout)["actions"] == [
        {"type": "vote", "nominee": "Brianna", "value": "yes"},
        {"type": "vote", "nominee": "Brianna", "value": "no"}]


def test_parse_bad_alias_is_a_clear_error():
    result = modbot("parse", "--players", "Alex,Brianna", "--alias", "Bri=Nobody", stdin="")
    assert result.returncode == 2 and "ALIAS=PLAYER" in result.stderr


def test_replay_prints_the_documented_keys(tmp_path):
    result = modbot("replay", "config/demo-game.toml", "data/demo-thread.json",
                    "--at", "2026-12-03T12:30:00Z")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["phase"] == "day 1 nomination"
    day = report["days"][0]
    assert {"day", "living", "nominations", "about_to_die", "executed", "ghost_votes_spent",
            "rejections"} <= set(day)
    derek = day["nominations"][0]
    assert {"nominator", "nominee", "post_number", "order", "locked", "cast", "yes",
            "threshold", "status"} <= set(derek)
    assert derek["order"] == ["Ellen", "Fatima", "Gus", "Alex", "Brianna", "Cameron", "Derek"]
    assert derek["locked"][0] == {"player": "Ellen", "vote": "yes", "post_number": 11,
                                  "locked_at": "2026-12-03T08:30:00Z"}
    assert derek["status"] == "open" and derek["threshold"] == 4
    assert day["ghost_votes_spent"] == ["Gus"]
    assert {"post_number": 16, "code": "not_nominated"}.items() <= day["rejections"][-1].items()


def test_replay_accepts_pages_and_plain_lists(tmp_path):
    topic = json.loads((ROOT / "data/demo-thread.json").read_text())
    posts = topic["post_stream"]["posts"]
    pages = [{"post_stream": {"posts": posts[:10]}}, {"post_stream": {"posts": posts[8:]}}]
    outputs = []
    for shape in (topic, pages, posts):
        path = tmp_path / "thread.json"
        path.write_text(json.dumps(shape))
        outputs.append(modbot("replay", "config/demo-game.toml", str(path)).stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert json.loads(outputs[0])["days"][0]["executed"] == "Derek"


def test_replay_errors_are_clear(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('[{"post_number": 1, "username": "a", "created_at": "2026-12-01T00:00:00Z"}]')
    result = modbot("replay", "config/demo-game.toml", str(bad))
    assert result.returncode == 2 and "missing raw" in result.stderr and "include_raw" in result.stderr
    result = modbot("replay", str(tmp_path / "none.toml"), str(bad))
    assert result.returncode == 2 and "cannot read the game file" in result.stderr


def test_thread_loader_skips_small_actions_and_dedupes_pages():
    post = {"post_number": 2, "username": "a", "created_at": "2026-12-01T00:00:00.000Z",
            "raw": "x"}
    small = {**post, "post_number": 3, "post_type": 3, "raw": ""}
    assert [p.post_number for p in posts_from_json([post, post, small])] == [2]
    with pytest.raises(ThreadFileError, match="time zone"):
        posts_from_json([{**post, "created_at": "2026-12-01T00:00:00"}])


@pytest.mark.parametrize("args, golden", [
    (("replay", "config/demo-game.toml", "data/demo-thread.json", "--text"), "replay-demo.txt"),
    (("replay", "config/demo-game.toml", "data/demo-thread.json"), "replay-demo.json"),
])
def test_replay_matches_the_golden_transcript(args, golden):
    result = modbot(*args)
    assert result.returncode == 0, result.stderr
    expected = (GOLDEN / golden).read_text()
    assert result.stdout == expected


@pytest.mark.slow
def test_demo_plays_on_the_sandbox_and_exits_0(tmp_path):
    result = modbot("demo", "--database", f"sqlite:///{tmp_path}/demo.sqlite")
    assert result.returncode == 0, result.stderr
    assert "## Day 1 is over" in result.stdout
    assert "**Derek** was executed." in result.stdout
    assert re.search(r"\[Gus\]\(/t/1/\d+\) ✅ \(ghost vote\)", result.stdout)  # linked to the vote
    public, private = result.stdout.split("The private side")
    assert "Ellen died in the night." in public and "## Dawn is delayed" in public
    assert "## Your character: No Dashii" in private and "## Night 1: the night sheet" in private
    assert "Night 2: accepted: you chose Ellen." in private
    assert "    You were executed ([date=" in private  # Derek, told by PM that he died
    assert "Outbox: 61 sent, 0 pending, 0 failed." in result.stdout  # 52 posts, 8 index edits,
    # and the edit of the countdown the day's early end left behind
    assert (tmp_path / "demo.sqlite").exists()


def test_help_texts_name_every_command():
    result = modbot("--help")
    for command in ("parse", "replay", "demo", "sandbox", "run", "audit", "game", "setup"):
        assert command in result.stdout
    reference = (ROOT / "docs" / "commands.md").read_text()
    for command in ("modbot parse", "modbot replay", "modbot demo", "modbot sandbox",
                    "modbot run", "modbot audit", "modbot game new", "modbot game status",
                    "modbot setup", "modbot check", "modbot rehearse", "modbot picture"):
        assert f"`{command}`" in reference


def _with_bot_posts(tmp_path, *posts) -> Path:
    data = json.loads((Path("data") / "demo-thread.json").read_text())
    stream = data["post_stream"]["posts"]
    for number, (created, key) in enumerate(posts, start=len(stream) + 1):
        stream.append({"id": 900 + number, "post_number": number, "post_type": 1,
                       "username": "modbot", "created_at": created,
                       "raw": f"A post of the bot's.\n\n<!-- modbot:g1:{key} -->"})
    path = tmp_path / "thread.json"
    path.write_text(json.dumps(data))
    return path


def test_replay_says_what_a_thread_file_cannot_show(tmp_path):
    """A saved game whose Storytellers acted by PM: the thread shows the bot's posts for what
    followed (the end), which the thread alone does not derive; replay says so, on stderr."""
    path = _with_bot_posts(tmp_path, ("2026-12-01T18:00:00Z", "night:1"),
                           ("2026-12-04T12:00:00Z", "game-over"),
                           ("2026-12-04T12:00:00Z", "vc:1.4:requested"))
    result = modbot("replay", "config/demo-game.toml", str(path), "--text")
    assert result.returncode == 0
    assert "the thread shows 1 post of the bot's that this replay does not derive " \
           "(game-over)" in result.stderr  # night 1's post it derives; counts are not compared


def test_replay_of_a_thread_it_can_derive_warns_of_nothing(tmp_path):
    path = _with_bot_posts(tmp_path, ("2026-12-01T18:00:00Z", "night:1"),
                           ("2026-12-02T18:00:00Z", "discussion:1"))
    result = modbot("replay", "config/demo-game.toml", str(path))
    assert result.returncode == 0 and result.stderr == ""


def test_the_sandbox_makes_the_accounts_of_two_games_that_share_a_storyteller(tmp_path):
    """`modbot sandbox --game a.toml --game b.toml` with one Storyteller in both: each account
    is made once (a second `add_user` of the same name was "Username must be unique")."""
    import dataclasses

    from modbot.cli.rehearsal import DEMO_GAME
    from modbot.cli.rehearsal_accounts import game_accounts
    from modbot.files.gamefile import load_game
    from modbot.sandbox.forum import Forum
    forum = Forum(limits=False)
    first = load_game(DEMO_GAME)
    second = dataclasses.replace(first, name="Second game", seats=tuple(
        dataclasses.replace(s, name=f"{s.name}2") for s in first.seats))
    keys = {**game_accounts(forum, first), **game_accounts(forum, second)}
    assert forum.user("nightingale").moderator and "nightingale" in keys
    assert all(forum.user(f"{s.name}2") is not None for s in first.seats)


def test_demo_on_a_port_in_use_says_so_in_one_line(tmp_path, capsys):
    import socket

    from modbot import cli
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        status = cli.main(["demo", "--port", str(port), "--database",
                           f"sqlite:///{tmp_path}/demo.sqlite"])
    finally:
        taken.close()
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1
    assert f"cannot serve the sandbox on port {port}" in err[0] and "--port" in err[0]

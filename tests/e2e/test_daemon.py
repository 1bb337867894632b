"""`modbot run` and `modbot sandbox` as a host starts them."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from modbot.adapters.forum import ConfigurationError
from modbot.adapters.store import Store
from modbot.app.running.daemon import load_config
from modbot.files.gamefile import load_game, with_topic_id

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)

ROOT = Path(__file__).resolve().parents[2]


def _modbot(*args, env=None, timeout=60):
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "modbot", *args], capture_output=True,
                          text=True, env=full_env, cwd=ROOT, timeout=timeout)


def _config(tmp_path, url="http://127.0.0.1:9", extra="", bot=""):
    game = (ROOT / "config" / "example-game.toml").read_text()
    (tmp_path / "game.toml").write_text(game)
    path = tmp_path / "modbot.toml"
    path.write_text(f'[forum]\nurl = "{url}"\nusername = "modbot"\n{extra}\n'
                    f'[bot]\ndatabase_url = "sqlite:///{tmp_path}/bot.sqlite"\n{bot}\n'
                    '[[game]]\nfile = "game.toml"\n')
    return path


def test_the_bundled_config_loads():
    config = load_config(ROOT / "config" / "modbot.toml", environ={"MODBOT_API_KEY": "k"})
    assert config.forum_url == "http://127.0.0.1:8080" and config.poll_seconds == 15
    assert config.games[0].endswith("example-game.toml")


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('url = "http://127.0.0.1:9"', 'url = "forum.example"'),
     "forum.url must be an http(s) URL"),
    (lambda t: t.replace("[bot]", "[bot]\npol_seconds = 3"), "unknown key(s) pol_seconds"),
    (lambda t: t.replace('[[game]]\nfile = "game.toml"\n', ""), "list at least one [[game]]"),
])
def test_config_errors_are_clear(tmp_path, edit, message):
    path = _config(tmp_path)
    path.write_text(edit(path.read_text()))
    with pytest.raises(ConfigurationError) as info:
        load_config(path, environ={"MODBOT_API_KEY": "k"})
    assert message in str(info.value) and str(info.value).startswith(str(path))


def test_missing_api_key_variable_is_named(tmp_path):
    with pytest.raises(ConfigurationError, match="MODBOT_API_KEY, which is not set"):
        load_config(_config(tmp_path), environ={})


def test_run_reports_an_unreachable_forum_and_exits(tmp_path):
    result = _modbot("run", "--config", str(_config(tmp_path)), env={"MODBOT_API_KEY": "k"})
    assert result.returncode == 3
    assert "cannot reach the forum at http://127.0.0.1:9" in result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_sandbox_command_serves_and_run_reports_a_bad_key(tmp_path):
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    sandbox = subprocess.Popen([sys.executable, "-m", "modbot", "sandbox", "--port", str(port),
                                "--api-key", "master", "--moderator", "modbot"],
                               stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        banner = sandbox.stdout.readline()
        assert f"http://127.0.0.1:{port}" in banner and "master" in banner
        me = requests.get(f"http://127.0.0.1:{port}/u/modbot.json", timeout=5,
                          headers={"Api-Key": "master", "Api-Username": "modbot"}).json()
        assert me["user"]["moderator"] is True
        result = _modbot("run", "--config", str(_config(tmp_path, f"http://127.0.0.1:{port}")),
                         env={"MODBOT_API_KEY": "wrong"})
        assert result.returncode == 3 and "key is invalid" in result.stderr
        result = _modbot("run", "--config", str(_config(tmp_path, f"http://127.0.0.1:{port}")),
                         env={"MODBOT_API_KEY": "master"})
        assert result.returncode == 3 and "has no thread yet: `modbot game new`" in result.stderr
        game = tmp_path / "game.toml"
        game.write_text(with_topic_id(game.read_text(), 1234))
        result = _modbot("run", "--config", str(tmp_path / "modbot.toml"),
                         env={"MODBOT_API_KEY": "master"})
        assert result.returncode == 3 and "topic 1234 not found" in result.stderr
    finally:
        sandbox.terminate()
        sandbox.wait(timeout=10)


def test_game_new_opens_the_thread_with_its_opening_post(tmp_path):
    from modbot.sandbox.forum import Forum
    from modbot.sandbox.server import SandboxServer
    forum = Forum(limits=False)
    forum.add_user("modbot", moderator=True)
    server = SandboxServer(0, api_key="master", forum=forum, admin_api_limit=0).start()
    try:
        config = _config(tmp_path, server.url, extra="category = 4",
                         bot='guide_url = "https://botf.example/modbot/players/"\n'
                             'poll_seconds = 1')
        forum.add_user("nightingale")
        result = _modbot("game", "new", str(tmp_path / "game.toml"), "--config", str(config),
                         env={"MODBOT_API_KEY": "master"})
        assert result.returncode == 0, result.stderr
        topic, conversation = list(forum.topics.values())
        # the Storytellers' conversation exists from now on, titled with the game's name, and
        # the database `modbot run` uses knows it as the game's (the notes go into it)
        assert conversation.is_pm and conversation.title == "BotF 1: notes for the Storytellers"
        assert "<!-- modbot:g" in conversation.posts[0].raw and "`!status`" in \
            conversation.posts[0].raw
        assert f"/t/{conversation.id}" in result.stdout
        store = Store(f"sqlite:///{tmp_path}/bot.sqlite")
        try:
            assert store.thread_topic(f"g{topic.id}:pm:storytellers") == conversation.id
        finally:
            store.close()
        # the daemon's notes go into that conversation, and its first note is never sent again
        ran = _modbot("run", "--config", str(config), "--max-cycles", "2",
                      env={"MODBOT_API_KEY": "master"})
        assert ran.returncode == 0, ran.stderr
        notes = [t for t in forum.topics.values() if "notes for the Storytellers" in t.title]
        assert notes == [conversation] and len(conversation.posts) > 1
        assert sum("st:welcome" in p.raw for p in conversation.posts) == 1
        assert f"topic {topic.id}" in result.stdout and topic.category_id == 4
        opening = topic.posts[0]
        assert opening.username == "modbot" and opening.raw.startswith("# BotF 1")
        assert '[date=2026-12-01 time=18:00:00 timezone="UTC"]' in opening.raw
        assert "1. Alex\n2. Brianna" in opening.raw and "`/nominate X`" in opening.raw
        # the short guide folded, the full one linked
        assert "The full player guide: https://botf.example/modbot/players/" in opening.raw
        assert '[details="How to play: what to post"]' in opening.raw
        game_file = tmp_path / "game.toml"
        assert load_game(game_file).topic_id == topic.id  # written into the game file
        again = _modbot("game", "new", str(game_file), "--config", str(config),
                        env={"MODBOT_API_KEY": "master"})
        assert again.returncode == 2 and "already has its thread" in again.stderr
        assert len(forum.topics) == 2  # no second thread
        game_file.write_text(game_file.read_text().replace(f"topic_id = {topic.id}\n", ""))
        result = _modbot("game", "new", str(game_file), "--config",
                         str(_config(tmp_path, server.url)), env={"MODBOT_API_KEY": "master"})
        assert result.returncode == 2 and "category" in result.stderr
    finally:
        server.stop()


def test_a_forum_blip_at_start_up_is_retried_and_the_bot_runs(tmp_path, caplog, monkeypatch):
    """A 5xx (or a 429, or a timeout) while starting is retried with backoff; only a bad key,
    a missing topic or a forum that never answers stops the bot."""
    from modbot.app.running import daemon
    from modbot.app.running.daemon import Config, run
    from modbot.cli.rehearsal import demo_rehearsal
    monkeypatch.setattr(daemon, "START_BACKOFF", 0.05)  # the retries, not their waiting
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/unused.sqlite")
    try:
        requests.post(rehearsal.url + "/_sandbox/faults.json", timeout=5, json={
            "path": "/users/", "method": "GET", "kind": "500", "count": 2,
            "username": "modbot"}).raise_for_status()
        requests.post(rehearsal.url + "/_sandbox/faults.json", timeout=5, json={
            "path": "/latest.json", "method": "GET", "kind": "429", "count": 1,
            "wait_seconds": 0, "username": "modbot"}).raise_for_status()  # the topics' listing
        config = Config(rehearsal.url, "modbot", rehearsal.server.api_key,
                        [str(ROOT / "config" / "demo-game.toml")],
                        database_url=f"sqlite:///{tmp_path}/bot.sqlite")
        with caplog.at_level("WARNING", logger="modbot.app.running.daemon"):
            assert run(config, max_cycles=1) == 0
        retries = [r.message for r in caplog.records if "trying again" in r.message]
        assert len(retries) == 3
    finally:
        rehearsal.stop()


def test_a_port_in_use_is_one_line_not_a_traceback():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = _modbot("sandbox", "--port", str(port))
    assert result.returncode == 2
    assert result.stderr.startswith("modbot: cannot serve on port") and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_closed_pipe_is_not_a_traceback(monkeypatch):
    """`modbot ... | head`: the reader leaves early; the command ends quietly."""
    from modbot.cli import main
    read, write = os.pipe()
    os.close(read)  # the reader has gone
    with os.fdopen(write, "w") as closed:
        monkeypatch.setattr(sys, "stdout", closed)
        assert main(["replay", "config/demo-game.toml", "data/demo-thread.json"]) == 0


def test_ctrl_c_is_one_line():
    """A Ctrl-C while modbot loads or runs ends it with no traceback. A command that runs until
    stopped (the sandbox) is interrupted at two moments: while it may still be importing, and
    once it serves; `modbot demo` is no longer used here, as it can finish before the signal
    (then the signal lands in the interpreter's own exit, and the test measured nothing)."""
    import signal
    import time

    from ..helpers import loading_time
    for moment in (loading_time() + 0.05, None):
        proc = subprocess.Popen([sys.executable, "-m", "modbot", "sandbox", "--port", "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        if moment is None:
            assert "modbot sandbox on" in proc.stdout.readline()  # serving now
        else:
            time.sleep(moment)  # inside modbot, not the interpreter's own start-up
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err
        assert proc.returncode in (0, 130), (proc.returncode, err)
        assert err.strip() in ("", "modbot: interrupted"), err


def test_a_relative_database_is_beside_the_configuration_whatever_the_directory(tmp_path,
                                                                                monkeypatch):
    folder = tmp_path / "host"
    folder.mkdir()
    path = _config(folder).rename(folder / "modbot.toml")
    path.write_text(path.read_text().replace(f'database_url = "sqlite:///{folder}/bot.sqlite"',
                                             'database_url = "sqlite:///data/bot.sqlite"'))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    config = load_config(path, environ={"MODBOT_API_KEY": "k"})
    assert config.database_url == f"sqlite:///{folder / 'data' / 'bot.sqlite'}"
    assert config.notices == []
    (elsewhere / "data").mkdir()  # an older bot's database, relative to where it ran
    (elsewhere / "data" / "bot.sqlite").write_bytes(b"")
    config = load_config(path, environ={"MODBOT_API_KEY": "k"})
    assert config.database_url == f"sqlite:///{elsewhere / 'data' / 'bot.sqlite'}"
    assert "move it to" in config.notices[0]
    env = load_config(path, environ={"MODBOT_API_KEY": "k", "DATABASE_URL": "sqlite:///x.db"})
    assert env.database_url == "sqlite:///x.db"


def test_game_status_reads_the_database_of_the_configuration(tmp_path):
    """`game status --config` finds the bot's database where `modbot run` keeps it."""
    config = tmp_path / "modbot.toml"
    config.write_text('[forum]\nurl = "http://127.0.0.1:9"\n[bot]\n'
                      'database_url = "sqlite:///data/bot.sqlite"\n[[game]]\nfile = "g.toml"\n')
    result = _modbot("game", "status", "config/demo-game.toml", "--config", str(config))
    assert result.returncode == 2 and "is not in this database" in result.stderr
    assert (tmp_path / "data" / "bot.sqlite").exists()  # beside the configuration


def test_help_texts_say_what_the_commands_do():
    demo = _modbot("demo", "--help").stdout
    assert "two nights and a day" in " ".join(demo.split())
    sandbox = _modbot("sandbox", "--help").stdout
    assert "KEY is" not in " ".join(sandbox.split())  # no placeholder that does not exist
    assert "default: config/modbot.toml" in _modbot("run", "--help").stdout
    assert "default: config/modbot.toml" in _modbot("game", "new", "--help").stdout


def test_the_sandbox_recipe_of_the_rehearsal_guide_runs_as_written(tmp_path):
    """docs/rehearse.md "Check and run against the sandbox", step by step: the sandbox makes
    the game's accounts (--game), check passes before the thread exists, game new opens it and
    writes topic_id, check passes again, and run runs (a cycle here)."""
    port = _free_port()
    game = tmp_path / "sandbox-game.toml"
    game.write_text((ROOT / "config" / "example-game.toml").read_text())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    sandbox = subprocess.Popen([sys.executable, "-m", "modbot", "sandbox", "--port", str(port),
                                "--api-key", "master", "--game", str(game)],
                               stdout=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert "master" in sandbox.stdout.readline()
        assert "accounts of the game files: nightingale" in sandbox.stdout.readline()
        config = tmp_path / "sandbox.toml"
        config.write_text(f'[forum]\nurl = "http://127.0.0.1:{port}"\nusername = "modbot"\n'
                          'api_key_env = "MODBOT_API_KEY"\ncategory = 1\n\n[bot]\n'
                          'database_url = "sqlite:///data/sandbox.sqlite"\npoll_seconds = 2\n\n'
                          '[[game]]\nfile = "sandbox-game.toml"\n')
        key = {"MODBOT_API_KEY": "master"}
        check = _modbot("check", "--config", str(config), env=key)
        assert check.returncode == 0, check.stdout + check.stderr
        assert "no game thread yet" in check.stdout
        opened = _modbot("game", "new", str(game), "--config", str(config), env=key)
        assert opened.returncode == 0, opened.stderr
        assert load_game(game).topic_id is not None
        again = _modbot("check", "--config", str(config), env=key)
        assert again.returncode == 0 and "no game thread yet" not in again.stdout, again.stdout
        ran = _modbot("run", "--config", str(config), "--max-cycles", "1", env=key)
        assert ran.returncode == 0, ran.stderr
    finally:
        sandbox.terminate()
        sandbox.wait(timeout=10)

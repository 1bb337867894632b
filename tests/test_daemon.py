"""`modbot run` and `modbot sandbox` as a host starts them."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from modbot.app.daemon import ConfigError, load_config

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP (or a daemon process)

ROOT = Path(__file__).resolve().parent.parent


def _modbot(*args, env=None, timeout=60):
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "modbot", *args], capture_output=True,
                          text=True, env=full_env, cwd=ROOT, timeout=timeout)


def _config(tmp_path, url="http://127.0.0.1:9", extra=""):
    game = (ROOT / "config" / "example-game.toml").read_text()
    (tmp_path / "game.toml").write_text(game)
    path = tmp_path / "modbot.toml"
    path.write_text(f'[forum]\nurl = "{url}"\nusername = "modbot"\n{extra}\n'
                    f'[bot]\ndatabase_url = "sqlite:///{tmp_path}/bot.sqlite"\n'
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
    with pytest.raises(ConfigError) as info:
        load_config(path, environ={"MODBOT_API_KEY": "k"})
    assert message in str(info.value) and str(info.value).startswith(str(path))


def test_missing_api_key_variable_is_named(tmp_path):
    with pytest.raises(ConfigError, match="MODBOT_API_KEY, which is not set"):
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
        config = _config(tmp_path, server.url, extra="category = 4")
        result = _modbot("game", "new", str(tmp_path / "game.toml"), "--config", str(config),
                         env={"MODBOT_API_KEY": "master"})
        assert result.returncode == 0, result.stderr
        topic = next(iter(forum.topics.values()))
        assert f"topic {topic.id}" in result.stdout and topic.category_id == 4
        opening = topic.posts[0]
        assert opening.username == "modbot" and opening.raw.startswith("# BotF 1")
        assert '[date=2026-12-01 time=18:00:00 timezone="UTC"]' in opening.raw
        assert "1. Alex\n2. Brianna" in opening.raw and "`/nominate X`" in opening.raw
        result = _modbot("game", "new", str(tmp_path / "game.toml"), "--config",
                         str(_config(tmp_path, server.url)), env={"MODBOT_API_KEY": "master"})
        assert result.returncode == 2 and "category" in result.stderr
    finally:
        server.stop()

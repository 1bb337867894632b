"""`modbot login` on the sandbox (issue 23): the bot's own User API key, without a forum admin,
in Discourse's classic flow: authorized in the browser as the bot's account, the payload
pasted back and checked (a wrong nonce, or a payload for another key, refused with one line),
kept in a 0600 file the configuration names; requests carry `User-Api-Key` within the key's
own limits; `modbot check` reports the key, and a revoked one."""

import html
import io
import re
import stat

import pytest
import requests

from modbot import cli
from modbot.adapters import user_key
from modbot.adapters.forum import TransientError
from modbot.adapters.user_key import KeyRequest
from modbot.sandbox.forum import Forum
from modbot.sandbox.server import SandboxServer
from modbot.sandbox.web import COOKIE

pytestmark = pytest.mark.slow  # the CLI against the sandbox over HTTP


@pytest.fixture
def server():
    forum = Forum(limits=False)  # the login's few requests; the posting limits have their tests
    forum.add_user("modbot", trust_level=1)  # a plain account: no admin, no moderator
    forum.add_user("nightingale", trust_level=2)
    server = SandboxServer(0, api_key="master", forum=forum).start()
    yield server
    server.stop()


def _authorized(server, request: KeyRequest, as_user: str = "modbot") -> str:
    """What the host does in the browser: open the address, authorize, copy the payload."""
    cookies = {COOKIE: as_user}
    page = requests.get(request.authorize_url(server.url), cookies=cookies, timeout=10)
    assert page.status_code == 200 and "Authorize" in page.text and "@" + as_user in page.text
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', page.text))
    shown = requests.post(server.url + "/user-api-key", data={k: html.unescape(v) for k, v in
                                                              fields.items()},
                          cookies=cookies, timeout=10)
    return html.unescape(re.search(r'<pre id="payload">(.*?)</pre>', shown.text, re.S).group(1))


def _login(monkeypatch, request, payload, *extra):
    """`modbot login --classic` (this file's flow: the device flow has test_login_device.py)."""
    monkeypatch.setattr(user_key, "KeyRequest", lambda: request)
    monkeypatch.setattr("sys.stdin", io.StringIO(payload + "\n\n"))
    return cli.main(["login", "--classic", *extra])


def _config(tmp_path, server, key_file) -> str:
    path = tmp_path / "modbot.toml"
    path.write_text(f'[forum]\nurl = "{server.url}"\nusername = "modbot"\n'
                    f'user_api_key_file = "{key_file}"\n'
                    f'[bot]\ndatabase_url = "sqlite:///{tmp_path}/bot.sqlite"\n'
                    '[[game]]\nfile = "game.toml"\n')
    (tmp_path / "game.toml").write_text(
        '[game]\nname = "G"\nstorytellers = ["nightingale"]\n'
        'first_night_starts = "2026-12-10T18:00:00Z"\nbot = "modbot"\ntopic_id = 99\n'
        + "".join(f'[[seat]]\nplayer = "{n}"\n' for n in ("A1", "B2", "C3", "D4", "E5")))
    return str(path)


def test_login_keeps_the_bots_own_key_in_a_file_only_its_owner_reads(server, tmp_path,
                                                                     monkeypatch, capsys):
    request = KeyRequest()
    payload = _authorized(server, request)
    key_file = tmp_path / "modbot.key"
    assert _login(monkeypatch, request, payload, "--forum", server.url, "--username", "modbot",
                  "--key-file", str(key_file), "--config", str(tmp_path / "modbot.toml")) == 0
    out = capsys.readouterr().out
    assert request.authorize_url(server.url) in out  # the address to open, printed
    assert "Logged in as @modbot (not staff, trust level 1)" in out
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    (granted,) = server.user_keys.keys.values()
    assert granted.username == "modbot" and granted.scopes == {"write", "message_bus",
                                                               "session_info"}
    # the line printed is the one that works in the configuration (paths are its folder's)
    assert f'user_api_key_file = "modbot.key" in {tmp_path / "modbot.toml"}\'s [forum]' in out
    config = _config(tmp_path, server, "modbot.key")
    assert cli.main(["check", "--config", config]) == 1  # topic 99 does not exist
    out = capsys.readouterr().out
    assert "note: key: modbot (trust level 1)'s own User API key" in out
    assert "problem: the User API key" not in out
    assert cli.main(["logout", "--config", config]) == 0
    assert granted.revoked and not key_file.exists()


def test_a_forum_without_the_device_flow_gets_the_classic_one(server, tmp_path, monkeypatch,
                                                               capsys):
    server.device_grants.enabled = False  # a Discourse older than the device flow
    assert "Auth-Api-Device-Code" not in requests.head(server.url + "/user-api-key/new",
                                                       timeout=10).headers
    request = KeyRequest()
    monkeypatch.setattr(user_key, "KeyRequest", lambda: request)
    monkeypatch.setattr("sys.stdin", io.StringIO(_authorized(server, request) + "\n\n"))
    assert cli.main(["login", "--forum", server.url, "--key-file",
                     str(tmp_path / "modbot.key")]) == 0
    assert "paste the payload" in capsys.readouterr().out


def test_a_revoked_key_is_reported_by_check(server, tmp_path, monkeypatch, capsys):
    request = KeyRequest()
    key_file = tmp_path / "modbot.key"
    assert _login(monkeypatch, request, _authorized(server, request), "--forum", server.url,
                  "--key-file", str(key_file)) == 0
    next(iter(server.user_keys.keys.values())).revoked = True  # revoked in the forum's UI
    capsys.readouterr()
    assert cli.main(["check", "--config", _config(tmp_path, server, key_file)]) == 1
    assert "the User API key of 'modbot' was revoked or is unknown" in capsys.readouterr().out


def test_a_payload_for_another_login_or_another_key_is_refused_in_one_line(server, tmp_path,
                                                                           monkeypatch, capsys):
    mine = KeyRequest()
    other_nonce = KeyRequest(private_key=mine.private_key)  # same key pair, another nonce
    assert _login(monkeypatch, mine, _authorized(server, other_nonce), "--forum", server.url,
                  "--key-file", str(tmp_path / "k")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "made for another login" in err
    assert _login(monkeypatch, mine, _authorized(server, KeyRequest()), "--forum", server.url,
                  "--key-file", str(tmp_path / "k")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not open with this login's key" in err
    assert "Error" not in err  # what to do, not the exception's name
    assert _login(monkeypatch, mine, "the key is 1234, I think", "--forum", server.url,
                  "--key-file", str(tmp_path / "k")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not the forum's payload: paste the block" in err
    assert not (tmp_path / "k").exists()


def test_the_key_is_someone_elses_when_the_wrong_account_authorized(server, tmp_path,
                                                                    monkeypatch, capsys):
    request = KeyRequest()
    payload = _authorized(server, request, as_user="nightingale")  # the Storyteller's browser
    assert _login(monkeypatch, request, payload, "--forum", server.url, "--username", "modbot",
                  "--key-file", str(tmp_path / "k")) == 2
    assert "the key is @nightingale's, not @modbot's" in capsys.readouterr().err


def test_a_user_key_has_its_own_limits_and_scopes(server, tmp_path, monkeypatch):
    request = KeyRequest()
    key_file = tmp_path / "modbot.key"
    assert _login(monkeypatch, request, _authorized(server, request), "--forum", server.url,
                  "--key-file", str(key_file)) == 0
    from modbot.app.running.daemon import load_config
    config = load_config(_config(tmp_path, server, key_file))
    client = config.forum_client()
    client.budget.per_minute = 0  # the forum's limit is what is tested here, not the bot's
    for _ in range(19):  # the login's own check was the first of the minute
        client.current_user()
    with pytest.raises(TransientError) as refused:
        client.current_user()
    assert refused.value.status == 429 and refused.value.code == "user_api_key_limiter_60_secs"
    headers = {"User-Api-Key": server.user_keys.keys[config.api_key].key,
               "User-Api-Client-Id": request.client_id, "Accept": "application/json"}
    read_only = next(iter(server.user_keys.keys.values()))
    read_only.scopes = frozenset({"read"})
    read_only.minute.clear()
    answer = requests.post(server.url + "/posts.json", data={"raw": "x" * 30, "topic_id": 1},
                           headers=headers, timeout=10)
    assert answer.status_code == 403  # `read` permits no post

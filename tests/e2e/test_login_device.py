"""`modbot login` in Discourse's device flow (issue 23): where the forum offers it, the host
opens an address, enters the code and authorizes; modbot polls for the forum's answer and keeps
the key. A denied request, an expired one and a wrong code are each answered in one line or
on the page; an account whose trust level may not authorize applications is refused."""

import re
import stat
import threading
import time
from datetime import UTC, datetime

import pytest
import requests

from modbot import cli
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import Clock
from modbot.sandbox.server import SandboxServer
from modbot.sandbox.web import COOKIE

pytestmark = pytest.mark.slow  # the CLI against the sandbox over HTTP


@pytest.fixture
def server():
    forum = Forum(limits=False)  # the login's few requests; the posting limits have their tests
    forum.add_user("modbot", trust_level=1)
    forum.add_user("newbie", trust_level=0)
    server = SandboxServer(0, api_key="master", forum=forum).start()
    server.device_grants.interval = 0.2  # Discourse asks for 5 s between polls: a test's patience
    yield server
    server.stop()


def _pending(server, timeout: float = 10.0):
    """The grant the CLI asked for, as the host would read its code off the terminal."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        for grant in list(server.device_grants.grants.values()):
            return grant
        time.sleep(0.05)
    raise AssertionError("modbot login asked for no device grant")


def _host(server, action: str = "authorize", *, as_user: str = "modbot", code=None,
          seen: list | None = None) -> threading.Thread:
    """What the host does in the browser, in a thread beside the waiting CLI."""
    def act() -> None:
        grant = _pending(server)
        cookies = {COOKIE: as_user}
        opened = requests.get(f"{server.url}/user-api-key/activate?request={grant.request_token}",
                              cookies=cookies, timeout=10)
        typed = code if code is not None else grant.user_code.lower().replace("-", " ")
        page = requests.post(server.url + "/user-api-key/activate", cookies=cookies, timeout=10,
                             data={"code": typed, "request": grant.request_token})
        if seen is not None:
            seen.extend((opened, page))
        token = re.search(r"name='approval_token' value='([^']+)'", page.text)
        if token is not None:
            requests.post(f"{server.url}/user-api-key/device/{action}", cookies=cookies,
                          data={"approval_token": token.group(1)}, timeout=10)
        else:
            grant.created -= 601  # never entered: the ten minutes pass
    thread = threading.Thread(target=act, daemon=True)
    thread.start()
    return thread


def test_the_device_flow_gets_the_key_without_a_payload_to_paste(server, tmp_path, capsys):
    assert requests.head(server.url + "/user-api-key/new", timeout=10).headers[
        "Auth-Api-Device-Code"] == "true"
    key_file = tmp_path / "modbot.key"
    host = _host(server)
    assert cli.main(["login", "--forum", server.url, "--username", "modbot",
                     "--key-file", str(key_file)]) == 0
    host.join()
    out = capsys.readouterr().out
    assert "/user-api-key/activate?request=" in out and re.search(r"code [A-Z2-9]{4}-[A-Z2-9]{4}",
                                                                 out)
    assert "Logged in as @modbot (not staff, trust level 1)" in out
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    (granted,) = server.user_keys.keys.values()
    assert granted.username == "modbot" and granted.scopes == {"write", "message_bus",
                                                               "session_info"}
    assert granted.key in key_file.read_text() and server.device_grants.grants == {}


def test_the_device_flow_works_on_a_rehearsal_speed_sandbox(tmp_path, capsys):
    """Issue 56: on a sandbox whose forum clock runs 600 times real time, an authorized
    payload's minute is a tenth of a real second; the grants live on real seconds, the clock
    the host and modbot's polling share, so a poll a second later still collects the key."""
    forum = Forum(Clock(datetime(2026, 12, 1, 17, tzinfo=UTC), speed=600), limits=False)
    forum.add_user("modbot", trust_level=1)
    server = SandboxServer(0, api_key="master", forum=forum).start()
    server.device_grants.interval = 1.0  # a second between polls: ten forum minutes here
    try:
        host = _host(server)
        assert cli.main(["login", "--forum", server.url, "--username", "modbot",
                         "--key-file", str(tmp_path / "modbot.key")]) == 0
        host.join()
    finally:
        server.stop()
    assert "Logged in as @modbot" in capsys.readouterr().out


def test_a_denied_request_is_answered_in_one_line_and_keeps_nothing(server, tmp_path, capsys):
    key_file = tmp_path / "modbot.key"
    host = _host(server, "deny")
    assert cli.main(["login", "--forum", server.url, "--key-file", str(key_file)]) == 2
    host.join()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "denied on the forum" in err and "Traceback" not in err
    assert not key_file.exists() and server.user_keys.keys == {}


def test_a_wrong_code_is_told_on_the_page_and_the_request_expires(server, tmp_path, capsys):
    seen: list = []
    host = _host(server, code="ABCD-EFGH", seen=seen)
    assert cli.main(["login", "--forum", server.url, "--key-file",
                     str(tmp_path / "modbot.key")]) == 2
    host.join()
    assert "id='code'" in seen[0].text and "wrong or has expired" in seen[1].text
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the forum no longer knows this request" in err


def test_an_account_below_the_sites_trust_level_may_not_authorize(server, tmp_path, capsys):
    server.user_keys.min_trust_level = 1  # Discourse's min_trust_level_for_user_api_key
    seen: list = []
    host = _host(server, as_user="newbie", seen=seen)
    assert cli.main(["login", "--forum", server.url, "--key-file",
                     str(tmp_path / "modbot.key")]) == 2
    host.join()
    assert seen[1].status_code == 403 and "trust level" in seen[1].text
    assert server.user_keys.keys == {}


def test_the_forum_refuses_a_device_request_it_cannot_serve(server):
    refused = requests.post(server.url + "/user-api-key/device.json", timeout=10, json={
        "application_name": "modbot", "client_id": "c1", "nonce": "n1",
        "scopes": "write,one_time_password", "public_key": "not a key"})
    assert refused.status_code == 400 and refused.json()["error_type"] == "invalid_parameters"
    polled = requests.post(server.url + "/user-api-key/device/poll.json", timeout=10,
                           json={"device_code": "0" * 64})
    assert polled.json() == {"status": "expired_token"}
    hostile = requests.post(server.url + "/user-api-key/device/authorize", timeout=10,
                            cookies={COOKIE: "modbot"}, data={"approval_token": "jeté ☃"})
    assert hostile.status_code == 200 and "wrong or has expired" in hostile.text


def test_the_host_authorizes_in_a_real_browser(server, tmp_path, capsys):
    """The pages as a host meets them: the address modbot printed, the code typed, Authorize."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as shown
    from selenium.webdriver.support.ui import WebDriverWait

    from .browser import chromium
    driver = chromium()
    shots = tmp_path / "device"
    landed: list[str] = []

    def host() -> None:
        grant = _pending(server)
        try:
            driver.get(server.url + "/user-api-key/activate")
            driver.add_cookie({"name": COOKIE, "value": "modbot"})  # signed in as the bot
            driver.get(f"{server.url}/user-api-key/activate?request={grant.request_token}")
            landed.append(driver.find_element(By.ID, "signed-in").text)
            driver.find_element(By.ID, "code").send_keys(grant.user_code)
            driver.save_screenshot(f"{shots}-code.png")
            driver.find_element(By.ID, "continue").click()
            button = WebDriverWait(driver, 10).until(  # a click does not wait for the page
                shown.presence_of_element_located((By.ID, "authorize")))
            landed.append(driver.page_source)
            driver.save_screenshot(f"{shots}-authorize.png")
            button.click()
            WebDriverWait(driver, 10).until(shown.title_is("Authorized"))
        except Exception:
            grant.created -= 601  # the CLI gives up now instead of in ten minutes
            raise

    try:
        thread = threading.Thread(target=host, daemon=True)
        thread.start()
        assert cli.main(["login", "--forum", server.url, "--key-file",
                         str(tmp_path / "modbot.key")]) == 0
        thread.join()
        assert "Done: return to the application." in driver.page_source
    finally:
        driver.quit()
    assert landed[0].startswith("Signed in as @modbot")  # whom the key will be for
    assert "@modbot" in landed[1] and "message_bus" in landed[1]
    assert "Logged in as @modbot" in capsys.readouterr().out

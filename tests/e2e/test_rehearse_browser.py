"""`modbot rehearse` in a real browser: headless Chromium (Debian's packages) driven by Selenium.

The host's path through a rehearsal: choose whom to view as, jump the forum clock to each
deadline, nominate and vote through the page's reply form, and see the bot's vote count appear
in the thread. The bot's cycles run in the test, at the forum's time, so nothing waits on real
time. `.ci/run` installs chromium and chromium-driver; outside CI a machine without them skips.
"""

from __future__ import annotations

import textwrap
from datetime import timedelta

import pytest

from modbot.app.running.service import Settings
from modbot.cli.browser_rehearsal import start_rehearsal

from .browser import chromium

pytestmark = pytest.mark.slow

GAME = textwrap.dedent("""\
    [game]
    name = "Browser rehearsal"
    topic_id = 1
    storytellers = ["nightingale"]
    rules = "botf"
    first_night_starts = "2026-12-01T18:00:00Z"
    bot = "modbot"
    night = 24
    discussion = 12
    nomination = 12
    voting = 24
    """) + "".join(f'[[seat]]\nplayer = "{name}"\n' for name in
                   ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"))

# The bot acts at once on a post or a deadline instead of 10 forum seconds later, so each step
# needs one cycle at a clock that runs at real speed (not one of Discourse's limits: they stay on)
AT_ONCE = Settings(bot_username="modbot", settle_seconds=0)


@pytest.fixture
def rehearsal(tmp_path):
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    live = start_rehearsal(game, speed=1, data_dir=tmp_path / "data", settings=AT_ONCE)
    yield live
    live.stop()


@pytest.fixture
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def _bot_catches_up(live) -> None:
    live.cycle()
    for _ in range(20):
        if not live.store.pending():
            break
        live.service.drain()


def _view_as(driver, username: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
    old = driver.find_element(By.TAG_NAME, "html")
    Select(driver.find_element(By.ID, "viewing-as")).select_by_value(username)
    WebDriverWait(driver, 10).until(lambda d: old.id != d.find_element(By.TAG_NAME, "html").id)


def _click_and_wait(driver, element_id: str, by: str = "id") -> None:
    """A click does not wait for the page it opens: wait until the old page is gone."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(by, element_id).click()
    WebDriverWait(driver, 10).until(lambda d: old.id != d.find_element(By.TAG_NAME, "html").id)


def _reply(driver, text: str) -> None:
    from selenium.webdriver.common.by import By
    driver.find_element(By.ID, "raw").send_keys(text)
    _click_and_wait(driver, "submit-reply")


def _posts(driver) -> list[tuple[str, str]]:
    from selenium.webdriver.common.by import By
    return [(p.get_attribute("data-username"),
             p.find_element(By.CSS_SELECTOR, ".cooked, .notice").text)
            for p in driver.find_elements(By.CSS_SELECTOR, "article.post")]


def test_a_nomination_and_a_vote_posted_through_the_page_bring_the_bots_count(rehearsal, browser):
    live = rehearsal
    browser.get(live.thread_url)  # five forum minutes before night 1
    seen: list[str] = []
    while "Nominations are open (day 1)" not in seen and len(seen) < 6:
        _click_and_wait(browser, "next-deadline")  # one deadline at a time
        _bot_catches_up(live)
        browser.refresh()
        latest = _posts(browser)[-1][1].splitlines()[0]
        seen += [latest] if latest not in seen else []
    assert seen == ["Night 1 begins", "Day 1 begins", "Nominations are open (day 1)"], seen
    assert "[date=" not in browser.page_source  # deadlines read as dates, not tags

    _view_as(browser, "Alex")
    _reply(browser, "Derek has been very quiet.\n/nominate Derek")
    _view_as(browser, "Ellen")
    _reply(browser, "I agree with Alex here.\n/vote Derek yes")
    _bot_catches_up(live)  # the nomination's count came with it; Ellen's vote waits its turn
    _click_and_wait(browser, "next-hour")  # vote counts come at most hourly
    _bot_catches_up(live)
    browser.refresh()

    posts = _posts(browser)
    assert [author for author, _ in posts[-4:]] == ["Alex", "Ellen", "modbot", "modbot"]
    first, second = posts[-2][1], posts[-1][1]
    assert first.startswith("Vote count 1.1") and "Derek 0/4" in first
    assert second.startswith("Vote count 1.2")
    assert "Votes / needed: Derek 1/4" in second
    assert "Nominated by Alex" in second


def test_a_post_the_forum_refuses_is_explained_and_the_text_kept(rehearsal, browser):
    from selenium.webdriver.common.by import By
    browser.get(rehearsal.thread_url)
    _view_as(browser, "Brianna")
    _reply(browser, "/accept")  # under Discourse's 20 characters
    assert "Body is too short" in browser.find_element(By.ID, "post-error").text
    assert browser.find_element(By.ID, "raw").get_attribute("value") == "/accept"
    assert [author for author, _ in _posts(browser)] == ["modbot"]  # nothing was posted


def test_a_players_messages_show_their_character_pm_and_no_one_elses(tmp_path, browser):
    from selenium.webdriver.common.by import By

    from modbot.cli.rehearsal import DEMO_GAME
    live = start_rehearsal(DEMO_GAME, speed=1, data_dir=tmp_path, settings=AT_ONCE)
    try:
        browser.get(live.server.url + "/")
        _view_as(browser, "Alex")
        _click_and_wait(browser, "next-deadline")  # night 1 begins: the characters are dealt
        _bot_catches_up(live)
        _click_and_wait(browser, "messages-link")
        titles = [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".topics a")]
        assert titles and all("Alex" in title for title in titles)
        _click_and_wait(browser, "grimoire", By.PARTIAL_LINK_TEXT)
        assert "Clockmaker" in browser.page_source
        assert "Witch" not in browser.page_source  # Derek's character is his alone
        browser.get(live.server.url + "/u/Derek/messages")
        assert "Not found" in browser.page_source
    finally:
        live.stop()


def test_a_fast_rehearsal_gives_a_person_a_real_minute_to_act(tmp_path):
    """At 60x, ten forum minutes to `!confirm` would be ten real seconds: the rehearsal's game
    gives every window at least one real minute (60 forum minutes), and the default game none."""
    from modbot.cli.rehearsal import DEMO_GAME
    live = start_rehearsal(DEMO_GAME, speed=60, data_dir=tmp_path, settings=AT_ONCE)
    try:
        assert live.setup.shortest_window == timedelta(minutes=60)
        (served,) = live.service.setups  # the game the bot runs
        assert served.window(timedelta(minutes=10)) == timedelta(minutes=60)
    finally:
        live.stop()


def test_a_rehearsals_bot_runs_on_its_user_key_and_is_woken_by_the_bus(tmp_path):
    """As on a forum without an admin: the bot's requests carry its own User API key, and a
    post wakes it through MessageBus though its sweep is ten minutes apart, so a post is read
    in the latency a host will see."""
    import threading
    import time

    from tests.sandbox_fixtures import KEY, Client
    game = tmp_path / "game.toml"
    game.write_text(GAME, encoding="utf-8")
    # 60x: the key's minute (on the forum's clock) passes in a second, as in `modbot rehearse`
    live = start_rehearsal(game, speed=60, data_dir=tmp_path / "data", settings=AT_ONCE,
                           api_key=KEY)
    stop = threading.Event()
    runner = threading.Thread(target=live.run, args=(stop, 600.0), daemon=True)
    try:
        runner.start()
        started = time.monotonic()
        while not live.service.games and time.monotonic() - started < 20:
            time.sleep(0.05)  # the game's start-up, woken by the bus's first answers
        time.sleep(1)
        reads = live.server.counts["GET /t/{id}/posts(.json)"]
        posted = time.monotonic()
        Client(live.server).post("Alex", "Hello all, looking forward to this game.",
                                 topic_id=live.topic_id)
        while time.monotonic() - posted < 20 and \
                live.server.counts["GET /t/{id}/posts(.json)"] == reads:
            time.sleep(0.05)
        read = live.server.counts["GET /t/{id}/posts(.json)"] > reads  # the bot read the post
    finally:
        stop.set()
        runner.join(10)
        live.stop()
    assert read and live.server.bus.polls >= 1  # within seconds, not the ten-minute sweep
    (bot_key,) = [k for k in live.server.user_keys.keys.values() if k.username == "modbot"]
    assert len(bot_key.day) > 0 and bot_key.scopes == {"write", "message_bus", "session_info"}

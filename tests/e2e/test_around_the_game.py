"""Around the game on the sandbox (issue 41), the demo played with every private message plus
an observer and an absence: the thread index (a post of the bot's near the top, each link
pointing at the post it names, each player's posts through `?username_filters`, renamed with
the player), countdowns in the thread and none in PMs, `/away` answered and shown in the vote
count, and an observer's conversation with the grimoire at dawn, which no player sees. The
topic page is screenshot in Chromium."""

import dataclasses
import os
import re
from datetime import timedelta
from pathlib import Path

import pytest

from modbot.cli.rehearsal import demo_rehearsal, play_demo
from modbot.sandbox.web import COOKIE

from .browser import chromium

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP, and a browser

MARKER = re.compile(r"<!-- modbot:(\S+) -->")
EXTRA = [
    {"username": "nightingale", "to": "storytellers", "created_at": "2026-12-01T18:30:00Z",
     "raw": "Quinn will watch the grimoire with us.\n!observer Quinn --yes"},
    {"username": "Cameron", "created_at": "2026-12-02T20:00:00Z",
     "raw": "/away 2d\nA family visit, back on Friday evening."},
]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    path = tmp_path_factory.mktemp("around") / "bot.sqlite"
    rehearsal, script = demo_rehearsal(f"sqlite:///{path}")
    rehearsal.server.forum.add_user("Quinn")
    try:
        play_demo(rehearsal, sorted(script + EXTRA, key=lambda item: item["created_at"]))
        yield rehearsal
    finally:
        rehearsal.stop()


def _bot_posts(rehearsal) -> dict[str, dict]:
    return {MARKER.search(p["raw"]).group(1): p for p in rehearsal.thread()
            if p["username"] == "modbot" and MARKER.search(p["raw"])}


def _conversations_of(rehearsal, name: str):
    return [t for t in rehearsal.server.forum.topics.values()
            if t.is_pm and name.lower() in {u.lower() for u in t.allowed}]


def test_the_index_is_near_the_top_and_each_link_points_at_what_it_names(played):
    posts = _bot_posts(played)
    index = posts["g1:index"]
    assert index["post_number"] <= 4 and index["version"] > 1  # kept up to date by edits
    number_of = {key: p["post_number"] for key, p in posts.items()}
    raw = index["raw"]
    for label, key in (("Night 1", "g1:night:1"), ("Day 1", "g1:discussion:1"),
                       ("Nominations, day 1", "g1:nomination:1"), ("End of day 1", "g1:end:1")):
        assert f"[{label}](/t/1/{number_of[key]})" in raw, label
    thread = {p["post_number"]: p for p in played.thread()}
    nominations = re.findall(r"\[(\w+) by (\w+)\]\(/t/1/(\d+)\)", raw)
    assert nominations and all(thread[int(n)]["username"] == by and "nominate" in thread[int(n)]["raw"]
                               for _, by, n in nominations)
    assert "[Alex](/t/1?username_filters=Alex)" in raw
    assert 'countdown="true"]' in raw


def test_the_index_follows_a_player_who_renames(played):
    game = played.service.games[1]
    alex = played.server.forum.user("Alex")
    played.request("PUT", f"/u/{alex.username}/preferences/username", as_user="Alex",
                   new_username="Alexandra")
    played.keys["alexandra"] = played.keys.pop("alex")
    later = played.clock.now() + timedelta(hours=2)
    played.clock.set(later)
    played.service.cycle(later)
    played.service.cycle(later + timedelta(minutes=1))
    played.service.drain()
    assert any(s.name == "Alexandra" for s in game.state.seats)
    raw = _bot_posts(played)["g1:index"]["raw"]
    assert "[Alexandra](/t/1?username_filters=Alexandra)" in raw and "username_filters=Alex)" not in raw


def test_public_deadlines_count_down_and_private_ones_do_not(played):
    public = [p["raw"] for p in played.thread() if p["username"] == "modbot"]
    assert sum('countdown="true"' in p for p in public) >= 5
    assert any("[date-range from=" in p for p in public)
    private = [post.raw for t in played.server.forum.topics.values() if t.is_pm for post in t.posts]
    assert any("[date=" in p for p in private) and not any('countdown="true"' in p for p in private)


def test_away_is_answered_told_and_shown_in_the_count(played):
    (grimoire,) = [t for t in _conversations_of(played, "Cameron") if "grimoire" in t.title]
    assert any(p.raw.startswith("## Away until [date=2026-12-04 time=20:00:00") for p in grimoire.posts)
    notes = [p.raw for t in played.server.forum.topics.values() if t.is_pm and "Storytellers" in t.title
             for p in t.posts]
    assert any("Cameron is away until Fri 04 Dec 20:00 UTC" in n for n in notes)
    counts = [p["raw"] for p in played.thread() if p["raw"].startswith("## Vote count 1.")]
    assert any('Cameron (away until [date=2026-12-04 time=20:00:00 timezone="UTC"])' in c for c in counts)


def test_the_observer_sees_the_grimoire_and_no_player_does(played):
    (observed,) = _conversations_of(played, "Quinn")
    assert {u.lower() for u in observed.allowed} == {"quinn", "nightingale", "modbot"}
    raws = [p.raw for p in observed.posts]
    assert raws[0].startswith("## Quinn is watching the grimoire") and "| No Dashii |" in raws[0]
    assert any(r.startswith("## Dawn after night 1") and "### What each player learned" in r for r in raws)
    for player in ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"):
        assert all("observers" not in t.title for t in _conversations_of(played, player))
    public = " ".join(p["raw"] for p in played.thread())
    assert "No Dashii" not in public.split("## The grimoire revealed")[0]


def test_a_screenshot_of_the_index_and_a_countdown(played, tmp_path):
    """The topic page as a player sees it: the index and the countdowns, shown by the sandbox
    as Discourse's local-dates plugin shows them (saved where MODBOT_SCREENSHOTS says, to look
    at)."""
    browser = chromium()
    try:
        browser.get(played.url + "/")
        browser.add_cookie({"name": COOKIE, "value": "Ellen"})
        browser.get(f"{played.url}/t/1")
        index = browser.find_element("xpath", "//*[contains(text(), 'Thread index')]")
        browser.execute_script("arguments[0].scrollIntoView()", index)
        assert browser.find_elements("css selector", "span.discourse-local-date[data-countdown]")
        folder = Path(os.environ.get("MODBOT_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(folder / "thread-index.png"))
    finally:
        browser.quit()


def test_an_observer_named_in_the_game_file_stops_the_game_with_one_line(played):
    """An observer has seen the grimoire: a game file edited to make them a backup (or seat
    them) does not start, whatever the fold now makes of `!observer` (the account is kept by
    id when the observer is added)."""
    from modbot.adapters.forum import ConfigurationError
    played.setup = dataclasses.replace(played.setup, backups=("Quinn",))
    with pytest.raises(ConfigurationError) as refused:
        played.start_bot()
    assert "Quinn watched the grimoire as an observer" in str(refused.value)
    assert "\n" not in str(refused.value)

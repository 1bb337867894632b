"""The sandbox's pages for people, over HTTP: cooking like Discourse, who sees what, the forms,
the forum clock and the thread export. (The browser itself: test_rehearse_browser.py.)"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import requests

from modbot.files.threadfile import posts_from_json
from modbot.sandbox.cook import cook, countdowns, date_tags, humanized
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import Clock
from modbot.sandbox.server import SandboxServer
from modbot.sandbox.web import next_deadline

PAGE = {"Accept": "text/html,application/xhtml+xml"}
START = datetime(2026, 12, 3, 6, 0, tzinfo=UTC)


def test_posts_are_cooked_as_discourse_shows_them():
    html = cook('Voting ends [date=2026-12-04 time=18:00:00 timezone="UTC"].\nNext line\n\n'
                "[details=\"The whole game\"]\n| seat | vote |\n|---|---|\n| Alex | yes |\n[/details]\n\n"
                "[quote=\"Alex, post:3, topic:1\"]\n/nominate Derek\n[/quote]\n\n"
                "[spoiler]the Imp[/spoiler] <script>alert(1)</script><!-- modbot:g1:count:1 -->")
    assert "Fri 04 Dec 2026 18:00 UTC" in html and "[date=" not in html
    assert "Voting ends" in html and "<br />\nNext line" in html  # Discourse's line breaks
    assert "<details><summary>The whole game</summary><table>" in html
    assert '<aside class="quote" data-username="Alex" data-post="3" data-topic="1">' in html
    assert '<span class="spoiler" tabindex="0">the Imp</span>' in html
    assert "<script>" not in html and "&lt;script&gt;" in html  # raw HTML is never passed
    assert "modbot:g1" not in html  # comments are hidden


def test_bbcode_inside_code_stays_literal():
    html = cook("```\n[quote]\n[b]x[/b]\n```\n`[date=2026-12-04]`")
    assert "[quote]" in html and "[b]x[/b]" in html and "[date=2026-12-04]" in html
    assert "<strong>" not in html and "aside" not in html


def test_date_tags_are_read_in_utc():
    assert date_tags('a [date=2026-12-04 time=18:00:00 timezone="UTC"] b [date=2026-12-05 '
                     'time=06:30 timezone="Europe/Paris"]') == [
        datetime(2026, 12, 4, 18, 0, tzinfo=UTC)]


def test_a_countdown_and_a_range_are_cooked_as_the_local_dates_plugin_cooks_them():
    html = cook('Left: [date=2026-12-04 time=18:00:00 timezone="UTC" countdown="true"]. '
                'Night 2: [date-range from=2026-12-04T18:00:00 to=2026-12-05T18:00:00 timezone="UTC"].')
    assert 'data-countdown="true">Fri 04 Dec 2026 18:00 UTC</span>' in html  # as cooked: the date
    assert html.count('data-range="true"') == 2 and "UTC</span>→<span" in html
    assert "[date" not in html
    at = datetime(2026, 12, 4, 6, tzinfo=UTC)
    shown = countdowns(html, at)
    assert 'data-countdown="true">12 hours</span>' in shown
    assert "Sat 05 Dec 2026 18:00 UTC" in shown  # a range is no countdown
    assert 'data-countdown="true">date has passed</span>' in countdowns(html, at + timedelta(days=1))


@pytest.mark.parametrize(("seconds", "words"), [
    (30, "a few seconds"), (60, "a minute"), (44 * 60, "44 minutes"), (50 * 60, "an hour"),
    (21 * 3600, "21 hours"), (23 * 3600, "a day"), (3 * 86400, "3 days"), (40 * 86400, "a month")])
def test_the_time_left_is_humanized_as_moment_does(seconds, words):
    assert humanized(seconds) == words


@pytest.fixture
def site():
    forum = Forum(Clock(START, 1.0))
    server = SandboxServer(0, forum=forum).start()
    for name in ("modbot", "Alex", "Ellen"):
        forum.add_user(name, moderator=name == "modbot")
    bot = forum.user("modbot")
    topic = forum.create(bot, {"title": "Demo: the game thread", "category": 1, "raw":
                               'Nominations close [date=2026-12-03 time=18:00:00 timezone="UTC"] '
                                                      '(time left: [date=2026-12-03 time=18:00:00 '
                                                      'timezone="UTC" countdown="true"]).'},
                         api=False).topic_id
    forum.create(bot, {"archetype": "private_message", "target_recipients": "Alex",
                       "title": "Alex's grimoire", "raw": "You are the Clockmaker."}, api=False)
    yield server, topic
    server.stop()


def _as(server, username: str | None) -> requests.Session:
    session = requests.Session()
    session.headers.update(PAGE)
    if username:
        session.post(f"{server.url}/_sandbox/web/view", data={"as": username, "back": "/"})
    return session


def test_each_viewer_sees_only_their_own_messages(site):
    server, _ = site
    alex, ellen, nobody = _as(server, "Alex"), _as(server, "Ellen"), _as(server, None)
    assert "Alex&#39;s grimoire" in alex.get(f"{server.url}/u/Alex/messages").text
    assert ellen.get(f"{server.url}/u/Alex/messages").status_code == 404
    assert "Clockmaker" in alex.get(f"{server.url}/t/2").text
    for session in (ellen, nobody):
        page = session.get(f"{server.url}/t/2")
        assert page.status_code == 404 and "Clockmaker" not in page.text


def test_a_post_made_in_the_page_is_a_post_as_the_viewer(site):
    server, topic = site
    alex = _as(server, "Alex")
    answer = alex.post(f"{server.url}/_sandbox/web/post", allow_redirects=False,
                       data={"topic_id": topic, "raw": "Derek is too quiet.\n/nominate Derek"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/2#post_2")
    post = server.forum.topics[topic].posts[-1]
    assert (post.username, post.raw) == ("Alex", "Derek is too quiet.\n/nominate Derek")
    page = alex.get(f"{server.url}{answer.headers['Location']}")
    assert 'id="post_2"' in page.text and "/nominate Derek" in page.text
    link = _as(server, "Ellen").get(f"{server.url}/t/{topic}/2")  # the link the bot writes
    assert link.status_code == 200 and "/nominate Derek" in link.text  # topic 1, post 2


def test_a_refused_post_is_explained_and_its_text_kept(site):
    server, topic = site
    answer = _as(server, "Ellen").post(f"{server.url}/_sandbox/web/post",
                                       data={"topic_id": topic, "raw": "/accept"})
    assert answer.status_code == 422
    assert "Body is too short (minimum is 20 characters)" in answer.text
    assert ">/accept</textarea>" in answer.text
    assert len(server.forum.topics[topic].posts) == 1


def test_a_countdown_shows_the_time_left_on_the_forum_clock(site):
    server, topic = site
    session = _as(server, "Ellen")
    assert 'data-countdown="true">12 hours</span>' in session.get(f"{server.url}/t/{topic}").text
    session.post(f"{server.url}/_sandbox/web/clock", data={"to": "deadline", "back": "/"})
    assert "date has passed" in session.get(f"{server.url}/t/{topic}").text


def test_a_players_posts_alone_with_username_filters(site):
    """lib/topic_view.rb: `?username_filters=NAME` keeps the opening post and NAME's posts (the
    thread index links each player's posts so)."""
    server, topic = site
    for name, text in (("Alex", "Alex thinks Derek is evil today."), ("Ellen", "Ellen trusts Derek completely.")):
        server.forum.create(server.forum.user(name), {"topic_id": topic, "raw": text}, api=False)
    page = _as(server, "Ellen").get(f"{server.url}/t/{topic}?username_filters=alex").text
    assert "Alex thinks Derek is evil today." in page and "Ellen trusts Derek" not in page
    assert "Nominations close" in page  # the opening post stays
    shown = requests.get(f"{server.url}/t/{topic}.json", params={"username_filters": "Ellen"},
                         headers={"Api-Key": server.api_key, "Api-Username": "modbot"}).json()
    assert [p["username"] for p in shown["post_stream"]["posts"]] == ["modbot", "Ellen"]


def test_the_clock_jumps_to_the_next_deadline_or_an_hour_on(site):
    server, _ = site
    session = _as(server, None)
    page = session.get(f"{server.url}/")
    assert "Jump to the next deadline (Thu 18:00)" in page.text
    session.post(f"{server.url}/_sandbox/web/clock", data={"to": "deadline", "back": "/"})
    deadline = datetime(2026, 12, 3, 18, tzinfo=UTC)
    assert deadline <= server.forum.clock.now() < deadline + timedelta(minutes=1)
    assert re.search(r'id="next-deadline"[^>]*disabled', session.get(f"{server.url}/").text)
    session.post(f"{server.url}/_sandbox/web/clock", data={"to": "hour", "back": "/"})
    assert server.forum.clock.now() >= datetime(2026, 12, 3, 19, tzinfo=UTC)


def test_a_topic_exports_as_a_thread_file_replay_reads(site):
    server, topic = site
    exported = requests.get(f"{server.url}/_sandbox/export/{topic}.json", timeout=5).json()
    posts = posts_from_json(exported)
    assert [(p.post_number, p.author) for p in posts] == [(1, "modbot")]
    assert "Nominations close" in posts[0].raw


def test_the_api_still_answers_json_to_clients_without_a_browser(site):
    server, topic = site
    answer = requests.get(f"{server.url}/t/{topic}.json", timeout=5)
    assert answer.headers["Content-Type"] == "application/json; charset=utf-8"


def test_a_redirect_never_leaves_the_site(site):
    server, _ = site
    answer = requests.post(f"{server.url}/_sandbox/web/view", allow_redirects=False,
                           data={"as": "Alex", "back": "https://evil.example/"}, timeout=5)
    assert answer.headers["Location"] == "/"


@pytest.mark.parametrize("back", ["//evil.example/", "/\\evil.example/", "/\\/evil.example/",
                                  "/ok\r\nSet-Cookie: stolen=1", "/ok\nX-Injected: 1",
                                  "/ok\tthere", "http:/evil.example", "evil.example"])
def test_the_switchers_way_back_is_a_path_of_this_site_and_nothing_more(site, back):
    """A CRLF in `back` must not add a header (a cookie); `/\\host` must not leave the site
    (browsers read it as `//host`)."""
    server, _ = site
    answer = requests.post(f"{server.url}/_sandbox/web/view", allow_redirects=False,
                           data={"as": "Alex", "back": back}, timeout=5)
    assert answer.status_code == 303 and answer.headers["Location"] == "/"
    assert "stolen" not in answer.headers.get("Set-Cookie", "")
    assert "X-Injected" not in answer.headers
    fine = requests.post(f"{server.url}/_sandbox/web/view", allow_redirects=False,
                         data={"as": "Alex", "back": "/t/demo/1?page=2#post_3"}, timeout=5)
    assert fine.headers["Location"] == "/t/demo/1?page=2#post_3"


def test_a_conversations_small_actions_read_as_discourse_shows_them(site):
    """Issue 56: the pages showed `invited_user` / `removed_user` raw; Discourse's client says
    "Invited @who" and "Removed @who" (config/locales/client.en.yml, action_codes)."""
    from modbot.sandbox.moderation import invite, remove_allowed
    server, _ = site
    forum = server.forum
    bot = forum.user("modbot")
    invite(forum, bot, 2, "Ellen")
    remove_allowed(forum, bot, 2, "Ellen")
    page = _as(server, "Alex").get(f"{server.url}/t/2").text
    assert "invited @Ellen" in page and "removed @Ellen" in page
    assert "invited_user" not in page and "removed_user" not in page


def test_the_next_deadline_is_the_newest_posts_not_the_opening_posts_plan(site):
    """Issue 56: after a dawn that came late, the opening post's planned 18:00 is no longer a
    deadline; the jump goes to the time the newest post names (20:05)."""
    server, topic = site
    forum = server.forum
    forum.create(forum.user("modbot"), {"topic_id": topic, "raw": "Day 1 began late. Nominations"
                                        ' close [date=2026-12-03 time=20:05:00 timezone="UTC"].'},
                 api=False)
    assert next_deadline(forum, forum.clock.now()) == datetime(2026, 12, 3, 20, 5, tzinfo=UTC)

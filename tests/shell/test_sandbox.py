"""The local forum sandbox behaves like Discourse where the bot depends on it."""

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import requests
from pydiscourse import DiscourseClient
from pydiscourse.exceptions import DiscourseClientError

from modbot.sandbox.forum import Forum
from modbot.sandbox.models import ManualClock
from modbot.sandbox.server import JSON_TYPE, SandboxServer

from ..sandbox_fixtures import KEY, Client, populated

INVALID = ("You are not permitted to view the requested resource. The API username or key is "
           "invalid.")


@pytest.fixture()
def forum():
    server, client, topic = populated()
    yield client, topic
    server.stop()


def test_auth_master_key_acts_as_any_user_and_bad_keys_get_403(forum):
    client, _ = forum
    assert client.ok("GET", "/session/current.json", "Alex")["current_user"]["username"] == "Alex"
    for user, key in (("Alex", "wrong"), ("nobody", KEY)):
        response = client.call("GET", "/posts.json", user, key=key)
        assert response.status_code == 403
        assert response.headers["Content-Type"] == JSON_TYPE
        assert response.json() == {"errors": [INVALID], "error_type": "invalid_access"}


def test_single_user_keys_only_act_as_their_user(forum):
    client, _ = forum
    key = client.ok("POST", "/admin/api/keys.json", data={"key[username]": "Alex"})["key"]["key"]
    assert client.call("GET", "/session/current.json", "Alex", key=key).status_code == 200
    assert client.call("GET", "/session/current.json", None, key=key).status_code == 200
    assert client.call("GET", "/session/current.json", "Brianna", key=key).status_code == 403


def test_api_key_in_query_is_ignored(forum):
    client, topic = forum
    response = client.call("POST", f"/posts.json?api_key={KEY}&api_username=Alex", None,
                           key=None, data={"raw": "x" * 30, "topic_id": topic})
    assert response.status_code == 403 and response.json()["error_type"] == "not_logged_in"


def test_topic_has_20_post_chunks_full_stream_and_raw_only_on_request(forum):
    client, topic = forum
    body = client.ok("GET", f"/t/{topic}.json", "modbot")
    assert len(body["post_stream"]["posts"]) == 20 and len(body["post_stream"]["stream"]) == 25
    assert "raw" not in body["post_stream"]["posts"][0]
    body = client.ok("GET", f"/t/{topic}.json", "modbot", params={"include_raw": "false"})
    assert "raw" in body["post_stream"]["posts"][0]  # any value counts, as in Discourse
    page2 = client.ok("GET", f"/t/{topic}.json", "modbot", params={"page": 2})
    assert [p["post_number"] for p in page2["post_stream"]["posts"]] == list(range(21, 26))
    late = client.call("GET", f"/t/{topic}.json", "modbot", params={"page": 3},
                       allow_redirects=False)
    assert late.status_code == 301 and late.headers["Location"].endswith("page=2")
    around = client.ok("GET", f"/t/{topic}/12.json", "modbot")
    # 5 before post 12, padded with earlier posts to 20 when too few follow (25 in all)
    assert around["post_stream"]["posts"][0]["post_number"] == 6


def test_topic_posts_after_before_and_by_ids(forum):
    client, topic = forum
    def numbers(**params):
        body = client.ok("GET", f"/t/{topic}/posts.json", "modbot", params=params)
        return [p["post_number"] for p in body["post_stream"]["posts"]]
    assert numbers(post_number=3, asc="true") == list(range(4, 24))
    assert numbers(post_number=22) == list(range(21, 1, -1))
    assert numbers() == list(range(1, 21))
    stream = client.ok("GET", f"/t/{topic}.json", "modbot")["post_stream"]["stream"]
    assert numbers(**{"post_ids[]": [stream[5], stream[2], 999999]}) == [3, 6]
    ids = client.ok("GET", f"/t/{topic}/post_ids.json", "modbot", params={"post_number": 20})
    assert ids["post_ids"] == stream[20:]


def test_latest_posts_pages_of_50_newest_first_with_raw(forum):
    client, topic = forum
    for i in range(30):
        client.post("Alex", f"Another message for paging, number {i}.", topic_id=topic)
    first = client.ok("GET", "/posts.json", "modbot")["latest_posts"]
    assert len(first) == 50 and first[0]["id"] > first[-1]["id"] and "raw" in first[0]
    older = client.ok("GET", "/posts.json", "modbot", params={"before": first[-1]["id"]})
    assert older["latest_posts"][0]["id"] < first[-1]["id"]
    assert all(p["topic_id"] == topic for p in first)  # the PM is not public


def test_private_posts_only_for_participants(forum):
    client, _ = forum
    assert [p["raw"][:10] for p in client.ok("GET", "/private-posts.json", "Alex")
            ["private_posts"]] == ["Your chara"]
    assert client.ok("GET", "/private-posts.json", "Brianna")["private_posts"] == []
    assert client.call("GET", "/private-posts.json", None, key=None).status_code == 404
    inbox = client.ok("GET", "/topics/private-messages/Alex.json", "Alex")
    assert inbox["topic_list"]["topics"][0]["archetype"] == "private_message"
    assert client.call("GET", "/topics/private-messages/Alex.json", "Brianna").status_code == 403


def test_create_returns_the_post_without_raw_and_numbers_increase(forum):
    client, topic = forum
    post = client.post("Brianna", "A perfectly ordinary reply in the thread.", topic_id=topic)
    assert post["post_number"] == 26 and "raw" not in post and post["topic_id"] == topic
    nested = client.post("Brianna", "A nested reply in the thread, please.", topic_id=topic,
                         nested_post="true")
    assert nested["action"] == "create_post" and nested["post"]["post_number"] == 27


@pytest.mark.parametrize("data, message", [
    ({"raw": "too short"}, "Body is too short (minimum is 20 characters)"),
    ({"raw": "x" * 32001}, "Body is too long (maximum is 32000 characters)"),
])
def test_reply_validation_422(forum, data, message):
    client, topic = forum
    response = client.call("POST", "/posts.json", "Alex", data={**data, "topic_id": topic})
    assert response.status_code == 422
    assert response.json() == {"action": "create_post", "errors": [message]}


def test_topic_and_pm_validation_422(forum):
    client, _ = forum
    def errors(**data):
        response = client.call("POST", "/posts.json", "Alex", data=data)
        assert response.status_code == 422
        return response.json()["errors"]
    assert errors(title="short", raw="x" * 30, category=1) == [
        "Title is too short (minimum is 15 characters)"]
    assert errors(title="Test game: the game thread", raw="x" * 30, category=1) == [
        "Title has already been used"]
    assert errors(title="A new topic without category", raw="x" * 30) == [
        "Category can't be blank"]
    assert errors(title="pm", raw="short", archetype="private_message",
                  target_recipients="Brianna") == ["Body is too short (minimum is 10 characters)"]
    assert "could not be found" in errors(title="pm", raw="x" * 30,
                                          archetype="private_message",
                                          target_recipients="Nobody")[0]


def test_per_user_limits_for_non_staff():
    server, client, topic = populated(limits=True)
    try:
        client.post("Alex", "A first reply, long enough to count.", topic_id=topic)
        response = client.call("POST", "/posts.json", "Alex",
                               data={"raw": "A second reply, straight after.", "topic_id": topic})
        assert response.status_code == 429
        assert response.json()["error_type"] == "rate_limit"
        assert response.json()["extras"]["wait_seconds"] >= 1
        assert response.headers["Retry-After"] == str(response.json()["extras"]["wait_seconds"])
        assert "replying a bit too quickly" in response.json()["errors"][0]
        for _ in range(3):  # the bot is a moderator: exempt
            client.post("modbot", f"A moderator may post freely {time.time()}", topic_id=topic)
    finally:
        server.stop()


def test_limits_are_counted_on_the_forums_clock():
    """A rehearsal's accelerated clock: the 5 s between posts and the admin budget's minute are
    forum time, so a game played at 60x real time meets the limits a real day would."""
    clock = ManualClock(datetime(2026, 12, 3, 6, tzinfo=UTC))
    forum = Forum(clock, limits=True)
    server = SandboxServer(0, api_key=KEY, forum=forum, admin_api_limit=3).start()
    client = Client(server)
    try:
        forum.add_user("Alex")
        topic = forum.create(forum.add_user("host", moderator=True), {
            "title": "A topic for the clock", "category": 1,
            "raw": "The opening post of a topic."}, api=False).topic_id
        client.post("Alex", "A first reply, long enough to count.", topic_id=topic)
        second = {"raw": "A second reply, straight after.", "topic_id": topic}
        assert client.call("POST", "/posts.json", "Alex", data=second).status_code == 429
        clock.set(clock.now() + timedelta(seconds=6))
        assert client.call("POST", "/posts.json", "Alex", data=second).status_code == 200
        assert client.call("GET", "/posts.json", "Alex").status_code == 429  # 3 this minute
        clock.set(clock.now() + timedelta(minutes=1))
        assert client.call("GET", "/posts.json", "Alex").status_code == 200  # a new minute
    finally:
        server.stop()


def test_duplicate_body_and_consecutive_replies_for_non_staff():
    forum = Forum(limits=True)
    server = SandboxServer(0, api_key=KEY, forum=forum, admin_api_limit=0).start()
    client = Client(server)
    try:
        client.ok("POST", "/users.json", data={"username": "Alex"})
        client.ok("POST", "/users.json", data={"username": "Bob"})
        topic = client.post("Bob", "The opening post of a topic.", title="A topic for limits",
                            category=1)["topic_id"]
        forum._last_post_at.clear()
        client.post("Alex", "The same words twice in a row.", topic_id=topic)
        forum._last_post_at.clear()
        response = client.call("POST", "/posts.json", "Alex",
                               data={"raw": "The same words twice in a row.", "topic_id": topic,
                                     "reply_to_post_number": 1})
        assert response.json()["errors"] == ["Body is too similar to what you recently posted"]
        for i in range(2):
            forum._last_post_at.clear()
            client.post("Alex", f"Consecutive reply number {i} here.", topic_id=topic)
        forum._last_post_at.clear()
        response = client.call("POST", "/posts.json", "Alex",
                               data={"raw": "A fourth reply in a row.", "topic_id": topic})
        assert response.status_code == 422 and "consecutive" in response.json()["errors"][0]
    finally:
        server.stop()


def test_identical_api_creates_are_memoized(forum):
    client, topic = forum
    data = {"raw": "Exactly the same request, sent twice.", "topic_id": topic}
    first = client.ok("POST", "/posts.json", "Alex", data=data)
    second = client.ok("POST", "/posts.json", "Alex", data=data)
    assert first["id"] == second["id"]
    assert client.ok("GET", f"/t/{topic}.json", "modbot")["highest_post_number"] == 26


def test_shared_admin_api_limit_answers_429_with_code():
    server, client, _ = populated(admin_api_limit=0)
    server.limiter.per_minute = 2
    server.limiter.times.clear()
    try:
        client.ok("GET", "/posts.json", "modbot")
        client.ok("GET", "/posts.json", "modbot")
        response = client.call("GET", "/posts.json", "modbot")
        assert response.status_code == 429
        assert response.headers["Discourse-Rate-Limit-Error-Code"] == "admin_api_key_rate_limit"
        assert int(response.headers["Retry-After"]) == response.json()["extras"]["wait_seconds"]
    finally:
        server.stop()


def test_edit_versions_follow_the_grace_period(forum):
    client, topic = forum
    post = client.post("Alex", "I vote for nobody at all today.", topic_id=topic)
    edited = client.ok("PUT", f"/posts/{post['id']}.json", "Alex",
                       data={"post[raw]": "I vote for nobody at all, today."})["post"]
    assert edited["version"] == 1 and edited["raw"].endswith("today.")
    edited = client.ok("PUT", f"/posts/{post['id']}.json", "Alex",
                       data={"post[raw]": "Changed my mind entirely.", "post[edit_reason]": "x"})
    assert edited["post"]["version"] == 2
    by_mod = client.ok("PUT", f"/posts/{post['id']}.json", "modbot",
                       data={"post[raw]": "Edited by a moderator."})["post"]
    assert by_mod["version"] == 3
    old = client.ok("GET", f"/posts/{post['id']}.json", "modbot", params={"version": 2})
    assert old["raw"] == "Changed my mind entirely."
    conflict = client.call("PUT", f"/posts/{post['id']}.json", "Alex",
                           data={"post[raw]": "x", "post[original_text]": "stale"})
    assert conflict.status_code == 409


def test_self_delete_and_staff_delete(forum):
    client, topic = forum
    post = client.post("Alex", "/vote Brianna and I mean it.", topic_id=topic)
    client.call("DELETE", f"/posts/{post['id']}.json", "Alex")
    shown = client.ok("GET", f"/posts/{post['id']}.json", "Brianna")
    assert (shown["raw"], shown["user_deleted"], shown["version"]) == \
        ("(post deleted by author)", True, 2)
    other = client.post("Brianna", "A post a moderator will remove.", topic_id=topic)
    client.call("DELETE", f"/posts/{other['id']}.json", "modbot")
    assert client.call("GET", f"/posts/{other['id']}.json", "Alex").status_code == 404
    assert other["id"] not in client.ok("GET", f"/t/{topic}.json", "Alex")["post_stream"]["stream"]


def test_closing_a_topic_adds_a_small_action_and_blocks_replies(forum):
    client, topic = forum
    client.ok("PUT", f"/t/{topic}/status.json", "modbot",
              data={"status": "closed", "enabled": "true"})
    body = client.ok("GET", f"/t/{topic}.json", "modbot", params={"page": 2})
    last = body["post_stream"]["posts"][-1]
    assert body["closed"] and (last["post_type"], last["action_code"]) == (3, "closed.enabled")
    response = client.call("POST", "/posts.json", "Alex",
                           data={"raw": "Can I still post in here?", "topic_id": topic})
    assert response.status_code == 422 and "closed or deleted" in response.json()["errors"][0]
    assert client.call("PUT", f"/t/{topic}/status.json", "Alex",
                       data={"status": "closed", "enabled": "false"}).status_code == 403


def test_request_counts_and_reset(forum):
    client, topic = forum
    requests.delete(client.url + "/_sandbox/requests.json", timeout=5)
    client.ok("GET", "/posts.json", "modbot")
    client.ok("GET", f"/t/{topic}/posts.json", "modbot")
    counts = requests.get(client.url + "/_sandbox/requests.json", timeout=5).json()
    assert counts["requests"] == {"GET /posts.json": 1, "GET /t/{id}/posts(.json)": 1}


@pytest.mark.parametrize("kind", ["429", "500", "timeout", "drop"])
def test_injected_faults(forum, kind):
    client, _ = forum
    requests.post(client.url + "/_sandbox/faults.json", timeout=5,
                  json={"path": "/posts.json", "kind": kind, "count": 1, "wait_seconds": 3,
                        "delay": 1.5})
    try:
        response = requests.get(client.url + "/posts.json", timeout=0.5,
                                headers={"Api-Key": KEY, "Api-Username": "modbot"})
        outcome = response.status_code
    except requests.Timeout:
        outcome = "timeout"
    except requests.ConnectionError:
        outcome = "drop"
    assert str(outcome) == kind
    if kind == "429":
        assert response.json()["extras"]["wait_seconds"] == 3
        assert response.headers["Retry-After"] == "3"
    assert client.call("GET", "/posts.json", "modbot").status_code == 200  # only the next one


def test_pydiscourse_itself_works_against_the_sandbox(forum):
    client, topic = forum
    discourse = DiscourseClient(client.url, api_username="modbot", api_key=KEY, timeout=5)
    assert discourse.user("Alex")["username"] == "Alex"
    assert len(discourse.topic_posts(topic, post_number=20, asc="true")["post_stream"]["posts"]) == 5
    created = discourse.create_post("A reply made through pydiscourse itself.", topic_id=topic)
    assert created["post_number"] == 26
    discourse.update_topic_status(topic, "closed", True)
    with pytest.raises(DiscourseClientError):
        DiscourseClient(client.url, api_username="modbot", api_key="bad").latest_posts()


def test_threads_are_readable_in_a_browser(forum):
    client, topic = forum
    page = requests.get(f"{client.url}/t/{topic}", headers={"Accept": "text/html"}, timeout=5)
    assert page.headers["Content-Type"].startswith("text/html")
    assert "<h1>Test game: the game thread</h1>" in page.text


def test_uploads_follow_discourses_rules(forum):
    client, _ = forum
    png = (Path(__file__).parent.parent / "golden" / "town_square.png").read_bytes()

    def upload(name: str, data: bytes, **fields):
        return client.call("POST", "/uploads.json", "Alex", data={"synchronous": "true", **fields},
                           files={"file": (name, data, "application/octet-stream")})
    first = upload("square.png", png, type="composer").json()
    assert first["short_url"].startswith("upload://") and (first["width"], first["height"]) == (690, 500)
    assert upload("again.png", png, type="composer").json()["id"] == first["id"]  # same bytes
    served = requests.get(client.url + first["short_path"], timeout=5)
    assert served.headers["Content-Type"] == "image/png" and served.content == png
    assert upload("square.png", png).status_code == 400  # no type
    refused = upload("virus.exe", b"MZ", type="composer")
    assert refused.status_code == 422 and "not authorized" in refused.json()["errors"][0]
    big = upload("big.png", png + b"\0" * (4096 * 1024), type="composer")
    assert big.status_code == 422 and "too big" in big.json()["errors"][0]

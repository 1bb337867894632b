"""The forum port maps Discourse's answers to errors the daemon can act on, without sleeping.

Unit tests with `responses` (recorded Discourse JSON); the end-to-end tests use the sandbox.
"""

import time

import pytest
import requests
import responses

from modbot.adapters.forum import (
    JSON_TYPE,
    ConfigurationError,
    CredentialsRejected,
    ForumClient,
    NotFound,
    PermanentError,
    TransientError,
)

URL = "https://forum.example"


@pytest.fixture()
def client():
    return ForumClient(URL, "modbot", "key", timeout=3)


def _json(status, body, **headers):
    return {"status": status, "json": body, "content_type": JSON_TYPE, "headers": headers}


@responses.activate
def test_sends_credentials_timeout_and_parses_json(client):
    responses.get(f"{URL}/posts.json", **_json(200, {"latest_posts": []}))
    assert client.latest_posts() == {"latest_posts": []}
    sent = responses.calls[0].request
    assert sent.headers["Api-Key"] == "key" and sent.headers["Api-Username"] == "modbot"
    assert sent.headers["User-Agent"].startswith("modbot/")
    assert client.requests_made == 1


@responses.activate
def test_429_is_transient_with_retry_after_and_never_sleeps(client, monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda s: pytest.fail("slept in the poll loop"))
    body = {"errors": ["You’ve performed this action too many times."],
            "error_type": "rate_limit", "extras": {"wait_seconds": 42, "time_left": "42 seconds"}}
    responses.get(f"{URL}/posts.json", **_json(429, body, **{"Retry-After": "42"}))
    with pytest.raises(TransientError) as info:
        client.latest_posts()
    assert info.value.retry_after == 43 and info.value.status == 429
    assert len(responses.calls) == 1


@responses.activate
def test_429_without_header_uses_wait_seconds_or_a_default(client):
    responses.get(f"{URL}/posts.json", **_json(429, {"errors": ["slow"], "extras": {"wait_seconds": 7}}))
    with pytest.raises(TransientError) as info:
        client.latest_posts()
    assert info.value.retry_after == 8
    responses.replace(responses.GET, f"{URL}/posts.json", status=429,
                      body="Slow down, you're making too many requests.",
                      content_type="text/plain")
    with pytest.raises(TransientError) as info:
        client.latest_posts()
    assert info.value.retry_after == 11


@responses.activate
@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_transient(client, status):
    responses.get(f"{URL}/posts.json", **_json(status, {"errors": ["boom"]}))
    with pytest.raises(TransientError):
        client.latest_posts()


@responses.activate
def test_timeouts_and_dropped_connections_are_transient(client):
    responses.get(f"{URL}/posts.json", body=requests.ReadTimeout("slow"))
    with pytest.raises(TransientError, match="timed out"):
        client.latest_posts()
    responses.replace(responses.GET, f"{URL}/posts.json",
                      body=requests.ConnectionError("reset"))
    with pytest.raises(TransientError, match="connection failed"):
        client.latest_posts()


@responses.activate
def test_a_refused_key_is_its_own_error_not_a_configuration_one(client):
    """A revoked key is retried by a running daemon (a key made again works): so it is not a
    `ConfigurationError`, which stops it; a 403 for anything else is one."""
    responses.get(f"{URL}/users/modbot.json", **_json(403, {
        "errors": ["You are not permitted to view the requested resource. The API username "
                   "or key is invalid."], "error_type": "invalid_access"}))
    with pytest.raises(CredentialsRejected, match="key is invalid") as refused:
        client.user("modbot")
    assert not isinstance(refused.value, ConfigurationError)
    responses.get(f"{URL}/users/alex.json", **_json(403, {
        "errors": ["You are not permitted to view the requested resource."],
        "error_type": "invalid_access"}))
    with pytest.raises(ConfigurationError):
        client.user("alex")


@responses.activate
def test_missing_topic_is_not_found(client):
    responses.get(f"{URL}/t/99.json", **_json(404, {"errors": ["The requested URL or resource "
                                                               "could not be found."]}))
    with pytest.raises(NotFound):
        client.topic_by_id(99)


@responses.activate
def test_validation_failure_is_permanent_with_discourse_message(client):
    responses.post(f"{URL}/posts", **_json(422, {"action": "create_post",
                                                 "errors": ["Body is too short (minimum is 20 characters)"]}))
    with pytest.raises(PermanentError, match="Body is too short"):
        client.create_post("short", topic_id=1)


@responses.activate
def test_wrong_content_type_is_a_configuration_error(client):
    responses.get(f"{URL}/posts.json", body="<html>login</html>", content_type="text/html")
    with pytest.raises(ConfigurationError, match="not a Discourse JSON answer"):
        client.latest_posts()


@responses.activate
def test_redirect_is_a_configuration_error(client):
    responses.get(f"{URL}/posts.json", status=302, headers={"Location": "/login"})
    with pytest.raises(ConfigurationError, match="redirect"):
        client.latest_posts()


@responses.activate
def test_reads_after_a_post_number_with_raw(client):
    responses.get(f"{URL}/t/5/posts.json", **_json(200, {"post_stream": {"posts": [
        {"id": 9, "post_number": 4, "raw": "/vote Alex", "topic_id": 5, "username": "Brianna",
         "user_id": 12, "created_at": "2026-12-02T10:00:00.000Z", "cooked": "<p>/vote Alex</p>"}
    ]}, "id": 5}))
    post = client.posts_after(5, 3)[0]  # a typed post: what the service reads of it
    assert (post.raw, post.user_id, post.username, post.post_number) == \
        ("/vote Alex", 12, "Brianna", 4)
    assert post.created.isoformat() == "2026-12-02T10:00:00+00:00"
    query = responses.calls[0].request.url
    assert "post_number=3" in query and "asc=true" in query and "include_raw=true" in query


def test_the_start_up_pacer_waits_for_room_in_the_forums_minute():
    """More games than the rate limit allows in a minute: start-up waits instead of meeting
    a 429 (55 requests a minute by default, under Discourse's 60)."""
    from modbot.adapters.forum import Pacer
    now = [0.0]
    slept = []

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds
    pacer = Pacer(limit=3, window=60, clock=lambda: now[0], sleep=sleep)
    for second in (0, 10, 20):
        now[0] = second
        assert pacer.wait() == 0
        pacer.note()
    now[0] = 30
    assert pacer.wait() == 30  # until the request made at 0 leaves the minute
    assert slept == [30] and now[0] == 60
    pacer.note()
    assert len(pacer.times) == 3
    now[0] = 1000  # a long-running daemon keeps only the last minute's requests
    pacer.note()
    assert len(pacer.times) == 1

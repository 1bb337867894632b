"""Our port to a Discourse forum: pydiscourse's endpoints, our transport policy.

Theory of operation: `ForumClient` subclasses pydiscourse's `DiscourseClient` and replaces
its `_request` so that every call has a timeout, never sleeps (pydiscourse sleeps on 429 inside
the call; a poll loop must not), and fails with one of four errors the daemon can act on:
- `TransientError` (429 with `retry_after`, 5xx, timeouts, dropped connections): try later;
- `PermanentError` (422 and other 4xx on a write): report to the ST, never retry blindly;
- `ConfigurationError` (403 not allowed, 404 missing topic at start-up, not JSON): at
  start-up, stop and say so;
- `CredentialsRejected`, the 403 Discourse gives every request once a key is revoked
  (lib/auth/default_current_user_provider.rb, `invalid_api_credentials`): at start-up, stop
  and say so; a running daemon waits and tries again, it never stops on it.
It keeps pydiscourse's exact content-type check, and counts requests for the cycle log. The
reads the service makes answer typed values (port.py: `ForumPost`, `ForumUser`); the
rest answer Discourse's JSON.
"""

from __future__ import annotations

import email.utils
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any, cast

import requests
from pydiscourse import DiscourseClient

from .budget import Budget, Priority
from .port import ForumPost, ForumUser

JSON_TYPE = "application/json; charset=utf-8"
USER_AGENT = "modbot/0.1 (+Blood on the Forum moderator bot)"
log = logging.getLogger("modbot.adapters.forum")


class ForumError(Exception):
    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class TransientError(ForumError):
    def __init__(self, message: str, status: int | None = None, retry_after: float = 0,
                 code: str | None = None) -> None:
        super().__init__(message, status)
        self.retry_after = retry_after
        # a 429's `Discourse-Rate-Limit-Error-Code`: set by the limiters of a key or an address
        # (`admin_api_key_rate_limit`, `user_api_key_limiter_60_secs`, `ip_10_secs_limit`:
        # lib/auth/default_current_user_provider.rb, lib/middleware/request_tracker.rb); an
        # account's own limit on an action (posting too quickly, new PMs a day) sets none
        self.code = code

    @property
    def is_shared(self) -> bool:
        """A 429 of the key's or the site's budget (every request waits), not of one action."""
        return self.status == 429 and self.code is not None


class OverBudget(TransientError):
    """Not sent: the key's request budget (budget.py) has no token for it now."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message, None, retry_after)


class PermanentError(ForumError):
    pass


class NotFound(PermanentError):
    pass


class ConfigurationError(ForumError):
    """What a person must fix before the bot can run: the configuration file, a key for
    another account, a game topic missing, a forum that does not answer as Discourse does.
    The one configuration error: a command says it in one line, the daemon stops on it."""


class CredentialsRejected(ForumError):
    """The forum refuses the key itself (revoked, deleted, or for another account): at
    start-up a reason to stop, like a `ConfigurationError`; while running, retried (a key
    made again works), so it is not one."""


INVALID_CREDENTIALS = "API username or key is invalid"


class Pacer:
    """Keeps a burst of requests under the forum's per-minute limit by waiting (Discourse's
    default: 60 admin-key requests a minute). Used at start-up only, where waiting is right;
    the poll loop never sleeps (it defers on a 429 instead)."""

    def __init__(self, limit: int = 55, window: float = 60.0, *,
                 clock: Callable[[], float] | None = None,
                 sleep: Callable[[float], None] | None = None) -> None:
        self.limit, self.window = limit, window
        self.clock = clock or (lambda: time.monotonic())  # looked up when called
        self.sleep = sleep or (lambda seconds: time.sleep(seconds))
        self.times: deque[float] = deque()

    def note(self) -> None:
        """A request was made (kept for a window only: the daemon runs for months)."""
        now = self.clock()
        self._forget(now)
        self.times.append(now)

    def _forget(self, now: float) -> None:
        while self.times and now - self.times[0] >= self.window:
            self.times.popleft()

    def wait(self, room: int = 1) -> float:
        """Wait until `room` more requests fit in the window; return the seconds waited."""
        waited = 0.0
        while True:
            now = self.clock()
            self._forget(now)
            if len(self.times) + room <= self.limit:
                return waited
            pause = self.window - (now - self.times[0])
            log.info("start-up: %d requests in the last minute; waiting %.0fs for the "
                     "forum's rate limit", len(self.times), pause)
            self.sleep(pause)
            waited += pause


class ForumClient(DiscourseClient):  # type: ignore[misc,unused-ignore]  # pydiscourse: no types
    def __init__(self, host: str, api_username: str, api_key: str, *, timeout: float = 10.0,
                 user_api_client_id: str | None = None):
        super().__init__(host.rstrip("/"), api_username, api_key, timeout=timeout)
        # a User API key (user_key.py) goes in `User-Api-Key`, with its client id; an admin's
        # key in `Api-Key`, with the account it acts as
        self.user_api_client_id = user_api_client_id
        self.session = requests.Session()
        self.session.headers["User-Agent"] = USER_AGENT
        self.requests_made = 0
        self.pacer = Pacer()
        self.budget = Budget()  # every request is charged to it (budget.py)
        self.charge_as: Priority | None = None  # this client's priority (else the budget's)
        # once the account's id is known, requests act as it by id (`Api-User-Id`, which
        # Discourse reads as `Api-Username`'s equal: lib/auth/default_current_user_provider.rb)
        self.api_user_id: int | None = None
        self.forum_date: tuple[float, float] | None = None  # (the forum's epoch, monotonic)

    def _request(self, verb: str, path: str, params: dict[str, Any] | None = None,
                 files: dict[str, Any] | None = None, data: dict[str, Any] | None = None,
                 json: Any = None, override_request_kwargs: dict[str, Any] | None = None) -> Any:
        headers = {"Accept": JSON_TYPE}
        if self.user_api_client_id is not None:  # the key is the account's own
            headers.update({"User-Api-Key": self.api_key,
                            "User-Api-Client-Id": self.user_api_client_id})
        elif self.api_user_id is not None:  # by id: the key keeps working when renamed
            headers["Api-User-Id"] = str(self.api_user_id)
        else:
            headers["Api-Username"] = self.api_username
        if self.user_api_client_id is None:
            headers["Api-Key"] = self.api_key
        wait = self.budget.charge(self.charge_as)
        if wait:
            raise OverBudget(f"{verb} {path}: over the request budget", wait)
        self.requests_made += 1
        self.pacer.note()
        try:
            response = self.session.request(
                verb, self.host + path, params=params, files=files, data=data, json=json,
                headers=headers, timeout=self.timeout, allow_redirects=False,
                **(override_request_kwargs or {}))
        except requests.Timeout as exc:
            raise TransientError(f"{verb} {path}: timed out") from exc
        except requests.ConnectionError as exc:
            raise TransientError(f"{verb} {path}: connection failed ({exc.__class__.__name__})") \
                from exc
        self._note_date(response.headers.get("Date"))
        return _decode(verb, path, response)

    def _note_date(self, header: str | None) -> None:
        """The forum's time, as its last answer's `Date` header gave it (RFC 9110 §6.6.1)."""
        try:
            at = email.utils.parsedate_to_datetime(header) if header else None
        except (TypeError, ValueError):
            at = None
        if at is not None:
            self.forum_date = (at.timestamp(), time.monotonic())

    def forum_now(self) -> float:
        """The forum's time now (epoch seconds): its last answer's `Date`, plus what has
        passed since; the machine's clock before any answer."""
        if self.forum_date is None:
            return time.time()
        at, seen = self.forum_date
        return at + (time.monotonic() - seen)

    # -- endpoints pydiscourse lacks or gets wrong ------------------------------------------

    def upload_picture(self, png: bytes, filename: str) -> dict[str, Any]:
        """POST /uploads.json as Discourse's composer does (multipart, synchronous): the
        upload's JSON, with its `short_url` (`upload://…`) to embed."""
        return cast(dict[str, Any], self._request("POST", "/uploads.json",
                             data={"type": "composer", "synchronous": "true"},
                             files={"file": (filename, png, "image/png")}))

    def private_posts(self, before: int | None = None) -> list[ForumPost]:
        """The newest PMs the bot can see, newest first, 50 a page (`GET /private-posts.json`,
        PostsController#latest with `private`; `before`: older than that post id)."""
        body = self._get("/private-posts.json", **({"before": before} if before else {}))
        return [ForumPost.from_json(p) for p in body.get("private_posts", [])]

    def account(self, username: str) -> ForumUser:
        """The account called `username` (`GET /users/NAME.json`)."""
        return ForumUser.from_json(self.user(username))

    def post_version(self, post_id: int, version: int) -> ForumPost:
        """A post as it read in `version` (`GET /posts/ID.json?version=N`)."""
        return ForumPost.from_json(self.post_by_id(post_id, version=version))

    def forum_time(self) -> str:
        """The sandbox's clock (`/_sandbox/clock.json`), in a rehearsal: an ISO time. Not a
        Discourse request (the sandbox answers it before any key or limit), so it is sent
        without the key and not charged to the request budget: a rehearsal that reads its
        clock every cycle never spends the key's minute on it."""
        return self.forum_clock()[0]

    def forum_clock(self) -> tuple[str, float]:
        """The sandbox's clock and its speed (forum seconds a real second)."""
        try:
            answer = self.session.get(self.host + "/_sandbox/clock.json", timeout=self.timeout)
        except requests.RequestException as exc:
            raise TransientError(f"GET /_sandbox/clock.json: {exc.__class__.__name__}") from exc
        read = _decode("GET", "/_sandbox/clock.json", answer)
        return str(read["now"]), float(read.get("speed", 1.0))

    def current_user(self) -> dict[str, Any]:
        """The account the API key acts as."""
        return cast(dict[str, Any], self._get("/session/current.json")["current_user"])

    def search_users(self, term: str) -> list[dict[str, Any]]:
        """The composer's user search (usernames starting with, then containing, `term`)."""
        return cast(list[dict[str, Any]], self._get("/u/search/users.json", term=term).get("users", []))

    def topic_by_id(self, topic_id: int, **kwargs: Any) -> dict[str, Any]:
        return cast(dict[str, Any], self._get(f"/t/{topic_id}.json", **kwargs))

    def posts_after(self, topic_id: int, post_number: int, **extra: Any) -> list[ForumPost]:
        """Up to 20 posts after `post_number`, oldest first, with raw (`extra`: more query
        parameters, e.g. `show_deleted`)."""
        body = self.topic_posts(topic_id, post_number=post_number, asc="true", include_raw="true",
                                **extra)
        return _stream(body)

    def local_usernames(self, names: list[str]) -> set[str]:
        """Which of `names` are forum users, asked in one request (`GET
        /u/is_local_username.json?usernames[]=a&usernames[]=b`, `UsersController#
        is_local_username` in Discourse's app/controllers/users_controller.rb, the composer's
        mention check): the lower-cased names of the accounts that exist (no ids)."""
        body = self._get("/u/is_local_username.json", **{"usernames[]": list(names)})
        return {str(name).lower() for name in body.get("valid", [])}

    def users_by_ids(self, user_ids: list[int]) -> list[ForumUser]:
        """Up to 50 users by id in one request (`GET /user-cards.json?user_ids=1,2`,
        `UsersController#cards` in Discourse's app/controllers/users_controller.rb): the
        current username of each."""
        return [ForumUser.from_json(u) for u in self.user_cards(user_ids)]

    def user_cards(self, user_ids: list[int]) -> list[dict[str, Any]]:
        """The user cards of up to 50 users by id, as the forum sends them (trust level and
        whether they accept a PM included)."""
        return cast(list[dict[str, Any]], self._get(
            "/user-cards.json", user_ids=",".join(map(str, user_ids))).get("users", []))

    def topics_listed(self, topic_ids: list[int], page: int = 0) -> dict[str, Any]:
        """The listing of these topics (`GET /latest.json?topic_ids=1,2`, TopicQuery's
        `topic_ids` option), asked as one page of them all: its `topics` (each one's
        `highest_post_number`) and `more_topics_url` when the forum pages it smaller. Unlisted
        topics are in it only for a staff account (lib/topic_query.rb)."""
        body = self._get("/latest.json", topic_ids=",".join(map(str, topic_ids)),
                         per_page=len(topic_ids), **({"page": page} if page else {}))
        return cast(dict[str, Any], body.get("topic_list", {}))

    def topic_tail(self, topic_id: int) -> dict[str, Any]:
        """The topic's view around its last posts (`GET /t/{id}/{number}.json` past the last
        post number: TopicView shows the posts around it, the last ones, with raw): its
        opener's `user_id`, the posts, and the viewer's slow-mode fields (`slow_mode_seconds`,
        `user_last_posted_at`: TopicViewSerializer)."""
        return cast(dict[str, Any], self._get(f"/t/{topic_id}/99999999.json", include_raw="true"))

    def invite_to_conversation(self, topic_id: int, username: str) -> dict[str, Any]:
        """Add someone to a PM (`POST /t/{id}/invite` with `user`)."""
        return cast(dict[str, Any], self._post(f"/t/{topic_id}/invite", user=username))

    def remove_allowed_user(self, topic_id: int, username: str) -> dict[str, Any]:
        """Take someone out of a PM (`PUT /t/{id}/remove-allowed-user`, staff)."""
        return cast(dict[str, Any], self._put(f"/t/{topic_id}/remove-allowed-user", username=username))

    def posts_by_ids(self, topic_id: int, post_ids: list[int], **extra: Any) -> list[ForumPost]:
        """These posts of the topic, with raw (`GET /t/{id}/posts.json?post_ids[]=…`: TopicView
        reads them by id with no chunk limit, lib/topic_view.rb `filter_posts_by_ids`)."""
        body = self.posts(topic_id, post_ids=post_ids, include_raw="true", **extra)
        return _stream(body)

    def thread_post_ids(self, topic_id: int, after: int = 0, **extra: Any) -> list[int]:
        """The ids of every post after post number `after`, in one request (`GET
        /t/{id}/post_ids.json`, TopicsController#post_ids: TopicView with `skip_limit`)."""
        return list(self._get(f"/t/{topic_id}/post_ids.json", post_number=after, **extra)
                    .get("post_ids", []))


def _stream(body: dict[str, Any]) -> list[ForumPost]:
    """A topic view's posts (its `post_stream`), as typed posts."""
    return [ForumPost.from_json(p) for p in body["post_stream"]["posts"]]


def _decode(verb: str, path: str, response: requests.Response) -> Any:
    status = response.status_code
    if status == 429:
        raise TransientError(f"{verb} {path}: rate limited", status, _retry_after(response),
                             response.headers.get("Discourse-Rate-Limit-Error-Code"))
    if status >= 500:
        raise TransientError(f"{verb} {path}: server error {status}", status)
    if status in (301, 302):
        raise ConfigurationError(f"{verb} {path}: unexpected redirect (wrong URL?)", status)
    message = _error_message(response)
    if status == 403:
        kind = CredentialsRejected if INVALID_CREDENTIALS in message else ConfigurationError
        raise kind(f"{verb} {path}: {message}", status)
    if status == 404:
        raise NotFound(f"{verb} {path}: not found", status)
    if status >= 400:
        raise PermanentError(f"{verb} {path}: {message}", status)
    if response.headers.get("Content-Type") != JSON_TYPE:
        if not response.content.strip():
            return None
        raise ConfigurationError(f"{verb} {path}: not a Discourse JSON answer "
                                 f"({response.headers.get('Content-Type')})", status)
    try:
        body = response.json()
    except ValueError as exc:
        raise TransientError(f"{verb} {path}: unreadable JSON", status) from exc
    if isinstance(body, dict) and body.get("errors"):
        raise PermanentError(f"{verb} {path}: {', '.join(map(str, body['errors']))}", status)
    return body


def _retry_after(response: requests.Response) -> float:
    header = response.headers.get("Retry-After")
    if header and header.strip().isdigit():
        return float(header) + 1
    try:
        return float(response.json()["extras"]["wait_seconds"]) + 1
    except (ValueError, KeyError, TypeError):
        return 11.0


def _error_message(response: requests.Response) -> str:
    try:
        errors = response.json().get("errors")
        if isinstance(errors, list) and errors:
            return ", ".join(map(str, errors))
    except (ValueError, AttributeError):
        pass
    return f"HTTP {response.status_code} {response.reason}"

"""Theory of operation: the sandbox's errors in Discourse's shapes, one place for them.

`ApiError(status, body, headers)` is raised by the forum's rules and turned into an HTTP answer
by `server.py`. The bodies are Discourse's: `render_json_error` (`errors`, `error_type`,
`extras`: app/controllers/application_controller.rb), a refused create's
`{"action": "create_post", "errors": [...]}` (PostsController#create), and a rate limit's 429
with `Retry-After` and `extras.wait_seconds` (RateLimiter::LimitExceeded).
"""

from __future__ import annotations

TOO_MANY = "You’ve performed this action too many times. Please wait {} before trying again."

__all__ = ["TOO_MANY", "ApiError", "create_error", "errors", "rate_limited"]


class ApiError(Exception):
    def __init__(self, status: int, body, headers: dict | None = None) -> None:
        super().__init__(status, body)
        self.status = status
        self.body = body
        self.headers = headers or {}


def errors(status: int, message: str, error_type: str | None = None, **extras) -> ApiError:
    body: dict[str, object] = {"errors": [message]}
    if error_type:
        body["error_type"] = error_type
    if extras:
        body["extras"] = extras
    return ApiError(status, body)


def rate_limited(message: str, wait: int, code: str | None = None) -> ApiError:
    err = errors(429, message, "rate_limit", wait_seconds=wait, time_left=f"{wait} seconds")
    err.headers = {"Retry-After": str(wait)}
    if code:
        err.headers["Discourse-Rate-Limit-Error-Code"] = code
    return err


def create_error(*messages: str) -> ApiError:
    return ApiError(422, {"action": "create_post", "errors": list(messages)})

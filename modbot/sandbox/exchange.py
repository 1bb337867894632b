"""Theory of operation: one request to the sandbox, answered with or without a socket.

`answer(sandbox, method, path, query, headers, body)` is everything the sandbox does with a
request, whichever way it came: the HTTP server (server.py) passes what it read from the
socket, the in-memory transport (local.py) what `requests` prepared. Each request is
counted, checked against injected faults (`/_sandbox/faults.json`), authenticated like
Discourse (Api-Key with Api-Username or Api-User-Id: lib/auth/default_current_user_provider.rb;
a master key that may act as any user, single-user keys), charged to the shared admin-key
limit, routed by `routes.py` and `moderation_routes.py`, and answered as an `Answer`: a status,
a body (JSON as a dict, a page as text, a file as bytes) and headers. A fault of the
connection itself (a timeout, a dropped connection) is an `Answer` whose `transport` says so:
each transport acts it out its own way. A browser's pages and forms go to `web.py`.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from urllib.parse import parse_qs

from . import device_auth, user_keys, web
from .forum import ApiError, errors, rate_limited
from .moderation_routes import ROUTES as MODERATION_ROUTES
from .routes import ROUTES, Request

INVALID_KEY = ("You are not permitted to view the requested resource. The API username or key "
               "is invalid.")


@dataclass
class Answer:
    status: int
    body: object  # a dict (JSON), a str (a page) or bytes (a file)
    headers: dict = field(default_factory=dict)
    transport: str | None = None  # "timeout" or "drop": the connection fails, not the request
    delay: float = 0.0  # a timeout's wait


def answer(sandbox, method: str, path: str, query: str, headers, body: bytes) -> Answer:
    """The sandbox's answer to one request (`headers`: any case-blind mapping)."""
    try:
        params = _params(query, headers, body)
    except ValueError:
        return Answer(400, {"errors": ["You supplied invalid parameters to the request: body"],
                            "error_type": "invalid_parameters"})
    if path.startswith("/user-api-key"):  # the User API key pages (user_keys.py)
        found = _user_key_route(sandbox, method, path, params, headers)
        if found is not None:
            return found
    if web.wants_page(method, path, headers):
        return Answer(*web.respond(sandbox.forum, method, path, params, headers))
    if path.startswith("/_sandbox/"):
        return Answer(*_sandbox_call(sandbox, method, path, params))
    if path.startswith("/message-bus/") and method == "POST":  # held outside the forum's lock
        sandbox.count("POST /message-bus/poll")
        return _bus_poll(sandbox, path, params, headers)
    route, match = _route(method, path)
    sandbox.count(route.label if route else f"{method} {path}")
    fault = sandbox.faults.take(method, path, acting_name(sandbox, headers))
    if fault and (fault["kind"] in ("429", "500", "422") or not fault["after"]):
        return _fault(fault)
    try:
        result = Answer(*_dispatch(sandbox, headers, route, match, params, method, path))
    except ApiError as exc:
        result = Answer(exc.status, exc.body, exc.headers)
    return _fault(fault) if fault else result


def acting_name(sandbox, headers) -> str | None:
    """Who the request acts as: `Api-Username`, or `Api-User-Id` (an id, which a rename
    leaves alone: HEADER_API_USER_ID in lib/auth/default_current_user_provider.rb)."""
    user_id = headers.get("Api-User-Id")
    if user_id and not headers.get("Api-Username"):
        user = next((u for u in sandbox.forum.users.values()
                     if str(u.id) == str(user_id).strip()), None)
        return user.username if user else f"#{user_id}"
    return headers.get("Api-Username")


def _bus_poll(sandbox, path: str, params: dict, headers) -> Answer:
    try:
        if not sandbox.bus.enabled:
            raise errors(404, "The requested URL or resource could not be found.", "not_found")
        if headers.get("User-Api-Key"):
            user = sandbox.user_keys.authenticate(sandbox.forum, headers, "POST", path)
        else:
            user = _authenticate(sandbox, headers)
        if user is None:
            raise errors(403, INVALID_KEY, "invalid_access")
    except ApiError as exc:
        return Answer(exc.status, exc.body, exc.headers)
    subscriptions = {k: int(v) for k, v in params.items()
                     if k.startswith("/") and str(v).lstrip("-").isdigit()}
    wait = str(params.get("dlp", "")).lower() not in ("t", "true", "1")
    return Answer(200, sandbox.bus.poll(user.id, subscriptions, wait=wait))


def _user_key_route(sandbox, method, path, params, headers) -> Answer | None:
    params = {**params, "_user_api_key": headers.get("User-Api-Key", "")}
    viewer = web.viewer_of(sandbox.forum, headers.get("Cookie", ""))
    try:
        found = device_auth.respond(sandbox, method, path, params, viewer) or \
            user_keys.respond(sandbox, method, path, params, viewer)
    except ApiError as exc:
        return Answer(exc.status, exc.body, exc.headers)
    return Answer(*found) if found is not None else None


def _dispatch(sandbox, headers, route, match, params, method="GET", path="/"):
    if headers.get("User-Api-Key"):  # a User API key (user_keys.py)
        user = sandbox.user_keys.authenticate(sandbox.forum, headers, method, path)
    else:
        user = _authenticate(sandbox, headers)
    if route is None:
        raise errors(404, "The requested URL or resource could not be found.", "not_found")
    request = Request(sandbox.forum, user, params, match.groupdict(), sandbox)
    with sandbox.forum.lock:  # one request at a time: reads never see half a write
        return route.handler(request)


def _authenticate(sandbox, headers):
    key = headers.get("Api-Key")
    username = acting_name(sandbox, headers)
    if not key:
        return None
    forum = sandbox.forum
    if secrets.compare_digest(key, sandbox.api_key):
        user = forum.user(username) if username else None
    else:
        owner = forum.user_keys.get(key)
        same = owner is not None and (not username or username.lower() == owner.lower())
        user = forum.user(owner) if same else None
    if user is None or key in forum.revoked_keys:
        raise errors(403, INVALID_KEY, "invalid_access")
    sandbox.limiter.charge()
    return user


def _params(query: str, headers, body: bytes) -> dict:
    params = _flatten(parse_qs(query, keep_blank_values=True))
    if body:
        kind = headers.get("Content-Type", "") or ""
        if "application/json" in kind:
            data = json.loads(body or b"{}")
            if not isinstance(data, dict):
                raise ValueError("a JSON body must be an object")
            params.update(data)
        elif "multipart/form-data" in kind:
            params.update(_multipart(kind, body))
        else:
            params.update(_flatten(parse_qs(body.decode("utf-8", "replace"),
                                            keep_blank_values=True)))
    return params


def _sandbox_call(sandbox, method: str, path: str, params: dict):
    if path == "/_sandbox/clock.json" and method == "GET":  # the forum's own time
        clock = sandbox.forum.clock  # its speed too: a client may follow it between reads
        return 200, {"now": clock.now().isoformat().replace("+00:00", "Z"),
                     "speed": getattr(clock, "speed", 1.0)}, {}
    if path == "/_sandbox/requests.json" and method == "GET":
        with sandbox.counts_lock:
            counts = dict(sandbox.counts)
        return 200, {"requests": counts, "total": sum(counts.values())}, {}
    if path == "/_sandbox/requests.json" and method == "DELETE":
        with sandbox.counts_lock:
            sandbox.counts.clear()
        return 200, {"success": "OK"}, {}
    if path == "/_sandbox/faults.json" and method == "POST":
        try:
            return 200, {"fault": sandbox.faults.add(params)}, {}
        except ApiError as exc:
            return exc.status, exc.body, exc.headers
    return 404, {"errors": ["The requested URL or resource could not be found."],
                 "error_type": "not_found"}, {}


def _fault(fault: dict) -> Answer:
    kind = fault["kind"]
    if kind == "429":
        err = rate_limited("You’ve performed this action too many times. Please wait "
                           f"{fault['wait_seconds']} seconds before trying again.",
                           fault["wait_seconds"], fault["code"] or None)
        return Answer(429, err.body, err.headers)
    if kind == "422":
        return Answer(422, {"action": "create_post", "errors": ["Injected by the sandbox"]})
    if kind == "500":
        return Answer(500, {"errors": ["Internal Server Error"], "error_type": "server_error"})
    return Answer(0, b"", transport=kind, delay=fault["delay"])  # a timeout, or a drop


def _route(method: str, path: str):
    for route in MODERATION_ROUTES + ROUTES:
        if route.method == method:
            match = route.pattern.fullmatch(path)
            if match:
                return route, match
    return None, None


def _multipart(content_type: str, body: bytes) -> dict:
    """A multipart/form-data body: text fields as strings, files as {filename, content, type}."""
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    fields: dict = {}
    for part in message.iter_parts() if message.is_multipart() else ():
        name = part.get_param("name", header="content-disposition")
        if not name:
            continue
        content = part.get_payload(decode=True)
        content = content if isinstance(content, bytes) else b""
        filename = part.get_filename()
        fields[str(name)] = {"filename": filename, "content": content,
                             "type": part.get_content_type()} if filename is not None \
            else content.decode("utf-8", "replace")
    return fields


def _flatten(parsed: dict[str, list[str]]) -> dict:
    return {k: (v if k.endswith("[]") else v[-1]) for k, v in parsed.items()}


def encode(result: Answer) -> tuple[bytes, dict]:
    """The answer's body as bytes, with its Content-Type."""
    headers = dict(result.headers)
    if isinstance(result.body, bytes):
        return result.body, headers
    if isinstance(result.body, str):
        headers.setdefault("Content-Type", "text/html; charset=utf-8")
        return result.body.encode("utf-8"), headers
    headers["Content-Type"] = "application/json; charset=utf-8"
    return json.dumps(result.body).encode("utf-8"), headers

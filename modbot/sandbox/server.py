"""The sandbox's HTTP server: a Discourse-compatible API on 127.0.0.1.

Theory of operation: `SandboxServer` (a ThreadingHTTPServer) owns a `Forum`. Each request is
counted, checked against injected faults (`/_sandbox/faults.json`), authenticated like
Discourse (Api-Key + Api-Username; a master key that may act as any user, single-user keys),
charged to the shared admin-key limit, routed by `routes.py`, and answered with
`application/json; charset=utf-8` (errors included). A browser's pages and forms go to `web.py`.
"""

from __future__ import annotations

import json
import secrets
import socket
import sys
import threading
import time
from collections import Counter, deque
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from . import web
from .forum import ApiError, Clock, Forum, errors, rate_limited
from .moderation_routes import ROUTES as MODERATION_ROUTES
from .routes import ROUTES, Request
from .shapes import ts
from .uploads import Uploads

JSON_TYPE = "application/json; charset=utf-8"
INVALID_KEY = ("You are not permitted to view the requested resource. The API username or key "
               "is invalid.")


class Faults:
    """Injected failures: the next N requests whose path starts with a prefix fail."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pending: list[dict] = []

    def add(self, spec: dict) -> dict:
        kind = str(spec.get("kind", ""))
        if kind not in ("429", "500", "422", "timeout", "drop"):
            raise errors(400, "You supplied invalid parameters to the request: kind",
                         "invalid_parameters")
        fault = {"path": str(spec.get("path", "/")), "kind": kind,
                 "count": int(spec.get("count", 1)), "method": spec.get("method"),
                 "username": spec.get("username"),
                 "wait_seconds": int(spec.get("wait_seconds", 0)),
                 "delay": float(spec.get("delay", 5)), "after": bool(spec.get("after", True)),
                 # a 429's limiter: the admin keys' shared budget by default; "" for none (an
                 # account's limit on one action)
                 "code": str(spec.get("code", "admin_api_key_rate_limit"))}
        with self.lock:
            self.pending.append(fault)
        return fault

    def take(self, method: str, path: str, username: str | None) -> dict | None:
        with self.lock:
            for fault in self.pending:
                wanted = fault["username"]
                if path.startswith(fault["path"]) and fault["method"] in (None, method) and (
                        wanted is None or (username or "").lower() == wanted.lower()):
                    fault["count"] -= 1
                    if fault["count"] <= 0:
                        self.pending.remove(fault)
                    return fault
        return None


class AdminLimiter:
    """The shared per-minute budget of all admin-generated API keys (0 = no limit), counted on
    `seconds` (the forum's clock)."""

    def __init__(self, per_minute: int, seconds=time.monotonic) -> None:
        self.per_minute = per_minute
        self.seconds = seconds
        self.lock = threading.Lock()
        self.times: deque[float] = deque()

    def charge(self) -> None:
        if self.per_minute <= 0:
            return
        with self.lock:
            now = self.seconds()
            while self.times and now - self.times[0] >= 60:
                self.times.popleft()
            if len(self.times) >= self.per_minute:
                wait = max(1, int(60 - (now - self.times[0]) + 0.999))
                raise rate_limited("You’ve performed this action too many times. Please wait "
                                   f"{wait} seconds before trying again.", wait,
                                   "admin_api_key_rate_limit")
            self.times.append(now)


class SandboxServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int = 0, *, api_key: str | None = None, forum: Forum | None = None,
                 admin_api_limit: int = 60, host: str = "127.0.0.1") -> None:
        super().__init__((host, port), _Handler)
        self.forum = forum or Forum()
        self.api_key = api_key or secrets.token_hex(16)
        self.limiter = AdminLimiter(admin_api_limit, self.forum.seconds)
        self.faults = Faults()
        self.uploads = Uploads()
        self.counts: Counter[str] = Counter()
        self.counts_lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def handle_error(self, request, client_address) -> None:
        """A client that hangs up mid-answer is ordinary (a timeout, a dropped connection):
        no traceback; anything else is reported as the base class does."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError,
                                          ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def count(self, label: str) -> None:
        with self.counts_lock:
            self.counts[label] += 1

    def start(self) -> SandboxServer:
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="sandbox", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: SandboxServer
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # headers and body are separate writes: without this, Nagle + delayed ACK add ~40 ms
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):  # quiet: the daemon has its own log
        pass

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_PUT(self):
        self._handle("PUT")

    def do_DELETE(self):
        self._handle("DELETE")

    def _handle(self, method: str) -> None:
        split = urlsplit(self.path)
        path = split.path
        try:
            params = self._params(split.query)
        except ValueError:
            self._send_json(400, {"errors": ["You supplied invalid parameters to the request: "
                                             "body"], "error_type": "invalid_parameters"})
            return
        if web.wants_page(method, path, self.headers):
            self._send(*web.respond(self.server.forum, method, path, params, self.headers))
            return
        if path.startswith("/_sandbox/"):
            self._send(*self._sandbox(method, path, params))
            return
        route, match = _route(method, path)
        self.server.count(route.label if route else f"{method} {path}")
        fault = self.server.faults.take(method, path, self._acting_name())
        if fault and (fault["kind"] in ("429", "500", "422") or not fault["after"]):
            self._fault(fault)
            return
        try:
            result = self._dispatch(method, path, route, match, params)
        except ApiError as exc:
            result = (exc.status, exc.body, exc.headers)
        if fault:
            self._fault(fault)
            return
        self._send(*result)

    def _dispatch(self, method, path, route, match, params):
        user = self._authenticate()
        if route is None:
            raise errors(404, "The requested URL or resource could not be found.", "not_found")
        request = Request(self.server.forum, user, params, match.groupdict(), self.server)
        with self.server.forum.lock:  # one request at a time: reads never see half a write
            return route.handler(request)

    def _acting_name(self) -> str | None:
        """Who the request acts as: `Api-Username`, or `Api-User-Id` (an id, which a rename
        leaves alone: lib/auth/default_current_user_provider.rb, HEADER_API_USER_ID)."""
        user_id = self.headers.get("Api-User-Id")
        if user_id and not self.headers.get("Api-Username"):
            user = next((u for u in self.server.forum.users.values()
                         if str(u.id) == user_id.strip()), None)
            return user.username if user else f"#{user_id}"
        return self.headers.get("Api-Username")

    def _authenticate(self):
        key = self.headers.get("Api-Key")
        username = self._acting_name()
        if not key:
            return None
        forum = self.server.forum
        if secrets.compare_digest(key, self.server.api_key):
            user = forum.user(username) if username else None
        else:
            owner = forum.user_keys.get(key)
            same = owner is not None and (not username or username.lower() == owner.lower())
            user = forum.user(owner) if same else None
        if user is None or key in forum.revoked_keys:
            raise errors(403, INVALID_KEY, "invalid_access")
        self.server.limiter.charge()
        return user

    def _params(self, query: str) -> dict:
        params = _flatten(parse_qs(query, keep_blank_values=True))
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            body = self.rfile.read(length)
            kind = self.headers.get("Content-Type", "")
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

    def _sandbox(self, method: str, path: str, params: dict):
        server = self.server
        if path == "/_sandbox/clock.json" and method == "GET":  # the forum's own time
            return 200, {"now": server.forum.clock.now().isoformat().replace("+00:00", "Z")}, {}
        if path == "/_sandbox/requests.json" and method == "GET":
            with server.counts_lock:
                counts = dict(server.counts)
            return 200, {"requests": counts, "total": sum(counts.values())}, {}
        if path == "/_sandbox/requests.json" and method == "DELETE":
            with server.counts_lock:
                server.counts.clear()
            return 200, {"success": "OK"}, {}
        if path == "/_sandbox/faults.json" and method == "POST":
            try:
                return 200, {"fault": server.faults.add(params)}, {}
            except ApiError as exc:
                return exc.status, exc.body, exc.headers
        if path == "/_sandbox/clock.json" and method == "GET":
            return 200, {"now": ts(server.forum.clock.now())}, {}
        return 404, {"errors": ["The requested URL or resource could not be found."],
                     "error_type": "not_found"}, {}

    def _fault(self, fault: dict) -> None:
        kind = fault["kind"]
        if kind == "429":
            err = rate_limited("You’ve performed this action too many times. Please wait "
                               f"{fault['wait_seconds']} seconds before trying again.",
                               fault["wait_seconds"], fault["code"] or None)
            self._send(429, err.body, err.headers)
        elif kind == "422":
            self._send(422, {"action": "create_post", "errors": ["Injected by the sandbox"]})
        elif kind == "500":
            self._send(500, {"errors": ["Internal Server Error"], "error_type": "server_error"})
        elif kind == "timeout":
            time.sleep(fault["delay"])
            self.close_connection = True
        else:  # drop
            self.close_connection = True
            try:
                self.connection.shutdown(2)
            except OSError:
                pass

    def _send(self, status: int, body, headers: dict | None = None) -> None:
        headers = dict(headers or {})
        if isinstance(body, bytes):
            data = body
        elif isinstance(body, str):
            data = body.encode("utf-8")
            headers.setdefault("Content-Type", "text/html; charset=utf-8")
        else:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = JSON_TYPE
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def _send_json(self, status: int, body) -> None:
        self._send(status, body)


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
        content = part.get_payload(decode=True) or b""
        filename = part.get_filename()
        fields[str(name)] = {"filename": filename, "content": content,
                             "type": part.get_content_type()} if filename is not None \
            else content.decode("utf-8", "replace")
    return fields


def _flatten(parsed: dict[str, list[str]]) -> dict:
    return {k: (v if k.endswith("[]") else v[-1]) for k, v in parsed.items()}



__all__ = ["Clock", "Forum", "SandboxServer", "JSON_TYPE"]

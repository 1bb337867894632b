"""The sandbox's HTTP server: a Discourse-compatible API on 127.0.0.1.

Theory of operation: `SandboxServer` (a ThreadingHTTPServer) owns a `Forum`, the master key,
the shared admin-key limiter (`AdminLimiter`), the injected faults (`Faults`), the uploads
and the request counts. Its handler reads each request off the socket and writes back what
`exchange.answer` decides (counting, faults, authentication, the limit, routing: the same
code `local.py` runs in memory, with no socket), JSON as `application/json; charset=utf-8`.
"""

from __future__ import annotations

import contextlib
import email.utils
import secrets
import socket
import sys
import threading
import time
from collections import Counter, deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from .device_auth import DeviceGrants
from .exchange import Answer, answer, encode
from .forum import Clock, Forum, errors, rate_limited
from .message_bus import Bus, published
from .uploads import Uploads
from .user_keys import UserKeys

JSON_TYPE = "application/json; charset=utf-8"


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


class SandboxState:
    """What a sandbox holds, however it is served (over HTTP here, in memory in local.py):
    the forum, the master key, the shared admin limiter, the faults, the uploads, the counts."""

    def __init__(self, *, api_key: str | None = None, forum: Forum | None = None,
                 admin_api_limit: int = 60) -> None:
        self.forum = forum or Forum()
        self.api_key = api_key or secrets.token_hex(16)
        self.limiter = AdminLimiter(admin_api_limit, self.forum.seconds)
        self.faults = Faults()
        self.uploads = Uploads()
        self.user_keys = UserKeys(self.forum.seconds)  # User API keys (user_keys.py)
        # their device flow, on real seconds: a person and a polling client share that clock
        self.device_grants = DeviceGrants(time.monotonic)  # at any rehearsal speed
        # MessageBus (message_bus.py), its polls held on the forum's clock
        self.bus = Bus(speed=lambda: float(getattr(self.forum.clock, "speed", 1.0)))
        self.forum.listeners.append(
            lambda kind, topic, post: published(self.bus, self.forum, kind, topic, post))
        self.counts: Counter[str] = Counter()
        self.counts_lock = threading.Lock()

    def count(self, label: str) -> None:
        with self.counts_lock:
            self.counts[label] += 1


class SandboxServer(SandboxState, ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, port: int = 0, *, api_key: str | None = None, forum: Forum | None = None,
                 admin_api_limit: int = 60, host: str = "127.0.0.1") -> None:
        ThreadingHTTPServer.__init__(self, (host, port), _Handler)
        SandboxState.__init__(self, api_key=api_key, forum=forum,
                              admin_api_limit=admin_api_limit)
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
        return f"http://{host!s}:{port}"

    def start(self) -> SandboxServer:
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="sandbox", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    """HTTP in and out; what the sandbox answers is `exchange.answer`'s."""

    server: SandboxServer
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # headers and body are separate writes: without this, Nagle + delayed ACK add ~40 ms
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def date_time_string(self, timestamp=None):
        """The `Date` header on the forum's clock (a rehearsal's runs fast), as Discourse's
        own server puts the time of its answer there."""
        return email.utils.format_datetime(self.server.forum.clock.now(), usegmt=True)

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

    def do_HEAD(self):
        self._handle("HEAD")

    def _handle(self, method: str) -> None:
        split = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        result = answer(self.server, method, split.path, split.query, self.headers, body)
        if result.transport == "timeout":
            time.sleep(result.delay)
            self.close_connection = True
        elif result.transport:  # a dropped connection
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(2)
        else:
            self._send(result)

    def _send(self, result: Answer) -> None:
        data, headers = encode(result)
        try:
            self.send_response(result.status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


__all__ = ["JSON_TYPE", "Clock", "Forum", "SandboxServer"]

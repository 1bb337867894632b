"""Theory of operation: the sandbox forum in memory, with no HTTP and no socket.

`LocalSandbox` holds what `SandboxServer` holds (the `Forum`, the master key, the admin
limiter, the faults, the uploads, the request counts) without listening anywhere;
`LocalTransport` is a `requests` transport adapter that hands each request the bot (or a test)
makes to `exchange.answer`, the very code the HTTP server runs, and turns the `Answer` into a
`requests.Response` (a timeout fault raises `requests.Timeout`, a dropped connection
`requests.ConnectionError`, as a socket would). So `ForumClient` and everything above it runs
unchanged against the same Discourse behaviours, in the fast loop: `LocalSandbox.client(name)`
gives a client wired to it, and `LocalSandbox.session()` a `requests.Session` for the test's
own calls (players' posts, moderators' actions).
"""

from __future__ import annotations

import email.utils
from urllib.parse import urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from .exchange import answer, encode
from .server import SandboxState

URL = "http://sandbox.invalid"  # never resolved: the transport answers before any socket


class LocalSandbox(SandboxState):
    """The sandbox's state, served in memory (the attributes tests read of `SandboxServer`)."""

    url = URL

    def session(self) -> requests.Session:
        session = requests.Session()
        session.mount(URL + "/", LocalTransport(self))
        return session

    def client(self, username: str, api_key: str | None = None, **kwargs):
        from ..adapters.forum import ForumClient  # the sandbox itself needs none of the bot's

        client = ForumClient(URL, username, api_key or self.api_key, **kwargs)
        client.session.mount(URL + "/", LocalTransport(self))
        return client

    def start(self) -> LocalSandbox:
        return self  # nothing to start: a `SandboxServer` look-alike

    def stop(self) -> None:
        pass


class LocalTransport(BaseAdapter):
    def __init__(self, sandbox: LocalSandbox) -> None:
        super().__init__()
        self.sandbox = sandbox

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        split = urlsplit(request.url)
        body = request.body or b""
        if isinstance(body, str):
            body = body.encode("utf-8")
        result = answer(self.sandbox, request.method, split.path, split.query,
                        request.headers, body)
        if result.transport == "timeout":
            raise requests.Timeout(f"{request.method} {split.path}: timed out (injected)",
                                   request=request)
        if result.transport:
            raise requests.ConnectionError(f"{request.method} {split.path}: connection "
                                           "dropped (injected)", request=request)
        data, headers = encode(result)
        headers.setdefault("Date", email.utils.format_datetime(self.sandbox.forum.clock.now(),
                                                               usegmt=True))
        response = requests.Response()
        response.status_code = result.status
        response.headers = CaseInsensitiveDict(headers)
        response._content = data
        response.encoding = "utf-8"
        response.url = request.url
        response.request = request
        response.reason = ""
        return response

    def close(self) -> None:
        pass

"""Theory of operation: the sandbox's User API keys, as Discourse grants and checks them.

Any user the site allows (staff always; others from `min_trust_level_for_user_api_key`, 0 by
default) may authorize an application for their own account (the classic flow of
app/controllers/user_api_keys_controller.rb): the application sends the user's browser to
`GET /user-api-key/new` with `application_name`, `client_id`, `nonce`, `scopes` and its RSA
`public_key`; the signed-in user (the sandbox's "viewing as" cookie) sees what is asked and
authorizes (`POST /user-api-key`); a new key is made (replacing the user's earlier key for
that client id) and, without `auth_redirect`, the page shows the payload to paste back:
`{key, nonce, push, api}` as JSON, encrypted with the public key (PKCS #1 v1.5, as Ruby's
`public_encrypt`) and in Base64 with a line break every 60 characters (`Base64.encode64`).
`HEAD /user-api-key/new` answers with `Auth-Api-Version` (and `Auth-Api-Device-Code` where the
device flow is on: device_auth.py). `POST /user-api-key/revoke` with
the key revokes it.

A request with a `User-Api-Key` header acts as its user (lib/auth/default_current_user_provider.rb):
a key that is unknown or revoked is refused (403); each request is charged to the key's limits,
`max_user_api_reqs_per_minute` (20) and `max_user_api_reqs_per_day` (2,880), on the forum's
clock: beyond them a 429 with `Retry-After` and `Discourse-Rate-Limit-Error-Code`
`user_api_key_limiter_60_secs` or `user_api_key_limiter_1_day`; and the key's scopes must
permit the request (app/models/user_api_key_scope.rb: `read` any GET, `write` any method,
`message_bus` the bus's POST, `session_info` `GET /session/current.json`).
"""

from __future__ import annotations

import base64
import html
import json
import secrets
import threading
from collections import deque
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from .forum import errors, rate_limited

AUTH_API_VERSION = 4
ALLOWED_SCOPES = {"read", "write", "message_bus", "push", "notifications", "session_info",
                  "one_time_password"}  # allowed_user_api_key_scopes, as Discourse ships it
PER_MINUTE, PER_DAY = 20, 2880
REQUIRED = ("public_key", "nonce", "scopes", "client_id", "application_name")


@dataclass
class UserKey:
    key: str
    username: str
    client_id: str
    scopes: frozenset[str]
    application_name: str
    revoked: bool = False
    minute: deque = field(default_factory=deque)
    day: deque = field(default_factory=deque)


class UserKeys:
    """The keys the sandbox granted, and their limits (on `seconds`, the forum's clock)."""

    def __init__(self, seconds, min_trust_level: int = 0) -> None:
        self.seconds = seconds
        self.min_trust_level = min_trust_level
        self.per_minute, self.per_day = PER_MINUTE, PER_DAY
        self.keys: dict[str, UserKey] = {}
        self.lock = threading.Lock()
        self.refused = 0  # the 429s answered (what a benchmark or a test counts)

    def grant(self, user, params: dict) -> UserKey:
        for old in [k for k in self.keys.values()
                    if k.username == user.username and k.client_id == params["client_id"]]:
            del self.keys[old.key]  # "destroy any old keys we had"
        made = UserKey(secrets.token_hex(16), user.username, params["client_id"],
                       frozenset(params["scopes"].split(",")), params["application_name"])
        self.keys[made.key] = made
        return made

    def authenticate(self, forum, headers, method: str, path: str):
        """The user a `User-Api-Key` request acts as (403 for a bad key, 429 over its limits,
        403 when its scopes do not permit the request)."""
        found = self.keys.get(headers.get("User-Api-Key", ""))
        if found is None or found.revoked:
            raise errors(403, "You are not permitted to view the requested resource. The User "
                         "API key is invalid or was revoked.", "invalid_access")
        self._charge(found)
        if not permits(found.scopes, method, path):
            raise errors(403, "You are not permitted to view the requested resource.",
                         "invalid_access")
        return forum.user(found.username)

    def _charge(self, found: UserKey) -> None:
        with self.lock:
            now = self.seconds()
            for times, window, limit, code in (
                    (found.minute, 60, self.per_minute, "user_api_key_limiter_60_secs"),
                    (found.day, 86400, self.per_day, "user_api_key_limiter_1_day")):
                while times and now - times[0] >= window:
                    times.popleft()
                if limit and len(times) >= limit:
                    wait = max(1, int(window - (now - times[0]) + 0.999))
                    self.refused += 1
                    raise rate_limited("You’ve performed this action too many times. Please "
                                       f"wait {wait} seconds before trying again.", wait, code)
            found.minute.append(now)
            found.day.append(now)


def permits(scopes: frozenset[str], method: str, path: str) -> bool:
    if "write" in scopes:
        return True
    if method == "GET" and "read" in scopes:
        return True
    if method == "POST" and path.startswith("/message-bus/") and \
            scopes & {"message_bus", "notifications"}:
        return True
    return method == "GET" and path.startswith("/session/current") and "session_info" in scopes


def encrypted_payload(public_key_pem: str, payload: dict, padding_mode: str = "pkcs1") -> str:
    """The payload as Discourse sends it: RSA with PKCS #1 v1.5 padding (or OAEP with SHA-1,
    OpenSSL's, when asked: device_auth/crypto.rb), Base64 in lines of 60."""
    key = serialization.load_pem_public_key(public_key_pem.encode("ascii"))
    if not isinstance(key, rsa.RSAPublicKey):
        raise ValueError("not an RSA key")
    scheme = padding.OAEP(padding.MGF1(hashes.SHA1()), hashes.SHA1(), None) \
        if padding_mode == "oaep" else padding.PKCS1v15()
    sealed = key.encrypt(json.dumps(payload, separators=(",", ":")).encode(), scheme)
    text = base64.b64encode(sealed).decode("ascii")
    return "".join(text[i:i + 60] + "\n" for i in range(0, len(text), 60))


# -- the pages ------------------------------------------------------------------------------------

def respond(sandbox, method: str, path: str, params: dict, viewer) -> tuple | None:
    """The user-api-key routes (None: not one of them)."""
    keys: UserKeys = sandbox.user_keys
    if path == "/user-api-key/new" and method == "HEAD":  # what the forum offers (device_auth.py)
        device = {"Auth-Api-Device-Code": "true"} if sandbox.device_grants.enabled else {}
        return 200, b"", {"Auth-Api-Version": str(AUTH_API_VERSION), **device}
    if path == "/user-api-key/revoke" and method == "POST":
        return _revoke(sandbox, params)
    if path not in ("/user-api-key/new", "/user-api-key") or method not in ("GET", "POST"):
        return None
    problem = _invalid(params)
    if problem:
        return 403, page("Not allowed", f"<p>{html.escape(problem)}</p>"), {}
    refused = not_signed_in(viewer) or below_trust_level(keys, viewer)
    if refused:
        return refused
    if method == "GET":
        return 200, _authorize_page(params, viewer), {}
    granted = keys.grant(viewer, params)
    payload = encrypted_payload(params["public_key"], {
        "key": granted.key, "nonce": params["nonce"], "push": False, "api": AUTH_API_VERSION})
    if params.get("format") == "json":
        return 200, {"payload": payload, "instructions": "Paste the payload in the application."}, {}
    return 200, page("Authorized", f"<p>{html.escape(params['application_name'])} can now "
                     "use your account. Copy this and paste it in the application:</p>"
                     f'<pre id="payload">{html.escape(payload)}</pre>'), {}


def _invalid(params: dict) -> str:
    missing = [p for p in REQUIRED if not params.get(p)]
    if missing:
        return f"param is missing or the value is empty: {missing[0]}"
    if not set(str(params["scopes"]).split(",")) <= ALLOWED_SCOPES:
        return "a scope this site does not allow"
    try:
        key = serialization.load_pem_public_key(str(params["public_key"]).encode("ascii"))
    except ValueError:
        return "the public key does not parse"
    return "" if isinstance(key, rsa.RSAPublicKey) else "not an RSA public key"


def _revoke(sandbox, params: dict):
    found = sandbox.user_keys.keys.get(params.get("_user_api_key", ""))
    if found is None:
        raise errors(404, "The requested URL or resource could not be found.", "not_found")
    found.revoked = True
    return 200, {"success": "OK"}, {}


def _authorize_page(params: dict, viewer) -> str:
    hidden = "".join(f'<input type="hidden" name="{name}" value="{html.escape(str(params[name]))}">'
                     for name in REQUIRED if name in params)
    scopes = ", ".join(html.escape(s) for s in str(params["scopes"]).split(","))
    return page("Authorize an application", (
        f"<p><b>{html.escape(params['application_name'])}</b> asks to use the account "
        f"<b>@{html.escape(viewer.username)}</b>, to: {scopes}.</p>"
        f'<form method="post" action="/user-api-key">{hidden}'
        '<button id="authorize" type="submit">Authorize</button></form>'))


def not_signed_in(viewer) -> tuple | None:
    """The page for nobody signed in (both flows ask for a signed-in user)."""
    if viewer is not None:
        return None
    return 403, page("Log in first", "<p>Log in (the sandbox's “viewing as” switcher) to "
                     "authorize an application.</p>"), {}


def below_trust_level(keys: UserKeys, viewer) -> tuple | None:
    """The page for a user the site does not let authorize applications (`meets_tl?`: staff,
    or `min_trust_level_for_user_api_key`)."""
    if viewer.staff or viewer.trust_level >= keys.min_trust_level:
        return None
    return 403, page("Not allowed", "<p>Your trust level cannot authorize applications on "
                     "this site.</p>"), {}


def page(title: str, body: str) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title></head><body><h1>{html.escape(title)}</h1>{body}</body></html>")

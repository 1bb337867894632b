"""Theory of operation: the device flow of the sandbox's User API keys, as Discourse runs it.

Newer Discourse lets an application without a browser of its own get a User API key (per
app/services/user_api_key/device_auth.rb and its steps create_request.rb, request_validator.rb,
code_registry.rb, poll.rb, payload_builder.rb and crypto.rb; routes in
app/controllers/user_api_keys_controller.rb):

1. `HEAD /user-api-key/new` answers `Auth-Api-Device-Code: true` beside `Auth-Api-Version`.
2. The application POSTs `/user-api-key/device.json` (JSON: `application_name`, `client_id`,
   `scopes`, `nonce`, `public_key`, optional `padding`, `pkcs1` or `oaep`). The request is
   checked (nonce, scopes and client id present; every scope allowed, `one_time_password`
   never; an RSA key of 2,048 to 8,192 bits) and a pending grant kept for ten minutes
   (`DEVICE_AUTH_TTL`): the answer holds a `device_code` (64 hex digits), a `user_code`
   (`ABCD-EFGH` from an alphabet without look-alikes), the `verification_uri`
   (`/user-api-key/activate`) with and without the request's token, `expires_in` and the
   polling `interval` (5 s).
3. The user opens the address signed in (the sandbox's "viewing as" cookie), enters the code
   (spaces, dashes and case do not matter), sees what is asked and authorizes or denies. A
   user whose trust level may not authorize applications is told so. (The browser's own
   routes behind the page are the sandbox's: the application never calls them.)
4. The application POSTs `/user-api-key/device/poll.json` with its `device_code`, no more
   often than `interval`: `authorization_pending`, `access_denied`, `expired_token` (an
   unknown, malformed or expired code), or once `authorized` with the `payload` (the classic
   flow's `{key, nonce, push, api}`, encrypted with the request's padding, in Base64), after
   which the grant is gone. An authorized payload waits a minute at most.

The grants' lifetimes (ten minutes, and a minute for an authorized payload) run on real
seconds, not the forum's clock: on a real Discourse the two are one, and the flow is between a
person typing a code and a client polling every `interval` real seconds, so a rehearsal's
faster forum clock (60 forum seconds are one real second at 60x) must not expire a payload
between two polls, nor the code before the host has typed it.
"""

from __future__ import annotations

import html
import secrets
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from .forum import errors
from .user_keys import ALLOWED_SCOPES, below_trust_level, encrypted_payload, not_signed_in, page

TTL, PAYLOAD_TTL, INTERVAL = 600, 60, 5  # DEVICE_AUTH_TTL, _AUTHORIZED_PAYLOAD_TTL, _INTERVAL
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # USER_CODE_ALPHABET
MIN_BITS, MAX_BITS = 2048, 8192
PADDINGS = ("pkcs1", "oaep")  # ALLOWED_PADDING_MODES


@dataclass
class Grant:
    device_code: str
    user_code: str
    request_token: str
    params: dict
    created: float
    status: str = "pending"  # authorized, denied
    payload: str = ""
    authorized_at: float = 0.0
    approval: str = field(default_factory=lambda: secrets.token_urlsafe(16))


class DeviceGrants:
    """The pending device grants, on `seconds` (real seconds: see above)."""

    def __init__(self, seconds) -> None:
        self.seconds = seconds
        self.enabled = True  # an older Discourse has no device flow: tests turn it off
        self.interval = INTERVAL
        self.grants: dict[str, Grant] = {}

    def create(self, params: dict) -> Grant:
        _check(params)
        code = "".join(secrets.choice(ALPHABET) for _ in range(8))
        grant = Grant(secrets.token_hex(32), f"{code[:4]}-{code[4:]}",
                      secrets.token_urlsafe(6), dict(params), self.seconds())
        self.grants[grant.device_code] = grant
        return grant

    def live(self, device_code: str) -> Grant | None:
        found = self.grants.get(device_code)
        if found is None:
            return None
        age = self.seconds() - found.created
        if age >= TTL or (found.status == "authorized" and
                          self.seconds() - found.authorized_at >= PAYLOAD_TTL):
            del self.grants[device_code]
            return None
        return found

    def by_user_code(self, typed: str) -> Grant | None:
        code = "".join(c for c in typed.upper() if c.isalnum())
        if len(code) != 8:
            return None
        wanted = f"{code[:4]}-{code[4:]}"
        return self._pending(lambda g: g.user_code == wanted)

    def by_approval(self, token: str) -> Grant | None:
        typed = token.encode()  # bytes: compare_digest refuses a str that is not ASCII
        return self._pending(lambda g: secrets.compare_digest(g.approval.encode(), typed))

    def _pending(self, matches) -> Grant | None:
        """The live grant still pending that `matches` (expired ones are dropped)."""
        return next((g for g in list(self.grants.values())
                     if matches(g) and self.live(g.device_code) is g and g.status == "pending"),
                    None)

    def poll(self, device_code: str) -> dict:
        grant = self.live(device_code) if len(device_code) == 64 else None
        if grant is None:
            return {"status": "expired_token"}
        if grant.status == "authorized":
            del self.grants[device_code]
            return {"status": "authorized", "payload": grant.payload}
        return {"status": "access_denied" if grant.status == "denied" else
                "authorization_pending"}


def _check(params: dict) -> None:
    for name in ("nonce", "scopes", "client_id", "application_name"):
        if not params.get(name):
            raise errors(400, f"param is missing or the value is empty: {name}",
                         "invalid_parameters")
    scopes = set(str(params["scopes"]).split(","))
    if not scopes <= ALLOWED_SCOPES or "one_time_password" in scopes:
        raise errors(400, "You supplied invalid parameters to the request: scopes",
                     "invalid_parameters")
    if params.get("padding") and params["padding"] not in PADDINGS:
        raise errors(400, "You supplied invalid parameters to the request: padding",
                     "invalid_parameters")
    try:
        key = serialization.load_pem_public_key(str(params.get("public_key", "")).encode())
    except ValueError:
        key = None
    if not isinstance(key, rsa.RSAPublicKey) or not MIN_BITS <= key.key_size <= MAX_BITS:
        raise errors(400, "You supplied invalid parameters to the request: public_key",
                     "invalid_parameters")


# -- the routes -----------------------------------------------------------------------------------

def respond(sandbox, method: str, path: str, params: dict, viewer) -> tuple | None:
    """The device flow's routes (None: not one of them)."""
    grants: DeviceGrants = sandbox.device_grants
    if not grants.enabled:
        return None
    if path == "/user-api-key/device.json" and method == "POST":
        grant = grants.create(params)
        address = f"{sandbox.url}/user-api-key/activate"
        return 200, {"device_code": grant.device_code, "user_code": grant.user_code,
                     "verification_uri": address,
                     "verification_uri_with_request": f"{address}?request={grant.request_token}",
                     "expires_in": TTL, "interval": grants.interval}, {}
    if path == "/user-api-key/device/poll.json" and method == "POST":
        return 200, grants.poll(str(params.get("device_code", ""))), {}
    if path in ("/user-api-key/activate", "/user-api-key/device/authorize",
                "/user-api-key/device/deny"):
        return _browser(sandbox, grants, method, path, params, viewer)
    return None


def _browser(sandbox, grants: DeviceGrants, method: str, path: str, params: dict, viewer):
    refused = not_signed_in(viewer)
    if refused:
        return refused
    if method == "GET":
        return 200, _enter_code(params.get("request", ""), viewer), {}
    if path == "/user-api-key/activate":
        grant = grants.by_user_code(str(params.get("code", "")))
        if grant is None:
            return 200, _enter_code(params.get("request", ""), viewer, wrong=True), {}
        return below_trust_level(sandbox.user_keys, viewer) or (200, _authorize(grant, viewer), {})
    grant = grants.by_approval(str(params.get("approval_token", "")))
    if grant is None:
        return 200, _enter_code("", viewer, wrong=True), {}
    if path == "/user-api-key/device/deny":
        grant.status = "denied"
        return 200, page("Denied", "<p>The application was not authorized.</p>"), {}
    made = sandbox.user_keys.grant(viewer, grant.params)
    grant.payload = encrypted_payload(grant.params["public_key"], {
        "key": made.key, "nonce": grant.params["nonce"], "push": False, "api": 4},
        grant.params.get("padding") or "pkcs1")
    grant.status, grant.authorized_at = "authorized", grants.seconds()
    return 200, page("Authorized", "<p>Done: return to the application.</p>"), {}


def _enter_code(request: str, viewer, *, wrong: bool = False) -> str:
    """The code's page, saying whom the browser is signed in as (Discourse's page shows the
    signed-in user in its header): the key will be that account's."""
    note = "<p id='wrong'>That code is wrong or has expired.</p>" if wrong else ""
    who = (f"<p id='signed-in'>Signed in as <b>@{html.escape(viewer.username)}</b>: the "
           "application will act as this account.</p>")
    return page("Activate an application", (
        f"{who}{note}<form method='post' action='/user-api-key/activate'>"
        f"<input type='hidden' name='request' value='{html.escape(str(request))}'>"
        "<label>Code <input id='code' name='code' autocomplete='off'></label>"
        "<button id='continue' type='submit'>Continue</button></form>"))


def _authorize(grant: Grant, viewer) -> str:
    scopes = ", ".join(html.escape(s) for s in str(grant.params["scopes"]).split(","))
    token = html.escape(grant.approval)
    buttons = "".join(
        f"<form method='post' action='/user-api-key/device/{action}'>"
        f"<input type='hidden' name='approval_token' value='{token}'>"
        f"<button id='{action}' type='submit'>{label}</button></form>"
        for action, label in (("authorize", "Authorize"), ("deny", "Deny")))
    return page("Authorize an application", (
        f"<p><b>{html.escape(str(grant.params['application_name']))}</b> asks to use the "
        f"account <b>@{html.escape(viewer.username)}</b>, to: {scopes}.</p>{buttons}"))

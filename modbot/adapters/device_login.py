"""Theory of operation: `modbot login` in Discourse's device flow (no payload to paste).

`offers_device_flow` asks `HEAD /user-api-key/new`: a forum that answers
`Auth-Api-Device-Code: true` has the flow (app/controllers/user_api_keys_controller.rb, `new`).
`start` POSTs the request (`/user-api-key/device.json`: the `KeyRequest`'s fields, OAEP padding)
and gets the address to open and the code to enter there (`DeviceLogin`). `wait_for_key` polls
`/user-api-key/device/poll.json` every `interval` seconds the forum named, until the host has
authorized (the payload, decrypted and its nonce checked as in the classic flow), denied, or the
request expired (ten minutes): each of the last two is a `UserKeyError` saying what to do.
The sleep and the clock are arguments, so a test waits no longer than it must.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests

from .user_key import KeyRequest, UserKeyError

TIMEOUT = 10.0  # seconds a request may take


@dataclass(frozen=True)
class DeviceLogin:
    device_code: str
    user_code: str
    address: str  # where the host enters the code (with the request's token, when given)
    interval: float
    expires_in: float


def offers_device_flow(forum_url: str) -> bool:
    try:
        answer = requests.head(f"{forum_url.rstrip('/')}/user-api-key/new", timeout=TIMEOUT,
                               allow_redirects=False)
    except requests.RequestException:
        return False  # the classic flow then says what is wrong, with its own address
    return answer.ok and answer.headers.get("Auth-Api-Device-Code", "").lower() == "true"


def start(forum_url: str, request: KeyRequest) -> DeviceLogin:
    data = _post(forum_url, "/user-api-key/device.json", {**request.fields(), "padding": "oaep"})
    try:
        return DeviceLogin(str(data["device_code"]), str(data["user_code"]),
                           str(data.get("verification_uri_with_request")
                               or data["verification_uri"]),
                           float(data.get("interval", 5)), float(data.get("expires_in", 600)))
    except (KeyError, TypeError, ValueError):
        raise UserKeyError("the forum's answer to the device request is not Discourse's: log "
                           "in with --classic") from None


def wait_for_key(forum_url: str, request: KeyRequest, login: DeviceLogin, *,
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> str:
    ends = clock() + login.expires_in
    while clock() < ends:
        sleep(login.interval)
        answer = _post(forum_url, "/user-api-key/device/poll.json",
                       {"device_code": login.device_code})
        status = answer.get("status")
        if status == "authorized":
            return request.key_from_payload(str(answer.get("payload", "")), "oaep")
        if status == "access_denied":
            raise UserKeyError("the request was denied on the forum: run `modbot login` again "
                               "and authorize it")
        if status == "expired_token":
            raise UserKeyError("the forum no longer knows this request (it expired, or its "
                               "authorization was not collected in time): run `modbot login` "
                               "again and authorize it")
        if status != "authorization_pending":
            raise UserKeyError(f"the forum answered {str(status)[:40]!r} to the device login: "
                               "run `modbot login` again, or log in with --classic")
    raise UserKeyError(f"the code was not entered within {int(login.expires_in // 60)} "
                       "minutes: run `modbot login` again")


def _post(forum_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    try:
        answer = requests.post(forum_url.rstrip("/") + path, json=body, timeout=TIMEOUT,
                               headers={"Accept": "application/json"})
    except requests.RequestException as exc:
        raise UserKeyError(f"cannot reach {forum_url} ({exc.__class__.__name__}): check the "
                           "address and try again") from None
    if answer.status_code == 429:
        raise UserKeyError("the forum is limiting these requests: wait a minute and try again")
    try:
        data = answer.json()
    except ValueError:
        data = None
    if not answer.ok or not isinstance(data, dict):
        raise UserKeyError(f"the forum refused the device request ({answer.status_code}): log "
                           "in with --classic")
    return data

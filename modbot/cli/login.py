"""What `modbot login` and `modbot logout` do (cli/arguments.py parses their arguments; the protocol is
adapters/user_key.py). One line on any error, never a traceback."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..adapters.user_key import KeyRequest


def login_command(args: argparse.Namespace) -> int:
    from ..adapters import device_login
    from ..adapters.forum import ForumClient, ForumError
    from ..adapters.user_key import KeyRequest, SavedKey, UserKeyError, save_key
    request = KeyRequest()
    try:
        if not args.classic and device_login.offers_device_flow(args.forum):
            key = _by_device(args.forum, request)
        else:
            key = _by_payload(args.forum, request)
    except UserKeyError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    client = ForumClient(args.forum, args.username or "", key, timeout=args.timeout,
                         user_api_client_id=request.client_id)
    try:
        account = client.current_user()
    except ForumError as exc:
        print(f"modbot: the forum refused the new key ({exc}): authorize again", file=sys.stderr)
        return 3
    name = str(account.get("username", ""))
    if args.username and name.casefold() != args.username.casefold():
        print(f"modbot: the key is @{name}'s, not @{args.username}'s: sign in as the bot's "
              "account and log in again", file=sys.stderr)
        return 2
    staff = "staff" if account.get("admin") or account.get("moderator") else \
        f"not staff, trust level {account.get('trust_level', '?')}"
    saved = SavedKey(args.forum.rstrip("/"), name, key, request.client_id)
    if args.print:
        print(f"User API key of @{name} ({staff}): MODBOT_USER_API_KEY={key} "
              f"MODBOT_USER_API_CLIENT_ID={request.client_id}")
        return 0
    try:
        path = save_key(args.key_file, saved)
    except UserKeyError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"modbot: cannot write {args.key_file} ({exc.strerror})", file=sys.stderr)
        return 2
    print(f"Logged in as @{name} ({staff}). The key is in {path} (readable by you only); put "
          f'user_api_key_file = "{_from_config(path, args.config)}" in {args.config}\'s '
          "[forum] table.")
    return 0


def _from_config(key_file: Path, config: str) -> str:
    """The key file's path as the configuration reads it: relative to the configuration's
    folder (where the daemon looks), absolute where no relative path reaches it."""
    try:
        return os.path.relpath(key_file.resolve(), Path(config).resolve().parent)
    except ValueError:  # another drive
        return str(key_file.resolve())


def _by_device(forum: str, request: KeyRequest) -> str:
    """Discourse's device flow: an address and a code for the host, then the forum's answer."""
    from ..adapters import device_login
    login = device_login.start(forum, request)
    print("Sign in to the forum as the bot's own account (never a Storyteller's), open this "
          f"address:\n\n{login.address}\n\nenter the code {login.user_code} and authorize "
          f"modbot. Waiting for the forum (up to {int(login.expires_in // 60)} minutes)...",
          flush=True)
    return device_login.wait_for_key(forum, request, login)


def _by_payload(forum: str, request: KeyRequest) -> str:
    """The classic flow: the host pastes the encrypted payload the forum shows."""
    print("Sign in to the forum as the bot's own account (never a Storyteller's), open this "
          "address, and authorize modbot:\n")
    print(request.authorize_url(forum) + "\n")
    print("Then paste the payload the forum shows, and an empty line:", flush=True)
    return request.key_from_payload(_pasted(sys.stdin))


def logout_command(args: argparse.Namespace) -> int:
    from ..adapters.forum import ForumError
    from .config import config_or_none
    config = config_or_none(args)
    if config is None:
        return 2
    if config.key_kind != "user" or config.key_file is None:
        print("modbot: this configuration uses an admin's API key: revoke it in the forum's "
              "admin panel (API)", file=sys.stderr)
        return 2
    try:
        config.forum_client()._post("/user-api-key/revoke")
    except ForumError as exc:
        print(f"modbot: the forum did not revoke the key ({exc})", file=sys.stderr)
        return 3
    Path(config.key_file).unlink(missing_ok=True)
    print(f"The key of @{config.username} is revoked and {config.key_file} removed.")
    return 0


def _pasted(stream: Iterable[str]) -> str:
    """Lines up to an empty one after some text (or the end of the input)."""
    lines: list[str] = []
    for line in stream:
        if not line.strip():
            if lines:
                break
            continue
        lines.append(line.strip())
    return "".join(lines)

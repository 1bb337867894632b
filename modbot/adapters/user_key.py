"""Theory of operation: a User API key for the bot's own account, without a forum admin.

`modbot login` makes a `KeyRequest`: a fresh RSA key pair (2048 bits), a client id and a
nonce. Where the forum offers the device flow (device_login.py) the host opens an address and
enters a code; otherwise (the classic flow) the host opens `authorize_url` signed in as the
bot's account and authorizes; the forum
shows an encrypted payload (app/controllers/user_api_keys_controller.rb: `{key, nonce, push,
api}` as JSON, RSA PKCS #1 v1.5, Base64), which `key_from_payload` decrypts with the private
key and checks: a payload for another request (its nonce not ours, or not decryptable with our
key) is refused with one line. The key is saved with its client id in a file only its owner
can read (mode 0600), which the configuration names (`user_api_key_file`). Requests then carry
`User-Api-Key` and `User-Api-Client-Id` (forum.py). The scopes asked are the fewest that run a
game: `write` (every read and post), `message_bus` (the forum's pushes) and `session_info`
(who the key's account is).
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import secrets
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

SCOPES = ("write", "message_bus", "session_info")
APPLICATION = "modbot"
RSA_BITS = 2048


class UserKeyError(ValueError):
    """A payload or key file that cannot be used; the message says what to do."""


@dataclass
class KeyRequest:
    client_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    nonce: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    private_key: rsa.RSAPrivateKey = field(
        default_factory=lambda: rsa.generate_private_key(public_exponent=65537, key_size=RSA_BITS))

    @property
    def public_pem(self) -> str:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()

    def fields(self) -> dict[str, str]:
        """What the forum is asked for: this application, its key pair's public half, the
        scopes and the nonce (both flows)."""
        return {"application_name": APPLICATION, "client_id": self.client_id,
                "scopes": ",".join(SCOPES), "nonce": self.nonce, "public_key": self.public_pem}

    def authorize_url(self, forum_url: str) -> str:
        query = urlencode(self.fields())
        return f"{forum_url.rstrip('/')}/user-api-key/new?{query}"

    def key_from_payload(self, payload: str, padding_mode: str = "pkcs1") -> str:
        """The key the payload holds, once decrypted (PKCS #1 v1.5, or OAEP with SHA-1 as
        the device flow asks) and its nonce checked."""
        scheme = padding.OAEP(padding.MGF1(hashes.SHA1()), hashes.SHA1(), None) \
            if padding_mode == "oaep" else padding.PKCS1v15()
        try:
            sealed = base64.b64decode("".join(payload.split()), validate=True)
        except (binascii.Error, ValueError):
            raise UserKeyError("what was pasted is not the forum's payload: paste the block of "
                               "letters and digits the forum shows after you authorize, whole, "
                               "then an empty line") from None
        try:
            data = json.loads(self.private_key.decrypt(sealed, scheme))
        except ValueError:
            raise UserKeyError("the payload does not open with this login's key (it was made "
                               "for another `modbot login`, or cut short): authorize at the "
                               "address printed above and paste that payload, whole") from None
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            raise UserKeyError("the payload holds no key: paste the forum's payload, whole")
        if data.get("nonce") != self.nonce:
            raise UserKeyError("the payload was made for another login (its nonce is not "
                               "this one's): authorize again with the address printed above")
        return str(data["key"])


@dataclass(frozen=True)
class SavedKey:
    forum_url: str
    username: str
    key: str
    client_id: str


def save_key(path: str | Path, saved: SavedKey) -> Path:
    """Write the key file, readable by its owner only (0600), replacing any earlier one.

    The key never enters an existing file: a new file is created beside it, exclusively and
    0600 from the start (`O_EXCL`: not a file or link someone left there), then renamed over
    the old one in one step, so a reader who had the old file open keeps reading the old
    text. A symbolic link at the path is refused (it would send the key elsewhere)."""
    path = Path(path)
    if path.is_symlink():
        raise UserKeyError(f"{path} is a symbolic link: give the key file's real path "
                           "(`--key-file`), or remove the link")
    text = json.dumps({"forum": saved.forum_url, "username": saved.username, "key": saved.key,
                       "client_id": saved.client_id, "kind": "user_api_key"}, indent=1)
    fresh = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        raise UserKeyError(f"{fresh} is in the way: remove it and log in again") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(fresh, path)
    except BaseException:
        fresh.unlink(missing_ok=True)
        raise
    return path


def load_key(path: str | Path) -> SavedKey:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserKeyError(f"{path}: cannot read the key file ({exc.strerror}): run `modbot "
                           "login` first") from None
    except json.JSONDecodeError:
        raise UserKeyError(f"{path}: not a key file `modbot login` wrote") from None
    if path.stat().st_mode & 0o077:
        raise UserKeyError(f"{path}: others can read this key file: `chmod 600 {path}`")
    try:
        return SavedKey(str(data["forum"]), str(data["username"]), str(data["key"]),
                        str(data["client_id"]))
    except (KeyError, TypeError):
        raise UserKeyError(f"{path}: not a key file `modbot login` wrote") from None

"""Uploads as Discourse stores them: `POST /uploads.json` and the files it serves.

Theory of operation: an upload is checked like Discourse's defaults (a `type` is required;
authorized extensions; `max_image_size_kb` = 4096; the file must be an image Pillow can read
for its size), then stored by SHA-1: the same bytes uploaded again return the same upload, as
Discourse does, so a client that retries after a lost answer never makes a second one. Its
JSON has Discourse's fields; `upload://BASE62.ext` (the SHA-1 in base 62) is the short URL a
post embeds, served at `/uploads/short-url/BASE62.ext` and `/uploads/default/original/1X/SHA1.ext`.
"""

from __future__ import annotations

import hashlib
import io
import string
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError

from .forum import ApiError, errors

AUTHORIZED = ("jpg", "jpeg", "png", "gif", "heic", "heif", "webp", "avif", "svg")
MAX_IMAGE_KB = 4096
TYPES = ("avatar", "profile_background", "card_background", "custom_emoji", "composer")
_BASE62 = string.digits + string.ascii_lowercase + string.ascii_uppercase
CONTENT_TYPES = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
                 "webp": "image/webp", "svg": "image/svg+xml"}


@dataclass
class Upload:
    id: int
    sha1: str
    filename: str
    extension: str
    data: bytes
    width: int
    height: int

    @property
    def base62(self) -> str:
        value, out = int(self.sha1, 16), ""
        while value:
            value, digit = divmod(value, 62)
            out = _BASE62[digit] + out
        return out or "0"

    @property
    def url(self) -> str:
        return f"/uploads/default/original/1X/{self.sha1}.{self.extension}"

    def json(self) -> dict:
        size = len(self.data)
        return {"id": self.id, "url": self.url, "original_filename": self.filename,
                "filesize": size, "width": self.width, "height": self.height,
                "thumbnail_width": self.width, "thumbnail_height": self.height,
                "extension": self.extension,
                "short_url": f"upload://{self.base62}.{self.extension}",
                "short_path": f"/uploads/short-url/{self.base62}.{self.extension}",
                "retain_hours": None, "human_filesize": _human(size), "dominant_color": None}


class Uploads:
    """The forum's uploads, by SHA-1 (the caller holds the forum's lock)."""

    def __init__(self) -> None:
        self.by_sha1: dict[str, Upload] = {}

    def create(self, params: dict) -> Upload:
        kind = params.get("type") or params.get("upload_type")
        file = params.get("file")
        if kind not in TYPES:
            raise errors(400, "param is missing or the value is empty: type", "invalid_parameters")
        if not isinstance(file, dict):
            raise errors(400, "param is missing or the value is empty: file", "invalid_parameters")
        filename, data = str(file.get("filename") or "upload"), bytes(file.get("content") or b"")
        extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
        if extension not in AUTHORIZED:
            raise _refused("Sorry, the file you are trying to upload is not authorized "
                           f"(authorized extensions: {', '.join(AUTHORIZED)}).")
        if len(data) > MAX_IMAGE_KB * 1024:
            raise _refused("Sorry, the file you are trying to upload is too big (maximum size "
                           f"is {MAX_IMAGE_KB // 1024} MB).")
        sha1 = hashlib.sha1(data).hexdigest()
        if sha1 in self.by_sha1:
            return self.by_sha1[sha1]
        width, height = _size(data)
        upload = Upload(len(self.by_sha1) + 1, sha1, filename, extension, data, width, height)
        self.by_sha1[sha1] = upload
        return upload

    def find(self, name: str) -> Upload | None:
        """By `SHA1.ext` or `BASE62.ext` (the two addresses a file is served at)."""
        stem = name.rsplit(".", 1)[0]
        return self.by_sha1.get(stem) or next(
            (u for u in self.by_sha1.values() if u.base62 == stem), None)


def _size(data: bytes) -> tuple[int, int]:
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except (UnidentifiedImageError, OSError) as exc:
        raise _refused("Sorry, the image you are trying to upload is not valid.") from exc


def _refused(message: str) -> ApiError:
    return ApiError(422, {"errors": [message]})


def _human(size: int) -> str:
    return f"{size} Bytes" if size < 1024 else f"{size / 1024:.1f} KB"

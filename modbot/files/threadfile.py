"""Read a thread export (what Discourse returns for a topic) into core `Post` values.

Accepted shapes: a topic object with `post_stream.posts`, a list of such objects (pages), or a
plain list of posts. Each post needs `post_number`, `username`, `created_at` and `raw`. Posts
that are not regular posts (`post_type` other than 1: small actions, moderator actions) carry
no player action and are skipped. Duplicates across pages are dropped by post number.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from ..core import Post

REGULAR_POST = 1


class ThreadFileError(ValueError):
    pass


def load_thread(path: str | Path) -> list[Post]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThreadFileError(f"{path}: cannot read ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise ThreadFileError(f"{path}: not JSON ({exc})") from exc
    return posts_from_json(data, str(path))


def posts_from_json(data: Any, where: str = "thread") -> list[Post]:
    items = list(raw_posts(data, where))
    posts: dict[int, Post] = {}
    for index, item in enumerate(items):
        post = _post(item, f"{where}: post {index + 1}")
        if post is not None:
            posts.setdefault(post.post_number, post)
    return [posts[n] for n in sorted(posts)]


def raw_posts(data: Any, where: str) -> Iterator[Any]:
    if isinstance(data, dict):
        stream = data.get("post_stream")
        if not isinstance(stream, dict) or not isinstance(stream.get("posts"), list):
            raise ThreadFileError(f"{where}: an object must have post_stream.posts")
        yield from stream["posts"]
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict) and "post_stream" in item:
                yield from raw_posts(item, where)
            else:
                yield item
    else:
        raise ThreadFileError(f"{where}: expected a topic object or a list")


def _post(item: Any, where: str) -> Post | None:
    if not isinstance(item, dict):
        raise ThreadFileError(f"{where}: not an object")
    if item.get("post_type", REGULAR_POST) != REGULAR_POST:
        return None
    missing = [k for k in ("post_number", "username", "created_at", "raw") if k not in item]
    if missing:
        hint = " (export the topic with include_raw=true)" if "raw" in missing else ""
        raise ThreadFileError(f"{where}: missing {', '.join(missing)}{hint}")
    try:
        created = datetime.fromisoformat(str(item["created_at"]))
    except ValueError:
        raise ThreadFileError(f"{where}: bad created_at {item['created_at']!r}") from None
    if created.tzinfo is None:
        raise ThreadFileError(f"{where}: created_at needs a time zone")
    return Post(int(item["post_number"]), str(item["username"]), created, str(item["raw"] or ""))

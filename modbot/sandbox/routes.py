"""The sandbox's endpoints, one small function each (discourse-api.md §3 and §9)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import silence
from .forum import ApiError, Forum, User, errors
from .shapes import CHUNK, latest_post_json, post_json, topic_json, topic_list_item, ts, user_json
from .uploads import CONTENT_TYPES

NOT_FOUND = "The requested URL or resource could not be found."
FORBIDDEN = "You are not permitted to view the requested resource."


@dataclass
class Request:
    forum: Forum
    user: User | None
    params: dict
    path: dict
    server: Any  # the SandboxServer or LocalSandbox answering (its uploads)

    def int_path(self, key: str) -> int:
        return int(self.path[key])

    def flag(self, key: str) -> bool:
        return key in self.params  # Discourse tests !!params[key]: any value counts

    def need_user(self) -> User:
        if self.user is None:
            raise errors(403, "You need to be logged in to do that.", "not_logged_in")
        return self.user

    def need_admin(self) -> User:
        user = self.need_user()
        if not user.admin:
            raise errors(403, FORBIDDEN, "invalid_access")
        return user


@dataclass
class Route:
    method: str
    pattern: re.Pattern
    label: str
    handler: Callable[[Request], tuple]


def _ok(body) -> tuple:
    return 200, body, {}


def _not_found() -> ApiError:
    return errors(404, NOT_FOUND, "not_found")


# -- users and keys ---------------------------------------------------------------------------

def create_user(req: Request):
    req.need_admin()
    username = str(req.params.get("username", "")).strip()
    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]{1,18}[A-Za-z0-9]", username):
        return 200, {"success": False, "message": "Username must be 3-20 letters, digits or "
                     "_.-", "errors": {"username": ["is invalid"]}}, {}
    user = req.forum.add_user(username, str(req.params.get("name", "")))
    return _ok({"success": True, "active": True, "user_id": user.id,
                "message": "Your account is activated and ready to use."})


def grant_moderation(req: Request):
    req.need_admin()
    user = next((u for u in req.forum.users.values() if u.id == req.int_path("id")), None)
    if user is None:
        raise _not_found()
    user.moderator = True
    return _ok({"admin_user": user_json(user)})


def _table(params: dict, name: str) -> dict:
    """A nested parameter (`key[username]` sent as JSON `{"key": {...}}`), or {}."""
    value = params.get(name)
    return value if isinstance(value, dict) else {}


def create_api_key(req: Request):
    req.need_admin()
    key_params = _table(req.params, "key")
    username = key_params.get("username") or req.params.get("key[username]")
    if not username or req.forum.user(str(username)) is None:
        raise errors(400, "You supplied invalid parameters to the request: key[username]",
                     "invalid_parameters")
    key = req.forum.new_user_key(str(username))
    user = req.forum.account(str(username))
    key_id = next(i for i, k in req.forum.key_ids.items() if k == key)
    return _ok({"key": {"id": key_id, "key": key, "truncated_key": key[:4],
                        "description": key_params.get("description", ""),
                        "user": {"id": user.id, "username": user.username}}})


def show_user(req: Request):
    user = req.forum.user(req.path["username"])
    if user is None:
        raise _not_found()
    return _ok({"user_badges": [], "user": user_json(user)})


def local_usernames(req: Request):
    """Which names are users (UsersController#is_local_username, app/controllers/
    users_controller.rb): `usernames[]` (or one `username`), answered with the lower-cased
    names of the accounts that exist in `valid`; the sandbox has no groups, so the group
    fields are empty."""
    names = req.params.get("usernames[]") or []
    if req.params.get("username"):
        names = [req.params["username"]]
    if not isinstance(names, list):
        raise errors(400, "param is missing or the value is empty: usernames",
                     "invalid_parameters")
    valid = [n.lower() for n in names if req.forum.user(n) is not None]
    return _ok({"valid": valid, "valid_groups": [], "mentionable_groups": [],
                "cannot_see": [], "max_users_notified_per_group_mention": 100})


def search_users(req: Request):
    """The composer's user search: usernames that start with the term (then contain it)."""
    term = str(req.params.get("term") or "").strip().lower()
    names = sorted(req.forum.users)
    found = [n for n in names if n.startswith(term)] + \
        [n for n in names if term in n and not n.startswith(term)]
    return _ok({"users": [{"username": req.forum.users[n].username,
                           "name": req.forum.users[n].name,
                           "avatar_template": f"/letter_avatar/{n}/{{size}}/1.png"}
                          for n in found[:20]]})


def current_session(req: Request):
    """SessionController#current: CurrentUserSerializer, whose `can_create_topic` is false
    while the account is silenced (silence.py)."""
    user = req.need_user()
    silenced = silence.is_silenced(user, req.forum.clock.now())
    me = {**user_json(user), "can_create_topic": not silenced}
    if silenced and user.silenced_till is not None:  # the account's own silence, and its end
        me["silenced_till"] = ts(user.silenced_till)
    return _ok({"current_user": me})


# -- topics and posts -------------------------------------------------------------------------

def show_topic(req: Request):
    forum, user = req.forum, req.user
    topic = forum.topic(req.int_path("id"), user)
    slug = req.path.get("slug")
    if slug and slug != topic.slug:
        return 301, {"errors": []}, {"Location": f"/t/{topic.slug}/{topic.id}.json"}
    visible = topic.visible_posts(username_filters=str(req.params.get("username_filters") or ""))
    number = req.path.get("number")
    if number:
        posts = _around(visible, int(number))
    else:
        page = int(req.params.get("page") or 1)
        if page > 1 and (page - 1) * CHUNK >= len(visible):
            last = max(1, -(-len(visible) // CHUNK))
            return 301, {"errors": []}, {"Location": f"/t/{topic.slug}/{topic.id}.json?page={last}"}
        posts = visible[(page - 1) * CHUNK: page * CHUNK]
    return _ok(topic_json(forum, topic, user, posts, raw=req.flag("include_raw")))


def _around(posts, number: int):
    index = next((i for i, p in enumerate(posts) if p.post_number >= number), len(posts))
    start = max(0, index - CHUNK // 4)
    window = posts[start:start + CHUNK]
    if len(window) < CHUNK:
        window = posts[max(0, len(posts) - CHUNK):]
    return window


def topic_posts(req: Request):
    forum, user = req.forum, req.user
    topic = forum.topic(req.int_path("id"), user)
    staff = bool(user and user.staff)
    posts = topic.visible_posts(staff=staff)
    ids = req.params.get("post_ids[]")
    if ids:
        wanted = {int(i) for i in (ids if isinstance(ids, list) else [ids]) if str(i).isdigit()}
        chosen = [p for p in posts if p.id in wanted]
    elif "post_number" in req.params:
        number = int(req.params["post_number"])
        if str(req.params.get("asc", "")).lower() in ("true", "1", "t", "on"):
            chosen = [p for p in posts if p.post_number > number][:CHUNK]
        else:
            chosen = list(reversed([p for p in posts if p.post_number < number]))[:CHUNK]
    else:
        chosen = posts[:CHUNK]
    raw = req.flag("include_raw")
    return _ok({"post_stream": {"posts": [post_json(forum, p, user, raw=raw) for p in chosen]},
                "id": topic.id})


def topic_post_ids(req: Request):
    """Every post id after `post_number` (TopicsController#post_ids: TopicView with
    `skip_limit`, deleted posts included for staff as its posts are, lib/topic_view.rb)."""
    topic = req.forum.topic(req.int_path("id"), req.user)
    after = int(req.params.get("post_number") or 0)
    staff = bool(req.user and req.user.staff)
    return _ok({"post_ids": [p.id for p in topic.visible_posts(staff=staff)
                             if p.post_number > after]})


def show_post(req: Request):
    forum, user = req.forum, req.user
    post = forum.posts.get(req.int_path("id"))
    if post is None or (post.deleted_at and not (user and user.staff)):
        raise _not_found()
    topic = forum.topics[post.topic_id]
    if not forum.can_see(topic, user):
        raise errors(403, FORBIDDEN, "invalid_access")
    out = post_json(forum, post, user, raw=True)
    version = req.params.get("version")
    if version and "raw" in out and str(version).isdigit() and 1 <= int(version) <= len(post.versions):
        out["raw"] = post.versions[int(version) - 1]
    out["post_url"] = f"/t/{topic.slug}/{topic.id}/{post.post_number}"
    out["posts_count"] = len(topic.visible_posts())
    return _ok(out)


def latest_posts(req: Request, private: bool):
    if private and req.user is None:
        raise _not_found()
    before = req.params.get("before")
    posts = req.forum.latest(req.user, private, int(before) if before else None)
    key = "private_posts" if private else "latest_posts"
    return _ok({key: [latest_post_json(req.forum, p, req.user) for p in posts]})


def create_post(req: Request):
    user = req.need_user()
    post = req.forum.create(user, dict(req.params))
    body = post_json(req.forum, post, user, raw=False)
    topic = req.forum.topics[post.topic_id]
    body.update({"draft_sequence": 0, "posts_count": len(topic.visible_posts()),
                 "post_url": f"/t/{topic.slug}/{topic.id}/{post.post_number}"})
    if req.flag("nested_post"):
        body = {"action": "create_post", "post": body, "success": True}
    return _ok(body)


def update_post(req: Request):
    """PostsController#update: staff find a deleted post too (`post.with_deleted if
    guardian.is_staff?`), so their edit of it succeeds; anyone else gets a 404."""
    user = req.need_user()
    post = req.forum.posts.get(req.int_path("id"))
    if post is None or (post.deleted_at and not user.staff):
        raise _not_found()
    if not (user.staff or user.username.lower() == post.username.lower()):
        raise errors(403, FORBIDDEN, "invalid_access")
    silence.check_edit(user, req.forum.clock.now())
    nested = _table(req.params, "post")
    raw = nested.get("raw", req.params.get("post[raw]"))
    if raw is None:
        raise errors(400, "You supplied invalid parameters to the request: post[raw]",
                     "invalid_parameters")
    reason = nested.get("edit_reason", req.params.get("post[edit_reason]", "")) or ""
    original = nested.get("original_text", req.params.get("post[original_text]"))
    req.forum.edit(post, user, str(raw), str(reason), original)
    return _ok({"post": post_json(req.forum, post, user, raw=True)})


def delete_post(req: Request):
    user = req.need_user()
    post = req.forum.posts.get(req.int_path("id"))
    if post is None or post.deleted_at:
        raise _not_found()
    req.forum.delete(post, user)
    return 200, "", {"Content-Type": "text/plain"}


def topic_status(req: Request):
    user = req.need_user()
    topic = req.forum.topic(req.int_path("id"), user)
    enabled = str(req.params.get("enabled", "")).lower() in ("true", "1", "t", "on")
    req.forum.set_status(topic, user, str(req.params.get("status", "")), enabled)
    return _ok({"success": "OK", "topic_status_update": None})


def private_messages(req: Request):
    user = req.need_user()
    username = req.path["username"]
    if not (user.admin or user.username.lower() == username.lower()):
        raise errors(403, FORBIDDEN, "invalid_access")
    topics = [t for t in req.forum.topics.values()
              if t.is_pm and username.lower() in {u.lower() for u in t.allowed}]
    topics.sort(key=lambda t: t.bumped_at or t.created_at, reverse=True)
    page = int(req.params.get("page") or 0)
    chunk = topics[page * 30:(page + 1) * 30]
    listing = {"can_create_topic": True, "per_page": 30,
               "topics": [topic_list_item(req.forum, t) for t in chunk]}
    if len(topics) > (page + 1) * 30:
        listing["more_topics_url"] = f"/topics/private-messages/{username}?page={page + 1}"
    return _ok({"users": [], "primary_groups": [], "topic_list": listing})


def latest_topics(req: Request):
    """`ListController#latest` through `TopicQuery` (lib/topic_query.rb): unlisted topics only
    for staff (`result.visible if … @user.regular?`), `topic_ids=1,2` keeps those topics,
    `per_page` (at most 100) and `page` (from 0) page them, `more_topics_url` when more follow."""
    per_page = min(max(int(req.params.get("per_page") or 30), 1), 100)
    staff = bool(req.user and req.user.staff)
    wanted = {int(i) for i in str(req.params.get("topic_ids") or "").split(",") if i.strip().isdigit()}
    topics = sorted((t for t in req.forum.topics.values() if not t.is_pm and (t.visible or staff)
                     and (not wanted or t.id in wanted)),
                    key=lambda t: t.bumped_at or t.created_at, reverse=True)
    page = max(int(req.params.get("page") or 0), 0)
    shown = topics[page * per_page:(page + 1) * per_page]
    listing = {"can_create_topic": True, "per_page": per_page,
               "topics": [topic_list_item(req.forum, t) for t in shown]}
    if len(topics) > (page + 1) * per_page:
        listing["more_topics_url"] = f"/latest?page={page + 1}&per_page={per_page}"
    return _ok({"users": [], "primary_groups": [], "topic_list": listing})


# -- uploads ----------------------------------------------------------------------------------

def create_upload(req: Request):
    req.need_user()
    return _ok(req.server.uploads.create(req.params).json())


def serve_upload(req: Request):
    upload = req.server.uploads.find(req.path["name"])
    if upload is None:
        raise _not_found()
    return 200, upload.data, {"Content-Type": CONTENT_TYPES.get(upload.extension,
                                                                 "application/octet-stream")}


def _r(method: str, path: str, handler) -> Route:
    """`path` uses {name} placeholders; `(.json)` marks an optional suffix."""
    regex = re.escape(path).replace(r"\(\.json\)", r"(?:\.json)?")
    regex = re.sub(r"\\\{(\w+)\\\}", lambda m: f"(?P<{m.group(1)}>[^/]+?)", regex)
    regex = regex.replace("(?P<id>[^/]+?)", r"(?P<id>\d+)").replace(
        "(?P<number>[^/]+?)", r"(?P<number>\d+)")
    return Route(method, re.compile(regex), f"{method} {path}", handler)


ROUTES = [
    _r("POST", "/users(.json)", create_user),
    _r("PUT", "/admin/users/{id}/grant_moderation(.json)", grant_moderation),
    _r("POST", "/admin/api/keys(.json)", create_api_key),
    _r("GET", "/u/is_local_username(.json)", local_usernames),
    _r("GET", "/u/{username}.json", show_user),
    _r("GET", "/users/{username}.json", show_user),
    _r("GET", "/session/current.json", current_session),
    _r("GET", "/u/search/users.json", search_users),
    _r("GET", "/t/{id}/posts(.json)", topic_posts),
    _r("GET", "/t/{id}/post_ids(.json)", topic_post_ids),
    _r("PUT", "/t/{id}/status(.json)", topic_status),
    _r("GET", "/t/{id}/{number}.json", show_topic),
    _r("GET", "/t/{slug}/{id}/{number}.json", show_topic),
    _r("GET", "/t/{slug}/{id}(.json)", show_topic),
    _r("GET", "/t/{id}(.json)", show_topic),
    _r("GET", "/posts/{id}(.json)", show_post),
    _r("PUT", "/posts/{id}(.json)", update_post),
    _r("DELETE", "/posts/{id}(.json)", delete_post),
    _r("GET", "/posts.json", lambda r: latest_posts(r, private=False)),
    _r("GET", "/private-posts.json", lambda r: latest_posts(r, private=True)),
    _r("POST", "/posts(.json)", create_post),
    _r("GET", "/topics/private-messages/{username}.json", private_messages),
    _r("GET", "/latest.json", latest_topics),
    _r("POST", "/uploads(.json)", create_upload),
    _r("GET", "/uploads/short-url/{name}", serve_upload),
    _r("GET", "/uploads/default/original/1X/{name}", serve_upload),
]

"""The sandbox's pages for people: a forum to rehearse in, in the browser.

Theory of operation: a browser's request (no `Api-Key` header, `text/html` accepted) for `/`,
`/t/…` or `/u/NAME/messages` gets a page; the forms post to `/_sandbox/web/…` and answer with a
redirect (post/redirect/get) or, when the forum refuses a post, the page again with Discourse's
reason and the text kept. Who is viewing is a cookie set by the "viewing as" switcher; pages show
only what that user may see, and posts are made as that user through the same `Forum` rules as
the API (lengths, limits, closed topics). The forum clock is shown on every page, with buttons
to jump to the next deadline (the earliest future `[date]` tag in a public post) or an hour on.
`/_sandbox/export/ID.json` downloads a topic as a thread file for `modbot replay`.
API requests never reach this module; the API behaves as before.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from urllib.parse import quote, unquote, urlsplit

import jinja2
from markupsafe import Markup

from ..bundled import folder
from .cook import countdowns, date_tags
from .forum import ApiError, Forum
from .models import Post, Topic, User
from .shapes import post_json

COOKIE = "modbot_sandbox_as"
# /t/ID, /t/ID/N (a post), /t/SLUG/ID, /t/SLUG/ID/N: a number first is the topic, as on Discourse
_TOPIC = re.compile(r"/t/(?:(\d+)(?:/(\d+))?|[^/]*[^/\d][^/]*/(\d+)(?:/(\d+))?)/?")
_MESSAGES = re.compile(r"/u/([^/]+)/messages/?")
_EXPORT = re.compile(r"/_sandbox/export/(\d+)\.json")
HTML = {"Content-Type": "text/html; charset=utf-8"}
# a small action's words, as Discourse's client shows them (config/locales/client.en.yml,
# `action_codes`: "Invited %{who}", "Removed %{who}", "Split this topic", ...)
_ACTIONS = {"closed.enabled": "closed this topic", "closed.disabled": "opened this topic",
            "archived.enabled": "archived this topic", "archived.disabled": "unarchived this topic",
            "visible.enabled": "listed this topic", "visible.disabled": "unlisted this topic",
            "split_topic": "split this topic", "invited_user": "invited {who}",
            "removed_user": "removed {who}", "user_left": "{who} removed themselves from this "
            "message"}

_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder("templates") / "sandbox")),
                          autoescape=True, trim_blocks=True, lstrip_blocks=True)


def wants_page(method: str, path: str, headers) -> bool:
    """A browser's request for a page or a form (never an API call)."""
    if path.startswith(("/_sandbox/web/", "/_sandbox/export/")):
        return True
    if method != "GET" or headers.get("Api-Key") or path.endswith(".json"):
        return False
    if "text/html" not in headers.get("Accept", ""):
        return False
    return path in ("/", "/index.html") or bool(_TOPIC.fullmatch(path) or _MESSAGES.fullmatch(path))


def respond(forum: Forum, method: str, path: str, params: dict, headers) -> tuple:
    """(status, body, headers) for a page or a form."""
    with forum.lock:
        viewer = _viewer(forum, headers.get("Cookie", ""))
        if method == "POST":
            return _form(forum, viewer, path, params)
        export = _EXPORT.fullmatch(path)
        if export:
            return _export(forum, viewer, int(export.group(1)))
        topic = _TOPIC.fullmatch(path)
        if topic:
            return _topic_page(forum, viewer, int(topic.group(1) or topic.group(3)),
                               only=str(params.get("username_filters") or ""))
        messages = _MESSAGES.fullmatch(path)
        if messages:
            return _messages_page(forum, viewer, unquote(messages.group(1)))
        if path in ("/", "/index.html"):
            return 200, _page(forum, viewer, "index.html.j2", topics=_public_topics(forum)), HTML
        return _not_found(forum, viewer)


# -- pages ------------------------------------------------------------------------------------

def _topic_page(forum: Forum, viewer: User | None, topic_id: int, *, error: str = "",
                draft: str = "", status: int = 200, only: str = "") -> tuple:
    topic = forum.topics.get(topic_id)
    if topic is None or not forum.can_see(topic, viewer):
        return _not_found(forum, viewer)
    posts = [_shown(forum, post) for post in topic.visible_posts(username_filters=only)]
    return status, _page(forum, viewer, "topic.html.j2", topic=topic, posts=posts, error=error,
                         draft=draft, can_post=_can_post(topic, viewer)), HTML


def _messages_page(forum: Forum, viewer: User | None, username: str, *, error: str = "",
                   draft: dict | None = None, status: int = 200) -> tuple:
    owner = forum.user(username)
    if owner is None or viewer is None or not (viewer.admin or viewer.id == owner.id):
        return _not_found(forum, viewer)
    topics = sorted((t for t in forum.topics.values() if t.is_pm and owner.username.lower()
                     in {u.lower() for u in t.allowed}),
                    key=lambda t: t.bumped_at or t.created_at, reverse=True)
    return status, _page(forum, viewer, "messages.html.j2", owner=owner, topics=topics,
                         error=error, draft=draft or {}), HTML


def _not_found(forum: Forum, viewer: User | None) -> tuple:
    return 404, _page(forum, viewer, "not_found.html.j2"), HTML


def _page(forum: Forum, viewer: User | None, template: str, **values) -> str:
    now = forum.clock.now()
    return _ENV.get_template(template).render(
        viewer=viewer, users=sorted(forum.users.values(), key=lambda u: u.username.lower()),
        now=now, next_deadline=next_deadline(forum, now), **values)


def _action(post: Post) -> str | None:
    """A small action in words (the user it names where it names one); None for a post."""
    if not post.action_code:
        return None
    words = _ACTIONS.get(post.action_code, post.action_code.replace("_", " ").replace(".", " "))
    return words.replace("{who}", f"@{post.action_code_who}" if post.action_code_who else "someone")


def _shown(forum: Forum, post: Post) -> dict:
    author = forum.user(post.username)
    return {"number": post.post_number, "username": post.username, "at": post.created_at,
            "staff": bool(author and author.staff), "hue": sum(map(ord, post.username.lower())) * 37 % 360,
            "action": _action(post),
            "edited": post.version > 1, "cooked": Markup(countdowns(post.cooked, forum.clock.now()))}


def _public_topics(forum: Forum) -> list[Topic]:
    return sorted((t for t in forum.topics.values() if not t.is_pm and t.visible),
                  key=lambda t: t.bumped_at or t.created_at, reverse=True)


def _can_post(topic: Topic, viewer: User | None) -> bool:
    return viewer is not None and (viewer.staff or not (topic.closed or topic.archived))


def next_deadline(forum: Forum, now: datetime) -> datetime | None:
    """The earliest time after `now` named by a [date] tag in each thread's newest word on it:
    the public post last written (or edited) that names a time to come. An earlier post's
    dates are a plan a later one may have moved (the opening post's schedule, after a dawn
    that came late), so the newest post that names one decides, in each public thread."""
    ahead = []
    for topic in forum.topics.values():
        if topic.is_pm:
            continue
        naming = [(post.updated_at or post.created_at, post.post_number, moments)
                  for post in topic.visible_posts()
                  if (moments := [m for m in date_tags(post.raw) if m > now])]
        if naming:
            ahead.append(min(max(naming, key=lambda n: n[:2])[2]))
    return min(ahead, default=None)


# -- forms ------------------------------------------------------------------------------------

def _form(forum: Forum, viewer: User | None, path: str, params: dict) -> tuple:
    action = path.removeprefix("/_sandbox/web/")
    back = _safe_back(str(params.get("back") or "/"))
    if action == "view":
        return _redirect(back, _view_cookie(forum, str(params.get("as") or "")))
    if action == "clock":
        _move_clock(forum, str(params.get("to") or ""))
        return _redirect(back)
    if action == "post" and viewer is not None:
        return _reply(forum, viewer, params)
    if action == "message" and viewer is not None:
        return _new_message(forum, viewer, params)
    return _not_found(forum, viewer)


def _reply(forum: Forum, viewer: User, params: dict) -> tuple:
    topic_id = int(params.get("topic_id") or 0)
    raw = str(params.get("raw") or "")
    try:
        post = forum.create(viewer, {"topic_id": topic_id, "raw": raw}, api=False)
    except ApiError as exc:
        return _topic_page(forum, viewer, topic_id, error=_reason(exc), draft=raw, status=422)
    topic = forum.topics[post.topic_id]
    return _redirect(f"/t/{topic.slug}/{topic.id}/{post.post_number}#post_{post.post_number}")


def _new_message(forum: Forum, viewer: User, params: dict) -> tuple:
    draft = {k: str(params.get(k) or "") for k in ("to", "title", "raw")}
    recipients = ",".join(n.strip().lstrip("@") for n in draft["to"].split(",") if n.strip())
    try:
        post = forum.create(viewer, {"archetype": "private_message", "raw": draft["raw"],
                                     "title": draft["title"], "target_recipients": recipients},
                            api=False)
    except ApiError as exc:
        return _messages_page(forum, viewer, viewer.username, error=_reason(exc), draft=draft,
                              status=422)
    return _redirect(f"/t/{post.topic_id}")


def _move_clock(forum: Forum, to: str) -> None:
    now = forum.clock.now()
    target = next_deadline(forum, now) if to == "deadline" else \
        now + timedelta(hours=1) if to == "hour" else None
    if target is not None:
        forum.clock.advance_to(target)


def _export(forum: Forum, viewer: User | None, topic_id: int) -> tuple:
    topic = forum.topics.get(topic_id)
    if topic is None or not forum.can_see(topic, viewer):
        return _not_found(forum, viewer)
    return 200, json.dumps(export_topic(forum, topic), indent=1, ensure_ascii=False), {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": f'attachment; filename="{topic.slug}-{topic.id}.json"'}


def export_topic(forum: Forum, topic: Topic) -> dict:
    """A topic as a thread file (`modbot replay`): Discourse's topic shape, raw included."""
    return {"id": topic.id, "title": topic.title, "post_stream": {"posts": [
        post_json(forum, post, None, raw=True) for post in topic.visible_posts()]}}


def _reason(exc: ApiError) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    found = body.get("errors") or [body.get("message") or "The forum refused the post."]
    return " ".join(str(e) for e in found)


def _view_cookie(forum: Forum, name: str) -> str:
    user = forum.user(name)
    value = quote(user.username) if user else ""
    return f"{COOKIE}={value}; Path=/; SameSite=Lax" + ("" if user else "; Max-Age=0")


def viewer_of(forum: Forum, cookie: str) -> User | None:
    """Who a browser is viewing as (the switcher's cookie), if anyone."""
    return _viewer(forum, cookie)


def _viewer(forum: Forum, cookie: str) -> User | None:
    for part in cookie.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and value:
            return forum.user(unquote(value))
    return None


def _safe_back(url: str) -> str:
    """Only a path on this site: never another site's address (`//host`, and `/\\host`, which
    browsers read as `//host`), never a control character (a CR or LF would end the Location
    header and start another: a header injection). Anything else goes back to the front page,
    as Discourse keeps its own redirects on the site (lib/url_helper.rb, `is_local`)."""
    if not url.startswith("/") or url.startswith(("//", "/\\")) or "\\" in url:
        return "/"
    if any(ord(c) < 0x20 or ord(c) == 0x7F or c.isspace() for c in url):
        return "/"
    parts = urlsplit(url)
    return url if not parts.scheme and not parts.netloc else "/"


def _redirect(location: str, cookie: str | None = None) -> tuple:
    headers = {"Location": location, "Content-Type": "text/html; charset=utf-8"}
    if cookie:
        headers["Set-Cookie"] = cookie
    return 303, "", headers

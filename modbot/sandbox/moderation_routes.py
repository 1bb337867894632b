"""The endpoints of `moderation.py`'s actions, and the look-ups that find users by id.

Each answers with the shape of Discourse's controller (named in `moderation.py`); routes and
parameters are Discourse's (config/routes.rb). `GET /user-cards.json?user_ids=1,2` is
`UsersController#cards`: up to 50 users by id in one request, as user cards (more than 50:
400 invalid parameters).
"""

from __future__ import annotations

from . import moderation, silence
from .forum import errors, parse_time
from .routes import Request, Route, _not_found, _ok, _r
from .shapes import user_json

MAX_CARDS = 50


def _ids(value) -> list[int]:
    values = value if isinstance(value, list) else str(value or "").split(",")
    return [int(v) for v in values if str(v).strip().isdigit()]


def _user(req: Request, key: str = "id"):
    user = moderation.user_by_id(req.forum, req.int_path(key))
    if user is None:
        raise _not_found()
    return user


def change_username(req: Request):
    actor = req.need_user()
    target = req.forum.user(req.path["username"])
    if target is None:
        raise _not_found()
    user = moderation.rename(req.forum, actor, target, str(req.params.get("new_username", "")))
    return _ok({"id": user.id, "username": user.username})


def move_posts(req: Request):
    actor = req.need_user()
    destination = int(req.params.get("destination_topic_id") or 0)
    moved_to = moderation.move_posts(req.forum, actor, req.int_path("id"),
                                     _ids(req.params.get("post_ids[]")), destination)
    topic = req.forum.topics[moved_to]
    return _ok({"success": "OK", "url": f"/t/{topic.slug}/{topic.id}"})


def flag_post(req: Request):
    moderation.flag(req.forum, req.need_user(), int(req.params.get("id") or 0),
                    int(req.params.get("post_action_type_id") or 0),
                    str(req.params.get("take_action", "")).lower() == "true")
    return _ok({"success": "OK"})


def unhide_post(req: Request):
    moderation.unhide(req.forum, req.need_user(), req.int_path("id"))
    return _ok({"success": "OK"})


def invite(req: Request):
    actor = req.need_user()
    user = moderation.invite(req.forum, actor, req.int_path("id"),
                             str(req.params.get("user") or req.params.get("usernames") or ""))
    return _ok({"user": {"id": user.id, "username": user.username}})


def remove_allowed(req: Request):
    moderation.remove_allowed(req.forum, req.need_user(), req.int_path("id"),
                              str(req.params.get("username", "")))
    return _ok({"success": "OK"})


def revoke_key(req: Request):
    req.need_admin()
    return _ok(moderation.revoke_key(req.forum, req.int_path("id")))


def undo_revoke_key(req: Request):
    req.need_admin()
    return _ok(moderation.revoke_key(req.forum, req.int_path("id"), revoked=False))


def revoke_moderation(req: Request):
    req.need_admin()
    return _ok({"admin_user": user_json(moderation.revoke_moderation(req.forum, _user(req)))})


def silence_user(req: Request):
    """Admin::UsersController#silence: staff silence a non-staff account until
    `silenced_till` (the forum's clock; silence.py)."""
    actor = req.need_user()
    till = parse_time(req.params.get("silenced_till"))
    if till is None:
        raise errors(400, "You supplied invalid parameters to the request: silenced_till",
                     "invalid_parameters")
    return _ok(silence.silence(actor, _user(req, "user_id"), till))


def unsilence_user(req: Request):
    return _ok(silence.unsilence(req.need_user(), _user(req, "user_id")))


def slow_mode(req: Request):
    """TopicsController#set_slow_mode: staff set a topic's `seconds` between a user's posts (0:
    off); see limits.py."""
    topic = req.forum.topic(req.int_path("id"), req.need_user())
    req.forum.write_limits.set_slow_mode(req.need_user(), topic, int(req.params.get("seconds")
                                                                     or 0))
    return _ok({"success": "OK"})


def user_cards(req: Request):
    ids = _ids(req.params.get("user_ids"))
    if not ids or len(ids) > MAX_CARDS:
        raise errors(400, "You supplied invalid parameters to the request: user_ids",
                     "invalid_parameters")
    users = [u for u in req.forum.users.values() if u.id in set(ids)]
    return _ok({"users": [user_json(u) for u in sorted(users, key=lambda u: u.id)]})


ROUTES: list[Route] = [
    _r("PUT", "/u/{username}/preferences/username(.json)", change_username),
    _r("POST", "/t/{id}/move-posts(.json)", move_posts),
    _r("POST", "/t/{id}/invite(.json)", invite),
    _r("POST", "/post_actions(.json)", flag_post),
    _r("PUT", "/posts/{id}/unhide(.json)", unhide_post),
    _r("PUT", "/t/{id}/remove-allowed-user(.json)", remove_allowed),
    _r("POST", "/admin/api/keys/{id}/revoke(.json)", revoke_key),
    _r("POST", "/admin/api/keys/{id}/undo-revoke(.json)", undo_revoke_key),
    _r("PUT", "/admin/users/{id}/revoke_moderation(.json)", revoke_moderation),
    _r("GET", "/user-cards.json", user_cards),
    _r("PUT", "/t/{id}/slow_mode(.json)", slow_mode),
    _r("PUT", "/admin/users/{user_id}/silence(.json)", silence_user),
    _r("PUT", "/admin/users/{user_id}/unsilence(.json)", unsilence_user),
]

"""Theory of operation: a moderator silences an account, as Discourse does.

`PUT /admin/users/{id}/silence` (Admin::UsersController#silence: `silenced_till`, `reason`)
and `PUT /admin/users/{id}/unsilence`; only staff may, and a staff account cannot be silenced
(Guardian#can_silence_user?, lib/guardian/user_guardian.rb). Until `silenced_till` (the
forum's clock) the account, as lib/guardian/post_guardian.rb has it:

- may not post in a public topic (`can_create_post_in_topic?`: `SpamRule::AutoSilence.
  prevent_posting?` is true, and the topic is not a private message it is in): PostCreator
  refuses with `topic_not_found` (422, "Something has gone wrong...");
- may not open a public topic (TopicCreator: `ensure_can_create!(Topic)`, 403);
- may open a private message only to staff (Guardian#can_send_private_message?: a silenced
  user may write to staff only): TopicCreator refuses with `cant_send_pm` (422);
- may still reply in a private message it is in (the exception above);
- may not edit its own posts (`can_edit_post?`: `return false if @user.silenced?`):
  PostsController#update answers 403.

What the account reads of itself: `/session/current.json`'s `can_create_topic`
(CurrentUserSerializer: `scope.can_create_topic?(nil)`, false while silenced) and a public
topic's `details.can_create_post` (TopicViewDetailsSerializer, false while silenced).
"""

from __future__ import annotations

from datetime import datetime

from .errors import create_error, errors
from .models import Topic, User

FORBIDDEN = "You are not permitted to view the requested resource."
CANT_SEND_PM = "Sorry, you cannot send a personal message to that user."
TOPIC_NOT_FOUND = ("Something has gone wrong. Perhaps this topic was closed or deleted while "
                   "you were looking at it?")


def is_silenced(user: User | None, now: datetime) -> bool:
    return bool(user and not user.staff and user.silenced_till and user.silenced_till > now)


def can_post_in(user: User | None, topic: Topic, now: datetime) -> bool:
    """Guardian#can_create_post_in_topic?'s silence clause."""
    if not is_silenced(user, now):
        return True
    return topic.is_pm and user is not None and \
        user.username.lower() in {u.lower() for u in topic.allowed}


def check_reply(user: User, topic: Topic, now: datetime) -> None:
    if not can_post_in(user, topic, now):
        raise create_error(TOPIC_NOT_FOUND)


def check_new_topic(user: User, recipients: list[User], is_pm: bool, now: datetime) -> None:
    if not is_silenced(user, now):
        return
    if not is_pm:
        raise errors(403, FORBIDDEN, "invalid_access")
    if any(not r.staff for r in recipients):
        raise create_error(CANT_SEND_PM)


def check_edit(user: User, now: datetime) -> None:
    if is_silenced(user, now):
        raise errors(403, FORBIDDEN, "invalid_access")


def silence(actor: User, target: User, till: datetime) -> dict:
    """Admin::UsersController#silence (its answer's shape)."""
    if not actor.staff or target.staff:
        raise errors(403, FORBIDDEN, "invalid_access")
    target.silenced_till = till
    return {"silence": {"silenced": True, "silenced_till": till.isoformat().replace(
        "+00:00", "Z"), "silenced_by": {"id": actor.id, "username": actor.username}}}


def unsilence(actor: User, target: User) -> dict:
    if not actor.staff:
        raise errors(403, FORBIDDEN, "invalid_access")
    target.silenced_till = None
    return {"unsilence": {"silenced": False, "silenced_till": None}}

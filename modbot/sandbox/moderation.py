"""What users and staff do to a live forum besides posting, with Discourse's semantics.

Theory of operation: each function is one Discourse action on the sandbox's `Forum`, taken
from Discourse's own source (the file is named in each docstring), under the forum's lock:
- `rename`: `UsernameChanger.change` (app/services/username_changer.rb) and the job it queues,
  `Jobs::UpdateUsername` (app/jobs/regular/update_username.rb): the user keeps their id; every
  post they wrote shows the new name (a post belongs to a user id); `@old` mentions and
  `[quote="old, …"]` quotes in every post's raw become the new name (`QuoteRewriter`,
  app/services/quote_rewriter.rb); PM participant lists follow. Allowed to the user themself
  and to staff (`Guardian#can_edit_username?`, lib/guardian/user_guardian.rb).
- `move_posts`: `PostMover#to_topic` (app/models/post_mover.rb) into an existing topic: each
  moved reply keeps its id and `created_at` and takes the destination's next post number (a
  first post is copied: a new post, the same raw and time); the source topic gets a
  `split_topic` small action. Staff only (`Guardian#can_move_posts?`).
- `invite`: `TopicsController#invite` and `Topic#invite` (app/models/topic.rb): a participant
  of a PM (or staff) adds a user; the conversation gets an `invited_user` small action naming
  them (`action_code_who`).
- `remove_allowed`: `TopicsController#remove_allowed_user` (staff): a `removed_user` small
  action.
- `revoke_key` / `restore_key`: `Admin::ApiController#revoke_key` and `#undo_revoke_key`
  (app/controllers/admin/api_controller.rb): a revoked key answers 403 on every request.
- `revoke_moderation`: `Admin::UsersController#revoke_moderation`.
- `flag` / `unhide`: `PostActionsController#create` with a flag type (lib/post_action_creator.rb,
  `auto_hide_if_needed`): a post is hidden (`Post#hide!`, app/models/post.rb) when a staff
  member flags it taking action, or when its flags' score reaches what hides a post (here
  `FLAGS_TO_HIDE` distinct flaggers, the score three regular users' flags give at the default
  `hide_post_sensitivity`); `PostsController#unhide` (staff) shows it again. While hidden, its
  words go only to staff and its author (`PostSerializer#include_raw?`: shapes.py).
"""

from __future__ import annotations

import re

from .forum import ApiError, Forum, User, errors

FORBIDDEN = "You are not permitted to view the requested resource."
FLAG_TYPES = (3, 4, 7, 8)  # off topic, inappropriate, notify moderators, spam
FLAGS_TO_HIDE = 3
USERNAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{1,18}[A-Za-z0-9]")


def forbidden() -> ApiError:
    return errors(403, FORBIDDEN, "invalid_access")


def user_by_id(forum: Forum, user_id: int) -> User | None:
    return next((u for u in forum.users.values() if u.id == user_id), None)


def rename(forum: Forum, actor: User, target: User, new_username: str) -> User:
    """`PUT /u/{username}/preferences/username` with `new_username`."""
    if actor.id != target.id and not actor.staff:
        raise forbidden()
    if not USERNAME.fullmatch(new_username):
        raise ApiError(422, {"success": False, "errors": ["Username must be 3-20 letters, "
                                                          "digits or _.-"]})
    with forum.lock:
        holder = forum.user(new_username)
        if holder is not None and holder.id != target.id:
            raise ApiError(422, {"success": False, "errors": ["Username must be unique"]})
        old = target.username
        del forum.users[old.lower()]
        target.username = new_username
        forum.users[new_username.lower()] = target
        for key, owner in forum.user_keys.items():
            if owner.lower() == old.lower():
                forum.user_keys[key] = new_username
        for post in forum.posts.values():
            if post.username.lower() == old.lower():
                post.username = new_username
            rewritten = rewrite_mentions(post.raw, old, new_username)
            if rewritten != post.raw:
                post.raw = rewritten
                post.versions[-1] = rewritten  # the job rewrites in place: no new revision
        for topic in forum.topics.values():
            topic.allowed = [new_username if n.lower() == old.lower() else n
                             for n in topic.allowed]
        return target


def rewrite_mentions(raw: str, old: str, new: str) -> str:
    """`Jobs::UpdateUsername`'s raw rewrite: `@old` where it is a whole mention, and the
    username in `[quote="old, post:…"]` (QuoteRewriter#rewrite_raw_username)."""
    name = re.escape(old)
    mention = re.compile(rf"(?<![\w`])@{name}(?=[^\w\-.]|[\-.](?:\s|$)|$)", re.IGNORECASE)
    raw = mention.sub(f"@{new}", raw)
    quote = re.compile(rf"(\[quote\s*=\s*[\"']?){name}(,?[^\]]*\])", re.IGNORECASE)
    return quote.sub(lambda m: f"{m.group(1)}{new}{m.group(2)}", raw)


def move_posts(forum: Forum, actor: User, source_id: int, post_ids: list[int],
               destination_id: int) -> int:
    """`POST /t/{id}/move-posts` with `post_ids[]` and `destination_topic_id`; returns the
    destination topic's id."""
    if not actor.staff:
        raise forbidden()
    with forum.lock:
        source = forum.topics.get(source_id)
        destination = forum.topics.get(destination_id)
        if source is None or destination is None:
            raise errors(404, "The requested URL or resource could not be found.", "not_found")
        moving = [p for p in source.posts if p.id in set(post_ids)]
        if not moving:
            raise errors(400, "You supplied invalid parameters to the request: post_ids",
                         "invalid_parameters")
        for post in sorted(moving, key=lambda p: p.post_number):
            if post.post_number == 1:  # the first post is copied, never moved
                forum.append(destination, post.username, post.raw, post.created_at)
                continue
            source.posts.remove(post)
            post.topic_id = destination.id
            post.post_number = destination.posts[-1].post_number + 1 if destination.posts else 1
            destination.posts.append(post)
        forum.append(source, actor.username, "", forum.clock.now(), post_type=3,
                     action_code="split_topic")
        return destination.id


def invite(forum: Forum, actor: User, topic_id: int, username: str) -> User:
    """`POST /t/{id}/invite` with `user` (a PM: the invitee becomes a participant)."""
    with forum.lock:
        topic = forum.topic(topic_id, actor)
        invitee = forum.user(username)
        if invitee is None:
            raise errors(422, "One of the users you are sending this message to could not be "
                              "found.")
        if not topic.is_pm:
            raise forbidden()
        if all(n.lower() != invitee.username.lower() for n in topic.allowed):
            topic.allowed.append(invitee.username)
            post = forum.append(topic, actor.username, "", forum.clock.now(), post_type=3,
                                action_code="invited_user")
            post.action_code_who = invitee.username
        return invitee


def remove_allowed(forum: Forum, actor: User, topic_id: int, username: str) -> None:
    """`PUT /t/{id}/remove-allowed-user` with `username`: staff, the conversation's creator at
    trust level 2 or more, or someone leaving it who did not open it
    (lib/guardian/topic_guardian.rb, `can_remove_allowed_users?`)."""
    with forum.lock:
        topic = forum.topic(topic_id, actor)
        creator = topic.user_id == actor.id
        leaving = username.lower() == actor.username.lower() and not creator and \
            len(topic.allowed) > 1
        if not (actor.staff or (creator and actor.trust_level >= 2) or leaving):
            raise forbidden()
        before = len(topic.allowed)
        topic.allowed = [n for n in topic.allowed if n.lower() != username.lower()]
        if len(topic.allowed) != before:
            post = forum.append(topic, actor.username, "", forum.clock.now(), post_type=3,
                                action_code="removed_user")
            post.action_code_who = username


def revoke_key(forum: Forum, key_id: int, revoked: bool = True) -> dict:
    """`POST /admin/api/keys/{id}/revoke` (and `undo-revoke`)."""
    with forum.lock:
        key = forum.key_ids.get(key_id)
        if key is None:
            raise errors(404, "The requested URL or resource could not be found.", "not_found")
        (forum.revoked_keys.add if revoked else forum.revoked_keys.discard)(key)
        owner = forum.user_keys[key]
        return {"key": {"id": key_id, "truncated_key": key[:4], "revoked": revoked,
                        "user": {"username": owner}}}


def revoke_moderation(forum: Forum, user: User) -> User:
    """`PUT /admin/users/{id}/revoke_moderation`."""
    with forum.lock:
        user.moderator = False
        return user


def flag(forum: Forum, actor: User, post_id: int, type_id: int, take_action: bool) -> None:
    """`POST /post_actions` with `id` and `post_action_type_id` (a flag)."""
    with forum.lock:
        post = forum.posts.get(post_id)
        if post is None:
            raise errors(404, "The requested URL or resource could not be found.", "not_found")
        if type_id not in FLAG_TYPES or post.username.lower() == actor.username.lower():
            raise forbidden()
        flaggers = forum.flags.setdefault(post_id, set())
        if actor.id in flaggers:
            raise errors(403, "You already performed this action", "invalid_access")
        flaggers.add(actor.id)
        if (take_action and actor.staff) or len(flaggers) >= FLAGS_TO_HIDE:
            post.hidden = True


def unhide(forum: Forum, actor: User, post_id: int) -> None:
    """`PUT /posts/{id}/unhide` (staff)."""
    if not actor.staff:
        raise forbidden()
    with forum.lock:
        post = forum.posts.get(post_id)
        if post is None:
            raise errors(404, "The requested URL or resource could not be found.", "not_found")
        post.hidden = False
        forum.flags.pop(post_id, None)

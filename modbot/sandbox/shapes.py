"""Discourse's JSON shapes for posts, topics and lists (see discourse-api.md §3)."""

from __future__ import annotations

from datetime import UTC, datetime

from . import silence
from .forum import Forum, Post, Topic, User

CHUNK = 20


def ts(at: datetime | None) -> str | None:
    """ISO-8601 UTC with milliseconds and Z, as Discourse writes timestamps."""
    if at is None:
        return None
    at = at.astimezone(UTC)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


def post_json(forum: Forum, post: Post, viewer: User | None, *, raw: bool) -> dict:
    topic = forum.topics[post.topic_id]
    author = forum.user(post.username)
    staff = bool(author and author.staff)
    out = {
        "id": post.id,
        "name": author.name if author else post.username,
        "username": post.username,
        "avatar_template": f"/letter_avatar/{post.username.lower()}/{{size}}/1.png",
        "created_at": ts(post.created_at),
        "cooked": post.cooked,
        "post_number": post.post_number,
        "post_type": post.post_type,
        "updated_at": ts(post.updated_at),
        "reply_count": 0,
        "reply_to_post_number": post.reply_to_post_number,
        "quote_count": 0,
        "incoming_link_count": 0,
        "reads": 1,
        "readers_count": 0,
        "score": 0,
        "yours": bool(viewer and viewer.username.lower() == post.username.lower()),
        "topic_id": topic.id,
        "topic_slug": topic.slug,
        "display_username": author.name if author else post.username,
        "primary_group_name": None,
        "flair_name": None,
        "flair_url": None,
        "flair_bg_color": None,
        "flair_color": None,
        "version": post.version,
        "can_edit": bool(viewer and (viewer.staff or viewer.username.lower() == post.username.lower())),
        "can_delete": bool(viewer and viewer.staff),
        "can_recover": bool(viewer and viewer.staff),
        "can_see_hidden_post": bool(viewer and viewer.staff),
        "can_wiki": bool(viewer and viewer.staff),
        "read": True,
        "user_title": None,
        "bookmarked": False,
        "actions_summary": [],
        "moderator": bool(author and author.moderator),
        "admin": bool(author and author.admin),
        "staff": staff,
        "user_id": author.id if author else -1,
        "hidden": post.hidden,
        "trust_level": author.trust_level if author else 0,
        "deleted_at": ts(post.deleted_at),
        "user_deleted": post.user_deleted,
        "edit_reason": None,
        "can_view_edit_history": True,
        "wiki": False,
        "reviewable_id": None,
        "link_counts": [],
        "reviewable_score_count": 0,
        "reviewable_score_pending_count": 0,
    }
    if post.action_code:
        out["action_code"] = post.action_code
    if post.action_code_who:
        out["action_code_who"] = post.action_code_who
    hidden_from_viewer = post.hidden and not (viewer and (viewer.staff or out["yours"]))
    if hidden_from_viewer:  # BasicPostSerializer#cooked_hidden, PostSerializer#include_raw?
        out["cooked"], out["cooked_hidden"] = "", True
    if raw and not hidden_from_viewer:
        out["raw"] = post.raw
    return out


def latest_post_json(forum: Forum, post: Post, viewer: User | None) -> dict:
    topic = forum.topics[post.topic_id]
    out = post_json(forum, post, viewer, raw=True)
    out.update({"excerpt": post.cooked[:300], "truncated": len(post.cooked) > 300,
                "posts_count": len(topic.visible_posts()), "badges_granted": [],
                "flair_group_id": None, "topic_title": topic.title,
                "topic_html_title": topic.title, "category_id": topic.category_id,
                "post_url": f"/t/{topic.slug}/{topic.id}/{post.post_number}"})
    return out


def topic_json(forum: Forum, topic: Topic, viewer: User | None, posts: list[Post], *,
               raw: bool) -> dict:
    staff = bool(viewer and viewer.staff)
    visible = topic.visible_posts()
    creator = forum.users.get(_username_of(forum, topic.user_id).lower())
    last = visible[-1] if visible else None
    details: dict[str, object] = {
        **{flag: staff for flag in _STAFF_TOPIC_FLAGS},
        "can_remove_self_id": viewer.id if viewer else 0,
        "notification_level": 3 if viewer else 1,
        "can_create_post": bool(viewer) and (not topic.closed or staff) and
        silence.can_post_in(viewer, topic, forum.clock.now()),
        "can_close_topic": staff,
        "participants": [],
        "created_by": _basic_user(creator),
        "last_poster": _basic_user(forum.user(last.username)) if last else None,
    }
    if topic.is_pm:
        details["allowed_users"] = [_basic_user(forum.user(u)) for u in topic.allowed]
        details["allowed_groups"] = []
    return {
        "post_stream": {"posts": [post_json(forum, p, viewer, raw=raw) for p in posts],
                        "stream": [p.id for p in visible]},
        "timeline_lookup": [],
        "suggested_topics": [],
        "tags": [],
        "id": topic.id,
        "title": topic.title,
        "fancy_title": topic.title,
        "slug": topic.slug,
        "posts_count": len(visible),
        "highest_post_number": topic.posts[-1].post_number if topic.posts else 0,
        "last_posted_at": ts(last.created_at) if last else None,
        "created_at": ts(topic.created_at),
        "archetype": topic.archetype,
        "category_id": topic.category_id,
        "closed": topic.closed,
        "archived": topic.archived,
        "visible": topic.visible,
        "deleted_at": None,
        "user_id": topic.user_id,
        "chunk_size": CHUNK,
        "has_deleted": any(p.deleted_at for p in topic.posts) and staff,
        "participant_count": len({p.username for p in visible}),
        **forum.write_limits.topic_fields(viewer, topic),
        "details": details,
        **_TOPIC_DEFAULTS,
        "reply_count": max(len(visible) - 1, 0),
        "word_count": sum(len(p.raw.split()) for p in visible),
        "draft_key": f"topic_{topic.id}",
    }


def topic_list_item(forum: Forum, topic: Topic) -> dict:
    visible = topic.visible_posts()
    last = visible[-1] if visible else None
    return {
        "id": topic.id, "title": topic.title, "fancy_title": topic.title, "slug": topic.slug,
        "posts_count": len(visible),
        "highest_post_number": topic.posts[-1].post_number if topic.posts else 0,
        "created_at": ts(topic.created_at),
        "last_posted_at": ts(last.created_at) if last else None,
        "bumped_at": ts(topic.bumped_at or topic.created_at),
        "archetype": topic.archetype, "category_id": topic.category_id,
        "closed": topic.closed, "archived": topic.archived, "visible": topic.visible,
        "pinned": False, "unpinned": None, "unseen": False, "last_read_post_number": 0,
        "unread_posts": 0, "reply_count": max(len(visible) - 1, 0), "views": 0,
        "like_count": 0, "has_summary": False, "image_url": "", "bookmarked": False,
        "liked": False, "notification_level": 3,
        "last_poster_username": last.username if last else None,
        "allowed_user_count": len(topic.allowed) if topic.is_pm else None,
        "posters": [], "participants": [],
    }


def user_json(user: User) -> dict:
    return {
        **_USER_DEFAULTS,
        "system_avatar_template": f"/letter_avatar_proxy/v4/letter/{user.username[0].lower()}/{{size}}.png",
        "user_option": _user_option(user),
        "user_notification_schedule": {"enabled": False, **{
            f"day_{d}_{edge}_time": (480 if edge == "start" else 1020)
            for d in range(7) for edge in ("start", "end")}},
        "id": user.id, "username": user.username, "name": user.name,
        "avatar_template": f"/letter_avatar/{user.username.lower()}/{{size}}/1.png",
        "trust_level": user.trust_level, "admin": user.admin, "moderator": user.moderator,
        "can_send_private_messages": True, "can_send_private_message_to_user": True,
        "post_count": 0, "created_at": ts(user.created_at), "last_posted_at": None,
        "last_seen_at": None, "title": None, "badge_count": 0,
    }


_STAFF_TOPIC_FLAGS = (
    "can_archive_topic", "can_convert_topic", "can_delete", "can_edit", "can_edit_staff_notes",
    "can_moderate_category", "can_move_posts", "can_pin_unpin_topic",
    "can_remove_allowed_users", "can_reply_as_new_topic", "can_review_topic",
    "can_split_merge_topic", "can_toggle_topic_visibility",
)
_TOPIC_DEFAULTS = {
    "actions_summary": [], "bookmarked": False, "bookmarks": [], "deleted_by": None,
    "draft": None, "draft_sequence": 0, "featured_link": None, "has_summary": False,
    "image_url": None, "like_count": 0, "message_bus_last_id": 0, "pinned": False,
    "pinned_at": None, "pinned_globally": False, "pinned_until": None,
    "show_read_indicator": False, "slow_mode_enabled_until": None, "tags_descriptions": {},
    "thumbnails": None, "topic_timer": None, "unpinned": None, "views": 0,
}
_USER_DEFAULTS = {
    "allowed_pm_usernames": [], "can_be_deleted": False, "can_change_bio": True,
    "can_change_location": True, "can_change_tracking_preferences": True,
    "can_change_website": True, "can_delete_all_posts": False, "can_edit": False,
    "can_edit_email": False, "can_edit_name": False, "can_edit_username": False,
    "can_ignore_user": False, "can_mute_user": False, "can_upload_profile_header": False,
    "can_upload_user_card_background": False, "custom_fields": {}, "featured_topic": None,
    "featured_user_badge_ids": [], "flair_bg_color": None, "flair_color": None,
    "flair_group_id": None, "flair_name": None, "flair_url": None, "group_users": [],
    "groups": [], "has_title_badges": False, "ignored": False, "ignored_usernames": [],
    "invited_by": None, "locale": None, "mailing_list_posts_per_day": 0, "muted": False,
    "muted_category_ids": [], "muted_tags": [], "muted_usernames": [], "pending_count": 0,
    "primary_group_id": None, "primary_group_name": None, "profile_view_count": 0,
    "recent_time_read": 0, "regular_category_ids": [], "second_factor_enabled": False,
    "staged": False, "system_avatar_upload_id": None, "time_read": 0, "topic_count": 0,
    "tracked_category_ids": [], "tracked_tags": [], "uploaded_avatar_id": None,
    "use_logo_small_as_avatar": False, "user_api_keys": None, "user_auth_tokens": [],
    "watched_category_ids": [],
    "watched_first_post_category_ids": [], "watched_tags": [], "watching_first_post_tags": [],
}


def _user_option(user: User) -> dict:
    return {
        "user_id": user.id, "mailing_list_mode": False, "mailing_list_mode_frequency": 1,
        "email_digests": True, "email_level": 1, "email_messages_level": 0,
        "external_links_in_new_tab": False, "color_scheme_id": None, "dark_scheme_id": None,
        "dynamic_favicon": False, "enable_quoting": True, "enable_smart_lists": True,
        "enable_markdown_monospace_font": False, "digest_after_minutes": 10080,
        "automatically_unpin_topics": True, "auto_track_topics_after_msecs": 240000,
        "notification_level_when_replying": 2, "new_topic_duration_minutes": 2880,
        "email_previous_replies": 2, "email_in_reply_to": False,
        "like_notification_frequency": 1, "notify_on_linked_posts": True,
        "push_notification_level": "always",
        "enable_upcoming_change_available_notifications": False,
        "include_tl0_in_digests": False, "theme_ids": [], "theme_key_seq": 0,
        "allow_private_messages": True, "enable_allowed_pm_users": False, "homepage_id": None,
        "hide_profile_and_presence": False, "hide_profile": False, "hide_presence": False,
        "text_size": "normal", "text_size_seq": 0, "title_count_mode": "notifications",
        "timezone": "UTC", "skip_new_user_tips": True, "topics_unread_when_closed": True,
        "interface_color_mode": 1, "show_original_content": True, "send_shortcut": "enter",
        "automatically_translate": False, "understood_languages": [],
    }


def _basic_user(user: User | None) -> dict | None:
    if user is None:
        return None
    return {"id": user.id, "username": user.username, "name": user.name,
            "avatar_template": f"/letter_avatar/{user.username.lower()}/{{size}}/1.png"}


def _username_of(forum: Forum, user_id: int) -> str:
    return next((u.username for u in forum.users.values() if u.id == user_id), "system")

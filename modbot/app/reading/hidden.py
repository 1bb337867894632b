"""Theory of operation: a post hidden by flags is a post whose words the bot cannot read.

Discourse gives a hidden post's words only to staff and its author (PostSerializer
`include_raw?`), so a bot that is not staff reads it without them. It is never an empty post:
`hold` keeps it as an input of its own (`hidden`: its id, number, author and time, no words),
so a restart or a rebuild knows it the same way; the Storytellers are told once, with its
author and link (they can read it, set what it cast with `!setvote`, or ask a moderator to
unhide it), and its author is told that it is hidden and counts for nothing while it is. The
game does not wait for it. The edit sweep reads it again (`GameRuntime.sweep_posts`); once its
words can be read, it is handled as the post it is, at its `created_at`, under the rules for
posts that arrive late (late.py). A post hidden after it was counted keeps the words it was
counted with: an edit the bot cannot read is no edit (handling.py).
"""

from __future__ import annotations

from ...core import Post, iso
from ..games.steps import Step, post_row
from ..posting.render import later
from .late import HeldInputs


def hold(game: HeldInputs, post: Post) -> Step:
    """The hidden post kept (its words left out), its author and the Storytellers told."""
    post_id = post.post_id or 0
    game.inputs.append(("hidden", post, post_id))
    game.hidden_ids.add(post_id)
    game.last_post_number = max(game.last_post_number, post.post_number)
    view = {"post_number": post.post_number, "post_id": post_id, "author": post.author,
            "topic_id": game.topic_id}
    note = game.reactor.note_to_storytellers(game.state.setup.storytellers, f"hidden:{post_id}",
                                             later("hidden_post.md.j2", **view, to="storytellers"))
    told = [note]
    if game.state.is_seated(post.author):
        told.append(game.reactor.pm(post.author, f"hidden-author:{post_id}",
                                    later("hidden_post.md.j2", **view, to="author")))
    return Step({**post_row(post), "kind": "hidden", "raw": None, "raw_sha1": None},
                [("PostHiddenUnread", {"post_id": post_id, "post_number": post.post_number,
                                       "author": post.author, "at": iso(post.created_at)})], told)

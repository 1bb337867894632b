"""Theory of operation: a post that reaches a game thread late is held, never applied by itself.

A moderator may move a post into the thread long after it was made (Discourse's PostMover
keeps its `created_at`), and a post made while the thread was unlisted or hidden may be read
late. Its `created_at` then lies before a moment the bot has already applied: a clock tick that
changed the game (a vote locking, a phase ending, a deadline; a tick that only posted a vote
count does not count). Counting it in its place would change what the
bot has already posted; counting it now would give it a time it does not have. So the bot
holds it (`hold`): the post is stored as a `late` input, the Storytellers get a note naming
it, with what counting it in its place would change (the game replayed with it, compared),
and `!accept id:N` counts it (`accept`: the game is replayed with the post in its
`created_at` place, from then on). Otherwise it is left out, and said so: never silently
dropped, never silently applied. A restart folds the stored `late` input and the accepting
command again, so it holds and accepts the same way.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol, cast

from ...adapters.outgoing import Outgoing
from ...core import CommandReport, GameState, Post, iso
from ..games.steps import Step, post_row
from ..posting.reactions import Reactor
from ..posting.render import later
from ..posting.views import date_tag
from ..recovery.upgrade import game_differences


class HeldInputs(Protocol):
    """What holding a post asks of its game (games/runtime.py's `GameRuntime`), without
    importing it back: its inputs, the ids it holds, its state and its reactor."""

    inputs: list[tuple[Any, ...]]
    late_ids: set[int]
    hidden_ids: set[int]
    undone: set[int]
    accepted: set[int]
    last_post_number: int
    history: list[dict[str, Any]]
    state: GameState
    reactor: Reactor

    @property
    def topic_id(self) -> int: ...
    def refold(self, excluded: set[int], accepted: set[int] | None = None) -> GameState: ...


def last_applied(history: list[dict[str, Any]]) -> datetime | None:
    """The forum time of the latest clock tick that changed the game (`GameRuntime.history`
    keeps each event with its input's channel and time)."""
    return next((datetime.fromisoformat(h["at"]) for h in reversed(history)
                 if h["channel"] == "clock"), None)


def is_late(history: list[dict[str, Any]], at: datetime) -> bool:
    applied = last_applied(history)
    return applied is not None and at < applied


def when(entry: tuple[Any, ...]) -> datetime | None:
    """An input's forum time (None for an edit notice, which has none to order by)."""
    kind, value, _ = entry
    if kind in ("post", "late"):
        return cast(datetime, value.created_at)
    if kind == "pm":
        return cast(datetime, value[0].created_at)
    if kind == "tick":
        return cast(datetime, value)
    if kind == "rename":
        return cast(datetime, value[2])
    if kind == "lapse":
        return cast(datetime, value[1])
    return None


def in_place(inputs: list[tuple[Any, ...]], accepted: set[int]) -> list[tuple[Any, ...]]:
    """The inputs in the order to fold them: each accepted late post moved to its created_at
    place (before the first input made after it), as a thread post; other late ones left out."""
    ordered = [e for e in inputs if e[0] != "late"]
    for entry in inputs:
        if entry[0] != "late" or entry[2] not in accepted:
            continue
        post: Post = entry[1]
        index = next((i for i, e in enumerate(ordered)
                      if (t := when(e)) is not None and t > post.created_at), len(ordered))
        ordered.insert(index, ("post", post, entry[2]))
    return ordered


def hold(game: HeldInputs, post: Post) -> Step:
    """Store the post as held; tell the Storytellers what counting it in its place would
    change (the game replayed with it, compared with the game now)."""
    post_id, post_number, author, at = post.post_id or 0, post.post_number, post.author, \
        post.created_at  # a thread post read from the forum: it has its id
    game.inputs.append(("late", post, post_id))
    game.late_ids.add(post_id)
    game.hidden_ids.discard(post_id)  # a hidden post read once visible again (hidden.py)
    game.last_post_number = max(game.last_post_number, post_number)
    changes = game_differences(game.state, game.refold(game.undone, game.accepted | {post_id}))
    note = game.reactor.note_to_storytellers(game.state.setup.storytellers, f"late:{post_id}",
                                             later("late_post.md.j2", post_id=post_id,
                                                    post_number=post_number, author=author,
                                                    at=date_tag(at), changes=changes,
                                                    topic_id=game.topic_id,
                                                    applied=date_tag(last_applied(game.history))))
    return Step({**post_row(post), "kind": "late"},
                [("LatePostHeld", {"post_id": post_id, "post_number": post_number,
                                   "author": author, "at": iso(at)})], [note])


def accept(game: HeldInputs, report: CommandReport | None,
           ) -> tuple[list[Outgoing], list[tuple[str, dict[str, Any]]]]:
    """`!accept id:N`: the held post N counted in its place, the game replayed with it; the
    Storytellers' answer and the event, or nothing when the report asks for none."""
    if report is None or report.accept is None:
        return [], []
    post_id = report.accept
    held = {pid for kind, _, pid in game.inputs if kind == "late"}
    if post_id not in held or post_id in game.accepted:
        changes, error = [], "not_held"
    else:
        replayed = game.refold(game.undone, game.accepted | {post_id})
        changes, error = game_differences(game.state, replayed), None
        game.accepted.add(post_id)
        game.state = replayed
    note = game.reactor.note_to_storytellers(
        game.state.setup.storytellers, f"late-accepted:{post_id}:{len(game.inputs)}",
        later("late_accepted.md.j2", post_id=post_id, error=error, changes=changes))
    events = [] if error else [("LatePostAccepted", {"post_id": post_id, "changes": changes})]
    return [note], events

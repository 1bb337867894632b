"""Theory of operation: `!undo`, a game replayed without one of its inputs.

A game's state is the fold of its inputs (runtime.py), so undoing a post or PM is folding them
all again without it (and without those undone before), the late posts the Storytellers
`!accept`ed in their place: everything that followed from it is recomputed, and what would
change is told in game terms (`upgrade.game_differences`) before anything is applied. `!undo
#22` names the thread's post #22, `!undo id:1234` the forum's id of a post or PM (what `!log`
shows for a PM), so it names the same input after a rebuild from the forum. Applied only when
confirmed (`--yes`).
"""

from __future__ import annotations

from typing import Any

from ...core import (
    GameSetup,
    GameState,
    Post,
    advance,
    handle_name_taken,
    handle_pm,
    handle_post,
    handle_rename,
    say,
)
from ..reading import late
from ..recovery.upgrade import game_differences


def undo(setup: GameSetup, inputs: list[tuple[Any, ...]], undone: set[int], accepted: set[int],
         asked: tuple[Any, ...], state: GameState) -> dict[str, Any]:
    """What `!undo` (`asked`: the command's target and whether it is confirmed) finds: the
    input, the changes in words, `done`, and the `state` without it (the caller applies it when
    done); or an error when it names nothing that can be undone."""
    target, confirmed = asked
    label = f"id:{target.input}" if target.by_id else f"#{target.input}"
    found = undoable(inputs, undone, target)
    if found is None:
        return {"input": label, "error": say("console.undo_none", post=label)}
    post_id, channel, post = found
    replayed = refold(setup, inputs, undone | {post_id}, accepted)
    return {"input": label, "post_id": post_id, "channel": channel,
            "post_number": post.post_number, "author": post.author,
            "changes": game_differences(state, replayed), "done": confirmed,
            "state": replayed}


def undoable(inputs: list[tuple[Any, ...]], undone: set[int], target: Any) -> tuple[int, str, Post] | None:
    """The earlier post or PM `target` names, not undone yet: (forum id, channel, post)."""
    for kind, value, post_id in inputs[:-1]:
        if kind not in ("post", "pm") or post_id in undone:
            continue
        post = value if kind == "post" else value[0]
        if (target.by_id and post_id == target.input) or \
                (not target.by_id and kind == "post" and post.post_number == target.input):
            return post_id, "thread" if kind == "post" else "pm", post
    return None


def refold(setup: GameSetup, inputs: list[tuple[Any, ...]], excluded: set[int],
           accepted: set[int]) -> GameState:
    """The core state from `inputs`, without the `excluded` ones (post ids), with the
    `accepted` late posts in their place."""
    state = GameState.from_setup(setup)
    for kind, value, post_id in late.in_place(inputs, accepted):
        if post_id is not None and post_id in excluded:
            continue
        if kind == "post":
            state = handle_post(state, value).state
        elif kind == "pm":
            state = handle_pm(state, *value).state
        elif kind == "tick":
            state = advance(state, value).state
        elif kind == "rename":
            state = handle_rename(state, *value).state
        elif kind == "lapse":
            state = handle_name_taken(state, *value).state
    return state


def undo_events(undo: dict[str, Any] | None) -> list[tuple[str, dict[str, Any]]]:
    """The audit log's event of an applied undo."""
    if undo and undo.get("done"):
        return [("Undone", {"input": undo["input"], "changes": undo["changes"]})]
    return []

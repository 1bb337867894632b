"""Theory of operation: a game follows its players' and Storytellers' renames.

The service knows every seat and Storyteller by forum user id (identities.py); when one goes
by another name, it feeds `rename` to the game before anything else of theirs: the core's
`UserRenamed` gives the seat (or the Storyteller's place) the new name and keeps the old one
as an alias, and the Storytellers are told once. When someone who is none of the game's
posts under a seat's alias, `lapse` feeds the core's `handle_name_taken`: the current holder
of a name wins, the alias lapses, and the Storytellers are told. `follow` keeps what the reactor writes with
in step with the renames folded so far (restored games included): the Storytellers' current
names, and each renamed player's grimoire conversation, whose outbox thread keeps the name the
game file gave, so their private messages go on in the same conversation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from ...core import AliasLapsed, Event, GameSetup, GameState, handle_name_taken, handle_rename, iso
from ..posting.reactions import GameOptions, Reactor
from ..posting.render import later
from .steps import Step, events_of


class RenamingGame(Protocol):
    """What following a rename asks of its game (runtime.py's `GameRuntime`), without
    importing it back: its state and inputs, its file, the reactor and its options."""

    state: GameState
    setup: GameSetup
    options: GameOptions
    reactor: Reactor
    inputs: list[tuple[Any, ...]]

    def remember(self, events: Sequence[Event], channel: str, post_number: int | None,
                 author: str | None, at: datetime) -> None: ...


def rename(game: RenamingGame, old: str, new: str, at: datetime) -> Step:
    outcome = handle_rename(game.state, old, new, at)
    if not outcome.events:
        return Step()
    game.inputs.append(("rename", (old, new, at), None))
    game.state = outcome.state
    game.remember(outcome.events, "forum", None, new, at)
    follow(game)
    raw = later("renamed.md.j2", old=old, new=new, seated=game.state.is_seated(new),
                 storyteller=game.state.setup.is_storyteller(new),
                 bot=game.state.setup.bot_username == new)
    note = game.reactor.note_to_storytellers(game.state.setup.storytellers,
                                             f"renamed:{old.lower()}:{new.lower()}", raw)
    return Step({"kind": "rename", "author": new, "at": iso(at), "raw": old},
                events_of(outcome.events), [note])


def lapse(game: RenamingGame, name: str, at: datetime) -> Step:
    """Someone who is none of the game's posts as `name`, an alias of a seat: it lapses."""
    outcome = handle_name_taken(game.state, name, at)
    if not outcome.events:
        return Step()
    game.inputs.append(("lapse", (name, at), None))
    game.state = outcome.state
    game.remember(outcome.events, "forum", None, name, at)
    player = next(e.player for e in outcome.events if isinstance(e, AliasLapsed))
    raw = later("alias_lapsed.md.j2", name=name, player=player)
    note = game.reactor.note_to_storytellers(game.state.setup.storytellers,
                                             f"alias-lapsed:{name.lower()}:{iso(at)}", raw)
    return Step({"kind": "lapse", "author": name, "at": iso(at), "raw": name},
                events_of(outcome.events), [note])


def follow(game: RenamingGame) -> None:
    threads: dict[str, str] = {}
    storytellers = list(game.setup.storytellers)
    for kind, value, _ in game.inputs:
        if kind != "rename":
            continue
        old, new, _ = value
        threads[new.lower()] = threads.pop(old.lower(), old.lower())
        storytellers = [new if s == old else s for s in storytellers]
    game.options = dataclasses.replace(game.options, storytellers=tuple(storytellers),
                                       threads=tuple(threads.items()))
    game.reactor.options = game.options

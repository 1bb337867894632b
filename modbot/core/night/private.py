"""Theory of operation: a player's private message to the bot, by the people it reaches.

The shell passes each PM post with the usernames taking part in its conversation. If no other
player takes part, it is the player's own channel with the bot and the Storytellers (their
"grimoire PM"): night commands in it act (choices.py's rules, run by the registry). If other players take part, it is a
whisper, and the bot checks it against the whisper rules (seed 001 "Whispers"):
- the PM must include the bot's account and every Storyteller;
- the players must have an active declared whisper at the message's forum time (a message
  after one of them posted publicly, which broke it, is flagged);
- without a declaration, a player may send each seat neighbour one message a day of at most
  10 words; the 11th word, a second message that day, or a non-neighbour is flagged.
Allowed messages are counted (never their words) for the Storytellers' digest; violations
are flagged to the Storytellers. Nothing here ever answers in the whisper itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from ..reading.night_forms import parse_private
from ..reading.textclean import countable_text
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Applier, Rule
from ..state.model import GameState
from ..state.night_model import WhisperFlag
from ..state.private_events import WhisperPmCounted, WhisperPmFlagged
from ..state.rejection import Rejection
from ..wording import Say, say

NEIGHBOUR_WORDS = 10


@dataclass(frozen=True, slots=True)
class PrivateOutcome:
    state: GameState
    events: tuple[Event, ...] = ()
    rejections: tuple[Rejection, ...] = ()
    accepted: bool = False  # a night command was accepted (the player gets a confirmation)


def handle_private(state: GameState, author: str, at: datetime, post_number: int | None,
                   raw: str, participants: tuple[str, ...], apply: Applier, decide: Rule) -> PrivateOutcome:
    """`participants`: lower-case usernames of the conversation; `apply` and `decide`: the
    registry's (an event applied; an action's rule: night choices are rules like the others)."""
    others = tuple(s.name for s in state.seats
                   if s.name.lower() in participants and s.name != author)
    if not others:
        if state.setup.script is None:  # no private side: night actions go to the STs
            return PrivateOutcome(state)
        return _own_channel(state, author, at, post_number, raw, apply, decide)
    events = police(state, author, at, post_number, raw, others, participants)
    for event in events:
        state = apply(state, event)
    return PrivateOutcome(state, events)


def _own_channel(state: GameState, author: str, at: datetime, post_number: int | None, raw: str,
                 apply: Applier, decide: Rule) -> PrivateOutcome:
    parsed = parse_private(raw, state.setup.roster, state.setup.script)
    ctx = Context(author, at, post_number)
    rejections = [r.placed(author, at, post_number) for r in parsed.errors]
    events = []
    for action in parsed.actions:
        decided = decide(state, action, ctx)
        if isinstance(decided, Rejection):
            rejections.append(decided)
            continue
        for event in decided:
            state = apply(state, event)
            events.append(event)
    return PrivateOutcome(state, tuple(events), tuple(rejections), bool(events))


def police(state: GameState, author: str, at: datetime, post_number: int | None, raw: str,
           others: tuple[str, ...], participants: tuple[str, ...]) -> tuple[Event, ...]:
    day = state.cycle
    members = tuple(sorted((author, *others)))
    flags: list[Say] = []
    hosts = (state.setup.bot_username, *state.setup.storytellers)
    missing = [h for h in hosts if h.lower() not in participants]
    if missing:
        flags.append(say("whisper.hosts_missing", missing=missing))
    counted = None
    whisper = _declared(state, members, at)
    if whisper == "active":
        counted = WhisperPmCounted(day, author, members, None, at)
    elif isinstance(whisper, Say):
        flags.append(whisper)
    elif len(others) == 1 and others[0] in neighbours(state, author):
        other = others[0]
        words = len(re.findall(r"\S+", countable_text(raw)))
        ledger = state.ledger
        if ledger is not None and (day, author, other) in ledger.neighbour_used:
            flags.append(say("whisper.neighbour_again", other=other))
        elif words > NEIGHBOUR_WORDS:
            flags.append(say("whisper.neighbour_words", words=words, other=other,
                             limit=NEIGHBOUR_WORDS))
        else:
            counted = WhisperPmCounted(day, author, members, other, at)
    else:
        flags.append(say("whisper.none_active" if len(others) > 1
                         else "whisper.none_active_not_neighbours", members=members))
    events = [WhisperPmFlagged(WhisperFlag(day, author, others, reason, at), post_number, at)
              for reason in flags]
    return tuple(events) + ((counted,) if counted is not None and not missing else ())


def _declared(state: GameState, members: tuple[str, ...], at: datetime) -> str | Say | None:
    """"active", why the declared whisper does not cover this message, or None."""
    day = state.whisper_day()
    covering = [w for w in (day.whispers if day else ()) if set(members) <= w.members]
    if any(w.was_active_at(at) for w in covering):
        return "active"
    broken = [w for w in covering if w.broken_at is not None and w.broken_at <= at]
    if broken:
        w = broken[-1]
        return say("whisper.after_break", by=w.broken_by, at=w.broken_at)
    return None


def neighbours(state: GameState, player: str) -> tuple[str, ...]:
    """The seats just above and below in the seat list (wrapping round)."""
    names = [s.name for s in state.seats]
    index = names.index(player)
    return tuple(dict.fromkeys((names[index - 1], names[(index + 1) % len(names)])))


__all__ = ["NEIGHBOUR_WORDS", "PrivateOutcome", "handle_private", "neighbours", "police"]

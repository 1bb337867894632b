"""Theory of operation: what the Storytellers hear about whispers (the private side's policing).

A private message between players that the rules do not allow is flagged to the
Storytellers at once (`WhisperPmFlagged`), with a key that never changes across upgrades;
a `/whisper Storyteller` asks them for a private word; at the end of each day they get the
day's digest: the declared whispers, the private messages counted, the flags and the
consults. Nothing here is public, and no message's content is ever kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from ..core import DayEnded, GameState, StorytellerConsultRequested, WhisperPmFlagged, iso
from .render import render
from .views import clock_text


def _st(reactor, state: GameState, key: str, template: str, **context):
    return reactor.note_to_storytellers(state.setup.storytellers, key,
                                        render(template, **context))


def _flagged(reactor, state: GameState, event: WhisperPmFlagged) -> list:
    flag = event.flag
    digest = hashlib.sha1(_key_text(flag.reason).encode("utf-8")).hexdigest()[:8]
    return [_st(reactor, state, f"whisper-flag:{flag.author}:{iso(flag.at)}:{digest}",
                "whisper_flag.md.j2", flag=flag, when=clock_text(flag.at))]


# A flag's outbox key digests the reason in the words modbot first used. Keys must never
# change (the outbox knows a sent post by its key, across upgrades), so these stay as they
# are even when the catalogue rewords the flags.
_KEY_WORDS = {
    "whisper.hosts_missing": "the PM does not include the host accounts (missing: {missing})",
    "whisper.neighbour_again": "neighbour whisper: a second one to {other} today",
    "whisper.neighbour_words": "neighbour whisper: {words} words to {other} (at most {limit})",
    "whisper.none_active": "no active whisper between {members}",
    "whisper.none_active_not_neighbours":
        "no active whisper between {members} (and they are not seat neighbours)",
    "whisper.after_break": "a message after the whisper broke ({by} posted publicly at {at})",
}


def _key_text(reason) -> str:
    params = dict(reason.params)
    joined = {"missing": ", ".join(params.get("missing", ())),
              "members": " and ".join(params.get("members", ())),
              "at": f"{params['at']:%H:%M UTC}" if "at" in params else ""}
    return _KEY_WORDS[reason.code].format_map({**params, **joined})


def _consult(reactor, state: GameState, event: StorytellerConsultRequested) -> list:
    return [_st(reactor, state, f"consult:{event.player}:{event.post_number}", "consult.md.j2",
                player=event.player, post_number=event.post_number)]


def _digest(reactor, state: GameState, event: DayEnded) -> list:
    day = next((d for d in state.past_days if d.number == event.day), None)
    ledger = state.ledger
    counts = ledger.count(event.day) if ledger else {}
    flags = [f for f in (ledger.flags if ledger else ()) if f.day == event.day]
    if day is None or not (day.whispers or counts or flags or day.consults):
        return []
    return [_st(reactor, state, f"whisper-digest:{event.day}", "whisper_digest.md.j2",
                day=day, counts=counts, flags=flags)]


WHISPER_HANDLERS: dict[type, Callable[..., list]] = {WhisperPmFlagged: _flagged, StorytellerConsultRequested: _consult,
                    DayEnded: _digest}

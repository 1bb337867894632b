"""Theory of operation: who is told what of the night's events (a `Feature` of notices only).

The night's messages: a player's choice acknowledged and reminders in their grimoire PM, the
night sheet and approval reminders to the Storytellers, the results at dawn, the dawn delay
and the Fearmonger's announcement in the thread; by day, a day ability's request, an
answer, the silence the Storytellers call and who spoke in it; and a whisper flag. Each is a
`Notice`: an address, a template's code, a key that the same inputs always give again (the
night's number, the player, the event's forum time) and a view of codes and values.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from ..state.events import Event
from ..state.feature import Feature, Notice, to_player, to_storytellers, to_thread
from ..state.grimoire import character_names
from ..state.model import GameState, iso
from ..state.private_events import (
    AnswerSent,
    ApprovalReminded,
    DawnDelayed,
    DayAbilityRequested,
    FearmongerChoseNew,
    NightChoiceMade,
    NightLocked,
    NightReminded,
    NightResolved,
    WhisperPmFlagged,
    night_of,
)
from ..wording import Say, say
from .choices import lock_at
from .commands import SheetRequested, SilenceCalled, SpokeInSilence


def sheet_view(state: GameState) -> dict[str, Any]:
    """Tonight's sheet as the Storytellers read it."""
    night = night_of(state, state.cycle)
    return {"night": night.number, "entries": night.sheet, "deaths": night.deaths,
            "results": dict(night.results), "tells": night.tells,
            "effects": [e.describe(character_names(state), state.setup.terms)
                        for e in night.effects], "dawn": state.phase_ends_at}


def _choice(state: GameState, event: NightChoiceMade, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    names = state.setup.private_script.names
    choice = event.choice
    helps = f":{choice.helps}" if choice.helps else ""
    helps += f":if-{choice.character}" if choice.contingent else ""
    return (to_player(choice.player, "night_choice",
                      f"choice:{event.night}:{choice.player}{helps}:{iso(event.at)}",
                      night=event.night, choice=choice.describe(names), passed=choice.passed,
                      free=bool(choice.text), helps=choice.helps,
                      contingent=names.get(choice.character) if choice.contingent else None,
                      lock=lock_at(state) if event.night == state.cycle else None),)


def _reminded(state: GameState, event: NightReminded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return tuple(to_player(player, "night_reminder", f"remind:{event.night}:{player}",
                           night=event.night, lock=lock_at(state)) for player in event.players)


def _locked(state: GameState, event: NightLocked, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("night_sheet", f"sheet:{event.night}", sheet=sheet_view(state)),)


def _sheet_again(state: GameState, event: SheetRequested, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("night_sheet", f"sheet:{state.cycle}:{iso(event.at)}",
                            sheet=sheet_view(state)),)


def _approval_reminder(state: GameState, event: ApprovalReminded, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("approval_reminder", f"approve-reminder:{event.night}",
                            night=event.night, dawn=state.phase_ends_at,
                            missing=night_of(state, event.night).missing_results()),)


def _delayed(_state: GameState, event: DawnDelayed, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_thread("dawn_delayed", f"dawn-delayed:{event.night}", night=event.night),)


def _fear(_state: GameState, event: FearmongerChoseNew, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_thread("fear_announced", f"fear:{event.night}"),)


def _resolved(_state: GameState, event: NightResolved, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """Each player's results and the Storytellers' `!tell`s, in one PM a player."""
    lines: dict[str, list[Say]] = {}
    for player, told in event.results:
        if told is not None:
            lines.setdefault(player, []).append(told)
    for player, text in event.tells:
        lines.setdefault(player, []).append(text)
    return tuple(to_player(player, "night_results", f"result:{event.night}:{player}",
                           night=event.night, lines=told) for player, told in lines.items())


def _answer(_state: GameState, event: AnswerSent, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_player(event.player, "night_results", f"answer:{event.player}:{iso(event.at)}",
                      night=None, lines=[event.text]),)


def _day_request(state: GameState, event: DayAbilityRequested, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    """Acknowledged and put to the Storytellers when declared; else the player is told to
    declare first (seed 001) and the Storytellers see the request flagged."""
    name = state.setup.private_script.name_of(event.character)
    key = f"day-request:{event.player}:{iso(event.at)}"
    return (to_player(event.player, "day_request", key, event=event, name=name),
            to_storytellers("day_request_st", f"{key}:st", event=event, name=name))


def _silence(_state: GameState, event: SilenceCalled, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_thread("silence", f"silence:{'on' if event.on else 'off'}:{iso(event.at)}",
                      on=event.on),)


def _spoke(_state: GameState, event: SpokeInSilence, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    return (to_storytellers("st_note", f"spoke:{event.player}:{event.post_number}",
                            text=say("st.spoke_in_silence", player=event.player,
                                     post_number=event.post_number)),)


def _flagged(_state: GameState, event: WhisperPmFlagged, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    flag = event.flag
    digest = hashlib.sha1(_key_text(flag.reason).encode("utf-8")).hexdigest()[:8]
    return (to_storytellers("whisper_flag", f"whisper-flag:{flag.author}:{iso(flag.at)}:{digest}",
                            flag=flag),)


# A flag's key digests the reason in the words modbot first used. Keys must never change (the
# outbox knows a sent post by its key, across upgrades), so these stay as they are even when
# the catalogue rewords the flags: they are part of a key, never shown.
_KEY_WORDS = {
    "whisper.hosts_missing": "the PM does not include the host accounts (missing: {missing})",
    "whisper.neighbour_again": "neighbour whisper: a second one to {other} today",
    "whisper.neighbour_words": "neighbour whisper: {words} words to {other} (at most {limit})",
    "whisper.none_active": "no active whisper between {members}",
    "whisper.none_active_not_neighbours":
        "no active whisper between {members} (and they are not seat neighbours)",
    "whisper.after_break": "a message after the whisper broke ({by} posted publicly at {at})",
}


def _key_text(reason: Say) -> str:
    params = dict(reason.params)
    joined = {"missing": ", ".join(params.get("missing", ())),
              "members": " and ".join(params.get("members", ())),
              "at": f"{params['at']:%H:%M UTC}" if "at" in params else ""}
    return _KEY_WORDS[reason.code].format_map({**params, **joined})


FEATURE = Feature(
    "the night's notices",
    notices={NightChoiceMade: _choice, NightReminded: _reminded, NightLocked: _locked,
             SheetRequested: _sheet_again, ApprovalReminded: _approval_reminder,
             DawnDelayed: _delayed, FearmongerChoseNew: _fear, NightResolved: _resolved,
             AnswerSent: _answer, DayAbilityRequested: _day_request, SilenceCalled: _silence,
             SpokeInSilence: _spoke, WhisperPmFlagged: _flagged},
)

__all__ = ["FEATURE", "sheet_view"]

"""The town square as a picture shows it: public facts only, already in words.

Theory of operation: `town_square(state, vc)` takes the game state and the vote count's view
(`views.vote_count_view`, the same one the text is rendered from) and returns a `TownSquare`:
the seats in seat order with what everyone can see (alive or dead, an unspent vote token, a
traveller, the nominee and the nominator, the seat the clock hand waits on, each seat's vote:
locked or only cast, execute or pardon) and the words around them (title, centre, legend, alt
text) from the catalogue. Nothing from the grimoire is read, so nothing hidden can be drawn.
One nomination is shown: the one whose clock is running and leading, else the leading one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from ...core import GameState, say
from ..posting.catalogue import words

LOCKED_YES, LOCKED_NO, CAST_YES, CAST_NO = "locked_yes", "locked_no", "cast_yes", "cast_no"


@dataclass(frozen=True)
class SeatMark:
    number: int  # 1-based seat number
    name: str
    alive: bool
    vote_token: bool  # dead with an unspent ghost vote
    traveller: bool
    nominee: bool = False
    nominator: bool = False
    hand: bool = False  # the clock hand waits on this seat
    vote: str = ""  # one of the four vote marks, or "" (not reached, or not voting)


@dataclass(frozen=True)
class TownSquare:
    title: str
    seats: tuple[SeatMark, ...]
    centre: tuple[str, str, str]  # the nominee (or none), the count against the need, who dies
    legend: tuple[tuple[str, str], ...]  # (mark, words)
    alt: str


def shown_nomination(vc: dict[str, Any]) -> dict[str, Any] | None:
    """The nomination the picture shows: an open one first (most execute votes, then the
    latest), else the one with most votes (then the latest)."""
    nominations = list(vc.get("nominations", [])) + list(vc.get("exiles", []))
    if not nominations:
        return None
    ranked = sorted(enumerate(nominations), key=lambda item: (item[1]["open"], item[1]["yes"],
                                                             item[0]))
    return cast(dict[str, Any], ranked[-1][1])


def town_square(state: GameState, vc: dict[str, Any]) -> TownSquare:
    nomination = shown_nomination(vc)
    votes = _votes(nomination) if nomination else {}
    seats = tuple(SeatMark(
        number=index + 1, name=seat.name, alive=seat.alive,
        vote_token=not seat.alive and seat.ghost_vote, traveller=seat.traveller,
        nominee=bool(nomination and nomination["nominee"] == seat.name),
        nominator=bool(nomination and nomination["nominator"] == seat.name),
        hand=bool(nomination and nomination["open"] and nomination.get("hand") == seat.name),
        vote=votes.get(seat.name, "")) for index, seat in enumerate(state.seats))
    return TownSquare(_title(vc, nomination), seats, _centre(vc, nomination), _legend(),
                      _alt(vc, nomination, _title(vc, None)))


def _votes(nomination: dict[str, Any]) -> dict[str, str]:
    marks = {v["player"]: LOCKED_YES if v["vote"] == "yes" else LOCKED_NO
             for v in nomination["locked"]}
    for v in nomination.get("cast", []):
        marks.setdefault(v["player"], CAST_YES if v["vote"] == "yes" else CAST_NO)
    return marks


def _title(vc: dict[str, Any], nomination: dict[str, Any] | None) -> str:
    count = words(say("picture.title", day=vc["day"], number=vc["number"]) if vc["number"]
                  else say("picture.title_as_of", day=vc["day"], post=vc.get("as_of") or 0))
    if nomination is None:
        return count
    kind = "picture.exile_of" if nomination["kind"] == "exile" else "picture.nomination_of"
    return f"{count} · {words(say(kind, nominee=nomination['nominee'], nominator=nomination['nominator']))}"


def _centre(vc: dict[str, Any], nomination: dict[str, Any] | None) -> tuple[str, str, str]:
    if nomination is None:
        return "", words(say("picture.no_nominations")), _fate(vc)
    count = words(say("picture.count", yes=nomination["yes"], needed=nomination["needed"]))
    return nomination["nominee"], count, _fate(vc)


def _fate(vc: dict[str, Any]) -> str:
    if vc.get("ended"):
        return words(say("picture.executed", player=vc["executed"]) if vc.get("executed")
                     else say("picture.no_execution"))
    if vc.get("about_to_die"):
        return words(say("picture.about_to_die", player=vc["about_to_die"]))
    return words(say("picture.nobody_dies"))


LEGEND = ((LOCKED_YES, "picture.legend_locked_yes"), (LOCKED_NO, "picture.legend_locked_no"),
          (CAST_YES, "picture.legend_cast_yes"), ("hand", "picture.legend_hand"),
          ("vote_token", "picture.legend_vote_token"), ("traveller", "picture.legend_traveller"))


def _legend() -> tuple[tuple[str, str], ...]:
    return tuple((mark, words(say(code))) for mark, code in LEGEND)


def _alt(vc: dict[str, Any], nomination: dict[str, Any] | None, title: str) -> str:
    if nomination is None:
        return words(say("picture.alt_empty", title=title, fate=_fate(vc)))
    facts = {"title": title, "nominee": nomination["nominee"],
             "nominator": nomination["nominator"], "yes": nomination["yes"],
             "needed": nomination["needed"], "fate": _fate(vc)}
    if nomination["open"]:
        return words(say("picture.alt", hand=nomination["hand"], **facts))
    return words(say("picture.alt_closed", **facts))

"""Theory of operation: a player away for a while, and back.

`/away until …` or `/away 2d` (in the thread or the player's PM; grammar: reading/away_form.py)
is resolved against the post's `created_at` into a moment (a weekday: the next one after the
post, in the zone given). A moment not after the post is refused; one beyond the game file's
`away_hours_max` (default 72) from the post is held to that: past it, the usual prods resume.
`PlayerAway` keeps the seat's return (its slot, `AWAY`); `/back` ends it now (`PlayerBack`).

While a seat is away its prods and its clock-hand nudges wait (activity.py, hand_nudge.py ask
`after_return`): a prod counts the seat's quiet from its last post or its return, whichever is
later, and a nudge due while it is away comes at its return. Night reminders are not paused. The player
is answered, the Storytellers are told, and the vote count shows "away until …" beside the
seat among those who have not voted (count_facts.py, `away_now`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone

from ..state.actions import ComeBack, Context, GoAway
from ..state.feature import Feature, Notice, to_player, to_storytellers
from ..state.model import GameState, iso
from ..state.rejection import Rejection
from ..state.slots import Slot
from ..wording import say
from .rules import reject

AWAY: Slot[tuple[tuple[str, datetime], ...]] = Slot("away", ())  # (seat, the end of its last /away)


@dataclass(frozen=True, slots=True)
class PlayerAway:
    player: str
    until: datetime  # the return as kept (at most `away_hours_max` after the post)
    asked: datetime  # the return the player named
    at: datetime


@dataclass(frozen=True, slots=True)
class PlayerBack:
    player: str
    at: datetime


def back_at(state: GameState, player: str) -> datetime | None:
    """The end of the seat's last absence (past or to come); None: never away."""
    return dict(AWAY.of(state)).get(player)


def away_now(state: GameState, at: datetime | None) -> dict[str, datetime]:
    """The seats away at `at`, each with its return."""
    return {p: until for p, until in AWAY.of(state) if at is not None and until > at}


def after_return(state: GameState, player: str, moment: datetime) -> datetime:
    """`moment` (a seat's last post, a nudge due) or its return from an absence, whichever is
    later."""
    back = back_at(state, player)
    return max(moment, back) if back is not None else moment


def resolve(action: GoAway, at: datetime) -> datetime:
    """The moment `action` names, seen from `at` (ValueError: a date that does not exist;
    OverflowError: one `datetime` cannot hold, at the edge of year 1 or 9999 in its zone)."""
    if action.hours is not None:
        return at + timedelta(hours=action.hours)
    zone = timezone(timedelta(minutes=action.offset_minutes))
    hour, minute = (int(x) for x in action.time.split(":"))
    if action.date is not None:
        local = datetime.fromisoformat(action.date).replace(hour=hour, minute=minute, tzinfo=zone)
    else:
        now = at.astimezone(zone)
        local = (now + timedelta(days=((action.weekday or 0) - now.weekday()) % 7)).replace(
            hour=hour, minute=minute, second=0, microsecond=0)
        if local <= now:
            local += timedelta(days=7)
    return local.astimezone(UTC)


def _go_away(state: GameState, action: GoAway, ctx: Context) -> tuple[PlayerAway] | Rejection:
    try:
        until = resolve(action, ctx.at)
    except ValueError:
        return reject(ctx, "away_form", text=action.date or "")
    except OverflowError:  # 9999-12-31 23:59 -14:00 is in year 10000 in UTC
        return reject(ctx, "away_range", text=action.date or "")
    if until <= ctx.at:
        return reject(ctx, "away_past", until=until)
    longest = ctx.at + timedelta(hours=state.setup.away_hours_max)
    return (PlayerAway(ctx.author, min(until, longest), until, ctx.at),)


def _come_back(state: GameState, _action: ComeBack, ctx: Context) -> tuple[PlayerBack] | Rejection:
    if ctx.author not in away_now(state, ctx.at):
        return reject(ctx, "not_away")
    return (PlayerBack(ctx.author, ctx.at),)


def _kept(state: GameState, player: str, until: datetime) -> GameState:
    return AWAY.put(state, (*(a for a in AWAY.of(state) if a[0] != player), (player, until)))


def _told_away(state: GameState, event: PlayerAway, _batch: object) -> tuple[Notice, ...]:
    capped = event.until < event.asked
    key = f"away:{event.player}:{iso(event.at)}"
    return (to_player(event.player, "away", key, until=event.until, capped=capped,
                      hours=state.setup.away_hours_max, back=False),
            to_storytellers("st_note", f"{key}:st", text=say("st.away_capped" if capped else "st.away",
                                                     player=event.player, until=event.until,
                                                     hours=state.setup.away_hours_max)))


def _told_back(_state: GameState, event: PlayerBack, _batch: object) -> tuple[Notice, ...]:
    key = f"back:{event.player}:{iso(event.at)}"
    return (to_player(event.player, "away", key, until=None, capped=False, hours=0, back=True),
            to_storytellers("st_note", f"{key}:st", text=say("st.back", player=event.player)))


FEATURE = Feature(
    "away notices",
    appliers={PlayerAway: lambda state, e: _kept(state, e.player, e.until),
              PlayerBack: lambda state, e: _kept(state, e.player, e.at)},
    rules={GoAway: _go_away, ComeBack: _come_back},
    notices={PlayerAway: _told_away, PlayerBack: _told_back},
    slots=(AWAY,),
)

"""Theory of operation: the grammar of `/away`, one line's rest in, a `GoAway` or None out.

`/away until 2026-12-05 18:00`, `/away until 2026-12-05` (its start), `/away until friday
18:00` (the next Friday after the post), each in UTC unless a zone follows: an offset (`+02:00`,
`-5`, `UTC+2`, `GMT-0530`) or a common abbreviation (`CET`, `EST`, … in `ZONES`); and `/away 2d`,
`/away 36h`, `/away 1d 12h`: that long from the post. The core keeps no time-zone database (a
file read is I/O), so a zone name like `Europe/Paris` is not read: the player is told the forms.
Nothing here knows the time: the rule (deciding/away.py) resolves the moment against the post's
`created_at`.
"""

from __future__ import annotations

import re

from ..state.actions import GoAway

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# fixed offsets (hours east of UTC) of the abbreviations players write
ZONES = {"utc": 0, "gmt": 0, "z": 0, "wet": 0, "west": 1, "bst": 1, "cet": 1, "cest": 2, "eet": 2,
         "eest": 3, "msk": 3, "ist": 5.5, "jst": 9, "kst": 9, "aest": 10, "aedt": 11, "nzst": 12,
         "nzdt": 13, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8,
         "pdt": -7, "akst": -9, "akdt": -8, "hst": -10}
_DURATION = re.compile(r"^(?:(\d{1,3})\s*d(?:ays?)?)?\s*(?:(\d{1,4})\s*h(?:ours?)?)?$", re.IGNORECASE)
_MOMENT = re.compile(r"^until\s+(?P<day>\d{4}-\d{2}-\d{2}|[a-z]+)(?:[ T](?P<time>\d{1,2}:\d{2}))?"
                     r"(?:\s+(?P<zone>\S+))?$", re.IGNORECASE)
_OFFSET = re.compile(r"^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)


def read_away(rest: str) -> GoAway | None:
    """The absence `rest` names (what follows `/away`), or None when it names none."""
    rest = rest.strip().rstrip(".")
    duration = _DURATION.match(rest)
    if duration and rest and any(duration.groups()):
        days, hours = (int(g) if g else 0 for g in duration.groups())
        return GoAway(hours=days * 24 + hours) if days or hours else None
    moment = _MOMENT.match(rest)
    if moment is None:
        return None
    offset = zone_offset(moment.group("zone") or "utc")
    time = moment.group("time") or "00:00"
    hour, minute = (int(x) for x in time.split(":"))
    if offset is None or hour > 23 or minute > 59:
        return None
    day = moment.group("day").casefold()
    time = f"{hour:02d}:{minute:02d}"
    if day[0].isdigit():
        return GoAway(date=day, time=time, offset_minutes=offset)
    weekday = next((i for i, name in enumerate(WEEKDAYS) if name.startswith(day) and len(day) >= 3), None)
    return GoAway(weekday=weekday, time=time, offset_minutes=offset) if weekday is not None else None


def zone_offset(zone: str) -> int | None:
    """Minutes east of UTC of a zone as players write it (None: not one we read)."""
    lowered = zone.casefold()
    if lowered in ZONES:
        return round(ZONES[lowered] * 60)
    match = _OFFSET.match(lowered)
    if match is None:
        return None
    sign, hours, minutes = match.group(1), int(match.group(2)), int(match.group(3) or 0)
    if hours > 14 or minutes > 59:
        return None
    return (hours * 60 + minutes) * (-1 if sign == "-" else 1)

"""The opening post of a game thread, rendered from the game file."""

from __future__ import annotations

from datetime import timedelta

from ..core import GameSetup
from .render import render
from .views import date_tag


def opening_post(setup: GameSetup, guide_url: str | None = None) -> str:
    """The schedule, the seats and the voting rules, then a short guide folded in a
    `[details]` block (with a link to the full player guide when the configuration has one)."""
    lengths = setup.lengths
    discussion = setup.first_night_starts + timedelta(hours=lengths.night)
    nomination = discussion + timedelta(hours=lengths.discussion)
    voting = nomination + timedelta(hours=lengths.nomination)
    day1 = {"discussion": date_tag(discussion), "nomination": date_tag(nomination),
            "voting": date_tag(voting),
            "end": date_tag(voting + timedelta(hours=lengths.voting))}
    return render("opening_post.md.j2", game=setup, lengths=lengths, day1=day1,
                  night1=date_tag(setup.first_night_starts),
                  has_travellers=any(s.traveller for s in setup.seats), guide_url=guide_url)

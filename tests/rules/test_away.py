"""Away notices (issue 41, deciding/away.py), at the core as codes and values: `/away` in the
thread or a PM pauses the seat's prods and clock-hand nudges until its return (at most
`away_hours_max`), the player and the Storytellers are told, the vote count names the seat as
away, `/back` ends it; a form that names no moment, or one already past, is answered and
changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from modbot.core import PLAYER, STORYTELLERS
from modbot.core.deciding.away import AWAY, resolve
from modbot.core.reading.away_form import read_away
from modbot.core.wording import say

from ..conversation import seven
from ..notices import day_one, of

H = timedelta(hours=1)
GAME = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
WEDNESDAY = datetime(2026, 12, 2, 15, 30, tzinfo=UTC)


def _day(**setup) -> tuple:
    return day_one(seven(*GAME, **setup))


def _prods(told) -> list[str]:
    return [n.player for n in told if n.template == "prod"]


def _everyone_but(told, player, at):
    for seat in ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"):
        if seat != player:
            told.thread(seat, "Still here, reading along.", at)


@pytest.mark.parametrize(("text", "until"), [
    ("until 2026-12-05 18:00", datetime(2026, 12, 5, 18, tzinfo=UTC)),
    ("until 2026-12-05", datetime(2026, 12, 5, tzinfo=UTC)),
    ("until 2026-12-05 18:00 +02:00", datetime(2026, 12, 5, 16, tzinfo=UTC)),
    ("until 2026-12-05 18:00 EST", datetime(2026, 12, 5, 23, tzinfo=UTC)),
    ("until friday 18:00 CET", datetime(2026, 12, 4, 17, tzinfo=UTC)),
    ("until wed 12:00", datetime(2026, 12, 9, 12, tzinfo=UTC)),  # today's noon has passed
    ("until wednesday 18:00", datetime(2026, 12, 2, 18, tzinfo=UTC)),  # later today
    ("2d", WEDNESDAY + 48 * H),
    ("1d 12h", WEDNESDAY + 36 * H),
])
def test_each_form_names_its_moment_from_the_posts_time(text, until):
    away = read_away(text)
    assert away is not None and resolve(away, WEDNESDAY) == until


@pytest.mark.parametrize("text", ["", "soon", "until tomorrow", "until 2026-12-05 25:00",
                                  "until 2026-12-05 18:00 Europe/Paris", "0d", "until funday"])
def test_a_form_that_names_no_moment_is_none(text):
    assert read_away(text) is None


def test_away_pauses_the_prods_until_the_return_then_counts_from_it():
    told, dawn = _day(prod_hours=4)
    _everyone_but(told, "Gus", dawn + H)
    said = told.thread("Gus", "/away 10h\nA family dinner tonight, back later.", dawn + 2 * H)
    (ack,) = of(said, "away")
    assert (ack.to, ack.player, ack.view["until"], ack.view["capped"]) == (PLAYER, "Gus", dawn + 12 * H, False)
    (note,) = of(said, "st_note")
    assert note.to == STORYTELLERS and note.view["text"] == say(
        "st.away", player="Gus", until=dawn + 12 * H, hours=72)
    assert "Gus" not in _prods(told.tick(dawn + 11 * H))  # quiet 9 hours, but away
    assert "Gus" not in _prods(told.tick(dawn + 15 * H))
    assert "Gus" in _prods(told.tick(dawn + 16 * H))  # four hours after the return


def test_an_absence_longer_than_the_games_limit_is_held_to_it():
    told, dawn = _day(prod_hours=4, away_hours_max=6)
    said = told.pm("Gus", "/away 5d\nOn holiday, sorry all.", dawn + H)
    (ack,) = of(said, "away")
    assert ack.view["until"] == dawn + 7 * H and ack.view["capped"] and ack.view["hours"] == 6
    (note,) = of(said, "st_note")
    assert note.view["text"].code == "st.away_capped"


def test_back_ends_the_absence_now_and_a_second_back_is_answered():
    told, dawn = _day(prod_hours=4)
    told.pm("Gus", "/away 20h\nA long shift at work.", dawn + H)
    said = told.pm("Gus", "/back\nShift got cancelled.", dawn + 3 * H)
    assert of(said, "away")[0].view["back"] and AWAY.of(told.state) == (("Gus", dawn + 3 * H),)
    assert of(said, "st_note")[0].view["text"] == say("st.back", player="Gus")
    told.pm("Gus", "/back\nI am really back.", dawn + 4 * H)
    assert [r.code for r in told.rejected] == ["not_away"]


def test_a_bad_form_or_a_past_moment_is_answered_and_changes_nothing():
    told, dawn = _day()
    told.thread("Gus", "/away for a bit\nSomething came up.", dawn + H)
    assert [r.code for r in told.rejected] == ["away_form"] and AWAY.of(told.state) == ()
    told.thread("Gus", "/away until 2026-12-01 10:00\nOops, wrong date.", dawn + H)
    assert [r.code for r in told.rejected] == ["away_past"] and AWAY.of(told.state) == ()
    told.pm("Gus", "/away until 2026-02-30\nA date that does not exist.", dawn + H)
    assert [r.code for r in told.rejected] == ["away_form"] and AWAY.of(told.state) == ()


def test_the_vote_count_names_the_seat_away_among_those_not_voted():
    told, dawn = _day()
    told.pm("Gus", "/away 30h\nTravelling tomorrow.", dawn + H)
    nominations = dawn + told.state.setup.lengths.discussion * H
    told.tick(nominations)
    said = told.thread("Alex", "/nominate Fatima\nShe is too quiet.", nominations + H)
    (count,) = [n for n in said if n.view.get("count")]
    assert count.view["count"]["away"] == {"Gus": dawn + 31 * H}
    said = told.thread("Brianna", "/vc\nWhere are we now?", dawn + 32 * H)
    (later,) = [n for n in said if n.key.startswith("asked:")]
    assert later.view["count"]["away"] == {}  # back by then


def test_a_clock_hand_nudge_due_while_away_comes_at_the_return():
    told, dawn = _day(hand_nudge_hours=2)
    nominations = dawn + told.state.setup.lengths.discussion * H
    told.tick(nominations)
    told.thread("Alex", "/nominate Derek\nDerek has been odd.", nominations)  # the hand: Ellen
    told.pm("Ellen", "/away 5h\nAt the dentist, sorry.", nominations + H)
    assert of(told.tick(nominations + 4 * H), "hand_nudge") == []
    (nudge,) = of(told.tick(nominations + 6 * H), "hand_nudge")
    assert nudge.player == "Ellen"

"""Players kept active (issue 27, deciding/activity.py), at the core as codes and values:
a prod after `prod_hours` of day without a thread post, the Storytellers told after twice
that with the next backup, night time not counted, `!prods`, and `/vc` once every 10 minutes."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from modbot.core import COUNT, PLAYER, STORYTELLERS, next_due
from modbot.core.deciding import activity
from modbot.core.deciding.activity import ACTIVITY
from modbot.core.wording import say

from ..conversation import seven
from ..notices import day_one, of, rejected

H = timedelta(hours=1)
GAME = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")


def _day(**setup) -> tuple:
    return day_one(seven(*GAME, **setup))


def _prods(told) -> list[str]:
    return [n.player for n in told if n.template == "prod"]


def test_a_quiet_player_is_prodded_once_after_prod_hours_of_day():
    told, dawn = _day(prod_hours=4)
    told.thread("Alex", "Good morning, town.", dawn + H)
    assert next_due(told.state) == dawn + 4 * H  # everyone but Alex has said nothing
    prodded = told.tick(dawn + 4 * H)
    assert sorted(_prods(prodded)) == ["Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"]
    (prod,) = [n for n in prodded if n.player == "Brianna"]
    assert (prod.to, prod.view["since"], prod.view["hours"]) == (PLAYER, None, 4)
    assert _prods(told.tick(dawn + 4 * H + 30 * timedelta(minutes=1))) == []
    (alex,) = of(told.tick(dawn + 5 * H), "prod")  # four hours after Alex's post
    assert (alex.player, alex.view["since"]) == ("Alex", dawn + H)


def test_the_storytellers_are_told_after_twice_that_with_the_next_backup():
    told, dawn = _day(prod_hours=4, backups=("Zed", "Yusuf"))
    for player in ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima"):
        told.thread(player, "Here.", dawn + 7 * H)
    told.tick(dawn + 4 * H)
    (note,) = of(told.tick(dawn + 8 * H), "st_note")
    assert note.to == STORYTELLERS
    assert note.view["text"] == say("st.quiet_backup", player="Gus", hours=8, backup="Zed")
    assert ACTIVITY.of(told.state).prodded == (("Gus", 2),)
    told.st("!sub Gus Zed --yes", dawn + 9 * H)
    (listed,) = of(told.st("!prods", dawn + 9 * H), "st_prods")
    assert listed.view["backup"] == "Yusuf"  # Zed now holds a seat


def test_a_post_clears_the_prods_and_starts_the_quiet_time_again():
    told, dawn = _day(prod_hours=4)
    told.tick(dawn + 4 * H)
    told.thread("Gus", "Sorry, I was away.", dawn + 6 * H)
    assert dict(ACTIVITY.of(told.state).prodded).get("Gus") is None
    told_now = of(told.tick(dawn + 9 * H), "st_note")
    assert len(told_now) == 6 and "Gus" not in str([n.view for n in told_now])  # Gus spoke
    assert "Gus" in _prods(told.tick(dawn + 10 * H))  # four hours after the post


def test_night_time_is_not_counted():
    """A day lasts 48 hours here; a 50-hour prod falls two hours into the next day."""
    told, dawn = _day(prod_hours=50)
    day_ends = dawn + 48 * H
    assert activity.due(told.state) == dawn + 50 * H  # only if the day lasted that long
    told.tick(day_ends)
    assert activity.due(told.state) is None  # night: no quiet time accrues
    assert told.state.phase.value == "night"
    dawn2 = told.state.phase_ends_at
    told.tick(dawn2 - 2 * H)  # the night's lock: the sheet
    told.approve(dawn2 - H)
    told.tick(dawn2)
    day2 = told.state.today.started_at
    assert activity.due(told.state) == day2 + 2 * H
    assert len(_prods(told.tick(day2 + 2 * H))) == 7


def test_prods_can_be_turned_off():
    told, dawn = _day(prod_hours=0)
    assert _prods(told.tick(dawn + 40 * H)) == []


def test_prods_lists_the_living_by_how_long_they_have_been_quiet():
    told, dawn = _day(prod_hours=24, backups=("Zed",))
    told.thread("Alex", "Hello.", dawn + 2 * H)
    told.thread("Brianna", "Hello.", dawn + 5 * H)
    told.st("!kill Gus --yes", dawn + 5 * H)
    (listed,) = of(told.st("!prods", dawn + 6 * H), "st_prods")
    quiet = [(q["player"], q["hours"]) for q in listed.view["quiet"]]
    assert quiet[:2] == [("Cameron", 6), ("Derek", 6)] and quiet[-2:] == [("Alex", 4),
                                                                           ("Brianna", 1)]
    assert "Gus" not in [p for p, _ in quiet] and listed.view["backup"] == "Zed"


def test_a_player_asks_for_the_count_at_most_once_every_ten_minutes():
    told, dawn = _day()
    (count,) = [n for n in told.thread("Alex", "/vc", dawn + H) if n.count == COUNT]
    assert count.key == f"asked:{(dawn + H).strftime('%Y-%m-%dT%H:%M:%SZ')}"
    told.thread("Brianna", "/vc", dawn + H + 5 * timedelta(minutes=1))
    assert rejected(told) == ["vc_too_soon"]
    assert told.rejected[0].params == {"at": dawn + H, "next": dawn + H + 10 * timedelta(
        minutes=1)}
    asked = told.pm("Cameron", "/vc", dawn + H + 10 * timedelta(minutes=1))  # by PM too
    assert [n.count for n in asked] == [COUNT] and rejected(told) == []


def test_a_count_asked_for_at_night_is_answered_why_not():
    told, dawn = _day()
    told.st("!endday --yes", dawn + H)
    told.thread("Alex", "/vc", dawn + 2 * H)
    assert rejected(told) == ["vc_no_day"]


def test_vc_inside_a_sentence_is_prose():
    told, dawn = _day()
    assert [n for n in told.thread("Alex", "/vc please, anyone?", dawn + H)
            if n.count == COUNT] == []


@given(st.lists(st.tuples(st.sampled_from(("Alex", "Brianna", "Cameron", "Gus", "tick")),
                          st.integers(1, 240)), max_size=25))
@settings(max_examples=60, deadline=None)
def test_the_earliest_prod_due_is_the_first_the_clock_fires(steps):
    """`due` takes the quietest seat of each level from one pass over the last posts (asked
    after every post); it must name the moment of the first prod the per-seat list fires."""
    told, dawn = _day(prod_hours=2, backups=("Zed",))
    at = dawn
    for who, minutes in steps:
        at += minutes * timedelta(minutes=1)
        if who == "tick":
            told.tick(at)
        else:
            told.thread(who, f"Thinking out loud at {at:%H:%M}.", at)
        waiting = activity._waiting(told.state)
        assert activity.due(told.state) == (waiting[0][0] if waiting else None)

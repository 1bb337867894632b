"""A deadline that no longer applies (issue 56, app/posting/countdowns.py): the thread posts
that counted down to it are edited to say so, when a day ends before its deadline or the game
ends; a deadline that comes as planned is left as Discourse shows it."""

from __future__ import annotations

from datetime import timedelta

from modbot.app.posting.countdowns import expired

from ..conversation import botf_setup, day_one

H = timedelta(hours=1)


def _edits(said):
    return [s for s in said if ":ended:" in s.key]


def _voting(talk, dawn):
    talk.tick(dawn + 12 * H)  # nominations
    talk.thread("Alex", "/nominate Derek\nI nominate Derek.", dawn + 13 * H)
    return talk.tick(dawn + 24 * H)  # voting: the post counts down to the day's end


def test_a_day_ended_early_edits_its_countdowns_to_say_so():
    talk, dawn = day_one(botf_setup())
    opened = _voting(talk, dawn)
    deadline = talk.state.phase_ends_at
    assert any(f"time={deadline:%H:%M:%S}" in s.raw and 'countdown="true"' in s.raw
               for s in opened if s.thread == "topic")
    said = talk.st("!endday --yes", dawn + 25 * H)
    (edit,) = [s for s in _edits(said) if s.thread == "topic" and "Nominations are closed" in s.raw]
    assert "no longer applies: the day ended" in edit.raw
    assert f'time={deadline:%H:%M:%S} timezone="UTC" countdown' not in edit.raw


def test_the_games_end_edits_the_nights_countdowns():
    talk, dawn = day_one(botf_setup())
    _voting(talk, dawn)
    talk.tick(talk.state.phase_ends_at)  # the day ends at its deadline: night 2
    said = talk.st("!win good the town prevailed --yes", talk.state.phase_ends_at - 20 * H)
    assert _edits(said) and all("no longer applies: the game ended" in s.raw
                                for s in _edits(said))


def test_a_deadline_that_comes_as_planned_is_left_alone():
    talk, dawn = day_one(botf_setup())
    _voting(talk, dawn)
    said = talk.tick(talk.state.phase_ends_at)
    assert _edits(said) == []


def test_only_the_countdowns_past_the_end_change():
    raw = ('Until [date=2026-12-04 time=18:00:00 timezone="UTC" countdown="true"], '
           'since [date=2026-12-03 time=06:00:00 timezone="UTC" countdown="true"].')
    from datetime import UTC, datetime
    out = expired(raw, datetime(2026, 12, 3, 20, tzinfo=UTC), "countdown.day_ended")
    assert out.count('countdown="true"') == 1 and "06:00:00" in out
    assert '[date=2026-12-04 time=18:00:00 timezone="UTC"] (no longer applies: the day ended ' \
           '[date=2026-12-03 time=20:00:00 timezone="UTC"])' in out


def test_a_snapshot_keeps_the_countdowns_and_a_restart_edits_from_the_stores_words():
    """The reactor's countdowns go into the game's snapshot (its posts' places and deadlines,
    never their unrendered words); restored, the edit reads the post's words from the store."""
    from modbot.app.games.runtime import GameRuntime
    from modbot.app.recovery import snapshot

    talk, dawn = day_one(botf_setup())
    opened = {s.key: s.raw for s in _voting(talk, dawn)}
    data = snapshot.take(talk.runtime)  # would raise on a post's unpicklable body
    old = talk.runtime
    talk.runtime = GameRuntime(old.setup, old.options, old.game_id)
    assert snapshot.restore(talk.runtime, data)
    talk.runtime.reactor.newest_raw = opened.get  # what the store holds, after a restart
    said = talk.st("!endday --yes", dawn + 25 * H)
    (edit,) = [s for s in _edits(said) if s.key.startswith("g1:voting:1:")]
    assert "Nominations are closed" in edit.raw and "no longer applies" in edit.raw

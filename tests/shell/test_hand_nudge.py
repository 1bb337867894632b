"""The clock hand that stalls (issue 16): after `hand_nudge_hours` on one player, that player
gets one PM; the vote count says since when the hand waits."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from types import SimpleNamespace

from modbot.app.games.runtime import GameRuntime
from modbot.app.posting.reactions import GameOptions
from modbot.core import Phase, Post

from ..conversation import botf_setup, day_one, to

H = timedelta(hours=1)


def _nominated(**setup_changes):
    talk, dawn = day_one(dataclasses.replace(botf_setup(), **setup_changes))
    at = dawn
    while talk.state.phase is not Phase.NOMINATION:
        at += H
        talk.tick(at)
    talk.thread("Brianna", "/nominate Derek\nHe has been quiet all day.", at)
    return talk, at  # the hand waits on Ellen (the seat below Derek) from `at`


def _nudges(said) -> list:
    return [s for s in said if s.raw.startswith("## The clock hand is waiting on you")]


def test_the_player_the_hand_waits_on_gets_one_nudge_after_six_hours():
    talk, at = _nominated()
    assert _nudges(talk.tick(at + 5 * H)) == []
    (nudge,) = _nudges(talk.tick(at + 6 * H))
    assert nudge.thread == "pm:ellen" and "**Derek**" in nudge.raw
    assert "`/vote Derek yes`" in nudge.raw and "[date=" in nudge.raw
    assert _nudges(talk.tick(at + 7 * H)) == [] and _nudges(talk.tick(at + 12 * H)) == []


def test_the_next_player_waits_their_own_six_hours():
    talk, at = _nominated()
    talk.tick(at + 6 * H)
    talk.thread("Ellen", "/vote Derek yes\nSorry, I was away.", at + 8 * H)  # locks; Fatima next
    assert _nudges(talk.tick(at + 13 * H)) == []
    (nudge,) = _nudges(talk.tick(at + 14 * H))
    assert nudge.thread == "pm:fatima"


def test_a_restart_remembers_the_nudge_it_sent():
    """The tick that sent a nudge is stored like an input: folding the stored inputs after a
    restart rebuilds the memory, and the next tick sends nothing."""
    setup = dataclasses.replace(botf_setup(), script=None, grimoire=(), bluffs=())
    first = GameRuntime(setup, GameOptions(1, "g1", pictures=False), 1)
    stored = []

    def keep(step):
        if step.input:
            stored.append(SimpleNamespace(**{"post_id": None, "post_number": None, "author": None,
                                             "raw": None, **step.input}))
        return step.outgoing
    at = setup.first_night_starts
    while first.state.phase is not Phase.NOMINATION:
        at += H
        keep(first.on_tick(at))
    keep(first.on_post(Post(2, "Brianna", at, "/nominate Derek\nHe has been quiet all day.", 1)))
    sent = keep(first.on_tick(at + 6 * H))
    assert [o.key for o in sent if ":nudge:" in o.key] == ["g1:nudge:1:execution:Derek:Ellen"]

    again = GameRuntime(setup, GameOptions(1, "g1", pictures=False), 1)
    again.load(stored)
    assert [o.key for o in again.on_tick(at + 7 * H).outgoing if ":nudge:" in o.key] == []


def test_no_nudge_when_the_game_turns_them_off():
    talk, at = _nominated(hand_nudge_hours=0)
    assert _nudges(talk.tick(at + 24 * H)) == []


def test_the_vote_count_says_since_when_the_hand_waits():
    talk, at = _nominated()
    said = talk.st("!vc", at + 2 * H)
    (count,) = [s for s in to(said, "topic") if s.startswith("## Vote count")]
    assert "Clock hand: **Ellen**, waiting since [date=" in count

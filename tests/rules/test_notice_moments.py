"""Each notice is told from the state right after the event that made it (registry.py's
`states_after`, issue 54), never from one a later event of its batch made; a dawn is told once
the dawn is over (its night's effects and deaths applied)."""

from __future__ import annotations

from datetime import timedelta

from modbot.core import GameState, advance, handle_post, states_after
from modbot.core.state.events import DayEnded, Nominated, PhaseChanged
from modbot.core.state.private_events import NightResolved

from ..conversation import NIGHT1_LOCK, START
from ..notices import Told, day_one
from .test_registration import _setup

H = timedelta(hours=1)


def test_a_nomination_is_told_before_the_day_it_ended_with():
    """The Virgin nominated by a Townsfolk: the nominator is executed at once and the day ends
    in the same batch; the nomination's notice sees the day open, the nominator alive."""
    told, day = day_one(_setup("virgin", "chef", "soldier", "poisoner", "imp", "monk",
                               "undertaker"))
    told.tick(day + 12 * H)
    before: GameState = told.state
    outcome = handle_post(before, told_post(told, "Brianna", "/nominate Alex", day + 13 * H))
    batch = outcome.events
    states = states_after(before, batch)
    nominated = next(i for i, e in enumerate(batch) if isinstance(e, Nominated))
    assert any(isinstance(e, DayEnded) for e in batch[nominated:])
    seen = states[nominated]
    assert seen.phase.is_day and seen.seat("Brianna").alive
    assert seen.today is not None and seen.today.nomination_of("Alex") is not None
    assert not outcome.state.seat("Brianna").alive and states[-1] == outcome.state


def test_a_dawn_is_told_once_its_night_effects_are_applied():
    """The Poisoner's choice is applied at dawn, after the dawn's own `NightResolved`: the
    dawn's notices (the PMs, the observers' digest, the Spy's sight) see the poison."""
    told = Told(_setup("empath", "spy", "soldier", "poisoner", "imp", "monk", "undertaker"))
    told.tick(START)
    told.pm("Derek", "/choose Brianna", START + H)
    told.tick(NIGHT1_LOCK)
    told.approve(NIGHT1_LOCK + H)
    before = told.state
    outcome = advance(before, before.phase_ends_at)
    batch = outcome.events
    states = states_after(before, batch)
    dawn = next(i for i, e in enumerate(batch) if isinstance(e, NightResolved))
    day = next(i for i, e in enumerate(batch) if i > dawn and isinstance(e, PhaseChanged))
    assert states[dawn] == states[day] and states[dawn].grimoire_of("Brianna").poisoned
    assert not states_after(before, batch[:dawn + 1])[-1].grimoire_of("Brianna").poisoned


def told_post(told, author: str, raw: str, at):
    from modbot.core import Post
    told.number += 1
    return Post(told.number, author, at, raw)

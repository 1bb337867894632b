"""Every notice of every character scenario, rendered through the real templates (issue 54).

The rule tests' scenarios (one per character the bot runs: tests/rules/test_scenarios.py,
test_trouble_brewing.py, test_registration.py, test_tb_travellers.py,
test_bad_moon_rising.py, test_bmr_travellers.py) assert codes and values and never render; a
notice whose view lacks what its template reads (the Virgin's `execution_told`, found by
issue 54) would pass them and fail on the forum. Here each scenario runs again with each step
of the core harness told as the shell tells it (app/posting/reactions.py's `Reactor`: vote
counts, day ends and every notice, each post rendered through the real templates): none may
raise, none may be empty or show a raw code."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from modbot.app.posting.reactions import GameOptions, Reactor

from .. import notices as harness
from ..rules.test_bad_moon_rising import BMR_SCENARIOS
from ..rules.test_bmr_days import BMR_DAYS
from ..rules.test_bmr_fabled import BMR_FABLED
from ..rules.test_bmr_travellers import BMR_TRAVELLERS
from ..rules.test_registration import TB_REGISTRATION
from ..rules.test_scenarios import SCENARIOS
from ..rules.test_tb_travellers import TB_TRAVELLERS
from ..rules.test_trouble_brewing import TB_SCENARIOS

ALL = {**SCENARIOS, **{f"tb:{k}": v for k, v in TB_SCENARIOS.items()},
       **{f"registration:{k}": v for k, v in TB_REGISTRATION.items()},
       **{f"travellers:{k}": v for k, v in TB_TRAVELLERS.items()},
       **{f"bmr:{k}": v for k, v in BMR_SCENARIOS.items()},
       **{f"bmr-travellers:{k}": v for k, v in BMR_TRAVELLERS.items()},
       **{f"bmr-days:{k}": v for k, v in BMR_DAYS.items()},
       **{f"bmr-fabled:{k}": v for k, v in BMR_FABLED.items()}}
SET_UP_ONLY = {"tb:baron", "bmr-fabled:sentinel"}  # a check of the set-up's counts: no game is played
RAW_CODE = re.compile(r"\b(?:info|result|sheet|rejection|effect|tell)\.[a-z_]+\b")


@pytest.fixture
def collected(monkeypatch):
    seen: list = []
    told = harness.Told._told
    reactors: dict[int, Reactor] = {}

    def collecting(self, outcome):
        """Each step's events told as the shell tells them (its `Reactor`, one a game, no
        pictures), every post rendered."""
        out = told(self, outcome)
        reactor = reactors.setdefault(id(self), Reactor(GameOptions(1, "t", pictures=False)))
        moments = [e.at for e in outcome.events if isinstance(getattr(e, "at", None), datetime)]
        at = max(moments) if moments else outcome.state.phase_ends_at
        seen.extend((post.kind, post.key, post.raw) for post in reactor.react(
            outcome.state, outcome.events, outcome.rejections, at=at, command=outcome.command))
        return out

    monkeypatch.setattr(harness.Told, "_told", collecting)
    return seen


@pytest.mark.parametrize("scenario", sorted(ALL))
def test_every_notice_of_the_scenario_renders(scenario, collected):
    ALL[scenario]()
    assert bool(collected) != (scenario in SET_UP_ONLY), "the scenario told nobody anything"
    for kind, key, text in collected:
        assert text.strip() or kind != "post", key
        assert not RAW_CODE.search(text), (RAW_CODE.search(text), text)


def test_the_grimoire_table_shows_the_kept_registrations():
    from modbot.app.posting.catalogue import words
    from modbot.core.night.grimoire_table import grimoire_rows

    from ..notices import day_one
    from ..rules.test_registration import RECLUSE_GAME, _setup

    told, day = day_one(_setup(*RECLUSE_GAME))
    told.st("!registers Brianna as imp to fortune teller\n!registers Brianna as evil", day)
    row = next(r for r in grimoire_rows(told.state) if r.player == "Brianna")
    assert [words(s) for s in row.status] == ["registers as Imp to the Fortune Teller",
                                              "registers as evil to every ability"]

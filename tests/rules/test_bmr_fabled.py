"""The official Fabled (issue 55): the Sentinel's Outsider more or fewer in the set-up check,
the Doomsayer's call (`/doomsayer`, told to the Storytellers), the Spirit of Ivory's cap (a
second extra evil player said to them),
and a row on each night sheet for each Fabled the Storytellers run (the Toymaker's says whether
the Demon has chosen no one yet, the Ferryman's whose vote tokens are spent)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from modbot.core.setup.composition import problems

from ..conversation import ALL, seven
from ..notices import day_one, night_sheet, rejected, says

H = timedelta(hours=1)


def _check(setup):
    return problems(ALL, setup.seats, dict(setup.grimoire), setup.bluffs, fabled=setup.fabled)


def test_the_sentinel_allows_one_outsider_more_or_fewer():
    one_more = seven("chef", "empath", "saint", "poisoner", "imp", "monk", "soldier")
    assert [p.code for p in _check(one_more)] == ["setup.count", "setup.count"]
    with_sentinel = replace(one_more, fabled=("sentinel",))
    assert _check(with_sentinel) == []
    as_usual = replace(seven("chef", "empath", "mayor", "poisoner", "imp", "monk", "soldier"),
                       fabled=("sentinel",))
    assert _check(as_usual) == []



def test_each_night_sheet_recalls_the_fabled_the_storytellers_run():
    setup = replace(seven("chef", "empath", "mayor", "poisoner", "imp", "monk", "soldier"),
                    fabled=("toymaker", "ferryman", "angel", "sentinel"))
    entries, _, _ = night_sheet(setup)
    assert says(entries["toymaker"].suggestion, "sheet.toymaker")
    assert says(entries["toymaker"].suggestion, "sheet.toymaker_not_yet")
    assert says(entries["ferryman"].suggestion, "sheet.ferryman", living=7)
    assert says(entries["angel"].suggestion, "sheet.fabled_rule")
    assert "sentinel" not in entries  # the set-up check applies it


def test_the_toymaker_row_says_when_the_demon_chose_no_one():
    setup = replace(seven("chef", "empath", "mayor", "poisoner", "imp", "monk", "soldier"),
                    fabled=("toymaker",))
    told, day = day_one(setup)
    told.end_day(day + 12 * H)
    told.pm("Ellen", "/pass", told.state.phase_ends_at - 3 * H)  # the Imp attacks no one
    told.tick(told.state.phase_ends_at - 2 * H)
    assert told.state.night.deaths == ()
    told.approve(told.state.phase_ends_at - H)
    told.dawn()
    told.end_day(told.state.phase_ends_at - H)
    told.tick(told.state.phase_ends_at - 2 * H)
    row = next(e for e in told.state.night.sheet if e.step == "toymaker")
    assert says(row.suggestion, "sheet.toymaker_done")



def test_a_doomsayer_call_tells_the_storytellers_once_a_player():
    setup = replace(seven("chef", "empath", "mayor", "poisoner", "imp", "monk", "soldier"),
                    fabled=("doomsayer",))
    told, day = day_one(setup)
    said = told.thread("Derek", "/doomsayer\nOne of us goes.", day + H)
    (note,) = [n for n in said if n.template == "st_note"]
    assert says(note.view["text"], "st.doomsayer", player="Derek", team="evil")
    told.thread("Derek", "/doomsayer\nAgain!", day + 2 * H)
    assert rejected(told) == ["doomsayer_called"]


def test_without_the_doomsayer_a_call_is_refused():
    told, day = day_one(seven("chef", "empath", "mayor", "poisoner", "imp", "monk", "soldier"))
    told.thread("Derek", "/doomsayer\nOne of us goes.", day + H)
    assert rejected(told) == ["no_doomsayer"]


def test_the_spirit_of_ivory_warns_of_a_second_extra_evil_player():
    setup = replace(seven("chef", "empath", "mayor", "poisoner", "imp", "monk", "soldier"),
                    fabled=("spiritofivory",))
    told, day = day_one(setup)
    said = told.st("!alignment Alex evil", day + H)  # one extra evil player: allowed
    assert told.state.grimoire_of("Alex").alignment == "evil"
    assert [n for n in said if n.template == "st_note"] == []
    said = told.st("!alignment Brianna evil", day + 2 * H)
    (note,) = [n for n in said if n.template == "st_note"]
    assert says(note.view["text"], "st.spirit_of_ivory", players=("Alex", "Brianna"))


BMR_FABLED = {"sentinel": test_the_sentinel_allows_one_outsider_more_or_fewer}


def test_bad_moon_rising_ships_as_a_script_a_game_names_and_deals():
    """`script = "badmoonrising"`: the Script Tool's ids, no terms; the bot runs all 30, and
    a proposed set-up for ten players is legal."""
    import random

    from modbot.core.setup.proposing import propose
    from modbot.core.state.model import Seat
    from modbot.files.scripts import load_script

    bundled = load_script("badmoonrising")
    assert len(bundled.characters) == 30
    assert bundled.run_by_storytellers == ()  # the bot runs all 30
    seats = tuple(Seat(f"P{n}") for n in range(10))
    grimoire, bluffs = propose(bundled, seats, random.Random(7))
    assert problems(bundled, seats, grimoire, bluffs) == [] and len(bluffs) == 3

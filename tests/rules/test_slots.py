"""A feature's state is its own slot (core/state/slots.py): read with its empty value when
unset, written without touching the other slots, freed when emptied, and declared once."""

import pytest

from modbot.core import registry
from modbot.core.characters.boomdandy import BOOM, Boom
from modbot.core.characters.fabled import FABLED
from modbot.core.deciding.away import AWAY
from modbot.core.state.slots import Slot

from ..conversation import seven
from ..helpers import START
from ..notices import Told


def test_a_slot_reads_empty_keeps_the_others_and_frees_itself():
    state = Told(seven("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")).state
    assert BOOM.of(state) == Boom() and state.slots == ()
    boomed = BOOM.put(state, Boom(boomed="Alex"))
    away = AWAY.put(boomed, (("Gus", START),))
    assert BOOM.of(away).boomed == "Alex" and AWAY.of(away) == (("Gus", START),)
    assert FABLED.of(away) == FABLED.empty
    freed = BOOM.put(away, Boom())
    assert [name for name, _ in freed.slots] == ["away"]
    assert BOOM.of(state) == Boom()  # the state it came from is unchanged


def test_every_slot_is_declared_once():
    assert {"boomdandy", "fabled", "hells_librarian", "good_lost", "untold", "public abilities",
            "activity", "away", "shielded"} <= set(registry.SLOTS)
    with pytest.raises(ValueError, match="slot 'away' is declared twice"):
        registry._merged([("away", {"away": AWAY}), ("mine", {"away": Slot("away", ())})], "slot")

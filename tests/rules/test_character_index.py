"""Where each character's rules live is computed from the source (modbot/cli/doctables.py): the
catalogue lists every character the scripts hold, and outside the characters package a
character is named by a constant of `state/ids.py`, never by a string."""

import pytest

from modbot.cli.doctables import (
    CHARACTERS_PACKAGE,
    ID_CONSTANTS,
    OTHER_MEANINGS,
    PACKAGE,
    named_in,
    rule_modules,
    where_rules_live,
)
from modbot.core.state import ids
from modbot.files.scripts import bundled_scripts, catalogue, load_script


def test_every_character_of_the_scripts_is_in_the_catalogue_and_every_constant_names_one():
    on_scripts = {c.id for name in bundled_scripts() for c in load_script(name).characters}
    assert on_scripts <= set(catalogue())
    assert set(ID_CONSTANTS.values()) <= set(catalogue())
    assert {k: v for k, v in vars(ids).items() if k.isupper()} == ID_CONSTANTS


@pytest.mark.parametrize("path", [p for p in rule_modules() if CHARACTERS_PACKAGE not in p.parents],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_outside_the_characters_package_no_character_id_is_a_string(path):
    strings = [(line, c) for line, c, as_string in named_in(path, set(catalogue()))
               if as_string and c not in OTHER_MEANINGS]
    assert strings == [], f"use modbot.core.state.ids: {strings}"


def test_the_index_names_the_modules_that_treat_a_character():
    assert "core.characters.effects" in where_rules_live()["monk"]
    assert "core.characters.others_choose" in where_rules_live()["lilmonsta"]
    assert where_rules_live()["artist"] == ()  # the Storytellers answer it
    assert "core.state.ids" not in {m for found in where_rules_live().values() for m in found}


def test_only_the_characters_package_treats_a_character_by_its_id():
    """Issue 54: every rule about one character lives with the characters' records; the rest
    of the code reads the record's fields by meaning (core/state/script.py's ActionSpec)."""
    outside = {m for found in where_rules_live().values() for m in found
               if not m.startswith("core.characters.")}
    assert outside == set()

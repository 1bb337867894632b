"""Every character's rules are one record (core/characters/records.py), merged from the
ability modules' declarations: the catalogue's data and the code agree on who has a night
answer, and a part declared twice is refused."""

import pytest

from modbot.core.characters import triggers
from modbot.core.characters.records import RECORDS, merged
from modbot.core.state.events import Executed, PlayerDied
from modbot.core.state.feature import CharacterRules
from modbot.files.scripts import catalogue


def test_a_character_whose_record_says_it_computes_something_has_a_night_rule():
    computed = {cid for cid, r in catalogue().items() if r["action"].get("info")}
    with_night = {cid for cid, r in RECORDS.items() if r.night is not None}
    assert computed == with_night
    assert set(RECORDS) <= set(catalogue())


def test_the_demons_share_one_kill_and_a_public_choice_is_its_own_part():
    assert RECORDS["imp"].night is RECORDS["vortox"].night is RECORDS["nodashii"].night
    assert RECORDS["klutz"].public_choice is not None and RECORDS["klutz"].night is None


def test_parts_from_two_modules_merge_and_one_part_twice_is_refused():
    def rule(*_args):
        return ()
    both = merged([CharacterRules("x", night=rule)], [CharacterRules("x", public_choice=rule)])
    assert both["x"] == CharacterRules("x", night=rule, public_choice=rule)
    with pytest.raises(ValueError, match="x: its night is declared twice"):
        merged([CharacterRules("x", night=rule)], [CharacterRules("x", night=rule)])
    triggered = merged([CharacterRules("x", triggers=((PlayerDied, rule),))],
                       [CharacterRules("x", triggers=((Executed, rule),))])
    assert [kind for kind, _ in triggered["x"].triggers] == [PlayerDied, Executed]
    with pytest.raises(ValueError, match="its trigger on \\['PlayerDied'\\] is declared twice"):
        merged([CharacterRules("x", triggers=((PlayerDied, rule),))],
               [CharacterRules("x", triggers=((PlayerDied, rule),))])


def test_a_death_asks_the_characters_triggers_in_their_declared_order():
    assert [r.id for r in triggers.CHARACTERS if r.triggers[0][0] is PlayerDied] == [
        "scarletwoman", "sweetheart", "cannibal", "lleech", "widow", "pixie"]
    assert RECORDS["lleech"].night is not None and RECORDS["lleech"].triggers[0][0] is PlayerDied

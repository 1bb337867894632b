"""Observers (issue 41, core/observers.py), at the core as codes and values: `!observer NAME
--yes` adds a forum user who does not play, who is welcomed with the grimoire and gets its
digest at each dawn (only observers and Storytellers: the observers' channel); anyone seated,
a backup or a Storyteller is refused with one line; an observer can never be subbed in."""

from __future__ import annotations

from datetime import timedelta

from modbot.core import OBSERVERS, THREAD, observers_of

from ..conversation import NIGHT1_LOCK, START, seven
from ..notices import Told, of, says

H = timedelta(hours=1)
GAME = ("chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie")


def _night_one(**setup) -> Told:
    told = Told(seven(*GAME, backups=("Zed",), **setup))
    told.tick(START)
    return told


def test_an_observer_is_invited_and_sees_the_grimoire_at_once():
    told = _night_one()
    said = told.st("!observer Quinn --yes", START + H)
    (welcome,) = of(said, "observer_welcome")
    assert (welcome.to, welcome.player) == (OBSERVERS, "Quinn")  # Quinn: invited first
    assert [(s["player"], s["character_id"]) for s in welcome.view["seats"]][:2] == [
        ("Alex", "chef"), ("Brianna", "empath")]
    assert observers_of(told.state) == ("Quinn",)
    assert not [n for n in said if n.to == THREAD]  # nothing public


def test_each_dawn_brings_the_digest_to_the_observers_only():
    told = _night_one()
    told.st("!observer Quinn --yes", START + H)
    told.pm("Brianna", "/choose Alex\nMy choice for tonight.", START + 2 * H)
    told.tick(NIGHT1_LOCK)
    said = told.approve(NIGHT1_LOCK + H)
    said += told.tick(told.state.phase_ends_at)
    (digest,) = of(said, "observer_digest")
    assert digest.to == OBSERVERS and digest.view["night"] == 1
    assert any(row["player"] == "Brianna" for row in digest.view["learned"])
    assert [n for n in said if n.template.startswith("observer") and n.to != OBSERVERS] == []


def test_no_digest_without_observers():
    told = _night_one()
    told.tick(NIGHT1_LOCK)
    said = told.approve(NIGHT1_LOCK + H) + told.tick(told.state.phase_ends_at)
    assert of(said, "observer_digest") == []


def test_players_backups_and_storytellers_are_refused_and_nothing_changes():
    told = _night_one()
    for name, code in (("Alex", "observer_plays"), ("zed", "observer_backup"),
                       ("nightingale", "observer_storyteller")):
        told.st(f"!observer {name} --yes", START + H)
        assert len(told.command.failed) == 1 and says(told.command.failed, f"rejection.{code}"), name
    assert observers_of(told.state) == ()
    told.st("!observer Quinn --yes", START + H)
    told.st("!observer @quinn --yes", START + 2 * H)
    assert says(told.command.failed, "rejection.observer_already", name="quinn")


def test_an_observer_cannot_take_a_seat():
    told = _night_one()
    told.st("!observer Quinn --yes", START + H)
    told.st("!sub Gus Quinn --yes", START + 2 * H)
    assert says(told.command.failed, "rejection.observer_sub", name="Quinn")
    assert told.state.is_seated("Gus") and not told.state.is_seated("Quinn")


def test_without_yes_it_asks_a_confirmation():
    told = _night_one()
    told.st("!observer Quinn", START + H)
    assert observers_of(told.state) == () and told.command.to_confirm

"""Theory of operation: the Imp that kills itself passes the Demon on (seeds 000 and 002).

`star_pass` proposes, for the night sheet, the Imp's death and the Minion who becomes the Imp:
an alive, sober and healthy Scarlet Woman first, else another living Minion; with several evil
teams, a Minion of the Imp's own team; a good Imp, or one with no Minion of its team alive
(its team then loses), passes to a good Minion, even a dead one. The heir is told at dawn; the
Storytellers may drop the change (`!effect N off`) and pick another with `!character`.
"""

from __future__ import annotations

from ..state.grimoire import character_id, is_evil, is_malfunctioning, players_of_team, true_character
from ..state.model import GameState
from ..state.night_model import Effect, Info
from ..wording import say


def star_pass(state: GameState, imp: str) -> Info:
    """The Imp killed itself: a Minion becomes the Imp; an alive, sober and healthy Scarlet
    Woman first (seed 002's Imp ruling). With several evil teams (seed 002), a Minion of its
    own team; a good Imp, or one with no Minion of its team alive (the team loses), passes to
    a good Minion, even a dead one: the first is proposed, the Storytellers may pick another."""
    minions = players_of_team(state, "minion")
    teams = state.setup.private_script.terms.evil_teams
    if teams and is_evil(state, imp):
        team = state.grimoire_of(imp).evil_team
        minions = [m for m in minions if state.grimoire_of(m).evil_team == team]
    elif teams:
        minions = []
    scarlet = [m for m in minions if character_id(state, m) == "scarletwoman"
               and not is_malfunctioning(state, m)]
    heir = scarlet[0] if scarlet else (minions[0] if minions else None)
    if heir is None and teams:
        return _pass_to_a_good_minion(state, imp)
    if heir is None:
        return Info(note=say("info.star_pass_no_minion"), death=imp)
    return _becomes_the_imp(imp, heir, "info.star_pass")


def _pass_to_a_good_minion(state: GameState, imp: str) -> Info:
    """Seed 002: its team loses (if evil) and a good Minion, alive or dead, becomes an Imp;
    the Minions of the losing team count as good."""
    losing = state.grimoire_of(imp).evil_team if is_evil(state, imp) else None

    def good_minion(player: str) -> bool:
        character = true_character(state, player)
        return player != imp and character is not None and character.team == "minion" and (
            not is_evil(state, player) or state.grimoire_of(player).evil_team == losing)
    living_first = sorted(state.seats, key=lambda seat: not seat.alive)
    candidates = [seat.name for seat in living_first if good_minion(seat.name)]
    if not candidates:
        return Info(note=say("info.star_pass_no_good_minion"), death=imp)
    return _becomes_the_imp(imp, candidates[0], "info.star_pass_good_minion")


def _becomes_the_imp(imp: str, heir: str, note: str) -> Info:
    return Info(note=say(note, heir=heir), death=imp,
                effects=(Effect(heir, "character", "imp", say("by.star_pass")),),
                tells=((heir, say("tell.now_the_imp")),))


__all__ = ["star_pass"]

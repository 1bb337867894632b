"""Theory of operation: the official Fabled the Storytellers run, recalled on each night sheet.

Of the official Fabled, those the bot does not automate (their records' `run`: the Angel,
the Buddhist, the Doomsayer, the Duchess, the Spirit of Ivory, the Toymaker, the Deus ex Fiasco,
the Ferryman, and the official Fiddler beside the seeds') are the Storytellers' own rules: the
thread is told them at night 1 ("Fabled in play", public_roles.py), and each night's sheet opens
with a row for each, its rule in a line, so they are applied where they matter. Two rows say
what the grimoire shows of them:
- the Toymaker ("the Demon may choose not to attack & must do this at least once per game"):
  whether the Demon has chosen no one yet (a `/pass`), so the last nights can be planned;
- the Ferryman ("on the final day, all dead players regain their vote token"): the living
  count, and the dead whose token is spent, to give back (`!ghostvote NAME give`) at the dawn
  of the final day.
"""

from __future__ import annotations

from ..state.grimoire import living_residents, players_of_team
from ..state.model import GameState
from ..state.night_model import SheetEntry
from ..wording import Say, say


def entries(state: GameState) -> list[SheetEntry]:
    """A row for each Storyteller-run Fabled in play."""
    script = state.setup.script
    out = []
    for fabled_id in state.setup.fabled:
        character = script.get(fabled_id) if script is not None else None
        if character is None or character.automated:
            continue
        out.append(SheetEntry(fabled_id, None, character.name,
                              suggestion=_note(state, fabled_id, character.ability)))
    return out


def _note(state: GameState, fabled_id: str, ability: str) -> Say:
    if fabled_id == "toymaker":
        done = "sheet.toymaker_done" if _demon_passed(state) else "sheet.toymaker_not_yet"
        return say("sheet.toymaker", when=say(done))
    if fabled_id == "ferryman":
        spent = [s.name for s in state.seats if not s.alive and not s.ghost_vote]
        return say("sheet.ferryman", living=len(living_residents(state)),
                   spent=spent or say("count.nothing"))
    return say("sheet.fabled_rule", ability=ability)


def _demon_passed(state: GameState) -> bool:
    """A Demon has chosen no one on some night already (the Toymaker's "at least once")."""
    demons = players_of_team(state, "demon", alive=False)
    return any(choice.passed for night in state.past_nights for choice in night.choices
               if choice.player in demons)


__all__ = ["entries"]

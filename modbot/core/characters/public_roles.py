"""Theory of operation: what everyone knows at the start (seed 001), for the night-1 post.

The travellers' characters and abilities (never their alignments), the Fabled in play with
their effect on the game (the Djinn's jinxes, the Revolutionary's pair), and the official
jinxes among the script's characters (a host's script: whether or not a Djinn is listed; they
are the script's, not the grimoire's). Nothing else of the grimoire: the night-1 post is public.
"""

from __future__ import annotations

from typing import Any

from ..state.ids import DJINN, REVOLUTIONARY
from ..state.model import GameState
from ..wording import say


def public_roles(state: GameState) -> dict[str, Any]:
    """The travellers and the Fabled, as the thread may be told them."""
    script = state.setup.script
    if script is None:
        return {"travellers": [], "fabled": [], "jinxes": []}
    travellers = []
    for seat in state.seats:
        character = script.get(state.grimoire_of(seat.name).character)
        if seat.traveller and character is not None:
            travellers.append({"player": seat.name, "character": character.name,
                               "ability": character.ability})
    fabled = []
    for fabled_id in state.setup.fabled:
        character = script.get(fabled_id)
        if character is None:  # the game file's check keeps the Fabled to the script's
            continue
        notes = []
        if fabled_id == DJINN:
            notes = [say("public.jinx", first=c.name, second=jinxed.name, reason=reason)
                     for c in script.characters for other, reason in c.jinxes
                     if (jinxed := script.get(other)) is not None]
        if fabled_id == REVOLUTIONARY and state.setup.revolutionary:
            notes = [say("public.revolutionary", players=state.setup.revolutionary)]
        fabled.append({"name": character.name, "ability": character.ability, "notes": notes})
    jinxes = [say("public.jinx", first=script.name_of(j.first), second=script.name_of(j.second),
                  reason=j.ruling) for j in script.official_jinxes]
    return {"travellers": travellers, "fabled": fabled, "jinxes": jinxes}

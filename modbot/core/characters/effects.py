"""Theory of operation: abilities that change the game, proposed for the night sheet.

Like information.py, each function takes (state, player, choice, deaths) and returns an
`Info`, here mostly with `death` and `effects`: the Demons' kills and what stops them (the
Monk, the Innkeeper, the Soldier; not against the Assassin; a Lleech whose host lives), the
Imp passing the Demon on (star_pass.py), the Godfather's kill after an Outsider died, the Fang
Gu jumping to the first Outsider it kills, the Vigormortis' Minions, the Pukka and its last
reached victim, the Lleech's host, the Gambler, the Poisoner, the Widow, the Snake Charmer's
swap, the Pit Hag's change (a new character keeps the alignment: `keep_alignment`), the
Witch's curse. Nothing is applied here: the Storytellers see the effects on the
night sheet, may drop any (`!effect N off`), and their approval applies them at dawn.
"""

from __future__ import annotations

from ..state.model import GameState
from ..state.night_model import Effect, Info, NightChoice
from ..state.private_events import night_of
from .grimoire import (
    alignment_of,
    is_evil,
    is_in_play,
    is_malfunctioning,
    living_neighbours,
    living_residents,
    players_of_team,
    true_character,
    yesterday,
)
from .star_pass import star_pass


def target_of(choice: NightChoice | None) -> str | None:
    return choice.players[0] if choice and choice.players else None


# -- kills ------------------------------------------------------------------------------------

def _kill(state, player, choice, _deaths) -> Info:
    target = target_of(choice)
    if target is None:
        return Info(note="no choice sent: choose a death or !nodeath")
    if is_malfunctioning(state, player):
        return Info(note=f"{state.setup.script.terms.malfunction}: the kill on {target} "
                    "fails unless you say otherwise (!dies)")
    if not state.seat(target).alive:
        return Info(note=f"{target} is already dead: no death")
    if lleech_survives(state, target):
        return Info(note=f"{target} is the Lleech and its host lives: no death")
    is_demon = true_character(state, player).team == "demon"
    safe = _protected_by(state, target) if is_demon else None
    if safe is not None:
        return Info(note=f"{target} is safe from the Demon ({safe}): no death")
    if target == player and true_character(state, player).id == "imp":
        return star_pass(state, player)
    return Info(note=f"{target} dies", death=target)


def _protected_by(state: GameState, target: str) -> str | None:
    """Why the Demon cannot kill the target tonight: the Monk, the Innkeeper, the Soldier."""
    night = night_of(state, state.cycle)
    for choice in night.choices:
        character = true_character(state, choice.player)
        if character is None or character.id not in ("monk", "innkeeper") or \
                target not in choice.players or not state.seat(choice.player).alive or \
                is_malfunctioning(state, choice.player):
            continue
        return f"the {character.name}"
    real = true_character(state, target)
    if real is not None and real.id == "soldier" and not is_malfunctioning(state, target):
        return "the Soldier"
    return None


def godfather_kill(state, player, choice, deaths) -> Info:
    """From night 2: if an Outsider died today, the Godfather's choice dies."""
    day = yesterday(state)
    if not any((c := true_character(state, d.player)) and c.team == "outsider"
               for d in (day.deaths if day else ())):
        return Info(note="no Outsider died today: the Godfather's choice does nothing")
    return _kill(state, player, choice, deaths)


def lunatic(state, player, choice) -> Info:
    """The Demons learn the Lunatic's choice, unless the Lunatic is impaired (seed 002)."""
    demons = players_of_team(state, "demon")
    target = target_of(choice) or "nobody"
    entry = state.grimoire_of(player)  # it always "thinks" another character: not that
    if entry.poisoned or entry.drunk:
        return Info(note=f"the Lunatic's attack on {target} does nothing; it is "
                    f"{state.setup.script.terms.malfunction}, so the Demons learn nothing")
    return Info(note=f"the Lunatic's attack on {target} does nothing; the Demon learns it",
                tells=tuple((d, f"The Lunatic ({player}) chose {target} tonight.")
                            for d in demons))


def _pukka(state, player, choice, _deaths) -> Info:
    """Poison tonight's choice; last night's victim dies, then becomes healthy. A victim the
    poison did not reach (protected, or the Pukka impaired) does not die; the Pukka that chose
    itself does (seed 002)."""
    victim = _pukka_victim(state, player)
    target = target_of(choice)
    if is_malfunctioning(state, player):
        return Info(note=f"{state.setup.script.terms.malfunction}: nobody is poisoned or dies")
    dies = victim if victim and state.seat(victim).alive else None
    poisoned = target if target != player else None  # seed 002: itself, healthy at once
    if poisoned is not None and _protected_by(state, poisoned) is not None:
        poisoned = None  # seed 000: the Monk and the Soldier stop "all other harmful effects"
    effects = tuple(Effect(p, "poisoned", value, "the Pukka")
                    for p, value in ((poisoned, True), (dies, False)) if p)
    return Info(note=f"{target or 'nobody'} is poisoned; "
                + (f"last night's {victim} dies" if dies else "nobody dies"),
                death=dies, effects=effects)


def _pukka_victim(state: GameState, pukka: str) -> str | None:
    """The last player the Pukka's poison reached and who has not died of it yet, however
    many nights ago (seed 002: "Once drunkness or poison affecting the Pukka ends, next time
    they choose the last successfully poisoned player dies"); a Pukka that chose itself is
    its own victim."""
    for night in reversed(state.past_nights):
        mine = [e for e in night.effects if e.why == "the Pukka" and e.field == "poisoned"]
        reached = [e.player for e in mine if e.value is True]
        choice = night.choice_of(pukka)
        if reached:
            return reached[0]
        if choice is not None and target_of(choice) == pukka and not is_malfunctioning(
                state, pukka):
            return pukka
        if mine:
            return None  # the victim before died that night, and nobody new was reached
    return None


def lleech_survives(state: GameState, player: str) -> bool:
    """A working Lleech whose host (not itself) lives: it dies if and only if its host dies
    (seed 002: not by execution, a kill or the Pit-Hag's arbitrary deaths); one that has not
    chosen its host yet (a Scarlet Woman who just became the Lleech) does not die either."""
    character = true_character(state, player)
    if character is None or character.id != "lleech" or is_malfunctioning(state, player):
        return False
    host = lleech_host(state, player)
    return host is None or (host != player and state.seat(host).alive)


def lleech_host(state: GameState, lleech: str) -> str | None:
    """The Lleech's host: its first choice as the Lleech (night 1; for a Scarlet Woman who
    became the Lleech, her first night as one)."""
    for night in state.past_nights:
        choice = night.choice_of(lleech)
        if choice is not None and choice.character == "lleech" and choice.players:
            return choice.players[0]
    return None


def _lleech(state, player, choice, deaths) -> Info:
    if lleech_host(state, player) is None:  # its first night as the Lleech: the host
        host = target_of(choice)
        if host == player:  # seed 002: poisoned and healthy at once; the host part is void
            return Info(note=f"{player} hosts itself: healthy at once, and it can die")
        return Info(note=f"{host or '(no choice)'} is the Lleech's host: poisoned; the Lleech "
                    "dies if and only if they die",
                    effects=(Effect(host, "poisoned", True, "the Lleech's host"),)
                    if host and not is_malfunctioning(state, player) else ())
    return _kill(state, player, choice, deaths)


def _gambler(state, player, choice, _deaths) -> Info:
    if choice is None or not choice.players or not choice.chosen_character:
        return Info()
    real = true_character(state, choice.players[0])
    if real is not None and real.id == choice.chosen_character:
        return Info(note="the guess is right: nothing happens")
    if is_malfunctioning(state, player):
        return Info(note="the guess is wrong, but the Gambler malfunctions: no death")
    return Info(note="the guess is wrong: the Gambler dies", death=player)


def _widow(state, player, choice, _deaths) -> Info:
    good = [s.name for s in state.seats if s.alive and not is_evil(state, s.name)]
    knows, target = (good[0] if good else None), target_of(choice)
    poison = (Effect(target, "poisoned", True, "the Widow"),) \
        if target and not is_malfunctioning(state, player) else ()
    return Info(note=f"{target or '(no choice)'} is poisoned; send the Widow the grimoire "
                f"(!tell); proposed to learn a Widow is in play: {knows}",
                tells=((knows, "A Widow is in play."),) if knows else (), effects=poison)


def _poisoner(state, player, choice, _deaths) -> Info:
    target = target_of(choice)
    if target is None:
        return Info(note="no choice sent")
    if is_malfunctioning(state, player):
        return Info(note=f"{state.setup.script.terms.malfunction}: {target} is not poisoned")
    return Info(note=f"{target} is poisoned tonight and tomorrow",
                effects=(Effect(target, "poisoned", True, "the Poisoner", until_dusk=True),))


def _snake_charmer(state, player, choice, _deaths) -> Info:
    target = target_of(choice)
    if target is None:
        return Info()
    demon = true_character(state, target)
    if demon is None or demon.team != "demon":
        return Info(note=f"{target} is not the Demon: nothing happens")
    if is_malfunctioning(state, player):
        return Info(note=f"{target} is the Demon, but the Snake Charmer malfunctions: nothing "
                    "happens")
    terms, charmer = state.setup.script.terms, true_character(state, player)
    why = "the Snake Charmer's swap"  # alignments swap too, even an evil Charmer's (seed 000)
    mine, theirs = alignment_of(state, player) or "good", alignment_of(state, target) or "evil"
    return Info(note=f"{target} is the Demon: {player} and {target} swap characters and "
                "alignments; the new Snake Charmer malfunctions", needs_result=True,
                result=f"You chose the Demon: you are now the {demon.name} and "
                f"{terms.alignment(theirs)}.",
                tells=((target, f"You are now the {charmer.name} and "
                        f"{terms.alignment(mine)}."),),
                effects=(Effect(player, "character", demon.id, why),
                         Effect(player, "alignment", theirs, why),
                         Effect(target, "character", charmer.id, why),
                         Effect(target, "alignment", mine, why),
                         Effect(target, "poisoned", True, why)))


def _fang_gu(state, player, choice, deaths) -> Info:
    """The 1st Outsider the Fang Gu kills becomes an evil Fang Gu, and the Fang Gu dies."""
    found = _kill(state, player, choice, deaths)
    target = found.death
    victim = true_character(state, target) if target else None
    jumped = any(e.field == "character" and e.value == "fanggu" for n in state.past_nights
                 for e in n.effects)
    if victim is None or victim.team != "outsider" or jumped:
        return found
    why = "the Fang Gu jumped"  # seed 002: to the Fang Gu's own alignment and team
    alignment, team = alignment_of(state, player) or "evil", state.grimoire_of(player).evil_team
    joins = (Effect(target, "evil_team", team, why),) if team is not None else ()
    return Info(note=f"{target} is an Outsider: they become the Fang Gu ({alignment}) and "
                f"{player} dies instead", death=player,
                tells=((target, "You are now the Fang Gu, and "
                        f"{state.setup.script.terms.alignment(alignment)}."),),
                effects=(Effect(target, "character", "fanggu", why),
                         Effect(target, "alignment", alignment, why)) + joins)


def _vigormortis(state, player, choice, deaths) -> Info:
    found = _kill(state, player, choice, deaths)
    victim = true_character(state, found.death) if found.death else None
    if victim is None or victim.team != "minion":
        return found
    neighbours = [n for n in living_neighbours(state, found.death)
                  if (c := true_character(state, n)) is not None and c.team == "townsfolk"]
    effects = (Effect(neighbours[0], "poisoned", True, "the Vigormortis' Minion"),) \
        if neighbours else ()
    return Info(note=f"{found.death} dies but keeps their ability; "
                + (f"{neighbours[0]} is poisoned" if neighbours else "no Townsfolk neighbour"),
                death=found.death, effects=effects)


def _pit_hag(state, player, choice, _deaths) -> Info:
    target = target_of(choice)
    if target is None or choice.chosen_character is None:
        return Info(note="no choice sent")
    new = state.setup.script.get(choice.chosen_character)
    in_play = is_in_play(state, new.id)
    if in_play or is_malfunctioning(state, player):
        why = "it is in play" if in_play else "the Pit Hag malfunctions"
        return Info(note=f"{target} does not become the {new.name}: {why}")
    demon = " A Demon was made: tonight's deaths are arbitrary (!dies, !spare)." \
        if new.team == "demon" else ""
    return Info(note=f"{target} becomes the {new.name}.{demon}",
                tells=((target, f"You are now the {new.name}."),),
                effects=(Effect(target, "character", new.id, "the Pit Hag"),) +
                keep_alignment(state, target, new, "the Pit Hag"))


def keep_alignment(state: GameState, player: str, new, why: str) -> tuple[Effect, ...]:
    """A new character does not change the player's alignment, and what a Drunk or a
    Marionette believed is gone."""
    gone = (Effect(player, "thinks", None, why),) if state.grimoire_of(player).thinks else ()
    return pinned_alignment(state, player, new, why) + gone


def pinned_alignment(state: GameState, player: str, new, why: str) -> tuple[Effect, ...]:
    """The player's alignment, set explicitly when the new character's team would say
    otherwise (a character change is not an alignment change)."""
    alignment = alignment_of(state, player)
    if new is None or not alignment or ("good" if new.is_good else "evil") == alignment:
        return ()
    return (Effect(player, "alignment", alignment, why),)


def _witch(state, player, choice, _deaths) -> Info:
    target = target_of(choice)
    living = len(living_residents(state))
    if target is None:
        return Info(note="no choice sent")
    if is_malfunctioning(state, player) or living <= 3:
        return Info(note=f"{target} is not cursed (the Witch "
                    + ("malfunctions)" if living > 3 else "lost the ability: 3 players live)"))
    return Info(note=f"{target} is cursed: if they nominate tomorrow, they die",
                effects=(Effect(target, "cursed_day", state.cycle, "the Witch"),))



def _devils_advocate(state, player, choice, _deaths) -> Info:
    target = target_of(choice)
    if target is None or is_malfunctioning(state, player):
        return Info(note="no protection" if target else "no choice sent")
    return Info(note=f"{target} does not die if executed tomorrow",
                effects=(Effect(target, "survives_execution_day", state.cycle,
                                "the Devil's Advocate"),))


def _innkeeper(state, player, choice, _deaths) -> Info:
    if choice is None or len(choice.players) != 2:
        return Info(note="no choice sent")
    if is_malfunctioning(state, player):
        return Info(note="the Innkeeper malfunctions: no protection, nobody drunk")
    first, second = choice.players
    return Info(note=f"{first} and {second} cannot die tonight; {first} is drunk until dusk "
                "(proposed: drop it with !effect and use !drunk for the other)",
                effects=(Effect(first, "drunk", True, "the Innkeeper", until_dusk=True),))


def _huntsman(state, player, choice, _deaths) -> Info:
    target = target_of(choice)
    chosen = true_character(state, target) if target else None
    if chosen is None or chosen.id != "damsel" or is_malfunctioning(state, player):
        return Info(note=f"{target or '(no choice)'} is not the Damsel: nothing happens")
    in_play = {state.grimoire_of(s.name).character for s in state.seats}
    free = [c for c in state.setup.script.of_team("townsfolk") if c.id not in in_play]
    if not free:
        return Info(note=f"{target} is the Damsel, but no Townsfolk is free: ST decides")
    return Info(note=f"{target} is the Damsel: they become the {free[0].name} (proposed)",
                tells=((target, f"You are now the {free[0].name}."),),
                effects=(Effect(target, "character", free[0].id, "the Huntsman"),))


def _philosopher(state, player, choice, _deaths) -> Info:
    gained = state.setup.script.get(choice.chosen_character) if choice else None
    if gained is None:
        return Info(note="no choice sent")
    if is_malfunctioning(state, player):
        return Info(note=f"the Philosopher malfunctions: no {gained.name} ability gained")
    holders = [s.name for s in state.seats if state.grimoire_of(s.name).character == gained.id]
    effects = (Effect(player, "ability_of", gained.id, "the Philosopher"),) + tuple(
        Effect(h, "drunk", True, "the Philosopher's choice") for h in holders)
    return Info(note=f"gains the {gained.name} ability (wakes as it from tomorrow night)"
                + (f"; {', '.join(holders)} malfunction" if holders else ""), effects=effects)


def _acrobat(state, player, _choice, _deaths) -> Info:
    impaired = [n for n in living_neighbours(state, player)
                if not is_evil(state, n) and is_malfunctioning(state, n)]
    if not impaired or is_malfunctioning(state, player):
        return Info(note="no good living neighbour is drunk or poisoned: nothing happens")
    return Info(note=f"{impaired[0]} is drunk or poisoned: the Acrobat dies", death=player)


EFFECTS = {
    "kill": _kill, "pukka": _pukka, "lleech": _lleech, "gambler": _gambler,
    "poisoner": _poisoner, "widow": _widow, "snakecharmer": _snake_charmer,
    "fanggu": _fang_gu, "vigormortis": _vigormortis, "pithag": _pit_hag, "witch": _witch,
    "devilsadvocate": _devils_advocate, "innkeeper": _innkeeper, "huntsman": _huntsman,
    "acrobat": _acrobat, "philosopher": _philosopher,
}

__all__ = ["EFFECTS", "godfather_kill", "keep_alignment", "lleech_survives", "pinned_alignment", "lleech_host",
           "lunatic", "target_of"]

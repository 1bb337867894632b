"""Theory of operation: abilities that change the game, proposed for the night sheet.

Like information.py, each function takes (state, player, choice, deaths) and returns an
`Info`, here mostly with `death` and `effects`: the Demons' kills and what stops them (the
Monk, the Innkeeper, the Soldier; not against the Assassin; a Lleech whose host lives), the
Imp passing the Demon on (star_pass.py), the Godfather's kill after an Outsider died, the Fang
Gu jumping to the first Outsider it kills, the Vigormortis' Minions, the Pukka and its last
reached victim, the Lleech's host (lleech_host.py), the Gambler, the Poisoner, the Widow, the Snake Charmer's
swap, the Pit Hag's change (a new character keeps the alignment: `keep_alignment`), the
Witch's curse, the Lunatic's fake kill. Each is its character's night rule, declared in
`CHARACTERS` (records.py). Nothing is applied here: the Storytellers see the effects on the
night sheet, may drop any (`!effect N off`), and their approval applies them at dawn.
"""

from __future__ import annotations

from ..state.feature import CharacterRules
from ..state.grimoire import (
    KEEPS_ABILITY,
    acting_character,
    alignment_of,
    character_id,
    dealt_character,
    is_evil,
    is_in_play,
    is_malfunctioning,
    jinxed,
    living_neighbours,
    living_residents,
    players_of_team,
    soldier_shield,
    true_character,
)
from ..state.ids import ASSASSIN
from ..state.model import GameState
from ..state.night_model import Effect, Info, NightChoice
from ..state.private_events import night_of
from ..state.script import Character
from ..wording import Say, say
from .lleech_host import lleech_host, lleech_survives
from .star_pass import star_pass
from .waking import outsider_died_today

BY_PUKKA = say("by.pukka")  # the Pukka's poison, found again on later nights


def target_of(choice: NightChoice | None) -> str | None:
    return choice.players[0] if choice and choice.players else None


# -- kills ------------------------------------------------------------------------------------

def kill(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if target is None:
        return Info(note=say("info.kill_no_choice"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.kill_malfunctioning", term=state.setup.private_script.terms.malfunction,
                             player=target))
    if not state.seat(target).alive:
        return Info(note=say("info.already_dead", player=target))
    acting = acting_character(state, player)
    unconditional = acting is not None and acting.id == ASSASSIN  # "even if they could not"
    if lleech_survives(state, target) and not unconditional:
        return Info(note=say("info.lleech_host_lives", player=target))
    is_demon = dealt_character(state, player).team == "demon"
    safe = protected_by(state, target) if is_demon else None
    if safe is not None:
        return Info(note=say("info.safe", player=target, by=safe))
    if target == player and character_id(state, player) == "imp":
        return star_pass(state, player)
    if is_demon and character_id(state, target) == "mayor" and not is_malfunctioning(state, target):
        # Trouble Brewing's Mayor: "If you die at night, another player might die instead"
        return Info(note=say("info.mayor_bounce", player=target), death=target)
    return Info(note=say("info.dies", player=target), death=target)


def protected_by(state: GameState, target: str, by_demon: bool = True) -> Say | None:
    """Who keeps the target alive tonight: the Innkeeper's players cannot die tonight, by any
    cause; the Monk's choice and the Soldier are safe from the Demon only (`by_demon`)."""
    night = night_of(state, state.cycle)
    shields = ("monk", "innkeeper") if by_demon else ("innkeeper",)
    for choice in night.choices:  # the ability used: a Philosopher's Innkeeper protects
        character = acting_character(state, choice.player)
        if character is None or character.id not in shields or \
                target not in choice.players or not state.seat(choice.player).alive or \
                is_malfunctioning(state, choice.player):
            continue
        return say("by.character", character=character.name)
    return soldier_shield(state, target) if by_demon else None


def godfather_kill(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    """From night 2: if an Outsider died today, the Godfather's choice dies."""
    if not outsider_died_today(state):
        return Info(note=say("info.godfather_no_outsider"))
    return kill(state, player, choice, deaths)


def _lunatic(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    """The Lunatic's step, as the Demon it believes it is: the Demons learn its choice, unless
    the Lunatic is impaired (seed 002)."""
    demons = players_of_team(state, "demon")
    target = target_of(choice) or say("info.nobody")
    entry = state.grimoire_of(player)  # it always "thinks" another character: not that
    if entry.poisoned or entry.drunk:
        return Info(note=say("info.lunatic_malfunctioning", player=target,
                             term=state.setup.private_script.terms.malfunction))
    return Info(note=say("info.lunatic", player=target),
                tells=tuple((d, say("tell.lunatic_chose", lunatic=player, player=target))
                            for d in demons))


def _pukka(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    """Poison tonight's choice; last night's victim dies, then becomes healthy. A victim the
    poison did not reach (protected, or the Pukka impaired) does not die; the Pukka that chose
    itself does (seed 002)."""
    victim = _pukka_victim(state, player)
    target = target_of(choice)
    if is_malfunctioning(state, player):
        return Info(note=say("info.pukka_malfunctioning", term=state.setup.private_script.terms.malfunction))
    dies = victim if victim and state.seat(victim).alive else None
    poisoned = target if target != player else None  # seed 002: itself, healthy at once
    if poisoned is not None and protected_by(state, poisoned) is not None:
        poisoned = None  # seed 000: the Monk and the Soldier stop "all other harmful effects"
    effects = tuple(Effect(p, "poisoned", value, BY_PUKKA)
                    for p, value in ((poisoned, True), (dies, False)) if p)
    target_said = target or say("info.nobody")
    return Info(note=say("info.pukka_dies", player=target_said, victim=victim) if dies
                else say("info.pukka", player=target_said), death=dies, effects=effects)


def _pukka_victim(state: GameState, pukka: str) -> str | None:
    """The last player the Pukka's poison reached and who has not died of it yet, however
    many nights ago (seed 002: "Once drunkness or poison affecting the Pukka ends, next time
    they choose the last successfully poisoned player dies"); a Pukka that chose itself is
    its own victim."""
    for night in reversed(state.past_nights):
        mine = [e for e in night.effects if e.why == BY_PUKKA and e.field == "poisoned"]
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


def _lleech(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    if lleech_host(state, player) is None:  # its first night as the Lleech: the host
        host = target_of(choice)
        if host == player:  # seed 002: poisoned and healthy at once; the host part is void
            return Info(note=say("info.lleech_itself", player=player))
        return Info(note=say("info.lleech_host", player=host or say("info.no_choice")),
                    effects=(Effect(host, "poisoned", True, say("by.lleech")),)
                    if host and not is_malfunctioning(state, player) else ())
    return kill(state, player, choice, deaths)


def _gambler(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    if choice is None or not choice.players or not choice.chosen_character:
        return Info()
    real = true_character(state, choice.players[0])
    if real is not None and real.id == choice.chosen_character:
        return Info(note=say("info.gambler_right"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.gambler_malfunctions"))
    return Info(note=say("info.gambler_wrong"), death=player)


def _widow(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    good = [s.name for s in state.seats if s.alive and not is_evil(state, s.name)]
    knows, target = (good[0] if good else None), target_of(choice)
    poison = (Effect(target, "poisoned", True, say("by.widow")),) \
        if target and not is_malfunctioning(state, player) else ()
    return Info(note=say("info.widow", player=target or say("info.no_choice"), knows=knows),
                tells=((knows, say("tell.widow")),) if knows else (), effects=poison)


def _poisoner(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if target is None:
        return Info(note=say("info.no_choice_sent"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.poisoner_malfunctioning", player=target,
                             term=state.setup.private_script.terms.malfunction))
    return Info(note=say("info.poisoner", player=target),
                effects=(Effect(target, "poisoned", True, say("by.poisoner"), until_dusk=True),))


def _snake_charmer(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if target is None:
        return Info()
    demon = true_character(state, target)
    if demon is None or demon.team != "demon":
        return Info(note=say("info.not_the_demon", player=target))
    if is_malfunctioning(state, player):
        return Info(note=say("info.snake_charmer_malfunctions", player=target))
    terms, charmer = state.setup.private_script.terms, dealt_character(state, player)
    why = say("by.snake_charmer")  # alignments swap too, even an evil Charmer's (seed 000)
    mine, theirs = alignment_of(state, player) or "good", alignment_of(state, target) or "evil"
    return Info(note=say("info.snake_charmer", player=player, demon=target), needs_result=True,
                result=say("result.snake_charmer", character=demon.name,
                           alignment=terms.alignment(theirs)),
                tells=((target, say("tell.now_the_and", character=charmer.name,
                                    alignment=terms.alignment(mine))),),
                effects=(Effect(player, "character", demon.id, why),
                         Effect(player, "alignment", theirs, why),
                         Effect(target, "character", charmer.id, why),
                         Effect(target, "alignment", mine, why),
                         Effect(target, "poisoned", True, why)))


def _fang_gu(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    """The 1st Outsider the Fang Gu kills becomes an evil Fang Gu, and the Fang Gu dies."""
    found = kill(state, player, choice, deaths)
    target = found.death
    victim = true_character(state, target) if target else None
    jumped = any(e.field == "character" and e.value == "fanggu" for n in state.past_nights
                 for e in n.effects)
    if target is None or victim is None or victim.team != "outsider" or jumped:
        return found
    why = say("by.fang_gu")  # seed 002: to the Fang Gu's own alignment and team
    alignment, team = alignment_of(state, player) or "evil", state.grimoire_of(player).evil_team
    joins = (Effect(target, "evil_team", team, why),) if team is not None else ()
    return Info(note=say("info.fang_gu", player=target, alignment=alignment, fang_gu=player),
                death=player,
                tells=((target, say("tell.fang_gu",
                                    alignment=state.setup.private_script.terms.alignment(alignment))),),
                effects=(Effect(target, "character", "fanggu", why),
                         Effect(target, "alignment", alignment, why), *joins))


def _vigormortis(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    found = kill(state, player, choice, deaths)
    dead = found.death
    victim = true_character(state, dead) if dead else None
    if dead is None or victim is None or victim.team != "minion":
        return found
    neighbours = [n for n in living_neighbours(state, dead)
                  if (c := true_character(state, n)) is not None and c.team == "townsfolk"]
    kept = Effect(dead, "reminders", (*state.grimoire_of(dead).reminders, KEEPS_ABILITY),
                  say("by.vigormortis"))  # "Minions you kill keep their ability"
    effects = (kept, *((Effect(neighbours[0], "poisoned", True, say("by.vigormortis")),)
                       if neighbours else ()))
    return Info(note=say("info.vigormortis", player=found.death, poisoned=neighbours[0])
                if neighbours else say("info.vigormortis_alone", player=found.death),
                death=found.death, effects=effects)


def _pit_hag(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if choice is None or target is None or choice.chosen_character is None:
        return Info(note=say("info.no_choice_sent"))
    new = state.setup.private_script.character(choice.chosen_character)  # checked: on the script
    in_play = is_in_play(state, new.id)
    if in_play or is_malfunctioning(state, player):
        return Info(note=say("info.pit_hag_in_play" if in_play else "info.pit_hag_malfunctions",
                             player=target, character=new.name))
    if new.id == "damsel" and jinxed(state, "pithag", "damsel"):  # the official jinx: the
        return Info(note=say("info.pit_hag_damsel", character=new.name))  # STs pick who
    return Info(note=say("info.pit_hag_demon" if new.team == "demon" else "info.pit_hag",
                         player=target, character=new.name),
                tells=((target, say("tell.now_the", character=new.name)),),
                effects=(Effect(target, "character", new.id, say("by.pit_hag")),
                         *keep_alignment(state, target, new, say("by.pit_hag"))))


def keep_alignment(state: GameState, player: str, new: Character, why: Say) -> tuple[Effect, ...]:
    """A new character does not change the player's alignment, and what a Drunk or a
    Marionette believed is gone."""
    gone = (Effect(player, "thinks", None, why),) if state.grimoire_of(player).thinks else ()
    return pinned_alignment(state, player, new, why) + gone


def pinned_alignment(state: GameState, player: str, new: Character | None, why: Say) -> tuple[Effect, ...]:
    """The player's alignment, set explicitly when the new character's team would say
    otherwise (a character change is not an alignment change)."""
    alignment = alignment_of(state, player)
    if new is None or not alignment or ("good" if new.is_good else "evil") == alignment:
        return ()
    return (Effect(player, "alignment", alignment, why),)


def _witch(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    living = len(living_residents(state))
    if target is None:
        return Info(note=say("info.no_choice_sent"))
    if is_malfunctioning(state, player) or living <= 3:
        return Info(note=say("info.witch_malfunctions" if living > 3 else "info.witch_three",
                             player=target))
    return Info(note=say("info.witch", player=target),
                effects=(Effect(target, "cursed_day", state.cycle, say("by.witch")),))



def _devils_advocate(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if target is None or is_malfunctioning(state, player):
        return Info(note=say("info.no_protection") if target else say("info.no_choice_sent"))
    return Info(note=say("info.devils_advocate", player=target),
                effects=(Effect(target, "survives_execution_day", state.cycle,
                                say("by.devils_advocate")),))


def _innkeeper(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    if choice is None or len(choice.players) != 2:
        return Info(note=say("info.no_choice_sent"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.innkeeper_malfunctions"))
    first, second = choice.players
    return Info(note=say("info.innkeeper", first=first, second=second),
                effects=(Effect(first, "drunk", True, say("by.innkeeper"), until_dusk=True),))


def _huntsman(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    chosen = true_character(state, target) if target else None
    if target is None or chosen is None or chosen.id != "damsel" or \
            is_malfunctioning(state, player):
        return Info(note=say("info.huntsman_not_damsel", player=target or say("info.no_choice")))
    in_play = {state.grimoire_of(s.name).character for s in state.seats}
    free = [c for c in state.setup.private_script.of_team("townsfolk") if c.id not in in_play]
    if not free:
        return Info(note=say("info.huntsman_none_free", player=target))
    return Info(note=say("info.huntsman", player=target, character=free[0].name),
                tells=((target, say("tell.now_the", character=free[0].name)),),
                effects=(Effect(target, "character", free[0].id, say("by.huntsman")),))


def _philosopher(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    gained = state.setup.private_script.get(choice.chosen_character) if choice else None
    if gained is None:
        return Info(note=say("info.no_choice_sent"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.philosopher_malfunctions", character=gained.name))
    holders = [s.name for s in state.seats if state.grimoire_of(s.name).character == gained.id]
    effects = (Effect(player, "ability_of", gained.id, say("by.philosopher")),
               *(Effect(h, "drunk", True, say("by.philosophers_choice")) for h in holders))
    return Info(note=say("info.philosopher_holders", character=gained.name, players=holders)
                if holders else say("info.philosopher", character=gained.name), effects=effects)


def _acrobat(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    impaired = [n for n in living_neighbours(state, player)
                if not is_evil(state, n) and is_malfunctioning(state, n)]
    if not impaired or is_malfunctioning(state, player):
        return Info(note=say("info.acrobat_nothing"))
    return Info(note=say("info.acrobat", player=impaired[0]), death=player)


CHARACTERS: tuple[CharacterRules, ...] = tuple(CharacterRules(cid, night=rule) for cid, rule in (
    ("imp", kill), ("nodashii", kill), ("vortox", kill), ("assassin", kill),  # a Demon's kill
    ("pukka", _pukka), ("lleech", _lleech), ("gambler", _gambler), ("poisoner", _poisoner),
    ("widow", _widow), ("snakecharmer", _snake_charmer), ("fanggu", _fang_gu),
    ("vigormortis", _vigormortis), ("pithag", _pit_hag), ("witch", _witch),
    ("devilsadvocate", _devils_advocate), ("innkeeper", _innkeeper), ("huntsman", _huntsman),
    ("acrobat", _acrobat), ("philosopher", _philosopher), ("lunatic", _lunatic),
))

__all__ = [
    "CHARACTERS",
    "godfather_kill",
    "keep_alignment",
    "kill",
    "pinned_alignment",
    "target_of",
]

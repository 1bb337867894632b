"""Theory of operation: Bad Moon Rising's characters beyond the seeds' (their night rules).

Each function is its character's night step, as information.py and effects.py write theirs
(`(state, player, choice, deaths) -> Info`): the Storytellers see the note and the proposed
effects on the night sheet, may change the result (`!result`) or drop an effect (`!effect N
off`), and their approval applies them at dawn.
- The Sailor: "each night, chooses a living player: the Sailor or that player is drunk until
  dusk" (proposed: the chosen player; the Storytellers may drop it and `!drunk` the Sailor).
  That it cannot die is its record's `cannot_die` (undying.py).
- The Grandmother: "on the first night, learns a good player and their character": proposed,
  the first other player in seat order who registers good, shown as the character they
  register as, and marked as her grandchild (undying.py: she dies when the Demon kills them).
- The Shabaloth: "each night but the first, chooses two players, who die; one chosen the
  night before and dead might come back": each choice is the Demon's kill (effects.py's `kill`:
  protection, the Sailor, ... stop it), both proposed; who comes back is the Storytellers' call
  (`!revive` at dawn), the note naming last night's choices now dead.
- The Tinker: "might die at any moment": its step reminds the Storytellers (`!dies NAME` at
  night; by day, `!kill`).
- The Exorcist: "each night but the first, chooses a player other than last night's: a Demon
  chosen learns who the Exorcist is and does not wake that night": the Demon is told at dawn,
  and its step tonight is a row saying it does not wake (`kept_asleep`, asked by the night
  sheet before each step); a choice the same as last night's is noted for the Storytellers.
- The Professor: "once per game, at night*, choose a dead player: if they are a Townsfolk,
  they are resurrected": a chosen player who registers as a Townsfolk is proposed back to life
  at dawn (an effect on the sheet: the thread is told they live again; `!effect N off` drops
  it).
- The Po: "each night*, you may choose a player: they die. If your last choice was no-one,
  choose 3 players tonight": `/pass` is its choice of no one, and its next choice names three
  (its record's `charged_players`: `players_wanted`, asked by the choice's check), each the
  Demon's kill.
- The Minstrel: "when a Minion dies by execution, all other players (except Travellers) are
  drunk until dusk tomorrow": at the dusk after that execution (a working Minstrel alive), each
  of them is made drunk until the next dusk (`at_dusk`, asked by the night's dusk after the
  effects of the day end: so they last the night and the next day).
- The Courtier: "once per game, at night, choose a character: they are drunk for 3 nights & 3
  days": whoever holds the character is proposed drunk from the Courtier's step (the sheet's
  later steps see it), and sober again at the dusk ending the third day (`at_dusk`).
- The Apprentice (a traveller): "on your 1st night, you gain a Townsfolk ability (if good), or
  a Minion ability (if evil)": proposed, the first of the script's Townsfolk (or Minions) not
  in play, as a gained ability (`ability_of`: it acts as that character from then on) and the
  player's result; the Storytellers may give another (`!result`, `!effect N off` and
  `!ability`).
- The Zombuul: "each night*, if no-one died today, choose a player: they die": its kill only
  after a day without a death (its living on after its first death is undying.py's).
The Tea Lady and the Fool have no step: their records' `cannot_die` is their whole rule.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ..state.events import Event
from ..state.feature import CharacterRules
from ..state.grimoire import is_evil, is_in_play, is_malfunctioning, true_character, working_holders, yesterday
from ..state.model import GameState
from ..state.night_model import REVIVED, Effect, Info, NightChoice
from ..state.private_events import EffectApplied, night_of
from ..state.registration import reading_registration, registered_character, registered_dealt, registers_evil
from ..state.script import Character
from ..wording import Say, say
from .effects import kill, target_of
from .undying import GRANDCHILD


def _sailor(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if target is None:
        return Info(note=say("info.no_choice_sent"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.sailor_malfunctions", player=target))
    return Info(note=say("info.sailor", player=target),
                effects=(Effect(target, "drunk", True, say("by.sailor"), until_dusk=True),))


def _grandmother(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    good = [s.name for s in state.seats
            if s.name != player and not s.traveller and not registers_evil(state, s.name)]
    if not good:
        return Info(note=say("info.grandmother_none"), needs_result=True)
    grandchild = good[0]
    shown = registered_dealt(state, grandchild)
    marked = Effect(grandchild, "reminders", (*state.grimoire_of(grandchild).reminders, GRANDCHILD),
                    say("by.grandmother"))
    return Info(note=say("info.grandmother", player=grandchild, character=shown.name),
                needs_result=True,
                result=say("result.grandmother", player=grandchild, character=shown.name),
                effects=(marked,))


def _kills(state: GameState, player: str, choice: NightChoice, deaths: tuple[str, ...]) -> tuple[list[Info], tuple[str, ...]]:
    """Each chosen player as the Demon's kill (protection, the Sailor, ... stop one), and who dies."""
    kills = [kill(state, player, replace(choice, players=(target,)), deaths)
             for target in choice.players]
    return kills, tuple(k.death for k in kills if k.death)


def _shabaloth(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    if choice is None or not choice.players:
        return Info(note=say("info.kill_no_choice"))
    kills, died = _kills(state, player, choice, deaths)
    back = [p for p in _chosen_last_night(state, player) if not state.seat(p).alive]
    note = say("info.shabaloth", kills=[k.note for k in kills if k.note],
               back=say("info.shabaloth_back", players=back) if back else "")
    return Info(note=note, death=died[0] if died else None, also_dies=died[1:])


def _chosen_last_night(state: GameState, player: str) -> tuple[str, ...]:
    last = state.past_nights[-1] if state.past_nights else None
    choice = last.choice_of(player) if last is not None else None
    return choice.players if choice is not None else ()


def at_dusk(state: GameState, at: datetime) -> list[Event]:
    """What begins or ends at this dusk: the Courtier's drunk ends after its third day, the
    Minstrel's begins."""
    return [*_courtier_ends(state, at), *_minstrel_begins(state, at)]


def _courtier_ends(state: GameState, at: datetime) -> list[Event]:
    day = state.past_days[-1].number if state.past_days else 0
    night = next((n for n in state.past_nights if n.number + 2 == day), None)
    held = [e.player for e in (night.effects if night else ())
            if e.why.code == "by.courtier" and e.field == "drunk" and e.value is True]
    return [EffectApplied(Effect(p, "drunk", False, say("by.courtier_ended")), at)
            for p in held if state.grimoire_of(p).drunk]


def _minstrel_begins(state: GameState, at: datetime) -> list[Event]:
    """The Minstrel's: at the dusk after a Minion died by execution, everyone else but the
    travellers is drunk until the next dusk."""
    day = state.past_days[-1] if state.past_days else None
    executed = day.executed_and_died if day is not None else None
    minion = true_character(state, executed) if executed else None
    if minion is None or minion.team != "minion":
        return []
    minstrels = working_holders(state, "minstrel")
    if not minstrels:
        return []
    return [EffectApplied(Effect(s.name, "drunk", True, say("by.minstrel", minion=executed),
                                 until_dusk=True), at)
            for s in state.seats if s.name not in minstrels and not s.traveller]


def players_wanted(state: GameState, player: str, character: Character) -> int:
    """How many players `character` chooses tonight: its record's `players`, or its
    `charged_players` when its player's last choice was no one (`/pass`: the Po's)."""
    spec = character.spec
    if not spec.charged_players:
        return spec.players
    for night in reversed(state.past_nights):
        last = night.choice_of(player)
        if last is not None and last.character == character.id:
            return spec.charged_players if last.passed else spec.players
    return spec.players


def _po(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    if choice is not None and choice.passed:
        return Info(note=say("info.po_charges"))
    if choice is None or not choice.players:
        return Info(note=say("info.kill_no_choice"))
    kills, died = _kills(state, player, choice, deaths)
    return Info(note=say("info.po", kills=[k.note for k in kills if k.note]),
                death=died[0] if died else None, also_dies=died[1:])


def _courtier(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    chosen = choice.chosen_character if choice is not None else None
    if chosen is None:
        return Info(note=say("info.courtier_none"))
    name = state.setup.private_script.name_of(chosen)
    if is_malfunctioning(state, player):
        return Info(note=say("info.courtier_malfunctions", character=name))
    holders = [s.name for s in state.seats if (c := true_character(state, s.name)) is not None
               and c.id == chosen]
    if not holders:
        return Info(note=say("info.courtier_not_in_play", character=name))
    return Info(note=say("info.courtier", character=name, players=holders, day=state.cycle + 2),
                effects=tuple(Effect(h, "drunk", True, say("by.courtier")) for h in holders))


def _apprentice(state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    team = "minion" if is_evil(state, player) else "townsfolk"
    script = state.setup.private_script
    spare = [c for c in script.of_team(team) if not is_in_play(state, c.id)] or list(script.of_team(team))
    if not spare:
        return Info(note=say("info.apprentice_none", team=team), needs_result=True)
    gained = spare[0]
    return Info(note=say("info.apprentice", character=gained.name, team=team), needs_result=True,
                result=say("result.apprentice", character=gained.name),
                effects=(Effect(player, "ability_of", gained.id, say("by.apprentice")),))


def _zombuul(state: GameState, player: str, choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    day = yesterday(state)
    if day is not None and day.deaths:
        return Info(note=say("info.zombuul_someone_died", players=[d.player for d in day.deaths]))
    return kill(state, player, choice, deaths)


def _tinker(_state: GameState, player: str, _choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    return Info(note=say("info.tinker", player=player))


def _exorcist(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if target is None:
        return Info(note=say("info.no_choice_sent"))
    again = say("info.exorcist_again") if target in _chosen_last_night(state, player) else ""
    if is_malfunctioning(state, player):
        return Info(note=say("info.exorcist_malfunctions", player=target, again=again))
    demon = true_character(state, target)
    if demon is None or demon.team != "demon":
        return Info(note=say("info.exorcist", player=target, again=again))
    return Info(note=say("info.exorcist_demon", player=target, again=again),
                tells=((target, say("tell.exorcist", player=player)),))


def kept_asleep(state: GameState, player: str, character: Character) -> Say | None:
    """Why `player` does not wake at `character`'s step tonight (a working, living Exorcist
    chose this Demon), or None."""
    if character.team != "demon":
        return None
    for choice in night_of(state, state.cycle).choices:
        exorcist = true_character(state, choice.player)
        if exorcist is not None and exorcist.id == "exorcist" and choice.players == (player,) \
                and state.seat(choice.player).alive and not is_malfunctioning(state, choice.player):
            return say("sheet.exorcised", exorcist=choice.player)
    return None


def _professor(state: GameState, player: str, choice: NightChoice | None, _deaths: tuple[str, ...]) -> Info:
    target = target_of(choice)
    if target is None:
        return Info(note=say("info.no_choice_sent"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.professor_malfunctions", player=target))
    shown = registered_character(state, target)
    if shown is None or shown.team != "townsfolk" or state.seat(target).alive:
        return Info(note=say("info.professor_not_townsfolk", player=target))
    return Info(note=say("info.professor", player=target),
                effects=(Effect(target, REVIVED, True, say("by.professor")),))


CHARACTERS: tuple[CharacterRules, ...] = (
    CharacterRules("sailor", night=_sailor),
    CharacterRules("grandmother", night=reading_registration(_grandmother)),
    CharacterRules("shabaloth", night=_shabaloth),
    CharacterRules("tinker", night=_tinker),
    CharacterRules("exorcist", night=_exorcist),
    CharacterRules("professor", night=reading_registration(_professor)),
    CharacterRules("po", night=_po),
    CharacterRules("courtier", night=_courtier),
    CharacterRules("apprentice", night=_apprentice),
    CharacterRules("zombuul", night=_zombuul),
)

__all__ = ["CHARACTERS", "at_dusk", "kept_asleep", "players_wanted"]

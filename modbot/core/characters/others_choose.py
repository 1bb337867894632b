"""Theory of operation: the night sheet's steps for abilities other players choose for.

`barber_swap` runs at the Barber's step when the Barber died today or tonight: the Demon's standing
`/swap A B` (characters/helpers.py) becomes two proposed character changes, each player told their new
character at dawn. The swap is of characters only: alignments stay, and a Drunk-like player's
belief (`thinks`) moves with the character. Nothing happens if the Barber is malfunctioning,
if the Demon sent no swap, or if it names another Demon; the sheet says which.

`lil_monsta_step` is Lil' Monsta's step when no player holds it (game.lil_monsta): the living
Minions' `/babysit` choices are counted, and a strict majority moves the "babysitter" reminder
(the player who "is the Demon", grimoire.babysitter) to the chosen player, who is told at
dawn. Without a majority the Storytellers decide (`!reminder PLAYER babysitter`), and until
they do the holder keeps it. On other nights "a player might die": the Storytellers' choice,
made with `!dies`.

`word_turns` is the Mezepheles' step for a player who said its word: they take its
alignment (and evil team, seed 002), unless the Mezepheles is impaired that night.

`goon_effects` is seed 002's Goon, chosen by others: the first player to choose it tonight is
drunk until dusk and the Goon takes their alignment (and evil team), but for the official
Pit-Hag + Goon jinx.

Like every step it only proposes: the Storytellers see the effects on the night sheet, may drop
them (`!effect N off`) and apply them with their approval.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..state.grimoire import (
    BABYSITTER,
    SITS_FOR_GOOD,
    acting_character,
    alignment_of,
    babysitter,
    character_names,
    is_evil,
    is_malfunctioning,
    jinxed,
    players_of_team,
    true_character,
    yesterday,
)
from ..state.ids import BARBER, GOON, LIL_MONSTA, MEZEPHELES, PIT_HAG
from ..state.model import GameState
from ..state.night_model import Effect, Info, NightChoice, SheetEntry
from ..state.private_events import night_of
from ..wording import Say, say
from .effects import pinned_alignment


def barber_swap(state: GameState, player: str, _choice: NightChoice | None, deaths: tuple[str, ...]) -> Info:
    day = yesterday(state) if state.cycle > 1 else None
    died_today = day is not None and any(d.player == player for d in day.deaths)
    if player not in deaths and not died_today:
        return Info(note=say("info.barber_alive"))
    if is_malfunctioning(state, player):
        return Info(note=say("info.barber_malfunctioning",
                             term=state.setup.private_script.terms.malfunction))
    demons = players_of_team(state, "demon")
    swaps = [c for c in night_of(state, state.cycle).helping(BARBER) if c.player in demons]
    if not swaps:
        return Info(note=say("info.barber_no_swap"))
    demon, pair = swaps[-1].player, swaps[-1].players
    others = [p for p in pair if p != demon and (c := true_character(state, p)) is not None
              and c.team == "demon"]
    if others:
        return Info(note=say("info.barber_other_demon", player=others[0]))
    return _swap(state, *pair)


def _swap(state: GameState, a: str, b: str) -> Info:
    names = character_names(state)
    first, second = state.grimoire_of(a), state.grimoire_of(b)
    effects, tells = [], []
    for player, new in ((a, second), (b, first)):
        why = say("by.barber")
        effects.append(Effect(player, "character", new.character, why))
        effects.append(Effect(player, "thinks", new.thinks, why))
        effects.extend(pinned_alignment(state, player, state.setup.private_script.get(new.character or ""),
                                        why))
        shown = new.thinks or new.character or ""
        tells.append((player, say("tell.now_the", character=names.get(shown, shown))))
    return Info(note=say("info.barber_swap", first=a, second=b), effects=tuple(effects),
                tells=tuple(tells))


def lil_monsta_step(state: GameState) -> tuple[SheetEntry, tuple[Effect, ...], tuple[tuple[str, Say], ...]]:
    """(sheet entry, effects, tells) for Lil' Monsta's step."""
    minions = players_of_team(state, "minion")
    votes = {c.player: c.players[0] for c in night_of(state, state.cycle).helping(LIL_MONSTA)
             if c.player in minions}
    shown = say("sheet.babysit_votes", votes=[say("sheet.vote", voter=m, player=p)
                                             for m, p in votes.items()]) if votes \
        else say("sheet.no_babysit")
    held = babysitter(state)
    kill = "" if state.cycle == 1 else say("sheet.lil_monsta_kill")
    if held is not None and SITS_FOR_GOOD in state.grimoire_of(held).reminders:
        text = say("sheet.babysitter_for_good", player=held, kill=kill)  # the official jinx
        return SheetEntry(LIL_MONSTA, None, say("label.lil_monsta"), shown, (), text), (), ()
    top = Counter(votes.values()).most_common(2)
    majority = top and top[0][1] * 2 > len(votes) and top[0][0]
    base = SheetEntry(LIL_MONSTA, None, say("label.lil_monsta"), shown, ())
    if not majority:
        keeps = say("sheet.babysitter_keeps", player=held) if held else say("sheet.no_babysitter")
        text = say("sheet.babysit_no_majority", keeps=keeps, kill=kill)
        return replace(base, suggestion=text), (), ()
    text = say("sheet.babysits_same" if majority == held else "sheet.babysits",
               player=majority, kill=kill)
    entry = replace(base, suggestion=text)
    if majority == held:
        return entry, (), ()
    why = say("by.babysitter")
    effects = [Effect(majority, "reminders",
                      (*state.grimoire_of(majority).reminders, BABYSITTER), why)]
    if held is not None:
        effects.insert(0, Effect(held, "reminders", tuple(
            r for r in state.grimoire_of(held).reminders if r != BABYSITTER), why))
    tells = ((majority, say("tell.babysitter")),)
    return entry, tuple(effects), tells


def word_turns(state: GameState, player: str,
               mezepheles: str) -> tuple[SheetEntry, tuple[Effect, ...], tuple[tuple[str, Say], ...]]:
    """(entry, effects, tells) for a player who said the Mezepheles' word: they take its
    alignment (and its evil team) tonight, unless it is impaired now: then the ability is
    spent for nothing (seed 002)."""
    terms = state.setup.private_script.terms
    if is_malfunctioning(state, mezepheles):
        return SheetEntry(MEZEPHELES, player, say("label.mezepheles"), None, (),
                          say("sheet.word_spent", player=player, term=terms.malfunction)), (), ()
    why, alignment = say("by.mezepheles"), alignment_of(state, mezepheles) or "evil"
    effects = [Effect(player, "alignment", alignment, why)]
    team = state.grimoire_of(mezepheles).evil_team
    if team is not None:
        effects.append(Effect(player, "evil_team", team, why))
    entry = SheetEntry(MEZEPHELES, player, say("label.mezepheles"), None, (),
                       say("sheet.word_turns_team" if team is not None else "sheet.word_turns",
                           player=player, alignment=alignment, team=team))
    return entry, tuple(effects), ((player, say("tell.now_alignment",
                                                alignment=terms.alignment(alignment))),)


def goon_effects(state: GameState, actors: dict[str, int | None]) -> list[Effect]:
    """Seed 002's Goon: the first player to choose it tonight (in night order: `actors`, each
    player's step) is drunk until dusk, and the Goon takes that player's alignment."""
    night = night_of(state, state.cycle)
    goons = [s.name for s in state.seats if s.alive and (c := acting_character(state, s.name))
             and c.id == GOON and not is_malfunctioning(state, s.name)]  # a Cannibal-Goon too
    out = []
    for goon in goons:
        choosers = sorted((step, player) for player, step in actors.items()
                          if step is not None and (chosen := night.choice_of(player)) is not None
                          and goon in chosen.players and player != goon)
        if not choosers:
            continue
        first = choosers[0][1]
        out.append(Effect(first, "drunk", True, say("by.chose_goon"), until_dusk=True))
        alignment = alignment_of(state, first)
        if alignment and alignment != alignment_of(state, goon) and \
                not (alignment == "good" and _hag_made_evil_goon(state, goon)):
            out.append(Effect(goon, "alignment", alignment, say("by.goon")))
        team = state.grimoire_of(first).evil_team  # seed 002: and joins the chooser's team
        if team is not None and team != state.grimoire_of(goon).evil_team:
            out.append(Effect(goon, "evil_team", team, say("by.goon")))
    return out


def _hag_made_evil_goon(state: GameState, goon: str) -> bool:
    """The official Pit-Hag + Goon jinx: an evil player the Pit-Hag made the Goon cannot turn
    good through the Goon's ability."""
    return jinxed(state, PIT_HAG, GOON) and is_evil(state, goon) and any(
        c.player == goon and c.field == "character" and c.after == GOON and c.why is not None
        and c.why.code == "by.pit_hag" for c in state.grimoire_log)


__all__ = ["barber_swap", "goon_effects", "lil_monsta_step", "word_turns"]

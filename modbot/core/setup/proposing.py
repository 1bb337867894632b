"""Theory of operation: a random legal set-up, drawn for the seats of a game.

`propose(...)` draws a Demon, its Minions, then the Outsiders and Townsfolk the counts of
composition.py's `expected` leave (the Huntsman's Damsel added where it is not drawn), sets
what the Drunk, the Lunatic and the Marionette think (the Marionette seated beside its Demon)
and the bluffs, and keeps the first draw `problems` finds legal. The random source is passed in
(anything with `shuffle`, `choice` and `sample`, such as `random.Random(seed)`), so the core
stays pure and tests are repeatable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..state.grimoire import RED_HERRING
from ..state.model import GrimoireEntry, Seat
from ..state.script import Character, Script
from .composition import TEAMS, Drawn, Grimoire, composition, expected, problems
from .dice import Rng


def propose(script: Script, seats: Sequence[Seat], rng: Rng, *, evil_teams: int = 2,
            lil_monsta: bool = False) -> Drawn:
    """A random legal (grimoire, bluffs) for these seats; travellers are left to the ST.
    Lil' Monsta is never dealt to a player: with `lil_monsta` it is the Demon (one more
    Minion, no bluffs), without it another Demon is drawn."""
    residents = [s.name for s in seats if not s.traveller]
    for _ in range(200):  # modifiers can make a draw impossible: draw again
        drawn = _draw(script, residents, rng, evil_teams, lil_monsta)
        if drawn is not None:
            grimoire, bluffs = drawn
            if not problems(script, seats, grimoire, bluffs, lil_monsta=lil_monsta):
                return grimoire, bluffs
    raise ValueError("no legal set-up found for these players and this script")


def _draw(script: Script, residents: list[str], rng: Rng, evil_teams: int,
          lil_monsta: bool) -> Drawn | None:
    by_team = {t: [c for c in script.of_team(t) if not c.spec.unseated] for t in TEAMS}
    if script.terms.evil_teams:
        return _draw_teams(script, residents, rng, evil_teams, by_team)
    base = composition(len(residents))
    if lil_monsta:  # no Demon seat: none shown the Demon, none dealt beside it
        by_team["demon"] = [c for c in script.of_team("demon") if c.spec.unseated]
        for team in ("minion", "outsider"):
            by_team[team] = [c for c in by_team[team]
                             if c.spec.believes != "demon" and not c.spec.beside_demon]
    if not by_team["demon"] or base is None:
        return None
    demon = rng.choice(by_team["demon"])
    wanted = base.minion + demon.shift.minion + (1 if demon.spec.unseated else 0)
    if wanted > len(by_team["minion"]):
        return None
    minions = rng.sample(by_team["minion"], wanted)
    counts = expected(len(residents), [demon, *minions])
    if counts is None:
        return None
    outsider_count = rng.choice(counts.outsider_choices) if counts.outsider_choices \
        else counts.outsider  # a free count (Legion's): the table's, the Storytellers' to change
    townsfolk_count = len(residents) - outsider_count - len(minions) - counts.demon
    if outsider_count > len(by_team["outsider"]) or \
            not 0 <= townsfolk_count <= len(by_team["townsfolk"]):
        return None
    outsiders = rng.sample(by_team["outsider"], outsider_count)
    townsfolk = rng.sample(by_team["townsfolk"], townsfolk_count)
    for needing in [t for t in townsfolk if t.shift.requires]:  # the Huntsman [+the Damsel]:
        needed = script.get(needing.shift.requires or "")  # one more Outsider, in place of a
        spare = [t for t in townsfolk if not t.shift.requires]  # spare Townsfolk
        if needed is None or not spare:
            return None
        if needed not in outsiders:
            townsfolk.remove(rng.choice(spare))
            outsiders.append(needed)
    dealt = [demon] * counts.demon + minions + outsiders + townsfolk
    rng.shuffle(dealt)
    grimoire = {name: GrimoireEntry(character=c.id)
                for name, c in zip(residents, dealt, strict=False)}
    return _finish(script, residents, grimoire, rng)


def _draw_teams(script: Script, residents: list[str], rng: Rng, teams: int,
                by_team: dict[str, list[Character]]) -> Drawn | None:
    """Seed 002: teams of a Demon and 2 Minions by default, as many as the good characters
    on the script require; the rest are good."""
    good_pool = by_team["townsfolk"] + by_team["outsider"]
    minions_each = 2
    while minions_each and teams * (minions_each + 1) > len(residents):
        minions_each -= 1
    while len(residents) - teams * (minions_each + 1) > len(good_pool):
        teams += 1
    if teams > len(by_team["demon"]) or teams * minions_each > len(by_team["minion"]) or \
            teams * (minions_each + 1) > len(residents):
        return None
    demons = rng.sample(by_team["demon"], teams)
    minions = rng.sample(by_team["minion"], teams * minions_each)
    evil = [(d, n + 1) for n, d in enumerate(demons)] + \
        [(m, i % teams + 1) for i, m in enumerate(minions)]
    good = [(c, None) for c in rng.sample(good_pool, len(residents) - len(evil))]
    dealt = evil + good
    rng.shuffle(dealt)
    grimoire = {name: GrimoireEntry(character=c.id, evil_team=team)
                for name, (c, team) in zip(residents, dealt, strict=False)}
    return _finish(script, residents, grimoire, rng)


def _finish(script: Script, residents: list[str], grimoire: Grimoire, rng: Rng) -> Drawn | None:
    """What the Drunk, Lunatic and Marionette think; the Marionette beside the Demon; bluffs."""
    ids = {e.character for e in grimoire.values()}
    free_good = [c for c in script.characters if c.is_good and c.id not in ids]
    rng.shuffle(free_good)
    for name in residents:
        entry = grimoire[name]
        character = script.character(entry.character or "")
        believes = character.spec.believes
        if believes == "townsfolk":  # the Drunk: a Townsfolk not in play
            townsfolk = [c for c in free_good if c.team == "townsfolk"]
            if not townsfolk:
                return None
            free_good.remove(townsfolk[0])
            grimoire[name] = replace(entry, thinks=townsfolk[0].id)
        elif believes == "demon":  # the Lunatic: the Demon in play
            demons = [script.character(e.character) for e in grimoire.values()
                      if script.character(e.character).team == "demon"]
            grimoire[name] = replace(entry, thinks=demons[0].id)
        elif believes == "good":  # the Marionette: a good character not in play
            if not free_good:
                return None
            grimoire[name] = replace(entry, thinks=free_good.pop().id)
        if character.spec.beside_demon:
            _seat_beside_demon(script, residents, grimoire, name)
    _red_herring(script, residents, grimoire, rng)
    if script.terms.evil_teams:  # seed 002: Demons may be shown any not-in-play character
        free_good += [c for c in script.characters if c.is_evil and c.id not in ids]
        return _team_bluffs(script, residents, grimoire, free_good)
    wanted = script.terms.demon_bluffs if any(
        script.character(e.character).team == "demon" for e in grimoire.values()) else 0
    bluffs = tuple(c.id for c in free_good[:wanted])  # none with Lil' Monsta
    return grimoire, bluffs


def _red_herring(script: Script, residents: list[str], grimoire: Grimoire, rng: Rng) -> None:
    """The Fortune Teller's set-up choice: a good player (the Fortune Teller may be it) who
    reads as a Demon to it, marked in the grimoire."""
    if not any(script.character(grimoire[n].character or "").spec.red_herring
               for n in residents):
        return
    good = [n for n in residents if script.character(grimoire[n].character).is_good]
    chosen = rng.choice(good)
    grimoire[chosen] = replace(grimoire[chosen],
                               reminders=(*grimoire[chosen].reminders, RED_HERRING))


def _team_bluffs(script: Script, residents: list[str], grimoire: Grimoire,
                 free: list[Character]) -> Drawn | None:
    """Seed 002: each team's Demon gets its own bluffs, none shown to two teams."""
    for name in residents:
        if script.character(grimoire[name].character).team != "demon":
            continue
        if len(free) < script.terms.demon_bluffs:
            return None
        own, free = free[:script.terms.demon_bluffs], free[script.terms.demon_bluffs:]
        grimoire[name] = replace(grimoire[name], bluffs=tuple(c.id for c in own))
    return grimoire, ()


def _seat_beside_demon(script: Script, residents: list[str], grimoire: Grimoire,
                       marionette: str) -> None:
    """Swap characters so that the Marionette sits just below a Demon of its team."""
    team = grimoire[marionette].evil_team
    demon = next(n for n in residents if grimoire[n].evil_team == team
                 and script.character(grimoire[n].character).team == "demon")
    below = residents[(residents.index(demon) + 1) % len(residents)]
    grimoire[below], grimoire[marionette] = grimoire[marionette], grimoire[below]


__all__ = ["propose"]

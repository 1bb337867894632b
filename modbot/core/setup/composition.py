"""Theory of operation: a legal set-up (who is what at the start), checked or proposed.

`composition(n)` is the number of Townsfolk, Outsiders, Minions and Demons for n players that
are not travellers: seed 001's table for 7 to 15, the official counts for 5 and 6. `expected`
applies the set-up modifiers of the characters in play: [+1 Outsider] Fang Gu, [-1 Outsider]
Vigormortis, [+1 Minion] Lil' Monsta, [-1 or +1 Outsider] Godfather, [+the Damsel] Huntsman;
Townsfolk absorb the difference (seed 001). With several evil teams (seed 002's Djinn) each
team has one Demon and the same number of Minions, and Outsider counts are free.

`problems(...)` explains everything wrong with a proposed grimoire; `propose(...)` deals a
random legal one. The random source is passed in (anything with `shuffle`, `choice` and
`sample`, such as `random.Random(seed)`), so the core stays pure and tests are repeatable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..state.ids import (
    DAMSEL,
    DRUNK,
    FANG_GU,
    GODFATHER,
    HUNTSMAN,
    LIL_MONSTA,
    LUNATIC,
    MARIONETTE,
    VIGORMORTIS,
)
from ..state.model import GrimoireEntry, Seat
from ..state.script import Character, Script
from ..wording import Say, say
from .dice import Rng

Grimoire = dict[str, GrimoireEntry]  # a set-up's grimoire, by player
Dealt = dict[str, Character]  # the character dealt to each resident
Drawn = tuple[Grimoire, tuple[str, ...]]  # a proposed (grimoire, bluffs)

BOTF_TABLE = {  # players: (townsfolk, outsiders, minions, demons), seed 001
    7: (5, 0, 1, 1), 8: (5, 1, 1, 1), 9: (5, 2, 1, 1), 10: (7, 0, 2, 1), 11: (7, 1, 2, 1),
    12: (7, 2, 2, 1), 13: (9, 0, 3, 1), 14: (9, 1, 3, 1), 15: (9, 2, 3, 1),
}
OFFICIAL_SMALL = {5: (3, 0, 1, 1), 6: (3, 1, 1, 1)}
TEAMS = ("townsfolk", "outsider", "minion", "demon")


@dataclass(frozen=True, slots=True)
class Counts:
    townsfolk: int
    outsider: int
    minion: int
    demon: int
    outsider_choices: tuple[int, ...] = ()  # the Godfather: either count is legal

    def as_dict(self) -> dict[str, int]:
        return {t: getattr(self, t) for t in TEAMS}


def composition(players: int) -> Counts | None:
    found = BOTF_TABLE.get(players) or OFFICIAL_SMALL.get(players)
    return Counts(*found) if found else None


def expected(players: int, in_play: set[str]) -> Counts | None:
    base = composition(players)
    if base is None:
        return None
    townsfolk, outsiders, minions, demons = (base.townsfolk, base.outsider, base.minion,
                                             base.demon)
    shift = 1 if FANG_GU in in_play else 0
    shift -= 1 if VIGORMORTIS in in_play else 0
    shift += 1 if HUNTSMAN in in_play else 0  # [+the Damsel]
    if LIL_MONSTA in in_play:  # nobody holds it: a Minion instead of the Demon
        minions += 1
        demons = 0
    choices: tuple[int, ...] = ()
    if GODFATHER in in_play:
        choices = tuple(sorted({max(0, outsiders + shift - 1), outsiders + shift + 1}))
    outsiders = max(0, outsiders + shift)
    townsfolk = players - outsiders - minions - demons
    return Counts(townsfolk, outsiders, minions, demons, choices)


def problems(script: Script, seats: Sequence[Seat], grimoire: dict[str, GrimoireEntry],
             bluffs: tuple[str, ...] = (), *, lil_monsta: bool = False) -> list[Say]:
    """Every reason this set-up is not legal, as messages (empty: legal). `lil_monsta`: Lil'
    Monsta is the Demon, held by no player (game.lil_monsta)."""
    out: list[Say] = []
    residents = [s.name for s in seats if not s.traveller]
    characters: dict[str, Character] = {}
    for name in residents:
        entry = grimoire.get(name)
        character = script.get(entry.character) if entry and entry.character else None
        if character is None:
            out.append(say("setup.no_character", player=name))
        else:
            characters[name] = character
    if out:
        return out
    ids = [c.id for c in characters.values()]
    for duplicate in sorted({i for i in ids if ids.count(i) > 1}):
        out.append(say("setup.dealt_twice", character=script.character(duplicate).name))
    if LIL_MONSTA in ids:
        out.append(say("setup.lil_monsta_dealt"))
        return out
    out += _count_problems(script, len(residents), characters, grimoire, lil_monsta)
    out += _modifier_problems(script, residents, characters, grimoire)
    out += _bluff_problems(script, set(ids), grimoire, bluffs, characters) if not lil_monsta \
        else [say("setup.lil_monsta_bluffs", given=len(bluffs))] * bool(bluffs)
    return out


def _count_problems(script: Script, players: int, characters: Dealt, grimoire: Grimoire,
                    lil_monsta: bool = False) -> list[Say]:
    counts = {t: sum(1 for c in characters.values() if c.team == t) for t in TEAMS}
    if script.terms.evil_teams:
        return _team_problems(characters, grimoire)
    in_play = {c.id for c in characters.values()} | ({LIL_MONSTA} if lil_monsta else set())
    wanted = expected(players, in_play)
    if wanted is None:
        return [say("setup.table", players=players)]
    out = []
    for team in TEAMS:
        legal = wanted.outsider_choices if team == "outsider" and wanted.outsider_choices \
            else (getattr(wanted, team),)
        if counts[team] not in legal and not (team == "townsfolk" and wanted.outsider_choices):
            out.append(say("setup.count", dealt=counts[team], team=team, players=players,
                           legal=legal, why=_why(team, in_play)))
    return out


def _why(team: str, in_play: set[str]) -> Say | str:
    """The set-up modifiers that change this team's count, e.g. "(+1 Outsider: Fang Gu)"."""
    reasons = {FANG_GU: say("setup.fang_gu"), VIGORMORTIS: say("setup.vigormortis"),
               HUNTSMAN: say("setup.huntsman"), GODFATHER: say("setup.godfather"),
               LIL_MONSTA: say("setup.lil_monsta")}
    found = [text for key, text in reasons.items()
             if key in in_play
             and (team in ("outsider", "townsfolk") or key == LIL_MONSTA)]
    return say("setup.modifiers", reasons=found) if found else ""


def _team_problems(characters: Dealt, grimoire: Grimoire) -> list[Say]:
    """Seed 002: at least two evil teams, each one Demon and the same number of Minions."""
    teams: dict[int | None, list[Character]] = {}
    for name, character in characters.items():
        if character.is_evil:
            teams.setdefault(grimoire[name].evil_team, []).append(character)
    out = []
    if None in teams:
        out.append(say("setup.team_missing"))
        return out
    if len(teams) < 2:
        out.append(say("setup.two_teams"))
    sizes = set()
    for number, members in sorted(teams.items()):
        demons = sum(1 for c in members if c.team == "demon")
        if demons != 1:
            out.append(say("setup.team_demons", team=number, demons=demons))
        sizes.add(len(members) - demons)
    if len(sizes) > 1:
        out.append(say("setup.team_sizes", sizes=str(sorted(sizes))))
    return out


def _modifier_problems(script: Script, residents: list[str], characters: Dealt,
                       grimoire: Grimoire) -> list[Say]:
    out: list[Say] = []
    ids = {c.id for c in characters.values()}
    if HUNTSMAN in ids and DAMSEL not in ids:
        out.append(say("setup.huntsman_damsel"))
    for name, character in characters.items():
        thinks = script.get(grimoire[name].thinks) if grimoire[name].thinks else None
        if character.id == DRUNK and (thinks is None or thinks.team != "townsfolk"
                                        or thinks.id in ids):
            out.append(say("setup.drunk", player=name))
        if character.id == LUNATIC and (thinks is None or thinks.team != "demon"):
            out.append(say("setup.lunatic", player=name))
        if character.id == MARIONETTE:
            out += _marionette(script, residents, characters, name, thinks)
    return out


def _marionette(script: Script, residents: list[str], characters: Dealt, name: str,
                thinks: Character | None) -> list[Say]:
    out = []
    if thinks is None or not thinks.is_good:
        out.append(say("setup.marionette_thinks", player=name))
    index = residents.index(name)
    beside = {residents[index - 1], residents[(index + 1) % len(residents)]}
    if not any(characters[n].team == "demon" for n in beside):
        out.append(say("setup.marionette_seat", player=name))
    return out


def _bluff_problems(script: Script, ids: set[str], grimoire: Grimoire, bluffs: tuple[str, ...],
                    characters: Dealt) -> list[Say]:
    if not any(c.team == "demon" for c in characters.values()):
        return [say("setup.no_demon_partial" if script.terms.partial else "setup.no_demon")]
    out: list[Say] = []
    seen: dict[str, int | None] = {}  # a bluff, and the evil team first shown it
    for demon in [n for n, c in characters.items() if c.team == "demon"]:
        own = grimoire[demon].bluffs or bluffs
        who = say("setup.this_demon", player=demon) if grimoire[demon].bluffs \
            else say("setup.the_demon")
        if len(own) != script.terms.demon_bluffs:
            out.append(say("setup.bluff_count", who=who, wanted=script.terms.demon_bluffs,
                           given=len(own)))
        team = grimoire[demon].evil_team
        shown = {e.thinks for e in grimoire.values() if e.thinks and (  # seed 002: another
            not script.terms.evil_teams or e.evil_team in (None, team))}  # team's Marionette
        for bluff in own:
            character = script.get(bluff)
            if character is None or not (character.is_good or script.terms.evil_teams):
                out.append(say("setup.bluff_not_good", bluff=bluff))
            elif bluff in ids or bluff in shown:
                out.append(say("setup.bluff_in_play", bluff=character.name))
            elif character.team != "demon" and seen.setdefault(bluff, team) != team:
                out.append(say("setup.bluff_shared", bluff=character.name))
    return list(dict.fromkeys(out))


# -- proposing --------------------------------------------------------------------------------

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
    by_team = {t: [c for c in script.of_team(t) if c.id != LIL_MONSTA] for t in TEAMS}
    if script.terms.evil_teams:
        return _draw_teams(script, residents, rng, evil_teams, by_team)
    base = composition(len(residents))
    if lil_monsta:
        by_team["demon"] = [script.character(LIL_MONSTA)]
        by_team["minion"] = [m for m in by_team["minion"] if m.id != MARIONETTE]
        by_team["outsider"] = [o for o in by_team["outsider"] if o.id != LUNATIC]
    if not by_team["demon"] or base is None:
        return None
    demon = rng.choice(by_team["demon"])
    wanted = base.minion + (1 if demon.id == LIL_MONSTA else 0)
    if wanted > len(by_team["minion"]):
        return None
    minions = rng.sample(by_team["minion"], wanted)
    counts = expected(len(residents), {demon.id} | {m.id for m in minions})
    if counts is None:
        return None
    outsider_count = rng.choice(counts.outsider_choices) if counts.outsider_choices \
        else counts.outsider
    townsfolk_count = len(residents) - outsider_count - len(minions) - counts.demon
    if outsider_count > len(by_team["outsider"]) or \
            not 0 <= townsfolk_count <= len(by_team["townsfolk"]):
        return None
    outsiders = rng.sample(by_team["outsider"], outsider_count)
    townsfolk = rng.sample(by_team["townsfolk"], townsfolk_count)
    if any(t.id == HUNTSMAN for t in townsfolk):  # [+the Damsel]: one more Outsider
        damsel = script.get(DAMSEL)
        spare = [t for t in townsfolk if t.id != HUNTSMAN]
        if damsel is None or not spare:
            return None
        if damsel not in outsiders:
            townsfolk.remove(rng.choice(spare))
            outsiders.append(damsel)
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
        if entry.character == DRUNK:
            townsfolk = [c for c in free_good if c.team == "townsfolk"]
            if not townsfolk:
                return None
            free_good.remove(townsfolk[0])
            grimoire[name] = replace(entry, thinks=townsfolk[0].id)
        elif entry.character == LUNATIC:
            demons = [script.character(e.character) for e in grimoire.values()
                      if script.character(e.character).team == "demon"]
            grimoire[name] = replace(entry, thinks=demons[0].id)
        elif entry.character == MARIONETTE:
            if not free_good:
                return None
            grimoire[name] = replace(entry, thinks=free_good.pop().id)
            _seat_beside_demon(script, residents, grimoire, name)
    if script.terms.evil_teams:  # seed 002: Demons may be shown any not-in-play character
        free_good += [c for c in script.characters if c.is_evil and c.id not in ids]
        return _team_bluffs(script, residents, grimoire, free_good)
    wanted = script.terms.demon_bluffs if any(
        script.character(e.character).team == "demon" for e in grimoire.values()) else 0
    bluffs = tuple(c.id for c in free_good[:wanted])  # none with Lil' Monsta
    return grimoire, bluffs


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


def dealt_text(script: Script, entry: GrimoireEntry) -> Say:
    """One seat of a set-up: "Imp [evil team 1] (bluffs: Goon, ...)"."""
    return say("setup.dealt", character=script.character(entry.character).name,
               thinks=say("setup.thinks", character=script.character(entry.thinks).name)
               if entry.thinks else "",
               team=say("setup.team", team=entry.evil_team) if entry.evil_team else "",
               bluffs=say("setup.bluffs", bluffs=[script.character(b).name for b in entry.bluffs])
               if entry.bluffs else "")


def _seat_beside_demon(script: Script, residents: list[str], grimoire: Grimoire,
                       marionette: str) -> None:
    """Swap characters so that the Marionette sits just below a Demon of its team."""
    team = grimoire[marionette].evil_team
    demon = next(n for n in residents if grimoire[n].evil_team == team
                 and script.character(grimoire[n].character).team == "demon")
    below = residents[(residents.index(demon) + 1) % len(residents)]
    grimoire[below], grimoire[marionette] = grimoire[marionette], grimoire[below]

__all__ = ["BOTF_TABLE", "Counts", "composition", "dealt_text", "expected", "problems",
           "propose"]

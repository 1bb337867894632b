"""Theory of operation: a legal set-up (who is what at the start), checked or proposed.

`composition(n)` is the number of Townsfolk, Outsiders, Minions and Demons for n players that
are not travellers: seed 001's table for 7 to 15, the official counts for 5 and 6. `expected`
applies the set-up shifts of the characters in play, each its catalogue record's
`setup_shift` (script.py's `SetupShift`): the Outsider counts it allows ([+2] Baron, [-1 or +1]
Godfather, [+0 or +1] Huntsman, whose Damsel may already be one of them), one more Minion
(Lord of Typhon; Lil' Monsta, held by no player, instead of the Demon), the counts the
Storytellers decide (Legion's, the Atheist's), a character that must be in play with it (the
Huntsman's Damsel, the Choirboy's King) and how many may hold it (the Village Idiot's three);
Townsfolk absorb the difference (seed 001). With several evil teams (seed 002's Djinn) each
team has one Demon and the same number of Minions, and Outsider counts are free.

`problems(...)` explains everything wrong with a proposed grimoire; `propose(...)`
(proposing.py) deals a random legal one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..state.model import GrimoireEntry, Seat
from ..state.script import NO_SHIFT, Character, Script
from ..wording import Say, say

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
    free: frozenset[str] = frozenset()  # the teams whose count the Storytellers decide (Legion)

    def as_dict(self) -> dict[str, int]:
        return {t: getattr(self, t) for t in TEAMS}


def composition(players: int) -> Counts | None:
    found = BOTF_TABLE.get(players) or OFFICIAL_SMALL.get(players)
    return Counts(*found) if found else None


def expected(players: int, in_play: Iterable[Character]) -> Counts | None:
    """The counts for `players` with these characters in play: each one's set-up shift (its
    catalogue record's `setup_shift`) applied; Lil' Monsta: one more Minion and no Demon seat."""
    base = composition(players)
    if base is None:
        return None
    dealt = list(in_play)
    minions = base.minion + sum(c.shift.minion for c in dealt)
    demons = max(0, base.demon + sum(c.shift.demon for c in dealt))
    if any(c.spec.unseated for c in dealt):  # nobody holds it: a Minion instead of the Demon
        minions, demons = minions + 1, 0
    deltas = {0}
    for character in dealt:
        deltas = {d + change for d in deltas for change in character.shift.outsider}
    choices = tuple(sorted({max(0, base.outsider + d) for d in deltas}))
    outsiders = choices[0]
    free = frozenset(team for c in dealt for team in c.shift.free)
    townsfolk = players - outsiders - minions - demons
    return Counts(townsfolk, outsiders, minions, demons, choices if len(choices) > 1 else (),
                  free)


def problems(script: Script, seats: Sequence[Seat], grimoire: dict[str, GrimoireEntry],
             bluffs: tuple[str, ...] = (), *, lil_monsta: bool = False,
             fabled: tuple[str, ...] = ()) -> list[Say]:
    """Every reason this set-up is not legal, as messages (empty: legal). `lil_monsta`: Lil'
    Monsta is the Demon, held by no player (game.lil_monsta); `fabled`: the Fabled in play, whose
    set-up shift counts too (the Sentinel's Outsider more or fewer)."""
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
    for duplicate in sorted({i for i in ids if ids.count(i) > script.character(i).shift.copies}):
        out.append(say("setup.dealt_twice", character=script.character(duplicate).name))
    if any(c.spec.unseated for c in characters.values()):
        out.append(say("setup.lil_monsta_dealt"))
        return out
    shifting = [f for f in (script.get(i) for i in fabled) if f is not None]
    out += _count_problems(script, len(residents), characters, grimoire, lil_monsta, shifting)
    out += _modifier_problems(script, residents, characters, grimoire)
    out += _bluff_problems(script, set(ids), grimoire, bluffs, characters) if not lil_monsta \
        else [say("setup.lil_monsta_bluffs", given=len(bluffs))] * bool(bluffs)
    return out


def _count_problems(script: Script, players: int, characters: Dealt, grimoire: Grimoire,
                    lil_monsta: bool = False, fabled: Sequence[Character] = ()) -> list[Say]:
    counts = {t: sum(1 for c in characters.values() if c.team == t) for t in TEAMS}
    if script.terms.evil_teams:
        return _team_problems(characters, grimoire)
    in_play = list({c.id: c for c in characters.values()}.values()) + \
        _believed_shifting(script, characters, grimoire) + list(fabled)
    if lil_monsta:
        in_play += [c for c in script.characters if c.spec.unseated]
    wanted = expected(players, in_play)
    if wanted is None:
        return [say("setup.table", players=players)]
    out = []
    loose = wanted.outsider_choices or "outsider" in wanted.free  # Townsfolk absorb the rest
    for team in TEAMS:
        legal = wanted.outsider_choices if team == "outsider" and wanted.outsider_choices \
            else (getattr(wanted, team),)
        if team in wanted.free or (team == "townsfolk" and loose):
            continue
        if counts[team] not in legal:
            out.append(say("setup.count", dealt=counts[team], team=team, players=players,
                           legal=legal, why=_why(team, in_play)))
    return out


def _believed_shifting(script: Script, characters: Dealt, grimoire: Grimoire) -> list[Character]:
    """The official Marionette + Huntsman and Marionette + Balloonist jinxes: a Marionette who
    thinks they are one of them counts its set-up shift (the Damsel was added; an Outsider may
    have been): a character shown another (`believes`) jinxed with it."""
    out = []
    for name, character in characters.items():
        believed = script.get(grimoire[name].thinks)
        if character.spec.believes and believed is not None and \
                script.jinxed(character.id, believed.id) and believed.shift != NO_SHIFT:
            out.append(believed)
    return out


def _why(team: str, in_play: list[Character]) -> Say | str:
    """The set-up shifts that change this team's count, e.g. "(+1 Outsider: Fang Gu)"."""
    found = [reason for c in in_play for reason in _shift_words(c)
             if team in ("outsider", "townsfolk") or reason.code != "setup.shift_outsider"]
    return say("setup.modifiers", reasons=found) if found else ""


def _shift_words(character: Character) -> list[Say]:
    """What a character's shift does to the counts, as the set-up's words say it."""
    shift, out = character.shift, []
    if character.spec.unseated:
        return [say("setup.lil_monsta")]
    if shift.outsider != (0,):
        changes = [f"{d:+d}" for d in shift.outsider]
        out.append(say("setup.shift_outsider", changes=changes, character=character.name,
                       most=max(abs(d) for d in shift.outsider)))
    if shift.minion or shift.demon:
        out.append(say("setup.shift_evil", minion=f"{shift.minion:+d}",
                       demon=f"{shift.demon:+d}", character=character.name))
    if shift.free:
        out.append(say("setup.shift_free", teams=list(shift.free), character=character.name))
    return out


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
    believed = _believed_shifting(script, characters, grimoire)
    for character in [*{c.id: c for c in characters.values()}.values(), *believed]:
        needed = character.shift.requires
        if needed and needed not in ids:
            out.append(say("setup.requires", character=character.name,
                           needed=script.name_of(needed)))
    for name, character in characters.items():
        thinks = script.get(grimoire[name].thinks) if grimoire[name].thinks else None
        believes = character.spec.believes
        if believes == "townsfolk" and (thinks is None or thinks.team != "townsfolk"
                                        or thinks.id in ids):
            out.append(say("setup.drunk", player=name))
        if believes == "demon" and (thinks is None or thinks.team != "demon"):
            out.append(say("setup.lunatic", player=name))
        if believes == "good":
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


def who_runs(script: Script) -> Say:
    """Which of the script's characters the bot automates and which the Storytellers run,
    said once by `modbot setup` and `modbot check`."""
    run = script.run_by_storytellers
    if not run:
        return say("setup.all_automated", total=len(script.characters))
    return say("setup.storytellers_run", count=len(run), total=len(script.characters),
               names=[c.name for c in run])


def jinxes_said(script: Script) -> Say | None:
    """The official jinxes among the script's characters, and which of them the bot applies
    (None: there are none)."""
    if not script.official_jinxes:
        return None
    pairs = [f"{script.name_of(j.first)} + {script.name_of(j.second)}"
             for j in script.official_jinxes]
    return say("setup.jinxes", count=len(pairs), pairs=pairs,
               honoured=sum(1 for j in script.official_jinxes if j.honoured))


def dealt_text(script: Script, entry: GrimoireEntry) -> Say:
    """One seat of a set-up: "Imp [evil team 1] (bluffs: Goon, ...)"."""
    return say("setup.dealt", character=script.character(entry.character).name,
               thinks=say("setup.thinks", character=script.character(entry.thinks).name)
               if entry.thinks else "",
               team=say("setup.team", team=entry.evil_team) if entry.evil_team else "",
               bluffs=say("setup.bluffs", bluffs=[script.character(b).name for b in entry.bluffs])
               if entry.bluffs else "",
               marks=say("setup.marks", marks=list(entry.reminders)) if entry.reminders else "")


__all__ = [
    "BOTF_TABLE",
    "Counts",
    "composition",
    "dealt_text",
    "expected",
    "jinxes_said",
    "problems",
    "who_runs",
]

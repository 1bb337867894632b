"""Theory of operation: a script (the characters a game may use) as frozen data.

The shell reads the files (the catalogue `data/characters.json`, one record per official
character and per seed's own version; a script in the official script format, mostly ids; the
script's terms; the official jinxes) and passes plain dicts to `Script.from_data`; the core
never reads a file. A `Character` carries its official fields (id, name, team, ability,
default night positions), its set-up shift (`SetupShift`), whether the bot automates it (else
the Storytellers run it, from its summary and its wiki page), and an `ActionSpec`: when it
wakes, what it chooses, which players it may choose, and what the night sheet computes for the
Storyteller. A host's script (no terms) carries the official jinxes among its characters
(`Jinx`) and runs the official version of a character a seed words its own way.

Names are matched loosely (`character_key`): capitals, spaces, apostrophes and accents do not
matter, so "snake charmer", "Snakecharmer" and "Doppelganger" all resolve.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

GOOD_TEAMS = ("townsfolk", "outsider")
EVIL_TEAMS = ("minion", "demon")
SPECIAL_STEPS = {"minioninfo": "Minion info", "demoninfo": "Demon info"}
# where the Minion and Demon info fall in the official first night (its night sheet's order,
# the same numbering as the catalogue's positions: a Philosopher and a Lunatic wake before)
INFO_STEP_POSITIONS = {"minioninfo": 19.0, "demoninfo": 23.0}


def character_key(name: str) -> str:
    """Lower-case letters only, accents dropped: the official id convention."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed.lower() if "a" <= c <= "z")


@dataclass(frozen=True, slots=True)
class ActionSpec:
    wakes: str = "none"  # none | first | other | each | day | death
    once: bool = False
    players: int = 0
    characters: int = 0
    character_teams: tuple[str, ...] = ()  # () = any team
    alive_only: bool = False
    dead_only: bool = False
    self: bool = True
    travellers: bool = False
    info: str | None = None  # what the night sheet computes (see night.py)
    kills: bool = False
    acts_dead: bool = False  # an on-death ability: it works once its player has died
    st: str = ""  # what the Storyteller decides
    chooses_after_first: bool = False  # wakes each night, chooses only on later ones
    asleep: bool = False  # its step is the Storytellers' own: its player is not woken (the Acrobat)
    learns: bool = False  # run by the Storytellers: on a night it wakes, a result is owed
    when_killed: bool = False  # its step acts when its player was killed tonight (the Ravenkeeper)
    sees_grimoire: bool = False  # shown the grimoire at dawn (the Spy: observers.py's digest)
    votes_with_token: bool = False  # its execute vote needs a vote token given (the Beggar)
    weighs_vote: int = 0  # its chosen player's yes counts this many tomorrow (Thief -1, Bureaucrat 3)
    votes_with_master: bool = False  # votes only with the master it chose (the Butler)
    safe_from_demon: bool = False  # the Demon's kill and poison do not harm it (the Soldier)
    poisoned_by_jinxed: tuple[str, ...] = ()  # poisoned once a jinxed one is in play (the Damsel)
    poisons_neighbours: str = ""  # the type of its nearest living neighbours it poisons (No Dashii)
    kills_keep_ability: bool = False  # the Minions it kills keep their ability (the Vigormortis)
    drunk_reminder: str = ""  # the reminder that makes a player its drunk (the Puzzlemaster)
    unseated: bool = False  # no player holds it: the game file says it is in play (Lil' Monsta)
    nominates_after_close: bool = False  # nominates once more after nominations close (Butcher)
    believes: str = ""  # what its player is shown instead: townsfolk (the Drunk), demon (the
    # Lunatic: the Demon in play), good (the Marionette: a good character not in play)
    beside_demon: bool = False  # dealt beside its Demon (the Marionette)
    red_herring: bool = False  # a set-up choice: a good player who reads as a Demon to it
    kills_through_protection: bool = False  # its kill ignores protection (the Assassin)
    shields_from_demon: bool = False  # its choice is safe from the Demon tonight (the Monk)
    restores_ability: bool = False  # its chosen dead player's ability works tonight (Bone Collector)
    turns_by_word: bool = False  # a player who said its word turns at its step (the Mezepheles)
    dead_choice_kills: bool = False  # a dead player's choice of it kills at its step (Moonchild)
    false_information: bool = False  # the Townsfolk's information is false (the Vortox)
    gives_ability: bool = False  # gives a player another character or ability at night (Pit-Hag)
    announces_new_choice: bool = False  # everyone learns it chose a new player (the Fearmonger)
    cannot_die: str = ""  # whom it keeps alive: self (the Sailor), good_neighbours (the Tea
    # Lady), once (the Fool: itself, the first time), lives_on (the Zombuul: its first death is
    # public, and it lives on registering as dead): characters/undying.py
    charged_players: int = 0  # after a night it chose no one (/pass), it chooses this many (the Po)
    votes_with_the_dead: bool = False  # only it and the dead vote, freely, no majority (the Voudon)
    storytellers_nominate: bool = False  # only the Storytellers nominate (the Bishop)
    whispers_beside: bool = False  # whispers only with a neighbour while it works (the Matron)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ActionSpec:
        known = {k: v for k, v in data.items() if k in cls.__slots__}
        for listed in ("character_teams", "poisoned_by_jinxed"):
            if listed in known:
                known[listed] = tuple(known[listed])
        return cls(**known)

    def wakes_on(self, night: int) -> bool:
        return self.wakes == "each" or (self.wakes == "first" and night == 1) or \
            (self.wakes == "other" and night > 1)

    @property
    def chooses(self) -> bool:
        return self.players > 0 or self.characters > 0

    def chooses_on(self, night: int) -> bool:
        """It wakes that night and makes a choice (the Godfather: from night 2)."""
        return self.wakes_on(night) and self.chooses and \
            (night > 1 or not self.chooses_after_first)


@dataclass(frozen=True, slots=True)
class SetupShift:
    """What a character in play changes in the set-up's counts (its official bracket, as modbot
    checks it): the Outsider counts it allows (deltas: the Baron's (2,), the Godfather's (-1, 1)),
    one more or fewer Minion or Demon, the teams whose count the Storytellers decide (`free`),
    a character that must be in play with it (`requires`: the Huntsman's Damsel), and how many
    players may hold it (`copies`: the Village Idiot's three)."""
    outsider: tuple[int, ...] = (0,)
    minion: int = 0
    demon: int = 0
    free: tuple[str, ...] = ()
    requires: str | None = None
    copies: int = 1

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> SetupShift:
        data = data or {}
        return cls(tuple(data.get("outsider", (0,))), int(data.get("minion", 0)),
                   int(data.get("demon", 0)), tuple(data.get("free", ())), data.get("requires"),
                   int(data.get("copies", 1)))


NO_SHIFT = SetupShift()


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    name: str
    team: str
    ability: str
    spec: ActionSpec = ActionSpec()
    first_night: float = 0
    other_night: float = 0
    jinxes: tuple[tuple[str, str], ...] = ()  # (other character id, the ruling)
    shift: SetupShift = NO_SHIFT
    automated: bool = True  # False: the Storytellers run it from its summary and its wiki page
    wiki: str = ""  # the official wiki's page, for the full text
    official_id: str = ""  # the official id it runs for, where modbot's differs
    registers: tuple[str, ...] = ()  # what it might register as otherwise: "evil", "minion", ...

    @property
    def is_good(self) -> bool:
        return self.team in GOOD_TEAMS

    @property
    def is_evil(self) -> bool:
        return self.team in EVIL_TEAMS


@dataclass(frozen=True, slots=True)
class Jinx:
    """An official jinx between two characters on a script (by the script's ids), its ruling in
    modbot's words, and whether the bot applies it itself (else the Storytellers do)."""
    first: str
    second: str
    ruling: str
    honoured: bool = False


@dataclass(frozen=True)
class Terms:
    good: str = "good"
    evil: str = "evil"
    malfunction: str = "drunk or poisoned"
    demon_bluffs: int = 3
    evil_teams: bool = False  # several evil teams (the Djinn's rules of seed 002)
    partial: bool = False  # only some character types: the host adds the others

    def alignment(self, value: str | None) -> str:
        return {"good": self.good, "evil": self.evil}.get(value or "", value or "unknown")


@dataclass(frozen=True)
class Script:
    id: str
    name: str
    characters: tuple[Character, ...]
    first_night: tuple[str, ...] = ()  # ids and the special steps, in order
    other_night: tuple[str, ...] = ()
    terms: Terms = Terms()
    unknown: tuple[str, ...] = ()  # ids in the file that we do not know (custom or typo)
    official_jinxes: tuple[Jinx, ...] = ()  # the official jinxes among its characters
    by_key: dict[str, Character] = field(init=False, repr=False, compare=False)
    names: dict[str, str] = field(init=False, repr=False, compare=False)  # id -> name (read only)

    def __post_init__(self) -> None:
        index = {character_key(c.name): c for c in self.characters}
        index.update({c.id: c for c in self.characters})  # an id wins over another's name
        object.__setattr__(self, "by_key", index)
        object.__setattr__(self, "names", {c.id: c.name for c in self.characters})

    @classmethod
    def from_data(cls, script_id: str, entries: list[Any], catalogue: dict[str, dict[str, Any]],
                  terms: dict[str, Any] | None = None, *, seed: bool | None = None,
                  jinxes: list[dict[str, Any]] | None = None) -> Script:
        """`entries`: the official script JSON; `catalogue`: every official character (and the
        seeds' own versions), one record each by key (`data/characters.json`). An entry naming a catalogued id runs
        as the catalogue says, in the entry's own words where it gives them; an entry with a
        team and an ability that the catalogue lacks is a custom character the Storyteller
        runs; any other id is `unknown`."""
        overrides = (terms or {}).get("specs", {})  # this script's own rulings
        seed = bool(terms) if seed is None else seed
        aliases = _aliases(catalogue, seed=seed)
        meta = next((e for e in entries if isinstance(e, dict) and e.get("id") == "_meta"), {})
        characters, unknown = [], []
        for entry in entries:
            entry = {"id": entry} if isinstance(entry, str) else entry
            if entry.get("id") == "_meta":
                continue
            key = character_key(entry["id"])
            known = aliases.get(key, key)
            worded = "team" in entry and "ability" in entry
            if known in catalogue and not (worded and entry["id"] != key):  # "tinker2": custom
                characters.append(_catalogued(known, catalogue[known], entry,
                                              overrides.get(known)))
            elif "team" in entry and "ability" in entry:
                characters.append(_custom(entry))
            else:
                unknown.append(entry["id"])
        first = _order(meta.get("firstNight"), characters, "first_night")
        other = _order(meta.get("otherNight"), characters, "other_night")
        fields = ("good", "evil", "malfunction", "demon_bluffs", "evil_teams", "partial")
        terms_obj = Terms(**{k: v for k, v in (terms or {}).items() if k in fields})
        among = () if seed else _jinxes_among(characters, jinxes or [])
        return cls(script_id, meta.get("name", script_id), tuple(characters), first, other,
                   terms_obj, tuple(unknown), among)

    def find(self, name: str) -> Character | None:
        return self.by_key.get(character_key(name))

    def get(self, character_id: str | None) -> Character | None:
        return self.by_key.get(character_id or "")

    def character(self, character_id: str | None) -> Character:
        """A character the caller knows is on this script (checked before: a dealt one)."""
        found = self.get(character_id)
        if found is None:
            raise KeyError(f"{character_id!r} is not on the script {self.id}")
        return found

    def name_of(self, character_id: str) -> str:
        """The character's name on this script (its id, for one the script lacks)."""
        character = self.get(character_id)
        return character.name if character is not None else character_id

    def jinxed(self, first: str, second: str) -> bool:
        """An official jinx between the two characters is on this script (a host's)."""
        return any({j.first, j.second} == {first, second} for j in self.official_jinxes)

    @property
    def run_by_storytellers(self) -> tuple[Character, ...]:
        """The characters the bot does not automate: the Storytellers run them."""
        return tuple(c for c in self.characters if not c.automated)

    def night_order(self, night: int) -> tuple[str, ...]:
        return self.first_night if night == 1 else self.other_night

    def of_team(self, *teams: str) -> tuple[Character, ...]:
        return tuple(c for c in self.characters if c.team in teams)

    def with_characters(self, extra: tuple[Character, ...]) -> Script:
        """This script completed with characters from others (a partial script), each
        placed in the night order by its own positions."""
        known = {c.id for c in self.characters}
        added = tuple(c for i, c in enumerate(extra)  # each once, though several scripts have it
                      if c.id not in known and all(o.id != c.id for o in extra[:i]))
        merged = self.characters + added
        return Script(self.id, self.name, merged, _merge_order(self.first_night, added,
                                                              "first_night"),
                      _merge_order(self.other_night, added, "other_night"), self.terms)


def _catalogued(character_id: str, record: dict[str, Any], entry: dict[str, Any], ruling: dict[str, Any] | None) -> Character:
    """A catalogue record as this script words it (an official alias: by its official name)."""
    official = record.get("official", {})
    name = official["name"] if entry["id"] == official.get("id") else record["name"]
    words = {"name": name, "ability": record["ability"],
             **{k: entry[k] for k in ("name", "ability") if k in entry}}
    spec = {**record["action"], **(ruling or {})}
    return Character(character_id, words["name"], record["team"], words["ability"],
                     ActionSpec.from_dict(spec), float(record.get("firstNight") or 0),
                     float(record.get("otherNight") or 0), _jinxes(entry),
                     SetupShift.from_dict(record.get("setup_shift")),
                     record.get("run") != "storytellers", record.get("wiki", ""),
                     official.get("id", ""), tuple(record.get("registers", ())))


def _aliases(catalogue: dict[str, dict[str, Any]], *, seed: bool) -> dict[str, str]:
    """Official id -> catalogue key, where they differ: the seeds' renamed characters (the
    Doppelgänger runs for the Evil Twin) and, on a script that is not a seed's, the official
    version of a character a seed words its own way (`official.variant`: the Acrobat)."""
    return {r["official"]["id"]: key for key, r in catalogue.items()
            if "official" in r and not (seed and r["official"].get("variant"))}


def _custom(entry: dict[str, Any]) -> Character:
    """A character without machine rules: the Storyteller decides what it does."""
    action = ActionSpec(wakes="none", st="custom character: the Storyteller runs it")
    return Character(entry["id"], entry["name"], entry["team"], entry["ability"], action,
                     float(entry.get("firstNight") or 0), float(entry.get("otherNight") or 0),
                     _jinxes(entry), automated=False)


def _jinxes_among(characters: list[Character], jinxes: list[dict[str, Any]]) -> tuple[Jinx, ...]:
    """The official jinxes whose two characters are both on the script (found by official id:
    the Evil Twin is the Doppelgänger's)."""
    by_official = {c.official_id or c.id: c for c in characters}
    out = []
    for jinx in jinxes:
        first, second = (by_official.get(i) for i in jinx["characters"])
        if first is not None and second is not None:
            out.append(Jinx(first.id, second.id, jinx["ruling"], bool(jinx.get("honoured"))))
    return tuple(out)


def _jinxes(entry: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple((j["id"], j["reason"]) for j in entry.get("jinxes", ()))


def _order(listed: list[str] | None, characters: list[Character], attribute: str) -> tuple[str, ...]:
    """The script's own order when it gives one; otherwise by the characters' positions."""
    if listed:
        return tuple(step for step in listed if step not in ("dusk", "dawn"))
    ranked = [(getattr(c, attribute), c.id) for c in characters if getattr(c, attribute) > 0]
    if attribute == "first_night":
        ranked += [(position, step) for step, position in INFO_STEP_POSITIONS.items()]
    return tuple(step for _, step in sorted(ranked))


def _merge_order(order: tuple[str, ...], added: tuple[Character, ...],
                 attribute: str) -> tuple[str, ...]:
    """Added characters that wake go after the info steps, Minions and Demons first."""
    waking = [c for c in added if getattr(c, attribute) > 0]
    evil = [c.id for c in sorted(waking, key=lambda c: getattr(c, attribute)) if c.is_evil]
    good = [c.id for c in sorted(waking, key=lambda c: getattr(c, attribute)) if not c.is_evil]
    info = [s for s in order if s in SPECIAL_STEPS]
    rest = [s for s in order if s not in SPECIAL_STEPS]
    return tuple(info + evil + rest + good)


__all__ = [
    "EVIL_TEAMS",
    "GOOD_TEAMS",
    "INFO_STEP_POSITIONS",
    "NO_SHIFT",
    "SPECIAL_STEPS",
    "ActionSpec",
    "Character",
    "Jinx",
    "Script",
    "SetupShift",
    "Terms",
    "character_key",
]

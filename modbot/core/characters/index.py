"""Theory of operation: where each character's rules live, by character id.

`HOOKS` names, for every character of the bundled scripts, the modules that treat it by name
(paths under `modbot/`): what it learns (`core.characters.information`), what its choice does
(`core.characters.effects`), what its death or a death triggers (`core.characters.triggers`),
its public action in the thread (`core.characters.public_abilities`), its step of the night
sheet (`core.night.*`), its set-up rules (`core.setup.composition`), and the shell's few
messages about it. An empty entry is a character whose night sheet row (its place in the
night order and its action, from `data/`) is all the bot does; the Storytellers decide the rest.

The table is written out, not computed (the core reads no files); a test reads the source and
checks that it lists every module that names each character, and that every character of
`data/scripts` is here.
"""

from __future__ import annotations

KINDS = {
    "core.characters.information": "information",
    "core.characters.effects": "effect",
    "core.characters.triggers": "triggers",
    "core.characters.public_abilities": "public action",
    "core.setup.composition": "set-up",
    "clocktracker": "export",
}

HOOKS: dict[str, tuple[str, ...]] = {
    "acrobat": ("core.characters.effects",),
    "artist": (),
    "assassin": ("core.characters.effects", "core.night.sheet"),
    "barber": (
        "core.characters.helpers", "core.characters.information",
        "core.characters.others_choose", "core.night.deal_notices", "core.night.rows"
    ),
    "barista": (),
    "bonecollector": ("core.night.sheet",),
    "boomdandy": ("core.characters.boomdandy",),
    "butcher": ("core.characters.travellers", "core.deciding.rules"),
    "cannibal": ("core.characters.triggers",),
    "cerenovus": ("core.characters.information",),
    "chambermaid": ("core.characters.information",),
    "chef": ("core.characters.information",),
    "clockmaker": ("core.characters.information",),
    "damsel": (
        "core.characters.effects", "core.characters.information",
        "core.characters.public_abilities", "core.setup.composition"
    ),
    "deviant": ("core.characters.travellers",),
    "devilsadvocate": ("core.characters.effects",),
    "djinn": ("core.characters.public_roles",),
    "doppelganger": ("clocktracker", "core.characters.information", "core.characters.wins"),
    "dreamer": ("core.characters.information",),
    "drunk": (
        "core.characters.effects", "core.characters.public_abilities",
        "core.characters.triggers",  # the grimoire's field "drunk" (the Philosopher's), the same word
        "core.setup.composition"
    ),
    "empath": ("core.characters.information",),
    "fanggu": ("core.characters.effects", "core.setup.composition"),
    "fearmonger": ("core.characters.information", "core.characters.triggers", "core.night.flow"),
    "fibbin": ("core.characters.fabled",),
    "fiddler": ("core.characters.fabled", "core.characters.helpers", "core.night.deal_notices"),
    "flowergirl": ("core.characters.information",),
    "gambler": ("core.characters.effects",),
    "godfather": ("core.characters.information", "core.setup.composition"),
    "golem": ("core.characters.triggers",),
    "goon": ("core.night.sheet",),
    "hellslibrarian": ("core.night.commands",),
    "hostess": ("clocktracker", "core.characters.information"),
    "huntsman": ("core.characters.effects", "core.setup.composition"),
    "imp": ("core.characters.effects", "core.characters.star_pass"),
    "innkeeper": ("core.characters.effects",),
    "juggler": ("core.characters.information", "core.characters.public_abilities"),
    "klutz": ("core.characters.public_abilities",),
    "librarian": ("core.characters.information",),
    "lilmonsta": (
        "clocktracker",
        "core.state.grimoire", "core.characters.helpers", "core.characters.information",
        "core.characters.others_choose", "core.night.sheet", "core.setup.composition",
        "files.gamefile"
    ),
    "lleech": ("core.characters.effects", "core.characters.triggers"),
    "lunatic": (
        "core.characters.effects", "core.characters.information", "core.night.rows",
        "core.setup.composition"
    ),
    "marionette": (
        "core.characters.wins", "core.night.deal_notices", "core.night.rows",
        "core.setup.composition"
    ),
    "mathematician": ("core.characters.information",),
    "mezepheles": (
        "core.characters.information", "core.characters.others_choose",
        "core.characters.public_abilities", "core.night.sheet"
    ),
    "monk": ("core.characters.effects", "core.characters.information", "core.night.sheet"),
    "moonchild": ("core.characters.public_abilities", "core.night.sheet"),
    "mutant": ("core.characters.madness",),
    "noble": ("core.characters.information",),
    "nodashii": ("core.state.grimoire",),
    "oracle": ("core.characters.information",),
    "philosopher": ("core.characters.effects", "core.characters.triggers"),
    "pithag": ("core.characters.effects",),
    "pixie": ("core.characters.information", "core.characters.madness"),
    "poisoner": ("core.characters.effects",),
    "psychopath": ("core.characters.public_abilities", "core.characters.triggers"),
    "pukka": ("core.characters.effects",),
    "puzzlemaster": ("core.state.grimoire", "core.characters.public_abilities"),
    "revolutionary": ("core.characters.fabled", "core.characters.public_roles"),
    "sage": ("core.characters.information", "core.night.rows"),
    "savant": (),
    "scarletwoman": ("core.characters.star_pass", "core.characters.triggers"),
    "seamstress": ("core.characters.information",),
    "snakecharmer": ("core.characters.effects",),
    "soldier": ("core.characters.effects", "core.state.grimoire"),
    "sweetheart": ("core.characters.triggers", "core.night.rows"),
    "towncrier": ("core.characters.information",),
    "undertaker": ("core.characters.information",),
    "vigormortis": ("core.characters.effects", "core.characters.triggers", "core.setup.composition",
                    "core.state.grimoire"),
    "vortox": ("core.characters.wins", "core.night.rows"),
    "widow": ("core.characters.effects", "core.characters.triggers"),
    "witch": ("core.characters.effects", "core.characters.triggers"),
}


def hooks(character_id: str) -> list[tuple[str, str]]:
    """(kind, module) for each place that treats the character by name; a module outside
    `KINDS` is named by its package (`night`, `app`, ...)."""
    return [(KINDS[module] if module in KINDS else module.split(".")[-2], module)
            for module in HOOKS[character_id]]

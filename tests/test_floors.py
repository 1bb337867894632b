"""The core's folders are floors (docs/development.md draws them): each module imports only
from its own floor or the floors below, so a change to a floor above never reaches below."""

import pytest

from .test_architecture import CORE, CORE_FILES, _imported_modules, module_name

# bottom to top: a module of a floor may import any module of its floor or one below it
FLOORS = [
    ("ground", ("state", "wording")),  # values: the model, events, roster, script,
    # actions, ids, the grimoire's queries, the feature type (state/feature.py), wording
    ("reading", ("reading",)),  # text into actions
    ("setup", ("setup",)),  # the deal: composition, dice
    ("deciding", ("deciding",)),  # the rules of the day: voting, nominations, the STs' actions
    ("characters", ("characters",)),  # every character's behaviour
    ("night", ("night",)),  # the night: choices, order, the sheet, the private side
    ("top", ("seal", "record", "reveal", "signups", "registry", "engine", "day_end", "console",
             "command_line",
             "reporting", "renaming", "notices", "observers", "__init__")),  # the tables and the one entry point
]


def floor_of(module: str) -> int:
    """The floor of a core module (`modbot.core.X…`)."""
    parts = module.split(".")
    head = parts[2] if len(parts) > 2 else "__init__"
    for number, (_, members) in enumerate(FLOORS):
        if head in members:
            return number
    raise AssertionError(f"{module} is on no floor: add its folder to FLOORS")


def upward_imports(imports: dict[str, set[str]]) -> list[str]:
    return sorted(f"{importer} (floor {FLOORS[floor_of(importer)][0]}) imports {imported} "
                  f"(floor {FLOORS[floor_of(imported)][0]})"
                  for importer, targets in imports.items() for imported in targets
                  if floor_of(imported) > floor_of(importer))


def core_imports() -> dict[str, set[str]]:
    known = {module_name(p) for p in CORE_FILES}
    return {module_name(p): {m for m in _imported_modules(p, known) if m in known}
            for p in CORE_FILES}


def test_every_core_module_is_on_a_floor():
    for path in CORE_FILES:
        floor_of(module_name(path))


def test_no_core_module_imports_from_a_floor_above():
    assert upward_imports(core_imports()) == []


def test_the_floor_check_finds_an_upward_import():
    found = upward_imports({"modbot.core.state.model": {"modbot.core.night.flow"},
                            "modbot.core.night.flow": {"modbot.core.state.model"}})
    assert found == ["modbot.core.state.model (floor ground) imports modbot.core.night.flow "
                     "(floor night)"]
    with pytest.raises(AssertionError, match="no floor"):
        floor_of("modbot.core.attic.thing")


def test_the_floors_are_the_core_folders():
    folders = {p.name for p in CORE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    modules = {p.stem for p in CORE.glob("*.py")}
    assert folders | modules == {m for _, members in FLOORS for m in members}

"""The shape of the code: the core is pure (standard library only, nothing from the shell, no
I/O, clock or dice); no module imports itself back through others; the shell reaches the core
only through its public API; and what the engine can do never depends on import order."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "modbot"
CORE = PACKAGE / "core"
FORBIDDEN_MODULES = {
    "time", "random", "secrets", "os", "sys", "io", "socket", "subprocess", "pathlib",
    "shutil", "tempfile", "logging", "threading", "asyncio", "sqlite3", "urllib", "http",
    "uuid", "json", "glob", "signal", "select", "multiprocessing", "requests", "peewee",
    "jinja2", "pydiscourse", "schedule",
}
# The one exception: the seal writes the grimoire as canonical JSON to hash it (`json.dumps`, a
# pure function of its argument; the core still reads and writes no file).
ALLOWED_IMPORTS = {("seal.py", "json")}
FORBIDDEN_CALLS = {"now", "utcnow", "today", "open", "input", "print", "urandom", "getenv"}
CORE_FILES = sorted(CORE.rglob("*.py"))
ALL_FILES = sorted(PACKAGE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or "", node.level


def absolute(path: Path, module: str, level: int) -> str:
    """The absolute name of an import written in `path` (relative ones resolved)."""
    if not level:
        return module
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _imported_modules(path: Path, known: set[str]):
    """Every module of `known` that `path` imports (`from pkg import module` included)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = absolute(path, node.module or "", node.level)
            for alias in node.names:
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_imports_only_stdlib_and_core(path):
    tree = ast.parse(path.read_text())
    for line, module, level in _imports(tree):
        if level:  # relative: must stay inside the core package
            target = absolute(path, module, level)
            assert target == "modbot.core" or target.startswith("modbot.core."), \
                f"{path.name}:{line} reaches outside modbot.core ({target})"
            continue
        top = module.split(".")[0]
        assert top == "__future__" or top in sys.stdlib_module_names, \
            f"{path.name}:{line} imports non-stdlib {module}"
        assert top not in FORBIDDEN_MODULES or (path.name, top) in ALLOWED_IMPORTS, \
            f"{path.name}:{line} imports {module}"


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_reads_no_clock_and_does_no_io(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            assert name not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {name}()"


def test_the_checks_see_every_core_module():
    assert {p.name for p in CORE_FILES} >= {
        "parser.py", "rules.py", "engine.py", "voting.py", "model.py", "events.py",
        "registry.py", "sheet.py", "effects.py"}


def test_the_import_check_catches_a_violation():
    bad = ast.parse("import time\nfrom ...gamefile import load_game\n")
    found = list(_imports(bad))
    assert ("time", 0) in [(m, lvl) for _, m, lvl in found]
    assert absolute(CORE / "state" / "model.py", "gamefile", 3) == "modbot.gamefile"


def import_graph() -> dict[str, set[str]]:
    known = {module_name(p) for p in ALL_FILES}
    return {module_name(p): {m for m in _imported_modules(p, known) if m in known}
            - {module_name(p)} for p in ALL_FILES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_back():
    """Imports inside functions count too: a deferred import is still a cycle."""
    assert cycles(import_graph()) == []


def test_the_cycle_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


SHELL_FILES = [p for p in ALL_FILES if CORE not in p.parents and p.name != "__init__.py"]


@pytest.mark.parametrize("path", SHELL_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_shell_uses_only_the_core_public_api(path):
    known = {module_name(p) for p in ALL_FILES}
    inside = sorted(m for m in _imported_modules(path, known) if m.startswith("modbot.core."))
    assert inside == [], f"{path.name} imports core internals: {inside}"


TABLES = {"APPLIERS", "RULES", "STAFF_RULES", "COMMANDS", "COMMAND_OF", "TIMERS", "NOTICES",
          "EVENT_TYPES", "FEATURES"}  # the registry's tables, built from its list alone


def _features_declared() -> set[str]:
    """The core modules that declare a feature (`FEATURE = Feature(...)` at their top)."""
    found = set()
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "FEATURE"
                                                    for t in node.targets):
                found.add(module_name(path))
    return found


def _features_listed() -> set[str]:
    """The modules whose FEATURE the registry's list names, read from its source."""
    tree = ast.parse((PACKAGE / "core" / "registry.py").read_text())
    aliases: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            base = absolute(PACKAGE / "core" / "registry.py", node.module or "", node.level)
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
    listed = next(n for n in tree.body if isinstance(n, ast.AnnAssign)
                  and getattr(n.target, "id", "") == "FEATURES")
    assert isinstance(listed.value, ast.Tuple)
    return {aliases[e.value.id] for e in listed.value.elts
            if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)}


def test_the_registry_lists_every_feature_and_only_it_builds_the_tables():
    """Every table is built from the registry's explicit list (a static check: no module
    imported first can add, drop or replace a rule): each feature module is in the list, the
    list names nothing else, and no module but the registry writes a table."""
    declared = _features_declared()
    assert len(declared) >= 20 and "modbot.core.deciding.away" in declared  # the scan reads them
    assert _features_listed() == declared
    writers = []
    for path in ALL_FILES:
        if path == PACKAGE / "core" / "registry.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
            for target in targets:
                base = target.value if isinstance(target, ast.Subscript | ast.Attribute) else target
                name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                if name in TABLES:
                    writers.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("update", "setdefault", "pop", "clear", "__setitem__") and \
                    getattr(node.func.value, "id", getattr(node.func.value, "attr", "")) in TABLES:
                writers.append(f"{path.name}:{node.lineno}")
    assert writers == []


LINES = 400  # a module a reader holds in their head (DEVELOPERS.md: under ~400 lines)


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_is_at_most_400_lines(path):
    assert len(path.read_text().splitlines()) <= LINES, "split it by concern"


RULE_TESTS = sorted((ROOT / "tests" / "rules").glob("test_*.py"))
WORDED = {"Conversation", "to", "night_sheet", "day_one"}  # tests/conversation.py's English side
SHELL_PACKAGES = ("modbot.app", "modbot.cli.rehearsal", "modbot.cli.browser_rehearsal", "modbot.sandbox")


def rule_test_words(source: str, path: Path) -> list[str]:
    """Why a rule test would read English: an import of the app (its renderer, catalogue or
    runtime), of the words harness (tests/wording.py), or of the Conversation harness's
    worded side. Rule tests assert codes and values (tests/notices.py); words are
    tests/words/'s."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[tuple[str, list[str]]] = []
        if isinstance(node, ast.ImportFrom):
            base = absolute(path, node.module or "", node.level)
            names.append((base, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            names.extend((a.name, []) for a in node.names)
        for module, imported in names:
            if module.startswith(SHELL_PACKAGES) or module == "tests.wording":
                found.append(f"{path.name}:{node.lineno} imports {module}")
            elif module == "tests.conversation" and WORDED & set(imported):
                found.append(f"{path.name}:{node.lineno} imports "
                             f"{sorted(WORDED & set(imported))} from tests/conversation.py")
    return found


@pytest.mark.parametrize("path", RULE_TESTS, ids=lambda p: p.name)
def test_rule_tests_read_codes_never_the_catalogues_words(path):
    assert rule_test_words(path.read_text(), path) == []


def test_the_rule_test_check_catches_english():
    path = ROOT / "tests" / "rules" / "test_example.py"
    source = ("from modbot.app.posting.catalogue import words\nfrom ..wording import worded\n"
              "from ..conversation import Conversation, seven\n")
    assert len(rule_test_words(source, path)) == 3
    assert rule_test_words("from ..conversation import seven, DAWN1\n", path) == []


def test_every_end_to_end_module_is_marked_slow():
    """The fast loop skips tests/e2e without importing it (tests/conftest.py): so every module
    there must mark all its tests slow, or a test would be lost from the fast loop unsaid."""
    unmarked = [path.name for path in sorted((ROOT / "tests" / "e2e").glob("test_*.py"))
                if "\npytestmark = pytest.mark.slow" not in path.read_text(encoding="utf-8")]
    assert unmarked == []


def _core_names_used_outside() -> set[str]:
    """The names the shell, the tests and the benchmarks take from `modbot.core` itself."""
    used: set[str] = set()
    files = [p for p in ALL_FILES if PACKAGE / "core" not in p.parents] + \
        sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "benchmarks").rglob("*.py"))
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and \
                    (node.module == "modbot.core" or (node.level and node.module == "core")):
                used.update(a.name for a in node.names)
            elif isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "core":
                used.add(node.attr)
    return used


def test_the_cores_public_api_is_what_is_used_outside_it():
    """`core.__all__` is the core's real surface: every name in it is used outside the core
    (a name no one outside uses is private to it: import it from its module inside)."""
    import modbot.core
    unused = set(modbot.core.__all__) - _core_names_used_outside()
    assert len(modbot.core.__all__) > 40 and unused == set()

"""The core is pure: standard library only, nothing from the shell, no I/O, clock or dice."""

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "modbot" / "core"
FORBIDDEN_MODULES = {
    "time", "random", "secrets", "os", "sys", "io", "socket", "subprocess", "pathlib",
    "shutil", "tempfile", "logging", "threading", "asyncio", "sqlite3", "urllib", "http",
    "uuid", "json", "glob", "signal", "select", "multiprocessing", "requests", "peewee",
    "jinja2", "pydiscourse", "schedule",
}
FORBIDDEN_CALLS = {"now", "utcnow", "today", "open", "input", "print", "urandom", "getenv"}
CORE_FILES = sorted(CORE.glob("*.py"))


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or "", node.level


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.name)
def test_core_module_imports_only_stdlib_and_core(path):
    tree = ast.parse(path.read_text())
    for line, module, level in _imports(tree):
        if level:  # relative: must stay inside the core package
            assert level == 1, f"{path.name}:{line} reaches outside modbot.core"
            continue
        top = module.split(".")[0]
        assert top == "__future__" or top in sys.stdlib_module_names, \
            f"{path.name}:{line} imports non-stdlib {module}"
        assert top not in FORBIDDEN_MODULES, f"{path.name}:{line} imports {module}"


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.name)
def test_core_module_reads_no_clock_and_does_no_io(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            assert name not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {name}()"


def test_the_checks_see_every_core_module():
    assert {p.name for p in CORE_FILES} >= {
        "parser.py", "rules.py", "engine.py", "voting.py", "model.py", "events.py"}


def test_the_import_check_catches_a_violation():
    bad = ast.parse("import time\nfrom ..gamefile import load_game\n")
    found = list(_imports(bad))
    assert ("time", 0) in [(m, lvl) for _, m, lvl in found]
    assert any(level == 2 for _, _, level in found)

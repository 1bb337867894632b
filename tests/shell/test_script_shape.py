"""A host's script file is input (issue 50): its shape is checked against modbot's own JSON
Schema of the Script Tool's format before anything reads it. Every malformed entry is one line
naming it by position; a file that is not UTF-8, not JSON or nested too deep is one line; ids
are printed as data. Every script the official schema accepts, modbot's accepts (a Hypothesis
property over scripts built to the official schema's shapes, each checked by it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from modbot.files.script_shape import SCHEMA, shape_problems
from modbot.files.scripts import SCRIPTS, ScriptError, load_script

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "botc-official" / \
    "script-schema.json"


def _problems(tmp_path: Path, content: str | bytes) -> list[str]:
    path = tmp_path / "script.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(ScriptError) as refused:
        load_script(str(path))
    return str(refused.value).split("\n")


def test_our_schema_is_a_valid_2020_12_schema():
    Draft202012Validator.check_schema(json.loads(SCHEMA.read_text()))


@pytest.mark.parametrize("name", sorted(p.name for p in SCRIPTS.glob("*.json")
                                        if not p.stem.endswith(".modbot")))
def test_every_bundled_script_has_the_shape(name):
    assert shape_problems(json.loads((SCRIPTS / name).read_text())) == []


def test_every_malformed_entry_is_one_line_naming_it(tmp_path):
    lines = _problems(tmp_path, json.dumps([
        7, None, [1, 2], {"name": "x"}, {"id": 5}, {"id": "_meta", "firstNight": 7},
        {"id": "zz", "name": ["a"], "team": "townsfolk", "ability": "x"}, "chef",
        {"id": "custom", "team": "minion"}, {"id": "c2", "name": "C", "team": "wizard",
                                            "ability": "x"}]))
    assert lines == [
        f"{tmp_path / 'script.json'}: 9 problems:",
        "  entry 1: should be a character's id (text) or an object, not the number 7",
        "  entry 2: should be a character's id (text) or an object, not null",
        "  entry 3: should be a character's id (text) or an object, not a list",
        "  entry 4: has no id",
        "  entry 5, id: should be text, not the number 5",
        "  entry 6, firstNight: should be a list, not the number 7",
        "  entry 7, name: should be text, not a list",
        "  entry 9: a character of the script's own needs its ability and name too",
        "  entry 10, team: should be one of townsfolk, outsider, minion, demon, traveller, "
        "fabled, loric, not \"wizard\"",
    ]


def test_each_problem_says_what_is_wrong(tmp_path):
    lines = "\n".join(_problems(tmp_path, json.dumps([
        7, {"name": "x"}, {"id": "_meta", "firstNight": 7}, {"id": "custom", "team": "minion"}])))
    for expected in ("entry 1: should be a character's id (text) or an object, not the number 7",
                     "entry 2: has no id", "entry 3, firstNight: should be a list, not the number 7",
                     "entry 4: a character of the script's own needs its ability and name too"):
        assert expected in lines


@pytest.mark.parametrize(("content", "says"), [
    (b'["imp", "\xff\xfe"]', "not UTF-8 text"),
    ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    ('["imp", "chef", NaN]', "NaN is not a number JSON allows"),
    ('["imp", "chef"', "not valid JSON"),
    ('{"id": "_meta"}', "a script is a list of characters"),
    ("[]", "lists no character"),
])
def test_a_file_that_is_not_a_script_is_one_line(tmp_path, content, says):
    (line,) = _problems(tmp_path, content)
    assert says in line


def test_an_unknown_id_is_printed_as_data(tmp_path):
    (line,) = _problems(tmp_path, json.dumps(["chef", "imp\x1b[2J\nzap"]))
    assert "imp\\x1b[2J\\nzap" in line and "\x1b" not in line


# -- every script the official schema accepts, ours accepts ----------------------------------

def _text(max_size: int) -> st.SearchStrategy[str]:
    return st.text(max_size=max_size)


def _reference() -> dict:
    if not REFERENCE.exists():
        pytest.skip(f"the official script schema is not at {REFERENCE} (../shared is absent)")
    return json.loads(REFERENCE.read_text())


def _object(properties: dict, required: list[str]) -> st.SearchStrategy[dict]:
    """Objects of the reference's properties: its required ones, and any of the others, each
    of the type and length its schema gives."""
    def value(schema: dict) -> st.SearchStrategy:
        if "oneOf" in schema:
            return st.one_of(*(value(s) for s in schema["oneOf"]))
        kind = schema.get("type")
        if "enum" in schema:
            return st.sampled_from(schema["enum"])
        if kind == "string":
            return _text(schema.get("maxLength", 60))
        if kind == "number":
            return st.one_of(st.integers(-100, 100), st.floats(-1e6, 1e6, allow_nan=False))
        if kind == "boolean":
            return st.booleans()
        if kind == "array":
            return st.lists(value(schema["items"]), max_size=min(schema.get("maxItems", 4), 4),
                            min_size=schema.get("minItems", 0))
        if kind == "object":
            return _object(schema.get("properties", {}), schema.get("required", []))
        return st.none()

    optional = [name for name in properties if name not in required]
    return st.fixed_dictionaries({name: value(properties[name]) for name in required},
                                 optional={name: value(properties[name]) for name in optional})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.filter_too_much])
@given(data=st.data())
def test_every_script_the_official_schema_accepts_ours_accepts(data):
    reference = _reference()
    kinds = reference["items"]["oneOf"]
    entries = [st.one_of(_object(k["properties"], k.get("required", [])) if k["type"] == "object"
                         else _text(k.get("maxLength", 20))) for k in kinds]
    meta = next(k for k in kinds if k.get("title") == "Script Metadata")
    meta_entry = _object(meta["properties"], meta["required"]).map(lambda m: {**m, "id": "_meta"})
    script = data.draw(st.lists(st.one_of(*entries, meta_entry), min_size=5, max_size=12))
    if not Draft202012Validator(reference).is_valid(script):
        return  # only what the official schema accepts is asked of ours
    assert shape_problems(script) == []


def test_setup_says_every_problem_of_a_malformed_script_and_no_traceback(tmp_path, capsys):
    from modbot import cli
    from modbot.cli.rehearsal import DEMO_GAME
    script = tmp_path / "host.json"
    script.write_text(json.dumps([7, {"name": "x"}, "chef", "imp\x1b[2J"]))
    game = tmp_path / "game.toml"
    game.write_text(DEMO_GAME.read_text().replace('script = "botf"', f'script = "{script}"'))
    assert cli.main(["setup", str(game)]) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text and "\x1b" not in text
    assert "entry 1: should be a character's id (text) or an object, not the number 7" in text
    assert "entry 2: has no id" in text

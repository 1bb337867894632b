"""`modbot setup` (issue 6): a game file checked and a legal set-up proposed and written,
in-process (`cli.main`), as a host's shell shows it. The set-up's rules are
tests/rules/test_setup.py's."""

import re
from pathlib import Path

from ..helpers import run_modbot

ROOT = Path(__file__).resolve().parents[2]


def _modbot(*args):
    return run_modbot(*args, cwd=ROOT)


def test_modbot_setup_checks_and_writes_a_proposal(tmp_path):
    game = tmp_path / "game.toml"
    game.write_text((ROOT / "config/demo-game.toml").read_text().replace(
        'character = "Witch"', 'character = "Oracle"'))
    result = _modbot("setup", str(game))
    assert result.returncode == 1 and "Oracle is dealt twice" in result.stdout
    out = tmp_path / "proposed.toml"
    result = _modbot("setup", str(game), "--propose", "--seed", "4", "--write", str(out))
    assert result.returncode == 0 and f"Wrote {out}." in result.stdout
    assert _modbot("setup", str(out)).stdout.strip() == "The set-up is legal."
    assert out.read_text().count("character = ") == 7


def test_modbot_setup_writes_each_teams_bluffs_for_seed_002(tmp_path):
    text = (ROOT / "config/demo-game.toml").read_text().replace('script = "botf"',
                                                                  'script = "oopsallevil"')
    text = re.sub(r'(?m)^\s*(character|thinks|bluffs|alignment)\s*=.*$', "", text)
    game = tmp_path / "game.toml"
    game.write_text(text)
    out = tmp_path / "proposed.toml"
    result = _modbot("setup", str(game), "--propose", "--seed", "3", "--write", str(out))
    assert result.returncode == 0 and "(bluffs: " in result.stdout, result.stdout
    written = out.read_text()
    assert written.count("bluffs = [") >= 2 and "\nbluffs = [" not in written.split("[[seat]]")[0]
    assert _modbot("setup", str(out)).stdout.strip() == "The set-up is legal."

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
    assert _modbot("setup", str(out)).stdout.strip().splitlines()[-1] == "The set-up is legal."
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
    assert _modbot("setup", str(out)).stdout.strip().splitlines()[-1] == "The set-up is legal."


SIGNUPS = """[game]
name = "Sign-up game"
storytellers = ["nightingale"]
script = "botf"
first_night_starts = "2026-12-10T18:00:00Z"
players_max = 9
signup_topic_id = 4
"""


def test_a_game_in_sign_ups_is_told_how_to_seat_it_and_rehearse_it(tmp_path):
    """Issue 56: a game file whose seats come from sign-ups has no [[seat]] yet; `modbot setup`
    says what comes first, in one line, instead of asking for seats."""
    game = tmp_path / "game.toml"
    game.write_text(SIGNUPS)
    result = _modbot("setup", str(game))
    assert result.returncode == 2 and result.stdout.count("\n") == 1
    assert "is in sign-ups (no [[seat]] yet)" in result.stdout
    assert f"modbot game new {game} --from-signups" in result.stdout
    assert "list the players in seat order" not in result.stdout


def test_a_game_in_sign_ups_is_rehearsed_with_placeholder_players_and_a_legal_set_up(tmp_path):
    from modbot.cli.rehearsal_record import seated_copy
    from modbot.core import problems
    from modbot.files.gamefile import load_game
    game = tmp_path / "game.toml"
    game.write_text(SIGNUPS)
    seated = load_game(seated_copy(game, tmp_path / "data"))
    assert [s.name for s in seated.seats] == [f"Player0{n}" for n in range(1, 10)]
    assert len(seated.grimoire) == 9 and problems(seated.script, seated.seats,
                                                  dict(seated.grimoire), seated.bluffs) == []
    assert len(load_game(seated_copy(game, tmp_path / "data", players=7)).seats) == 7
    assert seated_copy(ROOT / "config/demo-game.toml", tmp_path) == ROOT / "config/demo-game.toml"
    assert game.read_text() == SIGNUPS  # the host's file is left as it is

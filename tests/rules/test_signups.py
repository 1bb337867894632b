"""A sign-up thread folded into players and backups (issue 27, core/signups.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from modbot.core import Post, SignupRules, fold_signups

AT = datetime(2026, 11, 20, 12, tzinfo=UTC)
RULES = SignupRules(players_max=3, closes_at=AT + timedelta(days=2), staff=("nightingale", "modbot"))


def _posts(*lines: tuple[str, str]) -> list[Post]:
    return [Post(n + 2, author, AT + timedelta(minutes=n), raw)
            for n, (author, raw) in enumerate(lines)]


def _codes(signups) -> list[tuple[str, str]]:
    return [(c.code, c.player) for c in signups.changes]


def test_every_form_signs_up_and_a_full_game_takes_backups():
    signups = fold_signups(RULES, _posts(
        ("Alex", "/in"), ("Brianna", "I'm keen!\n/sign"), ("Cameron", "in"),
        ("Derek", "**/in**"), ("Ellen", "/backup\nHappy to wait."), ("Alex", "/in")))
    assert signups.players == ("Alex", "Brianna", "Cameron")
    assert signups.backups == ("Derek", "Ellen")
    assert _codes(signups)[3:] == [("full_backup", "Derek"), ("backup", "Ellen"),
                                   ("already", "Alex")]


def test_a_player_who_leaves_makes_room_for_the_first_backup():
    signups = fold_signups(RULES, _posts(
        ("Alex", "/in"), ("Brianna", "/in"), ("Cameron", "/in"), ("Derek", "/in"),
        ("Ellen", "/in"), ("brianna", "Sorry, something came up.\n/out"), ("Ellen", "/unsign"),
        ("Zed", "out")))
    assert signups.players == ("Alex", "Cameron", "Derek") and signups.backups == ()
    assert _codes(signups)[-4:] == [("left", "Brianna"), ("promoted", "Derek"),
                                    ("left", "Ellen"), ("not_signed", "Zed")]


def test_prose_quotes_and_the_staff_never_sign_up():
    signups = fold_signups(RULES, _posts(
        ("Alex", "I'm in if there is room"), ("Brianna", "> /in\nquoting"),
        ("Cameron", "`/in`"), ("nightingale", "/in"), ("modbot", "/in")))
    assert signups.players == () and signups.changes == ()


def test_nothing_changes_after_the_closing_time():
    late = [Post(9, "Gus", AT + timedelta(days=3), "/in"),
            Post(10, "Alex", AT + timedelta(days=3), "/out")]
    signups = fold_signups(RULES, _posts(("Alex", "/in")) + late)
    assert signups.players == ("Alex",)
    assert _codes(signups)[-2:] == [("closed", "Gus"), ("closed", "Alex")]


def test_a_backup_joins_as_a_player_when_there_is_room():
    signups = fold_signups(RULES, _posts(("Alex", "/backup"), ("Alex", "/in")))
    assert signups.players == ("Alex",) and signups.backups == ()

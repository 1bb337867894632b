"""Every input is decided once (issue 52): the service asks whether a post names someone the
game does not know (a seat's new name) before handling it; that question is the core's own
decision, kept and used by the handling when nothing changed in between, never computed again.
The demo game on the sandbox over HTTP, up to its first vote and its first night choice."""

from __future__ import annotations

import pytest

from modbot.app.games import runtime
from modbot.cli.rehearsal import demo_rehearsal


def _decisions(tmp_path, monkeypatch, first) -> dict[str, int]:
    """Play the demo to the first script item `first` accepts; how often the core decided a
    post and a PM in the one cycle that reads it."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/once.sqlite")
    calls = {"handle_post": 0, "handle_pm": 0}

    def counted(name):
        real = getattr(runtime, name)

        def call(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)
        return call

    try:
        at = rehearsal.posted_unread(script, first)
        for name in calls:
            monkeypatch.setattr(runtime, name, counted(name))
        rehearsal.bot.cycle(at)
        return calls
    finally:
        rehearsal.stop()


@pytest.mark.slow
def test_a_vote_is_decided_once(tmp_path, monkeypatch):
    calls = _decisions(tmp_path, monkeypatch, lambda i: "to" not in i and "/vote" in i["raw"])
    assert calls == {"handle_post": 1, "handle_pm": 0}


@pytest.mark.slow
def test_a_night_choice_is_decided_once(tmp_path, monkeypatch):
    calls = _decisions(tmp_path, monkeypatch, lambda i: "to" in i and "/choose" in i["raw"])
    assert calls == {"handle_post": 0, "handle_pm": 1}


@pytest.mark.slow
def test_a_cycle_counts_the_pms_it_handled(tmp_path):
    """Issue 56: the daemon's line for a cycle counts the PMs it handled, not only the thread's
    posts ("0 posts handled" on every cycle while it answered PMs)."""
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/count.sqlite")
    try:
        at = rehearsal.posted_unread(script, lambda i: "to" in i and "/choose" in i["raw"])
        assert rehearsal.bot.cycle(at).posts == 1
    finally:
        rehearsal.stop()

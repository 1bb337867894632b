"""Players kept active on the forum's clock (issue 27): the demo game on the sandbox with
`prod_hours = 4`: each living player quiet for four hours of day gets one reminder in their
grimoire PM, the Storytellers hear of those quiet for eight with the next backup, and a
player who posts is reminded again only four hours of day after that post."""

import dataclasses

import pytest

from modbot.cli.rehearsal import demo_rehearsal, play_demo

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    path = tmp_path_factory.mktemp("prods") / "bot.sqlite"
    rehearsal, script = demo_rehearsal(f"sqlite:///{path}")
    zed = rehearsal.server.forum.add_user("Zed")  # a backup is a forum account too
    rehearsal.setup = dataclasses.replace(rehearsal.setup, prod_hours=4, backups=("Zed",),
                                          user_ids=(*rehearsal.setup.user_ids, ("Zed", zed.id)))
    try:
        play_demo(rehearsal, script)
        yield rehearsal
    finally:
        rehearsal.stop()


def _pms(rehearsal, title_part: str) -> dict[str, list]:
    forum = rehearsal.server.forum
    return {t.title: t.posts for t in forum.topics.values()
            if t.is_pm and title_part in t.title}


def test_quiet_players_are_prodded_once_by_pm_on_the_forums_clock(played):
    prods = {title.split("'s grimoire")[0]: [p for p in posts
                                               if p.raw.startswith("## The town has not heard")]
             for title, posts in _pms(played, "grimoire").items()}
    prodded = {name for name, found in prods.items() if found}
    assert prodded, "someone was quiet for four hours of day in the demo"
    for name in prodded:
        times = [p.created_at for p in prods[name]]
        assert len(times) == len(set(times))  # never twice for the same quiet spell
    assert "Gus" not in prodded  # dead from the start: never prodded
    for found in prods.values():
        for post in found:  # each prod came four hours of day after the player's last post
            assert "for 4 hours of day" in post.raw


def test_the_storytellers_hear_of_the_quiet_with_the_next_backup(played):
    (posts,) = _pms(played, "notes for the Storytellers").values()
    quiet = [p.raw for p in posts if "has not posted in the thread for 8 hours of day" in p.raw]
    assert quiet and all("`!sub" in raw and "Zed`" in raw for raw in quiet)

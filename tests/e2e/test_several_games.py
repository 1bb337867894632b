"""A Storyteller (or a player) of several games run by one bot says which game a PM is for;
without it the bot asks, and never runs the command in the wrong game."""

import dataclasses
from datetime import timedelta

import pytest

from modbot.cli.rehearsal import demo_rehearsal

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP


@pytest.fixture
def two_games(tmp_path):
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/bot.sqlite")
    first = rehearsal.setup
    second_topic = rehearsal.request("POST", "/posts.json", as_user="modbot",
                                     title="Game 2: the second game of the evening",
                                     raw="The second game's thread opens here.",
                                     category=1)["topic_id"]
    second = dataclasses.replace(first, name="Second game", topic_id=second_topic)
    rehearsal.settings.vote_count_minutes = 240
    rehearsal.setup = first
    from modbot.adapters.forum import ForumClient
    from modbot.adapters.store import Store
    from modbot.app.running.service import Service
    rehearsal.store = Store(rehearsal.database_url)
    client = ForumClient(rehearsal.url, first.bot_username, rehearsal.server.api_key)
    client.budget.clock = rehearsal.server.forum.seconds  # the forum's minutes, as its limiter
    rehearsal.service = Service(client, rehearsal.store, [first, second], rehearsal.settings)
    rehearsal.service.start()
    rehearsal.service.cycle(first.first_night_starts - timedelta(minutes=59))  # reads from here
    yield rehearsal, first, second
    rehearsal.stop()


def _at(setup, minutes: int) -> str:
    return (setup.first_night_starts - timedelta(minutes=60 - minutes)).isoformat()


def _staff_pm(rehearsal, raw: str, minutes: int) -> None:
    rehearsal.post_pm("nightingale", "storytellers", raw, _at(rehearsal.setup, minutes))
    rehearsal.service.cycle(rehearsal.setup.first_night_starts - timedelta(minutes=50))


def test_a_command_naming_no_game_runs_nowhere_and_the_bot_asks(two_games):
    rehearsal, _first, _second = two_games
    _staff_pm(rehearsal, "!alias Gus Gussie\nPlease add this.", 2)
    assert all(g.state.setup.roster.resolve("Gussie") != "Gus"
               for g in rehearsal.service.games.values())
    asked = [p for t in rehearsal.server.forum.topics.values() if t.is_pm
             for p in t.visible_posts() if p.username == "modbot"
             and "several games" in p.raw]
    assert len(asked) == 1 and "game: BotF demo" in asked[0].raw


def test_a_game_line_runs_the_command_in_that_game_only(two_games):
    rehearsal, first, second = two_games
    _staff_pm(rehearsal, "game: Second game\n!alias Gus Gussie", 2)
    games = rehearsal.service.games
    assert games[second.topic_id].state.setup.roster.resolve("Gussie") == "Gus"
    assert games[first.topic_id].state.setup.roster.resolve("Gussie") != "Gus"

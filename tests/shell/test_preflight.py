"""`modbot check` against the sandbox: each problem a host can meet, in one line each."""

import io
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from modbot.adapters.forum import ForumClient
from modbot.app.starting.preflight import preflight
from modbot.sandbox.server import SandboxServer

pytestmark = pytest.mark.slow  # against the sandbox over HTTP

ROOT = Path(__file__).resolve().parents[2]
KEY = "master"


@pytest.fixture
def forum():
    server = SandboxServer(0, api_key=KEY)
    server.start()
    forum = server.forum
    forum.add_user("modbot", moderator=True, trust_level=4)
    for name in ("nightingale", "Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"):
        forum.add_user(name)
    yield server
    server.stop()


def _game(tmp_path: Path, server, topic_id: int, **replace) -> str:
    text = (ROOT / "config" / "demo-game.toml").read_text()
    text = text.replace("topic_id = 1", f"topic_id = {topic_id}")
    for old, new in replace.items():
        text = text.replace(old, new)
    path = tmp_path / "game.toml"
    path.write_text(text)
    return str(path)


def _topic(server, archetype: str = "regular") -> int:
    client = ForumClient(server.url, "modbot", KEY)
    if archetype == "private_message":
        post = client.create_post("Just between us two.", title="A private word",
                                  archetype="private_message", target_recipients="Alex")
    else:
        post = client.create_post("The game thread opens here.", title="Game 1: a test game",
                                  category_id=1)
    return post["topic_id"]


def test_a_ready_game_has_no_problem(tmp_path, forum):
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot",
                      [_game(tmp_path, forum, _topic(forum))])
    assert found.problems == [] and found.ready
    assert any(n.endswith("The bot automates all 35 characters of this script.")
               for n in found.notes)  # the demo's BotF script: the seeds' characters


def test_the_check_says_which_characters_the_storytellers_run(tmp_path, forum):
    (tmp_path / "tb.json").write_text(  # the demo's characters, and two official ones
        '[{"id": "_meta", "name": "Mine"}, "clockmaker", "dreamer", "seamstress", "witch", '
        '"oracle", "nodashii", "towncrier", "sage", "flowergirl", "mathematician", '
        '"steward", "knight"]')
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot",
                      [_game(tmp_path, forum, _topic(forum),
                             **{'script = "botf"': 'script = "tb.json"'})])
    assert found.problems == []
    assert any("The Storytellers run 2 of this script's 12 characters" in n
               and n.endswith("Steward, Knight.") for n in found.notes)


def test_a_game_without_its_thread_yet_passes_with_a_note(tmp_path, forum):
    """The README's order: `modbot check` before `modbot game new` opens the thread."""
    game = _game(tmp_path, forum, 1, **{"topic_id = 1\n": ""})
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot", [game])
    assert found.problems == [] and found.ready
    assert any("no game thread yet: `modbot game new` opens it" in n for n in found.notes)


def test_a_misspelt_player_gets_did_you_mean(tmp_path, forum):
    game = _game(tmp_path, forum, _topic(forum), **{'player = "Gus"': 'player = "Guss"'})
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot", [game])
    (problem,) = found.problems
    assert "seat 7: no forum user is called 'Guss' (did you mean Gus?)" in problem
    assert "!sub OLD NEW" in problem


def test_a_private_message_is_not_a_game_thread(tmp_path, forum):
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot",
                      [_game(tmp_path, forum, _topic(forum, "private_message"))])
    assert any("is a private message, not a public topic" in p for p in found.problems)


def test_a_missing_topic_and_a_wrong_key_are_named(tmp_path, forum):
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot",
                      [_game(tmp_path, forum, 999)])
    assert any("topic 999 does not exist" in p for p in found.problems)
    found = preflight(ForumClient(forum.url, "modbot", "wrong"), "modbot", [])
    assert found.problems[0].startswith("the API key does not work for 'modbot'")


def test_a_player_who_cannot_send_pms_and_a_non_staff_bot(tmp_path, forum):
    forum.forum.user("Derek").trust_level = 0
    forum.forum.user("modbot").moderator = False
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot",
                      [_game(tmp_path, forum, _topic(forum))])
    assert any("Derek has trust level 0 and cannot send private messages" in p
               for p in found.problems)
    assert found.notes[0].startswith("key: an admin's API key acting as modbot")
    assert "is not staff" in found.notes[1] and "90 edits a day" in found.notes[1]  # trust level 4
    assert not any("slow mode (one post" in n for n in found.notes)


def test_a_non_staff_bot_is_warned_of_slow_mode_and_a_deal_past_the_days_pms(tmp_path, forum):
    """Before the game: the thread's slow mode (TopicViewSerializer's slow_mode_seconds) and a
    deal that opens more new conversations than a regular account's 20 a day."""
    sandbox = forum.forum
    topic = _topic(forum)
    sandbox.write_limits.set_slow_mode(sandbox.user("system"), sandbox.topics[topic], 900)
    client = ForumClient(forum.url, "modbot", KEY)
    staff = preflight(client, "modbot", [_game(tmp_path, forum, topic)])
    assert not any("slow mode (one post" in n for n in staff.notes)  # staff are exempt
    sandbox.user("modbot").moderator = False
    seats = "".join(f'\n[[seat]]\nplayer = "Extra{n}"\n' for n in range(13))
    for n in range(13):
        sandbox.add_user(f"Extra{n}")
    path = _game(tmp_path, forum, topic)
    Path(path).write_text(Path(path).read_text() + seats)
    found = preflight(client, "modbot", [path])
    assert any("the game thread is in slow mode (one post every 15 min" in n
               for n in found.notes)
    assert any("the deal opens 21 new private conversations of the 20 a day" in n
               and "the rest wait for the next day" in n for n in found.notes)


def test_modbot_check_prints_one_line_per_problem_and_exits_1(tmp_path, forum):
    game = _game(tmp_path, forum, 999)
    config = tmp_path / "modbot.toml"
    config.write_text(f'[forum]\nurl = "{forum.url}"\nusername = "modbot"\n'
                      f'[bot]\ndatabase_url = "sqlite:///{tmp_path}/bot.sqlite"\n'
                      f'[[game]]\nfile = "{game}"\n')
    result = subprocess.run([sys.executable, "-m", "modbot", "check", "--config", str(config),
                             "--no-write"], capture_output=True, text=True, cwd=ROOT, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "MODBOT_API_KEY": KEY})
    assert result.returncode == 1, result.stderr
    assert result.stdout.strip().splitlines() == [
        "note: key: an admin's API key acting as modbot (staff): every admin key of the site "
        "shares one budget (60 requests a minute by default)",
        f"note: {game}: The bot automates all 35 characters of this script.",
        "problem: game 'BotF demo': topic 999 does not exist (or the bot cannot see it): check "
        "game.topic_id"]


def test_a_seats_user_id_wins_over_its_name_and_is_checked(tmp_path, forum):
    gus = forum.forum.user("Gus").id
    renamed = _game(tmp_path, forum, _topic(forum), **{
        'player = "Gus"': f'player = "Gustav"\nuser_id = {gus}'})  # renamed since: the id finds him
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot", [renamed])
    assert found.problems == [] and any(f"user id {gus} is called Gus" in n for n in found.notes)
    wrong = _game(tmp_path, forum, _topic(forum), **{'player = "Gus"': 'player = "Gus"\nuser_id = 9999'})
    found = preflight(ForumClient(forum.url, "modbot", KEY), "modbot", [wrong])
    assert any("no forum user has id 9999" in p for p in found.problems)


def _check(tmp_path, forum, game: str, *extra: str) -> subprocess.CompletedProcess:
    config = tmp_path / "modbot.toml"
    config.write_text(f'[forum]\nurl = "{forum.url}"\nusername = "modbot"\n'
                      f'[bot]\ndatabase_url = "sqlite:///{tmp_path}/bot.sqlite"\n'
                      f'[[game]]\nfile = "{game}"\n')
    return subprocess.run([sys.executable, "-m", "modbot", "check", "--config", str(config),
                           *extra], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "MODBOT_API_KEY": KEY})


def test_check_binds_every_place_and_a_second_check_asks_them_by_id_at_once(tmp_path, forum):
    """The first check looks each name up once and writes the ids into the game file; from
    then on the nine places cost one request, by id (with the key's session and the topic:
    three in all)."""
    from modbot.files.gamefile import load_game
    game = _game(tmp_path, forum, _topic(forum))
    before = sum(forum.counts.values())
    first = _check(tmp_path, forum, game)
    assert first.returncode == 0, first.stdout + first.stderr
    assert sum(forum.counts.values()) - before == 2 + 8  # the session, the topic, 8 names
    assert "bound: " in first.stdout
    setup = load_game(game)
    places = [*(s.name for s in setup.seats), "nightingale", "modbot"]
    assert dict(setup.user_ids) == {n: forum.forum.user(n).id for n in places}
    before = sum(forum.counts.values())
    second = _check(tmp_path, forum, game)
    assert second.returncode == 0 and "bound: " not in second.stdout
    assert sum(forum.counts.values()) - before == 3
    assert forum.counts["GET /user-cards.json"] == 1
    fresh = _game(tmp_path, forum, _topic(forum))
    text = Path(fresh).read_text()
    again = _check(tmp_path, forum, fresh, "--no-write")
    assert again.returncode == 0 and Path(fresh).read_text() == text  # only a report


def test_check_on_a_busy_key_beside_a_running_daemon_says_so_once(tmp_path):
    """The key's minute is spent and `modbot run` holds the same database (the run lock): the
    check stops with one line, instead of every name reported unknown or a wait of its own."""
    from modbot.adapters.run_lock import RunLock
    server = SandboxServer(0, api_key=KEY, admin_api_limit=4).start()
    lock = RunLock.take(f"sqlite:///{tmp_path}/bot.sqlite")
    try:
        server.forum.add_user("modbot", moderator=True, trust_level=4)
        for name in ("nightingale", "Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima",
                     "Gus"):
            server.forum.add_user(name)
        result = _check(tmp_path, server, _game(tmp_path, server, 1, **{"topic_id = 1\n": ""}))
        lines = result.stdout.strip().splitlines()
        assert result.returncode == 1
        problems = [line for line in lines if line.startswith("problem:")]
        assert len(problems) == 1 and "429" in problems[0] and "modbot run" in problems[0]
        assert not any("could not be looked up" in line or "no forum user" in line
                       for line in lines)
    finally:
        lock.release()
        server.stop()


SIGNUPS = ('[game]\nname = "Sign-up rehearsal"\nstorytellers = ["nightingale"]\nbot = "modbot"\n'
           'first_night_starts = "2026-12-10T18:00:00Z"\nsignups_close = "2026-12-09T18:00:00Z"\n')


def test_a_game_file_before_its_seats_is_checked_as_sign_ups_and_bound(tmp_path, forum):
    """A file before its seats runs sign-ups: `modbot check` checks its Storytellers (and its
    sign-up thread once opened), binds them and the bot by id, and says what comes next;
    `modbot sandbox --game` makes its staff and players to sign up with."""
    from modbot.cli.commands import _accounts_of
    from modbot.files.signupfile import load_signups
    game = tmp_path / "signups.toml"
    game.write_text(SIGNUPS)
    result = _check(tmp_path, forum, str(game))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no [[seat]]" not in result.stdout + result.stderr
    assert "modbot signups open" in result.stdout
    text = game.read_text()
    assert f"storyteller_ids = [{forum.forum.user('nightingale').id}]" in text
    assert f"bot_id = {forum.forum.user('modbot').id}" in text
    assert not load_signups(game).seated
    game.write_text(SIGNUPS.replace('["nightingale"]', '["nightingal"]'))
    missing = _check(tmp_path, forum, str(game))
    assert missing.returncode == 1 and "did you mean nightingale" in missing.stdout
    made = _accounts_of(forum.forum, str(game))
    assert "Player20" in made and forum.forum.user("Player01") is not None


def _many_games(folder: Path, forum, games: int) -> list[str]:
    """`games` game files of 8 seats each, their own players, without ids (names only)."""
    host = forum.user("nightingale")
    paths = []
    for n in range(games):
        names = [f"g{n:02d}p{i}" for i in range(8)]
        for name in names:
            forum.add_user(name)
        topic = forum.create(host, {"title": f"Check many games, number {n + 1}",
                                    "category": 1, "raw": "The game thread of a check."},
                             api=False).topic_id
        path = folder / f"game{n}.toml"
        path.write_text(f'[game]\nname = "Game {n + 1}"\nstorytellers = ["nightingale"]\n'
                        f'topic_id = {topic}\nbot = "modbot"\n'
                        'first_night_starts = "2026-12-10T18:00:00Z"\n'
                        + "".join(f'[[seat]]\nplayer = "{p}"\n' for p in names))
        paths.append(str(path))
    return paths


class Interrupted(Exception):
    """A host's Ctrl-C, part of the way through."""


def test_a_check_of_forty_games_waits_out_the_forums_limit_binds_all_and_resumes(tmp_path):
    """Issue 57: 40 game files of 8 seats, an admin's key on Discourse's 60 requests a
    minute: the check waits out every 429 (on the forum's clock here) and binds every place
    of every game, writing each file as it is checked; interrupted halfway, the next check
    asks only for what is left (the bound places by id, 50 a request)."""
    from modbot.adapters.forum import ForumClient
    from modbot.app.starting.asking import Asker, Progress
    from modbot.cli.check import _write_ids
    from modbot.files.gamefile import load_game
    from modbot.sandbox.forum import Forum
    from modbot.sandbox.models import ManualClock
    clock = ManualClock(datetime(2026, 12, 1, 12, tzinfo=UTC))
    server = SandboxServer(0, api_key=KEY, forum=Forum(clock), admin_api_limit=60).start()
    try:
        forum = server.forum
        forum.add_user("modbot", moderator=True, trust_level=4)
        forum.add_user("nightingale", moderator=True, trust_level=4)
        paths = _many_games(tmp_path, forum, 40)
        client = ForumClient(server.url, "modbot", KEY)
        client.budget.clock = forum.seconds  # the key's budget on the forum's clock too

        def wait(seconds: float) -> None:
            clock.set(clock.now() + timedelta(seconds=seconds))

        def write(path, bound):
            _write_ids({path: bound})
            if sum(1 for p in paths if "user_id" in Path(p).read_text()) == 20:
                raise Interrupted  # halfway: the twentieth game file written

        asker = Asker(sleep=wait, progress=Progress(60, out=io.StringIO(), bar=False))
        with pytest.raises(Interrupted):
            preflight(client, "modbot", paths, asker=asker, on_bound=write)
        assert asker.waited > 0  # it met the forum's limit, and waited it out
        written = [p for p in paths if "user_id" in Path(p).read_text()]
        assert len(written) == 20
        before = sum(server.counts.values())
        out = io.StringIO()
        found = preflight(client, "modbot", paths, asker=Asker(sleep=wait, progress=Progress(
            60, out=out, bar=False)), on_bound=lambda path, bound: _write_ids({path: bound}))
        assert found.ready, found.problems
        names = sum(n for label, n in server.counts.items() if "{username}" in label)
        asked = sum(server.counts.values()) - before
        # the session, 40 topics, the 20 bound games' 162 ids in 4 requests, the 160 seats
        # left and the Storyteller's name once for the 20 games that do not bind it yet
        assert asked == 1 + 40 + 4 + 160 + 1, asked
        assert "requests to go" in out.getvalue()
        for path in paths:
            setup = load_game(path)
            assert {name for name, _ in setup.user_ids} >= {s.name for s in setup.seats}
            assert all(forum.user(name).id == user_id for name, user_id in setup.user_ids)
        assert names == 2 * 1 + 160 + 160  # each name once a check (the Storyteller's in each)
    finally:
        server.stop()

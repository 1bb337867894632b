"""A sign-up thread played by scripted players on the sandbox, through to a game file (issue
27): `modbot signups open` posts it, players sign up, withdraw and wait as backups, `modbot
run` keeps the bot's list post up to date, and `modbot game new --from-signups` seats them
with their forum user ids, then opens the game thread."""

import random
from datetime import UTC, datetime, timedelta

import pytest

from modbot import cli
from modbot.files.gamefile import load_game
from modbot.sandbox.forum import Forum
from modbot.sandbox.models import ManualClock
from modbot.sandbox.server import SandboxServer

from ..sandbox_fixtures import KEY, Client

pytestmark = pytest.mark.slow  # the CLI and the daemon against the sandbox over HTTP

PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus", "Hank")
GAME = """[game]
name = "Sign-up test"
storytellers = ["nightingale"]
first_night_starts = "2026-12-10T18:00:00Z"
players_max = 6
signups_close = "2026-12-09T18:00:00Z"
"""


@pytest.fixture
def forum(tmp_path, monkeypatch):
    clock = ManualClock(datetime(2026, 12, 5, 12, tzinfo=UTC))
    forum = Forum(clock)
    forum.add_user("modbot", moderator=True)
    for name in ("nightingale", *PLAYERS):
        forum.add_user(name, trust_level=1)
    server = SandboxServer(0, api_key=KEY, forum=forum, admin_api_limit=0).start()
    monkeypatch.setenv("MODBOT_API_KEY", KEY)
    (tmp_path / "game.toml").write_text(GAME)
    (tmp_path / "modbot.toml").write_text(
        f'[forum]\nurl = "{server.url}"\nusername = "modbot"\ncategory = 1\n'
        f'[bot]\ndatabase_url = "sqlite:///{tmp_path}/bot.sqlite"\npoll_seconds = 1\n'
        '[[game]]\nfile = "game.toml"\n')
    yield server, clock, tmp_path
    server.stop()


def _post(server, clock, author: str, raw: str, topic: int) -> dict:
    clock.set(clock.at + timedelta(minutes=3))  # players minutes apart, as the limits want
    return Client(server).post(author, raw, topic_id=topic)


def _edit(server, clock, author: str, post: dict, raw: str, minutes: float = 0) -> None:
    clock.set(clock.at + timedelta(minutes=minutes))
    Client(server).ok("PUT", f"/posts/{post['id']}.json", author, data={"post[raw]": raw})


def _list_post(server, topic: int) -> str:
    (post,) = [p for p in server.forum.topics[topic].posts if ":list -->" in p.raw]
    return post.raw


def test_a_sign_up_thread_becomes_the_seats(forum, capsys):
    server, clock, folder = forum
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    assert cli.main(["signups", "open", game, "--config", config]) == 0
    topic = load_game_topic(folder)
    assert "Nobody yet" in _list_post(server, topic)
    script = [("Alex", "/in\nCount me in, please."), ("Brianna", "I'd love to play!\n/sign"),
              ("Cameron", "in\nFirst game here, hello all."), ("Derek", "/in\nLet's go, dear town."),
              ("nightingale", "/in\nThe host is not a player."),
              ("Ellen", "**/in**\nBold, as ever, friends."), ("Fatima", "/in\nThe sixth seat is mine."),
              ("Gus", "/in\nAm I too late for a seat?"), ("Hank", "/backup\nHappy to wait."),
              ("Brianna", "Sorry, something came up.\n/out"), ("Alex", "> /out\nquoting, no more")]
    for author, raw in script:
        _post(server, clock, author, raw, topic)
    assert cli.main(["run", "--config", config, "--max-cycles", "2"]) == 0
    shown = _list_post(server, topic)
    assert "## Signed up: 6 of 6" in shown
    assert "1. Alex\n2. Cameron\n3. Derek\n4. Ellen\n5. Fatima\n6. Gus" in shown
    assert "**Backups**, in order: Hank" in shown
    assert "Gus (post #" in shown and "waiting as a backup" in shown  # told when it was full
    capsys.readouterr()
    assert cli.main(["signups", "status", game, "--config", config]) == 0
    assert "6 of 6 signed up: Alex, Cameron, Derek, Ellen, Fatima, Gus" in capsys.readouterr().out
    assert cli.main(["game", "new", game, "--config", config, "--from-signups",
                     "--shuffle", "7"]) == 0
    setup = load_game(game)
    order = ["Alex", "Cameron", "Derek", "Ellen", "Fatima", "Gus"]
    random.Random(7).shuffle(order)
    assert [s.name for s in setup.seats] == order and setup.backups == ("Hank",)
    ids = {u.username: u.id for u in server.forum.users.values()}
    assert dict(setup.user_ids) == {name: ids[name] for name in [*order, "Hank"]}
    assert "shuffled with seed 7" in (folder / "game.toml").read_text()
    assert setup.topic_id is not None and server.forum.topics[setup.topic_id].title == \
        "Sign-up test: the game thread"


def test_a_second_from_signups_is_refused(forum, capsys):
    server, clock, folder = forum
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    assert cli.main(["signups", "open", game, "--config", config]) == 0
    topic = load_game_topic(folder)
    for name in PLAYERS[:5]:
        _post(server, clock, name, "/in\nI am in for this one.", topic)
    assert cli.main(["game", "new", game, "--config", config, "--from-signups"]) == 0
    capsys.readouterr()
    assert cli.main(["game", "new", game, "--config", config, "--from-signups"]) == 2
    assert "has seats already" in capsys.readouterr().err


def test_sign_ups_count_by_author_id_and_edits_count_from_their_time(forum, capsys):
    """An old chat post edited into `/in` joins at the edit's time (no jumping the queue of a
    full game) and not at all after the close; an edit within Discourse's grace period (no
    revision) counts at the post's time; a signed-up player who renamed keeps their place by
    id, and the newcomer who took the old name gets nothing of it."""
    server, clock, folder = forum
    server.forum.add_user("Ian", trust_level=1)
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    assert cli.main(["signups", "open", game, "--config", config]) == 0
    topic = load_game_topic(folder)
    chat = _post(server, clock, "Alex", "Hello all, looking forward to this one!", topic)
    hank = _post(server, clock, "Hank", "Watching this one from the side.", topic)
    for name in ("Brianna", "Cameron", "Derek", "Ellen", "Fatima"):
        _post(server, clock, name, "/in\nI am in for this one.", topic)
    ian = _post(server, clock, "Ian", "Is there room for one more?", topic)
    _edit(server, clock, "Ian", ian, "/in\nIs there room for one more?", minutes=1)  # grace
    _post(server, clock, "Gus", "/in\nAm I too late for a seat?", topic)  # full: a backup
    _edit(server, clock, "Alex", chat, "/in\nHello all, looking forward to this one!", minutes=10)
    Client(server).ok("PUT", "/u/Derek/preferences/username", "Derek",
                      data={"new_username": "Dmitri"})  # the forum frees the name at once ...
    server.forum.add_user("Derek", trust_level=1)  # ... and a newcomer takes it
    _post(server, clock, "Derek", "/out\nI am Derek, take me out.", topic)
    clock.set(datetime(2026, 12, 9, 19, tzinfo=UTC))  # after the close
    _edit(server, clock, "Hank", hank, "/in\nWatching this one from the side.")
    capsys.readouterr()
    assert cli.main(["signups", "status", game, "--config", config]) == 0
    out = capsys.readouterr().out
    assert "6 of 6 signed up: Brianna, Cameron, Dmitri, Ellen, Fatima, Ian" in out
    assert "backups: Gus, Alex" in out  # Alex's edit came after Gus's post; Hank's: too late
    assert cli.main(["game", "new", game, "--config", config, "--from-signups"]) == 0
    setup = load_game(game)
    ids = {u.username: u.id for u in server.forum.users.values()}
    assert dict(setup.user_ids)["Dmitri"] == ids["Dmitri"] != ids["Derek"]
    assert "Derek" not in dict(setup.user_ids) and setup.backups == ("Gus", "Alex")


def test_a_post_the_bot_read_without_in_counts_from_the_edit_that_adds_it(forum, capsys):
    """Issue 50: Alex's chat post, read by the daemon, then edited into `/in` within
    Discourse's grace period (no revision: still version 1) after six others signed up: it
    counts from the edit's `updated_at`, so Alex waits as a backup and takes no one's seat."""
    server, clock, folder = forum
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    assert cli.main(["signups", "open", game, "--config", config]) == 0
    topic = load_game_topic(folder)
    client = Client(server)
    clock.set(clock.at + timedelta(minutes=3))
    chat = client.post("Alex", "Hello all, looking forward to this one!", topic_id=topic)
    assert cli.main(["run", "--config", config, "--max-cycles", "1"]) == 0  # the bot reads it
    for name in ("Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"):
        clock.set(clock.at + timedelta(seconds=20))
        client.post(name, "/in\nI am in for this one.", topic_id=topic)
    _edit(server, clock, "Alex", chat, "/in\nHello all, looking forward to this one!", minutes=1)
    assert server.forum.posts[chat["id"]].version == 1  # the grace period: no revision
    capsys.readouterr()
    assert cli.main(["game", "new", game, "--config", config, "--from-signups"]) == 0
    setup = load_game(game)
    assert "Alex" not in {s.name for s in setup.seats} and setup.backups == ("Alex",)


def test_the_list_follows_a_signed_up_players_rename(forum):
    """Issue 50: while the bot runs, Derek (signed up) renames to Dmitri and a newcomer takes
    "Derek": the bot's list shows Dmitri in the place at its next names check, never the
    newcomer's name (the daemon's watch, in this process, across the rename)."""
    from modbot.adapters.forum import ForumClient
    from modbot.adapters.store import Store
    from modbot.app.starting.signups import SignupWatch
    from modbot.files.signupfile import load_signups
    server, clock, folder = forum
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    assert cli.main(["signups", "open", game, "--config", config]) == 0
    topic = load_game_topic(folder)
    for name in ("Alex", "Derek"):
        _post(server, clock, name, "/in\nI am in for this one.", topic)
    store = Store(f"sqlite:///{folder}/bot.sqlite")
    client = ForumClient(server.url, "modbot", KEY)
    watch = SignupWatch(client, store, [load_signups(game)], names_seconds=600)
    watch.cycle(clock.now())
    store.close()
    assert cli.main(["run", "--config", config, "--max-cycles", "1"]) == 0  # sends the list
    assert "2. Derek" in _list_post(server, topic)
    Client(server).ok("PUT", "/u/Derek/preferences/username", "Derek",
                      data={"new_username": "Dmitri"})
    server.forum.add_user("Derek", trust_level=1)
    store = Store(f"sqlite:///{folder}/bot.sqlite")
    watch.store = store
    assert watch.cycle(clock.now() + timedelta(minutes=5)) == 0  # not due: no request
    assert watch.cycle(clock.now() + timedelta(minutes=11)) == 1
    shown = store.newest_revision(f"s{topic}:list").raw  # the edit the watch owes
    store.close()
    assert "2. Dmitri" in shown and "Derek" not in shown


def load_game_topic(folder) -> int:
    from modbot.files.signupfile import load_signups
    topic = load_signups(folder / "game.toml").topic_id
    assert topic is not None
    return topic


def _daemon_in_signups(server, clock, folder):
    """Sign-ups opened, six players in, `modbot run`'s loop started on the configuration:
    (the loop, the sign-up topic, a full cycle now whatever the poll's pace)."""
    from modbot.app.running.daemon import ForumClock, load_config, started_loop
    from modbot.app.running.run_loop import Stop
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    assert cli.main(["signups", "open", game, "--config", config]) == 0
    signups = load_game_topic(folder)
    for name in PLAYERS[:6]:
        _post(server, clock, name, "/in\nI am in for this one.", signups)
    loop = started_loop(load_config(config), None, Stop())
    assert not isinstance(loop, int)

    def full_cycle() -> None:
        loop.swept_at = float("-inf")  # the poll's pace is not what these tests are about
        if isinstance(loop.clock, ForumClock):
            loop.clock.read = None  # the sandbox's clock moved: read it now
        loop.cycle()
    return loop, signups, full_cycle


def test_the_running_daemon_takes_up_the_game_its_sign_ups_opened(forum):
    """Issue 51: `modbot game new --from-signups` while `modbot run` runs: the daemon's next
    cycle starts the game (its seats by id, its thread read, its Storytellers' conversation
    answered), with no restart; the sign-up list is left as it was at the seating."""
    server, clock, folder = forum
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    loop, signups, full_cycle = _daemon_in_signups(server, clock, folder)

    try:
        full_cycle()
        assert "6. Fatima" in _list_post(server, signups) and not loop.service.games
        assert cli.main(["game", "new", game, "--config", config, "--from-signups"]) == 0
        topic = load_game(game).topic_id
        listed = _list_post(server, signups)
        for _ in range(3):  # its names checked, then its thread read
            full_cycle()
        assert topic in loop.service.games and loop.watch.setups == []
        assert loop.service.games[topic].state.seats[0].name == "Alex"
        (conversation,) = [t for t in server.forum.topics.values() if t.is_pm]
        before = len(conversation.posts)
        _post(server, clock, "nightingale", "!status\nHow does the game stand now?",
              conversation.id)
        full_cycle()
        answers = [p.raw for p in conversation.posts[before + 1:] if p.username == "modbot"]
        assert answers and "Sign-up test" in answers[-1]
        assert _list_post(server, signups) == listed
    finally:
        loop.store.close()


def test_a_set_up_written_after_the_seating_is_dealt_with_no_restart(forum):
    """Issue 56: the host seats the sign-ups while `modbot run` runs, then deals the
    characters into the game file (`modbot setup --propose --write`): the running daemon
    sets the game up again from the file (game_files.py) and deals those characters at night
    1; a change to the file after the deal leaves the dealt game as it was."""
    server, clock, folder = forum
    game, config = str(folder / "game.toml"), str(folder / "modbot.toml")
    (folder / "game.toml").write_text(GAME.replace(
        '[game]\n', '[game]\nscript = "botf"\nrules = "botf"\nbot = "modbot"\n'))
    with open(config, "a", encoding="utf-8") as file:  # the bot on the sandbox's clock
        file.write('[rehearsal]\nclock = "forum"\n')
    loop, _signups, full_cycle = _daemon_in_signups(server, clock, folder)

    try:
        full_cycle()
        assert cli.main(["game", "new", game, "--config", config, "--from-signups"]) == 0
        topic = load_game(game).topic_id
        for _ in range(3):
            full_cycle()
        assert topic in loop.service.games and not loop.service.games[topic].setup.grimoire
        assert cli.main(["setup", game, "--propose", "--seed", "3", "--write", game]) == 0
        dealt = dict(load_game(game).grimoire)
        for _ in range(3):  # set up again: its names checked, its thread caught up
            full_cycle()
        assert dict(loop.service.games[topic].setup.grimoire) == dealt
        clock.set(datetime(2026, 12, 10, 18, 5, tzinfo=UTC))  # night 1: the deal
        for _ in range(3):
            full_cycle()
        runtime = loop.service.games[topic]
        assert runtime.state.dealt
        first = PLAYERS[0]
        role_pms = [p.raw for t in server.forum.topics.values() if t.is_pm
                    and first.lower() in {u.lower() for u in t.allowed}
                    for p in t.posts if p.username == "modbot"]
        assert any(dealt[first].character.replace("_", "") in raw.lower().replace(" ", "")
                   .replace("'", "") for raw in role_pms)
        (folder / "game.toml").write_text(load_game_text(folder).replace(
            "rules = ", "# after the deal\nrules = "))
        full_cycle()
        assert loop.service.games[topic] is runtime  # dealt: it goes on as it was
    finally:
        loop.store.close()


def load_game_text(folder) -> str:
    return (folder / "game.toml").read_text(encoding="utf-8")

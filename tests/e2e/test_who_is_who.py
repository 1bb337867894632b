"""Who is who, by id: hostile players on the sandbox, through the forum only.

On Discourse a renamed account's old name is free at once and anyone may register it. Each
test makes the race deterministic: the names check is off (`check_seconds = 0`), so the bot has
not seen the rename when the stranger, who registered the freed name, acts. The rule under
test: an author is the user id on the post, never the name; a stranger under a game's name
gets nothing (no command, no vote, nothing private), the real account keeps its place and its
conversations, and the Storytellers are told. Each attack has the real account's control."""

import dataclasses
from datetime import datetime, timedelta

import pytest

from modbot.cli.audit import audit_game, audit_text

from .test_e2e import markers
from .test_real_forum import RENAME_AT, _game, _start

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

AT = datetime.fromisoformat(RENAME_AT)


def _rehearsal(tmp_path, name: str):
    rehearsal, script = _start(tmp_path, name)
    rehearsal.service.identities.check_seconds = 0  # off: the race is the bot's to lose
    cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
    rehearsal.play(script[:cut])
    return rehearsal


def _rename_and_take(rehearsal, old: str, new: str):
    """`old` renames to `new`; a newcomer registers `old` at once. Returns the newcomer."""
    rehearsal.clock.set(AT)
    rehearsal.request("PUT", f"/u/{old}/preferences/username", as_user=old, new_username=new)
    rehearsal.keys[new.lower()] = rehearsal.keys.pop(old.lower())
    return rehearsal.server.forum.add_user(old)


def _as(rehearsal, username: str, raw: str, at: datetime, **where) -> dict:
    where = where or {"topic_id": rehearsal.setup.topic_id}
    return rehearsal.request("POST", "/posts.json", as_user=username, raw=raw,
                             created_at=at.isoformat(), **where)


def _pm_to_bot(rehearsal, username: str, raw: str, at: datetime) -> dict:
    return _as(rehearsal, username, raw, at, archetype="private_message",
               target_recipients="modbot", title=f"{username} to the bot")


def _cycle(rehearsal, at: datetime) -> None:
    rehearsal.clock.set(at)
    rehearsal.service.cycle(at)
    rehearsal.service.drain()


def _conversations(rehearsal, user_id: int) -> list:
    forum = rehearsal.server.forum
    return [t for t in forum.topics.values() if t.is_pm and
            any(forum.user(n) is not None and forum.user(n).id == user_id for n in t.allowed)]


def _bot_posts_in(topic, since: datetime) -> list:
    return [p for p in topic.posts if p.username == "modbot" and p.created_at >= since]


def _stranger_notes(rehearsal) -> list[str]:
    return [m for m in markers(rehearsal) if ":stranger:" in m]


def test_a_storytellers_old_name_taken_by_a_stranger_opens_nothing(tmp_path):
    rehearsal = _rehearsal(tmp_path, "st-impostor")
    try:
        forum = rehearsal.server.forum
        storyteller = forum.user("nightingale").id
        theirs = {t.id for t in _conversations(rehearsal, storyteller)}
        impostor = _rename_and_take(rehearsal, "nightingale", "lark")
        at = AT + timedelta(minutes=1)
        asked = _pm_to_bot(rehearsal, "nightingale", "!status\nHow does it stand?", at)
        _as(rehearsal, "nightingale", "!kill Derek --yes\nThe Demon strikes.", at + timedelta(seconds=30))
        _cycle(rehearsal, at + timedelta(minutes=1))
        game = _game(rehearsal)
        assert game.state.seat("Derek").alive  # the kill did not run
        assert game.state.setup.is_storyteller("lark")  # learnt from the stranger's post
        assert not game.state.setup.is_storyteller("nightingale")
        impostors = _conversations(rehearsal, impostor.id)
        assert [t.id for t in impostors] == [asked["topic_id"]]  # only their own
        assert not _bot_posts_in(forum.topics[asked["topic_id"]], at)  # no grimoire
        assert {t.id for t in _conversations(rehearsal, storyteller)} >= theirs  # none removed
        notes = _stranger_notes(rehearsal)
        assert len(notes) == 1 and f":stranger:{impostor.id}:nightingale" in notes[0]
        # the real Storyteller, renamed, still commands the bot
        conversation = next(t for t in forum.topics.values()
                            if t.is_pm and "notes for the Storytellers" in t.title)
        assert "lark" in conversation.allowed and "nightingale" not in conversation.allowed
        _as(rehearsal, "lark", "!status\nHow does it stand?", at + timedelta(minutes=3), topic_id=conversation.id)
        _cycle(rehearsal, at + timedelta(minutes=4))
        assert _bot_posts_in(conversation, at + timedelta(minutes=3))
    finally:
        rehearsal.stop()


def test_a_players_old_name_taken_by_a_stranger_nominates_no_one_and_reads_nothing(tmp_path):
    rehearsal = _rehearsal(tmp_path, "player-impostor")
    try:
        forum = rehearsal.server.forum
        fatima = forum.user("Fatima").id
        grimoire = [t for t in _conversations(rehearsal, fatima) if "grimoire" in t.title]
        impostor = _rename_and_take(rehearsal, "Fatima", "Fatimah")
        at = AT + timedelta(minutes=1)
        _as(rehearsal, "Fatima", "/nominate Ellen\nShe is hiding something.", at)
        night = _pm_to_bot(rehearsal, "Fatima", "/choose Alex\nMy night action.", at + timedelta(seconds=30))
        _cycle(rehearsal, at + timedelta(minutes=1))
        game = _game(rehearsal)
        today = game.state.today
        assert today is not None and "Ellen" not in [n.nominee for n in today.nominations]
        assert game.state.is_seated("Fatimah") and not game.state.is_seated("Fatima")
        assert not _bot_posts_in(forum.topics[night["topic_id"]], at)
        assert [t.id for t in _conversations(rehearsal, impostor.id)] == [night["topic_id"]]
        assert all("Fatimah" in t.allowed for t in grimoire)  # still in her own conversation
        # a Storyteller's answer to the old name reaches the real player, in her conversation
        conversation = next(t for t in forum.topics.values()
                            if t.is_pm and "notes for the Storytellers" in t.title)
        _as(rehearsal, "nightingale", "!answer Fatima Yes, it is.", at + timedelta(minutes=3),
            topic_id=conversation.id)
        _cycle(rehearsal, at + timedelta(minutes=4))
        answered = [p for t in grimoire for p in _bot_posts_in(t, at + timedelta(minutes=3))]
        assert any("Yes, it is." in p.raw for p in answered)
        assert all("Fatimah" in t.allowed for t in grimoire)
        assert [t.id for t in _conversations(rehearsal, impostor.id)] == [night["topic_id"]]
        # the real player's vote counts
        _as(rehearsal, "Fatimah", "/nominate Ellen\nShe is hiding something.", at + timedelta(minutes=5))
        _cycle(rehearsal, at + timedelta(minutes=6))
        today = _game(rehearsal).state.today
        assert today is not None and "Ellen" in [n.nominee for n in today.nominations]
        # the audit words every kind of input, the rename and the lapsed name included
        audit = audit_game(rehearsal.store, rehearsal.setup)
        kinds = {entry["input"]["kind"] for entry in audit["entries"]}
        assert {"rename", "lapse"} <= kinds and audit["replay_matches"]
        text = audit_text(audit)
        assert "the forum account Fatima renamed Fatimah" in text
        assert "the name Fatima taken by someone outside the game" in text
    finally:
        rehearsal.stop()


def test_a_seated_player_who_takes_another_seats_old_name_spends_their_own_nomination(tmp_path):
    rehearsal = _rehearsal(tmp_path, "seat-swap")
    try:
        _rename_and_take(rehearsal, "Ellen", "Ellie")  # a newcomer takes Ellen ...
        forum = rehearsal.server.forum
        forum.users.pop("ellen")  # ... and leaves it at once (renamed away in turn)
        at = AT + timedelta(minutes=1)
        rehearsal.request("PUT", "/u/Cameron/preferences/username", as_user="Cameron",
                          new_username="Ellen")
        rehearsal.keys["ellen"] = rehearsal.keys.pop("cameron")
        _as(rehearsal, "Ellen", "/nominate Brianna\nI have doubts.", at)
        _cycle(rehearsal, at + timedelta(minutes=1))
        state = _game(rehearsal).state
        names = [s.name for s in state.seats]
        assert len(names) == len(set(n.lower() for n in names))  # no name twice
        assert state.is_seated("Ellie") and state.is_seated("Ellen")
        today = state.today
        assert today is not None
        nomination = next(n for n in today.nominations if n.nominee == "Brianna")
        assert nomination.nominator == "Ellen"  # Cameron's seat, by his id
        assert state.setup.seat_index["Ellen"] == 2  # the third seat: Cameron's
        assert state.setup.roster.resolve_exact("Ellen") == "Ellen"
    finally:
        rehearsal.stop()


def test_a_vote_for_a_new_name_is_looked_up_before_it_is_refused(tmp_path):
    rehearsal = _rehearsal(tmp_path, "new-name")
    try:
        rehearsal.clock.set(AT)
        rehearsal.request("PUT", "/u/Derek/preferences/username", as_user="Derek",
                          new_username="Dmitri")
        rehearsal.keys["dmitri"] = rehearsal.keys.pop("derek")
        at = AT + timedelta(minutes=1)
        _as(rehearsal, "Ellen", "/vote @Dmitri yes\nHe is the one.", at)
        _cycle(rehearsal, at + timedelta(minutes=1))
        state = _game(rehearsal).state
        assert state.is_seated("Dmitri")
        today = state.today
        assert today is not None
        nomination = next(n for n in today.nominations if n.nominee == "Dmitri")
        voted = {v.player: v.vote for v in nomination.locked} | {
            p: c.value for p, c in nomination.cast.items()}
        assert voted.get("Ellen") == "yes"  # counted (the hand has passed her: locked)
        assert not [m for m in markers(rehearsal) if ":rejected:" in m and "ellen" in m.lower()]
    finally:
        rehearsal.stop()


def test_a_backups_old_name_taken_by_a_stranger_never_takes_the_seat(tmp_path):
    """The backup Zed renames to Zedd; a stranger registers Zed. The Storyteller seats the
    backup as the bot proposes it (`!sub Derek Zed`): the seat is bound to the backup's id
    from the game file, so the stranger's vote under Zed counts for nobody, and Zedd's does."""
    from modbot.cli.rehearsal import demo_rehearsal
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/backup.sqlite")
    try:
        forum = rehearsal.server.forum
        zed = forum.add_user("Zed")
        rehearsal.keys["zed"] = forum.new_user_key("Zed")
        rehearsal.setup = dataclasses.replace(
            rehearsal.setup, backups=("Zed",),
            user_ids=(*rehearsal.setup.user_ids, ("Zed", zed.id)))
        rehearsal.start_bot()
        rehearsal.service.identities.check_seconds = 0
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        cut = next(i for i, item in enumerate(script) if item["created_at"] > RENAME_AT)
        rehearsal.play(script[:cut])
        impostor = _rename_and_take(rehearsal, "Zed", "Zedd")
        at = AT + timedelta(minutes=1)
        conversation = next(t for t in forum.topics.values()
                            if t.is_pm and "notes for the Storytellers" in t.title)
        _as(rehearsal, "nightingale", "!sub Derek Zed --yes\nA backup steps in.", at,
            topic_id=conversation.id)
        _cycle(rehearsal, at + timedelta(minutes=1))
        _as(rehearsal, "Zed", "/vote Derek no\nI am Zed, really.", at + timedelta(minutes=2))
        _cycle(rehearsal, at + timedelta(minutes=3))
        game = _game(rehearsal)
        assert game.state.is_seated("Zedd") and not game.state.is_seated("Zed")
        nomination = next(n for n in game.state.today.nominations if n.nominee == "Zedd")
        assert "Zed" not in nomination.cast and "Zedd" not in nomination.cast
        assert len(_stranger_notes(rehearsal)) == 1
        assert f":stranger:{impostor.id}:zed" in _stranger_notes(rehearsal)[0]
        _as(rehearsal, "Zedd", "/vote Zedd no\nNot me, friends.", at + timedelta(minutes=4))
        _cycle(rehearsal, at + timedelta(minutes=5))
        nomination = next(n for n in _game(rehearsal).state.today.nominations
                          if n.nominee == "Zedd")
        voted = {v.player for v in nomination.locked} | set(nomination.cast)
        assert "Zedd" in voted  # the real backup, by id
        from modbot.core import game_record
        seats = {s["player"]: s["user_id"] for s in game_record(_game(rehearsal).state)["seats"]}
        assert seats["Zedd"] == zed.id  # the seat's account is the backup's, not Derek's
    finally:
        rehearsal.stop()


def test_a_game_file_without_ids_is_bound_by_one_look_up_a_name_before_it_starts(tmp_path):
    from modbot.cli.rehearsal import demo_rehearsal
    rehearsal, _ = demo_rehearsal(f"sqlite:///{tmp_path}/noids.sqlite")
    try:
        rehearsal.setup = dataclasses.replace(rehearsal.setup, user_ids=())
        before = rehearsal.server.counts["GET /users/{username}.json"]
        rehearsal.start_bot()
        rehearsal.clock.set(rehearsal.setup.first_night_starts)
        rehearsal.service.cycle(rehearsal.setup.first_night_starts)
        game = _game(rehearsal)
        places = [*(s.name for s in rehearsal.setup.seats), "nightingale", "modbot"]
        forum = rehearsal.server.forum
        assert rehearsal.service.identities.names[game.topic_id] == {
            forum.user(n).id: n for n in places}
        looked_up = rehearsal.server.counts["GET /users/{username}.json"] - before
        assert looked_up == len(places) + 1  # each place once, and the bot's own account
        rehearsal.service.start_game(rehearsal.setup)  # a restart: kept, nothing asked
        assert rehearsal.server.counts["GET /users/{username}.json"] - before == looked_up
    finally:
        rehearsal.stop()


def test_a_restarted_bot_is_its_own_account_though_its_old_name_was_taken(tmp_path):
    """Staff rename the bot while it is down and a player registers its old name: at the
    restart the bot finds itself by the id the game file gives (`bot_id`), never the name,
    and the player's post under the bot's old name is a stranger's."""
    rehearsal = _rehearsal(tmp_path, "bot-taken")
    try:
        forum = rehearsal.server.forum
        bot = forum.user("modbot").id
        rehearsal.service.save_snapshots(every=0)
        rehearsal.store.close()
        rehearsal.request("PUT", "/u/modbot/preferences/username", as_user="system",
                          new_username="Clocktower")
        taker = forum.add_user("modbot")
        service = rehearsal.start_bot()
        service.identities.check_seconds = 0
        rehearsal.clock.set(AT)
        service.cycle(AT)
        assert service.bot_id == bot and service.client.api_user_id == bot
        _as(rehearsal, "modbot", "The grimoire is sealed, trust me.", AT + timedelta(minutes=1))
        _cycle(rehearsal, AT + timedelta(minutes=2))
        notes = _stranger_notes(rehearsal)
        assert len(notes) == 1 and f":stranger:{taker.id}:modbot" in notes[0]
        assert service.settings.bot_username == "Clocktower"  # learnt by id
    finally:
        rehearsal.stop()

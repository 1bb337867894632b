"""From the deal to the reveal on the sandbox (issue 27): the demo game, played with every
private message, ends with `!win` and `!reveal`; the seal posted at the deal checks against the
published grimoire (`modbot verify`), one changed character fails it, every fact of the reveal
matches the game's state and events, and the export validates against its schema."""

import dataclasses
import json
from datetime import datetime, timedelta
from pathlib import Path

import jsonschema
import pytest

from modbot import cli
from modbot.cli.export import ThreadPost, export_game, verify_thread
from modbot.cli.rehearsal import DEMO_GAME, demo_rehearsal, play_demo

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP

SCHEMA = Path(__file__).resolve().parents[2] / "data" / "export-schema.json"


def _posts(rehearsal) -> list[ThreadPost]:
    return [ThreadPost(p["username"], p["raw"], p["user_id"], p["id"], p["version"])
            for p in rehearsal.thread()]


def _bot_id(rehearsal) -> int:
    return rehearsal.server.forum.user("modbot").id


def _game(rehearsal):
    return rehearsal.service.games[rehearsal.setup.topic_id]


def test_the_published_grimoire_is_the_one_sealed_at_the_deal(revealed):
    verdict = verify_thread(_posts(revealed), _bot_id(revealed))
    assert verdict.ok and verdict.message.startswith("OK: the published grimoire (7 seats)")


def test_one_changed_character_fails_the_check(revealed):
    posts = _posts(revealed)
    tampered = [dataclasses.replace(p, raw=p.raw.replace('"character":"clockmaker"',
                                                         '"character":"oracle"', 1))
                for p in posts]
    assert tampered != posts
    verdict = verify_thread(tampered, _bot_id(revealed))
    assert not verdict.ok and verdict.message.startswith("MISMATCH")


def test_the_seal_checks_by_hand_as_the_reveal_says(revealed, tmp_path):
    """The reveal's own instructions, run: the salt, then the JSON line, through sha256sum."""
    import re
    import subprocess
    (grimoire,) = [p.raw for p in _posts(revealed) if ":reveal:grimoire -->" in p.raw]
    (seal,) = [p.raw for p in _posts(revealed) if ":seal -->" in p.raw]
    line = re.search(r"^```json\n(.*)\n```$", grimoire, re.M).group(1)
    (tmp_path / "grimoire.json").write_text(line)
    command = re.search(r"run `(\(printf %s [0-9a-f]{64}; cat grimoire.json\) \| sha256sum)`",
                        grimoire).group(1)
    out = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout.split()[0]
    assert f"SHA-256: `{out}`" in seal


def test_a_seal_posted_by_someone_else_proves_nothing(revealed):
    posts = [p if ":seal -->" not in p.raw else dataclasses.replace(p, username="mallory",
                                                                      user_id=9999)
             for p in _posts(revealed)]
    assert not verify_thread(posts).ok  # the bot: the account of the thread's first marked post
    by_name = [dataclasses.replace(p, user_id=None) for p in _posts(revealed)]
    verdict = verify_thread(by_name)  # no ids: a name certifies nothing
    assert not verdict.ok and "name alone" in verdict.message


def test_a_forged_seal_under_the_bots_old_name_is_known_by_its_id(revealed):
    """The bot renamed; a player took its old name and posted a seal and a reveal of their
    own, which agree: by id they are not the bot's, so they prove nothing, and are said."""
    honest = _posts(revealed)
    forged = [dataclasses.replace(p, user_id=9999, post_id=None)
              for p in honest if ":seal -->" in p.raw or ":reveal:grimoire -->" in p.raw]
    forged = [dataclasses.replace(p, raw=p.raw.replace('"character":"clockmaker"',
                                                       '"character":"oracle"', 1))
              for p in forged]
    without_the_bot = [p for p in honest if p.user_id != _bot_id(revealed)] + forged
    verdict = verify_thread(without_the_bot, _bot_id(revealed))
    assert not verdict.ok and "not the bot" in verdict.message
    assert verify_thread(honest + forged, _bot_id(revealed)).ok


def test_a_thread_file_knows_the_bot_by_its_first_post_not_by_a_name_someone_took(revealed):
    """Issue 50: the bot renamed (its posts now show modbot_old); a player registered
    `modbot` and posted a seal and reveal of their own, which agree with each other. With no
    `--bot-id`, verify takes the bot to be the account of the thread's first post of the
    bot's, so the forgeries prove nothing, and are said."""
    honest = [dataclasses.replace(p, username="modbot_old") if p.user_id == _bot_id(revealed)
              else p for p in _posts(revealed)]
    forged = [dataclasses.replace(p, username="modbot", user_id=9999, post_id=None)
              for p in honest if ":seal -->" in p.raw or ":reveal:grimoire -->" in p.raw]
    without_the_bots_reveal = [p for p in honest if ":reveal:grimoire -->" not in p.raw] + forged
    verdict = verify_thread(without_the_bots_reveal)
    assert not verdict.ok and "not the bot" in verdict.message
    assert f"account {_bot_id(revealed)}" in verdict.message


def test_a_seal_edited_by_staff_is_read_as_first_posted_and_said(revealed):
    """A moderator edits the bot's seal (to match a changed grimoire): verify reads the seal's
    first version from the forum (GET /posts/ID.json?version=1) and says it was edited."""
    from modbot.adapters.forum import ForumClient
    forum = revealed.server.forum
    seal = next(p for p in forum.topics[revealed.setup.topic_id].visible_posts()
                if ":seal -->" in p.raw)
    reveal = next(p for p in _posts(revealed) if ":reveal:grimoire -->" in p.raw)
    changed = reveal.raw.replace('"character":"clockmaker"', '"character":"oracle"', 1)
    client = ForumClient(revealed.url, "modbot", revealed.server.api_key)
    from modbot.cli.export import SALT_LINE, SEALED_JSON
    from modbot.core import commitment
    forged = commitment(SALT_LINE.search(changed).group(1), SEALED_JSON.search(changed).group(1))
    original = seal.raw
    revealed.request("PUT", f"/posts/{seal.id}.json", as_user="nightingale", **{
        "post[raw]": original.replace(original.split("SHA-256: `")[1][:64], forged),
        "post[edit_reason]": "fixing the seal"})
    try:
        posts = [dataclasses.replace(p, raw=changed, version=2)
                 if ":reveal:grimoire -->" in p.raw else p for p in _posts(revealed)]
        edited = next(p for p in posts if ":seal -->" in p.raw)
        assert edited.version == 2 and forged in edited.raw
        verdict = verify_thread(posts, _bot_id(revealed),
                                lambda post_id, n: client.post_version(post_id, n).raw)
        assert not verdict.ok and verdict.message.startswith("MISMATCH")
        assert "the seal post was edited since the deal" in verdict.message
        assert "the reveal post was edited" in verdict.message
    finally:
        post = forum.posts[seal.id]
        post.raw, post.version, post.versions = original, 1, post.versions[:1]


def test_a_seal_a_non_staff_bot_joined_to_its_earlier_post_is_no_edit(revealed):
    """A non-staff bot's fourth reply in a row joins its last post (a new version of it): the
    seal's first version is the first that carries it, and nothing was edited."""
    posts = _posts(revealed)
    seal = next(p for p in posts if ":seal -->" in p.raw)
    earlier = "The bot's earlier post.\n\n<!-- modbot:g1:phase:night:1 -->"
    joined = dataclasses.replace(seal, raw=f"{earlier}\n\n---\n\n{seal.raw}", version=2)
    versions = {1: earlier, 2: joined.raw}
    verdict = verify_thread([joined if p is seal else p for p in posts],
                            _bot_id(revealed), lambda post_id, n: versions[n])
    assert verdict.ok and "edited" not in verdict.message


def test_verify_reads_a_thread_file(revealed, tmp_path, capsys):
    honest = tmp_path / "thread.json"
    honest.write_text(json.dumps(revealed.thread(), default=datetime.isoformat))
    assert cli.main(["verify", "--thread", str(honest)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK:") and "taken to be account" in out  # by the thread's ids: said
    assert cli.main(["verify", "--thread", str(honest), "--bot-id", str(_bot_id(revealed))]) == 0
    assert "taken to be" not in capsys.readouterr().out
    assert cli.main(["verify", "--thread", str(honest), "--bot-id", "9999"]) == 1
    assert "no seal posted by account 9999" in capsys.readouterr().out
    changed = tmp_path / "changed.json"
    changed.write_text(honest.read_text().replace('\\"character\\":\\"clockmaker\\"',
                                                  '\\"character\\":\\"oracle\\"', 1))
    assert changed.read_text() != honest.read_text()
    assert cli.main(["verify", "--thread", str(changed)]) == 1


def test_every_fact_of_the_reveal_matches_the_game(revealed):
    game = _game(revealed)
    state = game.state
    raw = {key: p.raw for p in _posts(revealed) for key in
           ("reveal:grimoire", "reveal:nights:1", "reveal:timeline:1", "reveal:votes")
           if f"<!-- modbot:g{game.topic_id}:{key} -->" in p.raw}
    assert len(raw) == 4
    script = state.setup.private_script
    for player, entry in state.dealt_grimoire:
        assert f"| {player} | {script.name_of(entry.character)} |" in raw["reveal:grimoire"]
    for night in state.past_nights:
        assert f'[details="Night {night.number}:' in raw["reveal:nights:1"]
        died = ", ".join(night.deaths) if night.deaths else "nobody"
        assert f"Died: {died}." in raw["reveal:nights:1"]
    for day in state.past_days:
        for n in day.nominations:
            assert f"of **{n.nominee}** by {n.nominator}" in raw["reveal:timeline:1"]
            assert f"{n.yes} yes of {n.threshold_at_close} needed" in raw["reveal:timeline:1"]
    record = export_game(revealed.store, revealed.setup)
    assert [s["dealt"]["character"] for s in record["seats"]] == [
        script.name_of(e.character) for _, e in state.dealt_grimoire]
    assert [(d["player"], d["cause"]) for d in record["deaths"]] == [
        (p, cause) for p, cause, _ in state.deaths_log]
    locked = [(v.player, n.nominee, v.vote, v.post_number) for d in state.past_days
              for n in d.nominations + d.exiles for v in n.locked]
    assert locked and sorted((p["player"], v["nominee"], v["vote"], v["post_number"])
                             for p in record["votes"] for v in p["votes"]) == sorted(locked)
    assert record["winner"]["team"] == "good" and record["seal"]["commitment"] in "".join(
        p.raw for p in _posts(revealed))


def test_the_export_validates_against_its_schema(revealed, tmp_path, capsys):
    out = tmp_path / "game.json"
    assert cli.main(["export", str(DEMO_GAME), "--database", revealed.database_url,
                     "--output", str(out)]) == 0
    assert f"to {out}." in capsys.readouterr().out  # says where it wrote
    record = json.loads(out.read_text())
    schema = json.loads(SCHEMA.read_text())
    jsonschema.validate(record, schema)
    broken = json.loads(out.read_text())
    broken["days"][0]["nominations"][0]["votes"][0]["vote"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    assert record["schema"] == 1 and record["nights"] and record["days"]
    assert all("text" in said for n in record["nights"] for said in
               (row["said"] for row in n["learned"]))


def test_the_daemon_tells_of_its_edited_seal_and_the_reveal_says_so(tmp_path):
    """A moderator Storyteller edits the bot's seal mid-game: within the hour the Storytellers
    are told (once), the reveal says the seal was edited, and verify still checks the seal as
    first posted."""
    from modbot.adapters.forum import ForumClient
    rehearsal, script = demo_rehearsal(f"sqlite:///{tmp_path}/edited.sqlite")
    try:
        play_demo(rehearsal, script)
        forum = rehearsal.server.forum
        seal = next(p for p in forum.topics[rehearsal.setup.topic_id].visible_posts()
                    if ":seal -->" in p.raw)
        end = datetime.fromisoformat(script[-1]["created_at"]) + timedelta(hours=2)
        rehearsal.clock.set(end)
        rehearsal.request("PUT", f"/posts/{seal.id}.json", as_user="nightingale", **{
            "post[raw]": seal.raw.replace("sealed", "SEALED", 1), "post[edit_reason]": "tidy"})
        assert forum.posts[seal.id].version == 2
        for hours in (1.5, 3):  # two hourly checks: told once
            rehearsal.clock.set(end + timedelta(hours=hours))
            rehearsal.service.cycle(end + timedelta(hours=hours))
            rehearsal.service.drain()
        told = [p for p in forum.posts.values() if ":own-edited:seal:" in p.raw]
        assert len(told) == 1 and "modbot verify" in told[0].raw
        at = end + timedelta(hours=4)
        rehearsal.play([{"username": "nightingale", "raw": "!win good Fatima was found --yes",
                         "created_at": at.isoformat()},
                        {"username": "nightingale", "raw": "The grimoire, for all.\n!reveal --yes",
                         "created_at": (at + timedelta(minutes=1)).isoformat()}])
        (grimoire,) = [p.raw for p in _posts(rehearsal) if ":reveal:grimoire -->" in p.raw]
        assert "seal post was edited after the deal" in grimoire
        client = ForumClient(rehearsal.url, "modbot", rehearsal.server.api_key)
        verdict = verify_thread(_posts(rehearsal), _bot_id(rehearsal),
                                lambda post_id, n: client.post_version(post_id, n).raw)
        assert verdict.ok, verdict.message
        assert "the seal post's words were edited since the deal" in verdict.message
    finally:
        rehearsal.stop()

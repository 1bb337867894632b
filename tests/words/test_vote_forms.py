"""Vote forms players bring from other forums, end to end through the app (Conversation):
what counts, and what they are told, in words."""

from datetime import timedelta

from modbot.core import Phase

from ..conversation import botf_setup, day_one, to

H = timedelta(hours=1)
M = timedelta(minutes=1)


def _nominations_open():
    talk, dawn = day_one(botf_setup())
    at = dawn
    while talk.state.phase is not Phase.NOMINATION:
        at += H
        talk.tick(at)
    talk.thread("Brianna", "/nominate Derek\nHe has been quiet all day.", at + H)
    return talk, at + 2 * H


def voted(talk, player: str) -> bool:
    """The player's vote on Derek is cast or already locked."""
    nomination = talk.state.today.nomination_of("Derek", "execution")
    return player in nomination.cast or any(v.player == player and v.cast for v in nomination.locked)


def test_a_players_bang_vote_counts_and_they_are_told_the_usual_form():
    talk, at = _nominations_open()
    said = talk.thread("Alex", "!vote Derek", at)
    assert voted(talk, "Alex")
    hint = to(said, "pm:alex")
    assert len(hint) == 1 and "The usual form is `/vote NAME`" in hint[0]


def test_an_empty_vote_counts_nothing_and_the_player_is_asked_to_name_someone():
    talk, at = _nominations_open()
    said = talk.thread("Alex", "VOTE:", at)
    assert not voted(talk, "Alex")
    reply = to(said, "pm:alex")
    assert len(reply) == 1 and "names nobody to vote on" in reply[0]


def test_a_storytellers_bang_vote_keeps_its_console_meaning():
    talk, at = _nominations_open()
    said = talk.thread("nightingale", "!vote Ellen yes on Derek", at)
    assert voted(talk, "Ellen")
    assert not [s for s in said if "usual form" in s.raw]


def test_a_vote_count_that_becomes_due_is_posted_by_the_clock_and_again_after_a_restart():
    """A vote is shown at most vote_count_minutes after the previous count, even if nobody
    posts again; the tick that posts it is stored like an input, so a restart (folding the
    stored inputs) derives the same count under the same key."""
    from types import SimpleNamespace

    from modbot.app.games.runtime import GameRuntime
    from modbot.app.posting.reactions import GameOptions
    talk, at = _nominations_open()
    at -= timedelta(minutes=50)  # ten minutes after the nomination and its count
    talk.thread("Alex", "/vote Derek", at)
    quiet = talk.runtime.on_tick(at + timedelta(minutes=30))
    assert not quiet.outgoing
    due = talk.runtime.on_tick(at + timedelta(minutes=61))
    counts = [o for o in due.outgoing if ":vc:" in o.key]
    assert len(counts) == 1 and due.input == {"kind": "tick", "at": due.input["at"]}
    assert not [o for o in talk.runtime.on_tick(at + timedelta(minutes=62)).outgoing
                if ":vc:" in o.key]  # counted once

    again = GameRuntime(talk.state.setup, GameOptions(1, "g1", storytellers=("nightingale",)), 1)
    keys = []
    for kind, value, number in talk.runtime.inputs:
        if kind == "tick":
            row = SimpleNamespace(kind="tick", at=value.isoformat())
        else:
            post, people = value if kind == "pm" else (value, ())
            row = SimpleNamespace(kind=kind, post_id=number, topic_id=500, shared=False,
                                  participants=",".join(people), post_number=post.post_number,
                                  author=post.author, at=post.created_at.isoformat(),
                                  raw=post.raw)
        keys += [o.key for o in again.apply_input(row).outgoing]
    assert counts[0].key in keys


def test_a_refused_role_pm_is_told_to_the_storytellers_in_words():
    """No message to a Storyteller shows an internal key: a role PM the forum refused is "the
    character PM to Hana", with the forum's reason, without a doubled full stop."""
    from modbot.app.posting.reactions import GameOptions, Reactor
    reactor = Reactor(GameOptions(12, "g12", storytellers=("nightingale",)))
    note = reactor.failure_report(("nightingale",), "g12:role:Hana",
                                  "Sorry, you can't send a message to that user.", ("Hana",))
    text = note.raw
    assert "the character PM to Hana" in text and "g12" not in text and ".." not in text


def test_a_vote_count_with_two_nominations_reads_at_a_glance():
    """Vote counts: a summary line first (votes / needed per nominee, who is about to die),
    then one meaning for each number: the threshold, and what it takes to replace the leader."""
    from datetime import timedelta
    talk, at = _nominations_open()
    talk.thread("Cameron", "/nominate Ellen", at)
    for i, p in enumerate(["Ellen", "Fatima", "Gus", "Alex", "Brianna", "Cameron"]):
        talk.thread(p, "/vote Derek", at + timedelta(minutes=5 + i))
    talk.thread("Fatima", "/vote Ellen", at + timedelta(minutes=20))
    said = talk.st("!vc", at + H)
    (count,) = [s for s in to(said, "topic") if s.startswith("## Vote count")]
    lines = [line for line in count.splitlines() if line and not line.startswith("![")]
    assert lines[1] == "Votes / needed: Derek **6**/4 · Ellen **1**/7"
    assert lines[2].startswith("About to die:")
    assert "**6** execute votes; **4** to reach the threshold (7 living).\n" in count
    assert "**1** execute vote; **4** to reach the threshold (7 living); **7** to replace Derek" \
        " (**6** to tie)." in count
    assert "Needed to execute" not in count
    assert "Locked, in clock order: [Ellen](/t/1/4) ✅, [Fatima](/t/1/5) ✅" in count  # their posts


def test_a_game_file_can_turn_the_picture_off(tmp_path):
    """`picture = false` in [game]: the vote count is text only; by default it opens with the
    town square."""
    from modbot.app.posting.reactions import GameOptions, Reactor
    from modbot.cli.rehearsal import DEMO_GAME
    from modbot.files.gamefile import load_game
    off = tmp_path / "off.toml"
    off.write_text(DEMO_GAME.read_text().replace('bot = "modbot"', 'bot = "modbot"\npicture = false'))
    talk, at = _nominations_open()
    counts = {}
    for name, path in (("on", DEMO_GAME), ("off", off)):
        reactor = Reactor(GameOptions(1, "g1", pictures=load_game(path).pictures))
        counts[name] = reactor.vote_count(talk.state, at, "test")
    assert "](modbot-picture:" in counts["on"].raw and len(counts["on"].pictures) == 1
    assert "![" not in counts["off"].raw and counts["off"].pictures == ()
    assert "Votes / needed" in counts["off"].raw


def _count(said) -> str:
    (count,) = [s for s in to(said, "topic") if s.startswith("## Vote count")]
    return count


def test_while_nominations_are_open_the_count_gives_both_deadlines():
    talk, at = _nominations_open()
    during = _count(talk.st("!vc", at))
    assert "Nominations close [date=" in during and "Voting ends [date=" in during
    voting = talk.state.phase_ends_at + H
    talk.tick(voting)
    later = _count(talk.st("!vc", voting + H))
    assert "Voting ends [date=" in later and "Nominations close" not in later


def test_a_nomination_whose_votes_are_all_locked_says_so():
    talk, at = _nominations_open()
    for i, p in enumerate(["Ellen", "Fatima", "Gus", "Alex", "Brianna", "Cameron", "Derek"]):
        talk.thread(p, f"/vote Derek {'yes' if i % 2 else 'no'}\nMy vote for today.",
                    at + timedelta(minutes=5 + i))
    count = _count(talk.st("!vc", at + 2 * H))  # past the hour: a count asked for is posted
    assert "### Nomination of Derek (all votes locked)" in count
    assert "(closed)" not in count


def _day_end(said) -> str:
    (end,) = [s for s in to(said, "topic") if s.startswith("## Day 1 is over")]
    return end


def test_the_day_end_post_says_how_the_day_ended():
    talk, at = _nominations_open()
    talk.thread("Ellen", "/vote Derek yes\nHe is the Demon, I am sure.", at)
    deadline = talk.state.phase_ends_at + talk.state.setup.lengths.of(Phase.VOTING)
    end = _day_end(talk.tick(deadline + H))
    assert end.splitlines()[2] == "The day ended at its deadline. There was no execution."

    talk, at = _nominations_open()
    end = _day_end(talk.st("!endday --yes", at))
    assert end.splitlines()[2].startswith("The Storytellers ended the day. ")


def test_soft_answers_reach_a_player_at_most_once_a_forum_hour():
    """The answer goes to the player's grimoire PM; a second look-alike line within the hour
    is not answered again, a real rejection always is, and a vote in a forum form counts."""
    talk, _ = day_one(botf_setup())
    nominations = talk.state.phase_ends_at
    talk.tick(nominations)
    talk.thread("Alex", "/nominate Derek\nA nomination.", nominations + M)
    first = to(talk.thread("Brianna", "vtoe Derek\nhmm", nominations + 2 * M), "pm:brianna")
    assert len(first) == 1 and "vote Derek" in first[0]
    assert to(talk.thread("Brianna", "vote Zed\nhmm", nominations + 10 * M), "pm:brianna") == []
    assert to(talk.thread("Brianna", "/vote Zed\nhmm", nominations + 11 * M), "pm:brianna")
    later = to(talk.thread("Brianna", "vote Zed\nhmm", nominations + 70 * M), "pm:brianna")
    assert len(later) == 1
    talk.thread("Cameron", "I think it is Derek. VOTE: Derek", nominations + 71 * M)
    assert "Cameron" in talk.state.today.nomination_of("Derek").cast

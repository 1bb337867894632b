"""The thread index in words (issue 41, app/posting/thread_index.py): from the bot's posts (their
numbers) and the game's public facts, each phase, each day's last vote count, nomination,
execution and death linked, each player's posts through `?username_filters`, the deadline as
a countdown; never a character, an alignment or how anyone died."""

from datetime import timedelta

from modbot.app.posting.render import render
from modbot.app.posting.thread_index import index_view

from ..conversation import DAWN1, NIGHT1_LOCK, START, Conversation, botf_setup

H = timedelta(hours=1)


def _day_one():
    talk = Conversation(botf_setup())
    for step in (lambda: talk.tick(START), lambda: talk.tick(NIGHT1_LOCK),
                 lambda: talk.approve(NIGHT1_LOCK + H), lambda: talk.tick(DAWN1)):
        step()
    talk.tick(DAWN1 + 12 * H)
    talk.thread("Alex", "/nominate Fatima\nShe is far too quiet.", DAWN1 + 13 * H)
    return talk


POSTED = {"g1:night:1": 2, "g1:seal": 3, "g1:discussion:1": 5, "g1:nomination:1": 8,
          "g1:vc:1.1:open:execution:Fatima": 10, "g1:vc:1.2:vc": 14, "g1:rejected:4": 9}


def test_each_link_names_its_post_and_nothing_hidden_is_said():
    talk = _day_one()
    text = render("thread_index.md.j2", index=index_view(talk.state, 1, POSTED, "g1"))
    assert "[Night 1](/t/1/2) · [Day 1](/t/1/5) · [Nominations, day 1](/t/1/8)" in text
    assert "[last vote count](/t/1/14)" in text  # the day's latest count
    number = talk.state.today.nomination_of("Fatima").post_number
    assert f"[Fatima by Alex](/t/1/{number})" in text
    assert "[Gus](/t/1?username_filters=Gus)" in text
    assert 'countdown="true"' in text and "Now: Nominations, day 1" in text
    for secret in ("Clockmaker", "No Dashii", "Witch", "Loyal", "Cultist"):
        assert secret not in text


def test_deaths_link_the_post_that_told_them_and_never_say_how():
    talk = _day_one()
    text = render("thread_index.md.j2", index=index_view(
        talk.state, 1, {**POSTED, "g1:died:Derek:2026-12-03T08:00:00Z": 12}, "g1"))
    assert "**Deaths:** [Derek](/t/1/12)" in text


def test_a_player_name_with_markdown_is_escaped_and_quoted_in_the_link():
    talk = Conversation(botf_setup({"Zo_e": "clockmaker", "Brianna": "dreamer", "Cameron": "seamstress",
                                    "Derek": "witch", "Ellen": "oracle", "Fatima": "nodashii",
                                    "Gus": "towncrier"}))
    talk.tick(START)
    text = render("thread_index.md.j2", index=index_view(talk.state, 1, {}, "g1"))
    assert "[Zo\\_e](/t/1?username_filters=Zo_e)" in text

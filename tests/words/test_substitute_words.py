"""A substitute after the deal (issue 42), in words: the thread says who replaced whom and
nothing hidden, the replaced player is told in the seat's conversation, then the substitute is
added to it (and the replaced player taken out) before the seat's role PM, and the record
credits each holder with what they did."""

from datetime import timedelta

from modbot.core import game_record

from ..conversation import START, Conversation, botf_setup, to


def _subbed():
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.pm("Cameron", "/choose Alex Gus\nMy choice for tonight.", START + timedelta(hours=2))
    said = talk.st("!sub Cameron Cal --yes", START + timedelta(hours=3))
    return talk, said


def test_the_thread_the_replaced_player_and_the_substitute_are_told_in_order():
    talk, said = _subbed()
    public = to(said, "topic")
    assert len(public) == 1 and "Cal replaces Cameron" in public[0]
    assert "seamstress" not in public[0].lower()  # the seat's character stays hidden
    seat = [s for s in said if s.thread == "pm:cameron"]
    assert len(seat) == 4 and seat[0].key.endswith(":sub-out:Cameron")
    assert ":role:Cal:sub:" in seat[3].key
    assert seat[1].raw == "invite:Cal" and seat[2].raw == "remove:Cameron"
    assert seat[0].recipients[0] == "Cameron" and seat[3].recipients[0] == "Cal"
    assert "take over Cameron's seat: Seamstress" in seat[3].raw
    assert "sent for tonight stands" in seat[3].raw
    later = talk.pm("Cal", "/choose Alex Brianna\nCal's choice now.", START + timedelta(hours=4))
    assert {s.thread for s in later if s.raw} == {"pm:cameron"}  # the seat's conversation


def test_the_record_credits_each_holder_and_keeps_who_held_the_seat_when():
    talk, _ = _subbed()
    record = game_record(talk.state, {"Cal": 77})
    seat = next(s for s in record["seats"] if s["player"] == "Cal")
    assert [(h["player"], h["user_id"]) for h in seat["held_by"]] == [
        ("Cameron", dict(talk.state.setup.user_ids).get("Cameron")), ("Cal", 77)]
    assert seat["held_by"][0]["until"] == seat["held_by"][1]["from"] == START + timedelta(hours=3)


def test_undoing_a_night_choice_says_what_it_changes():
    """`!undo id:N` on a player's night choice (issue 42): the preview names the choice it
    takes back, not "nothing in the game"."""
    talk = Conversation(botf_setup())
    talk.tick(START)
    talk.pm("Cameron", "/choose Alex Gus\nMy choice for tonight.", START + timedelta(hours=2))
    said = talk.st(f"!undo id:{talk.ids}", START + timedelta(hours=3))
    answer = next(s.raw for s in said if s.thread.startswith("pm"))
    assert "nothing in the game" not in answer
    assert "night 1: Cameron's choice Alex and Gus, now none" in answer
    assert talk.state.night.choice_of("Cameron") is not None  # only shown until --yes

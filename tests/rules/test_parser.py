"""Table-driven: post text -> actions and rejections."""

import pytest

from modbot.core.reading.parser import parse_post
from modbot.core.state.names import Ambiguous, Roster, Unknown

ROSTER = Roster(
    ("Alex", "Albert", "Brianna", "Cameron", "Derek", "Zone_Q11"),
    (("Bri", "Brianna"), ("Saxon Rossby", "Cameron")),
)


def actions(text, open_nominees=("Brianna",), **kwargs):
    return parse_post(text, ROSTER, open_nominees, ("nightingale",), **kwargs).to_json()["actions"]


def rejections(text, open_nominees=("Brianna",)):
    return parse_post(text, ROSTER, open_nominees).to_json()["rejections"]


NOM = {"type": "nominate", "target": "Brianna"}


def vote(nominee, value="yes"):
    return {"type": "vote", "nominee": nominee, "value": value}


@pytest.mark.parametrize("text, expected", [
    ("/nominate Brianna", [NOM]),
    ("/NOMINATE brianna", [NOM]),
    ("/nominate @Brianna", [NOM]),
    ("nominate: Brianna", [NOM]),
    ("Nominate Brianna", [NOM]),
    ("nominate bri", [NOM]),
    ("**/nominate Brianna**", [NOM]),
    ("[b]/nominate Brianna[/b]", [NOM]),
    ("- /nominate Brianna", [NOM]),
    ("## /nominate Brianna", [NOM]),
    ("/nominate Brianna!", [NOM]),
    ("/nominate Saxon Rossby", [{"type": "nominate", "target": "Cameron"}]),
    ("/nominate zone_q11", [{"type": "nominate", "target": "Zone_Q11"}]),
    ("I will nominate Brianna later", []),
    ("nominate whoever you like", []),
    ("Let me /nominate Brianna", []),  # commands are line-anchored
])
def test_nominate_forms(text, expected):
    assert actions(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("/vote Derek", [vote("Derek")]),
    ("/vote Derek yes", [vote("Derek")]),
    ("/vote Derek no", [vote("Derek", "no")]),
    ("/vote Derek: no", [vote("Derek", "no")]),
    ("/vote yes Derek", [vote("Derek")]),
    ("/vote no Derek", [vote("Derek", "no")]),
    ("/yes Derek", [vote("Derek")]),
    ("/no Derek", [vote("Derek", "no")]),
    ("/execute Derek", [vote("Derek")]),
    ("/pardon Derek", [vote("Derek", "no")]),
    ("/hands up Derek", [vote("Derek")]),
    ("/hands down Derek", [vote("Derek", "no")]),
    ("[vote]Derek[/vote]", [vote("Derek")]),
    ("I think [VOTE]@derek[/VOTE] is right", [vote("Derek")]),
    ("VOTE: Derek", [vote("Derek")]),
    ("vote: derek no", [vote("Derek", "no")]),
    ("/vote Derek because he is suspicious", [vote("Derek")]),
    ("yes", [vote("Brianna")]),
    ("No", [vote("Brianna", "no")]),
    ("hands up", [vote("Brianna")]),
    ("hands down", [vote("Brianna", "no")]),
    ("/yes", [vote("Brianna")]),
    ("yes, I agree with that", []),
    ("/vote Derek\n/vote Bri no", [vote("Derek"), vote("Brianna", "no")]),
])
def test_vote_forms(text, expected):
    assert actions(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("/unvote Derek", [{"type": "unvote", "nominee": "Derek"}]),
    ("/unvote", [{"type": "unvote", "nominee": None}]),
    ("[unvote][/unvote]", [{"type": "unvote", "nominee": None}]),
    ("[unvote]Derek[/unvote]", [{"type": "unvote", "nominee": "Derek"}]),
    ("/whisper Derek", [{"type": "whisper", "with": ["Derek"]}]),
    ("/whisper @Derek @Alex", [{"type": "whisper", "with": ["Derek", "Alex"]}]),
    ("/whisper Derek, Alex and Bri", [{"type": "whisper", "with": ["Derek", "Alex", "Brianna"]}]),
    ("/whisper Storyteller", [{"type": "whisper_storyteller"}]),
    ("/whisper [Storyteller]", [{"type": "whisper_storyteller"}]),
    ("/whisper @nightingale", [{"type": "whisper_storyteller"}]),
    ("/accept", [{"type": "accept_whisper", "from": None}]),
    ("/accept @Alex", [{"type": "accept_whisper", "from": "Alex"}]),
    ("/decline", [{"type": "decline_whisper", "from": None}]),
    ("/decline Derek", [{"type": "decline_whisper", "from": "Derek"}]),
    ("/skip", [{"type": "skip_nomination"}]),
    ("I am not nominating today", [{"type": "skip_nomination"}]),
    ("I am not nominating today.", [{"type": "skip_nomination"}]),
    ("/exile Derek", [{"type": "exile", "target": "Derek"}]),
])
def test_other_commands(text, expected):
    assert actions(text) == expected


@pytest.mark.parametrize("text", [
    "[quote]/vote Derek[/quote]",
    '[quote="Alex, post:3, topic:12"]\n/vote Derek\n[/quote]',
    "[quote]\n[quote]\n/vote Derek\n[/quote]\n/vote Derek\n[/quote]",
    "[quote]\n/vote Derek\nno closing tag",
    "> /vote Derek",
    "   > /vote Derek",
    "<blockquote>\n/vote Derek\n</blockquote>",
    "```\n/vote Derek\n```",
    "~~~\n/vote Derek\n~~~",
    "```\n/vote Derek",
    "`/vote Derek`",
    "``/vote Derek``",
    "[code]\n/vote Derek\n[/code]",
    "<pre>\n/vote Derek\n</pre>",
    "<code>/vote Derek</code>",
    "text\n\n    /vote Derek",
    "~~/vote Derek~~",
    "[s]/vote Derek[/s]",
    "[strike]/vote Derek[/strike]",
    "<s>/vote Derek</s>",
    "<del>/vote Derek</del>",
    "<strike>/vote Derek</strike>",
    "<!-- /vote Derek -->",
    "<!--\n/vote Derek\n-->",
    "<!-- /vote Derek",
    "~~[vote]Derek[/vote]~~",
])
def test_nothing_counts_inside_quotes_code_strikethrough_or_comments(text):
    assert actions(text) == []


def test_text_after_a_quote_still_counts():
    text = '[quote="Alex, post:3, topic:12"]\n/vote Derek\n[/quote]\n/vote Alex'
    assert actions(text) == [vote("Alex")]


def test_quote_inside_code_is_literal_and_does_not_hide_later_text():
    assert actions("```\n[quote]\n```\n/vote Alex") == [vote("Alex")]


def test_the_quoted_trail_of_an_email_reply_never_counts():
    """A reply by email carries the quoted trail in `<details class='elided'>` (Discourse's
    Email::Receiver.elided_html): an old vote there is not cast again; the new one counts."""
    trail = ("/vote Alex\n\n<details class='elided'>\n<summary title='Show trimmed content'>"
             "&#183;&#183;&#183;</summary>\n\nOn Tue, Derek wrote:\n/vote Derek\n/nominate Albert"
             "\n\n</details>\n")
    assert actions(trail) == [vote("Alex")]
    assert actions(trail.replace("'elided'", '"elided"')) == [vote("Alex")]
    assert actions(trail, count_spoilers=False) == [vote("Alex")]
    open_details = "<details>\n<summary>why</summary>\n/vote Derek\n</details>"
    assert actions(open_details) == [vote("Derek")]  # a player's own details still count


def test_spoilers_and_details_count_unless_disabled():
    text = "[spoiler]/vote Derek[/spoiler]\n[details=Why]\n/vote Alex\n[/details]"
    assert actions(text) == [vote("Derek"), vote("Alex")]
    assert actions(text, count_spoilers=False) == []


@pytest.mark.parametrize("text, code, candidates", [
    ("/vote Al", "ambiguous", ["Alex", "Albert"]),
    ("/nominate Al", "ambiguous", ["Alex", "Albert"]),
    ("/vote Zed", "unknown_player", []),
    ("/vote Dereck", "unknown_player", ["Derek"]),
    ("/nominate", "missing_target", []),
    ("/whisper", "missing_target", []),
    ("nominate: nobody", "unknown_player", []),
    ("Nominate Al", "ambiguous", ["Alex", "Albert"]),
])
def test_rejections_list_candidates(text, code, candidates):
    (rejection,) = rejections(text)
    assert rejection["code"] == code
    assert rejection["candidates"] == candidates
    assert rejection["text"]


def test_bare_vote_needs_exactly_one_open_nomination():
    assert actions("yes", open_nominees=()) == []
    assert rejections("yes", open_nominees=("Brianna", "Derek"))[0]["code"] == \
        "no_single_open_nomination"


def test_names_resolve_exact_then_alias_then_unique_substring():
    assert ROSTER.resolve("alex") == "Alex"
    assert ROSTER.resolve("@ALBERT") == "Albert"
    assert ROSTER.resolve("bri") == "Brianna"
    assert ROSTER.resolve("bria") == "Brianna"
    assert ROSTER.resolve("rossby") == "Cameron"
    assert ROSTER.resolve("ale") == "Alex"
    assert ROSTER.resolve("al") == Ambiguous("al", ("Alex", "Albert"))
    assert ROSTER.resolve("ca") == Unknown("ca", ("Cameron",))  # too short to be sure
    assert ROSTER.resolve("") == Unknown("")


def test_username_wins_over_another_players_alias():
    roster = Roster(("Alex", "Sam"), (("Alex", "Sam"),))
    assert roster.resolve("alex") == "Alex"


def test_very_long_lines_are_prose():
    assert actions("/vote Derek " + "x" * 600) == []


# -- the vote forms players bring from other forums (issue: rules fidelity and vote forms) --

def test_a_bare_slash_vote_yes_counts_on_the_only_open_nomination_unless_strict():
    assert actions("/vote yes") == [vote("Brianna")]
    assert actions("/vote no") == [vote("Brianna", "no")]
    assert actions("/vote yes", open_nominees=("Brianna", "Cameron")) == []
    assert actions("/vote yes", forms="strict") == []  # a value is not a name


@pytest.mark.parametrize("text", [
    "VOTE:",  # the name slot is empty
    "**VOTE:**\nDerek",  # the name on the next line is not in the vote
    "[vote][/vote]",
    "[v][/v]",
    "/vote",
    "##vote",
])
def test_an_empty_name_slot_is_never_a_vote(text):
    """Rule: a vote command or tag that names nobody is refused (the player is told to name
    someone); it never counts on the only open nomination."""
    assert actions(text) == []
    assert [r["code"] for r in rejections(text)] == ["vote_needs_name"]


@pytest.mark.parametrize("text, expected", [
    ("yes", [vote("Brianna")]), ("no", [vote("Brianna", "no")]),
    ("hands up", [vote("Brianna")]), ("hands down", [vote("Brianna", "no")]),
    ("[unvote][/unvote]", [{"type": "unvote", "nominee": None}]),
])
def test_the_bare_words_keep_their_meaning(text, expected):
    assert actions(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("[v]Derek[/v]", [vote("Derek")]),  # Fortress of Lies' short tags
    ("[V]derek[/V]", [vote("Derek")]),
    ("[uv][/uv]", [{"type": "unvote", "nominee": None}]),
    ("[uv]Derek[/uv]", [{"type": "unvote", "nominee": "Derek"}]),
    ("/vote for Derek", [vote("Derek")]),
    ("VOTE: for Derek", [vote("Derek")]),
    ("[vote][color=red]Derek[/color][/vote]", [vote("Derek")]),
    ("[vote]**Derek**[/vote]", [vote("Derek")]),
    ("[vote]vote Derek[/vote]", [vote("Derek")]),
    ("[vote]VOTE: Derek[/vote]", [vote("Derek")]),
    ("/vote **Derek**", [vote("Derek")]),
    ("##vote Derek", [vote("Derek")]),  # Team Liquid's convention
    ("##vote: Derek", [vote("Derek")]),
    ("#vote:Derek", [vote("Derek")]),
    ("## vote Derek", [vote("Derek")]),
    ("##unvote", [{"type": "unvote", "nominee": None}]),
    ("##unvote Derek", [{"type": "unvote", "nominee": "Derek"}]),
    ("!vote Derek", [vote("Derek")]),
    ("!vote Derek no", [vote("Derek", "no")]),
    ("!unvote", [{"type": "unvote", "nominee": None}]),
    ("I think so. [vote]Derek[/vote] for now", [vote("Derek")]),  # a tag counts mid-line
    ("I think so. [v]Derek[/v]", [vote("Derek")]),
])
def test_vote_forms_from_other_forums(text, expected):
    assert actions(text) == expected


def test_a_players_bang_vote_counts_with_a_hint_to_use_the_usual_form():
    parsed = parse_post("!vote Derek", ROSTER, ("Brianna",))
    assert parsed.hints == ("bang_vote",)
    assert parse_post("/vote Derek", ROSTER, ("Brianna",)).hints == ()


def test_prose_about_votes_is_still_not_a_vote():
    assert actions("I would vote for Derek if I could") == []
    assert actions("# Votes so far") == []
    assert actions("!voter turnout is low") == []

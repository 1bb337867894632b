"""Hypothesis properties of the parser and the rules core."""

from datetime import timedelta

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from modbot.core.engine import Post
from modbot.core.reading.parser import parse_post
from modbot.core.reporting import Replay, replay
from modbot.core.state.model import GameState
from modbot.core.state.names import Roster

from ..helpers import NOMINATIONS1, setup

PLAYERS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")
ROSTER = Roster(PLAYERS, (("Bri", "Brianna"),))

COMMANDS = st.sampled_from([
    "/nominate {p}", "/vote {p}", "/vote {p} no", "/vote {p} yes", "/unvote {p}", "/unvote",
    "[vote]{p}[/vote]", "VOTE: {p}", "yes", "no", "hands up", "/whisper {p}", "/accept",
    "/skip", "/exile {p}", "nominate: {p}", "/pardon {p}", "[unvote][/unvote]",
])
NAMES = st.sampled_from((*PLAYERS, "Bri", "al", "@derek", "zzz"))
COMMAND_TEXT = st.builds(lambda c, p: c.format(p=p), COMMANDS, NAMES)
PROSE = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80)
NOISE = st.sampled_from(["[quote]", "[/quote]", "```", "`", "~~", "<!--", "-->", "> ", "\n",
                         "    ", "[code]", "[/code]", "[s]", "<del>", "**", "@", "[vote]"])


@given(st.lists(st.one_of(PROSE, COMMAND_TEXT, NOISE), max_size=30).map("".join))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_parser_never_crashes_and_only_returns_seated_names(text):
    result = parse_post(text, ROSTER, ("Brianna",))
    for action in result.to_json()["actions"]:
        for key in ("target", "nominee", "from"):
            assert action.get(key) in (*PLAYERS, None)


WRAPPERS = [
    ("[quote]\n", "\n[/quote]", "[/quote]"),
    ('[quote="Alex, post:3, topic:1"]\n', "\n[/quote]", "[/quote]"),
    ("```\n", "\n```", "```"),
    ("~~~\n", "\n~~~", "~~~"),
    ("[code]\n", "\n[/code]", "[/code]"),
    ("<!--\n", "\n-->", "-->"),
    ("`", "`", "`"),
    ("~~", "~~", "~~"),
]


@given(st.lists(COMMAND_TEXT, min_size=1, max_size=6).map("\n".join), st.sampled_from(WRAPPERS))
def test_commands_inside_quotes_or_code_never_become_actions(commands, wrapper):
    opening, closing, closer = wrapper
    if closer == "`":
        commands = commands.replace("\n", " ")  # inline code is one line
    assume(closer not in commands)
    text = f"{opening}{commands}{closing}"
    assert parse_post(text, ROSTER, ("Brianna",)).actions == ()


@given(st.lists(COMMAND_TEXT, min_size=1, max_size=5).map(lambda cs: "\n".join(
    "> " + c for c in cs)))
def test_commands_in_markdown_blockquotes_never_count(text):
    assert parse_post(text, ROSTER, ("Brianna",)).actions == ()


GAME_POSTS = st.lists(
    st.tuples(st.sampled_from(PLAYERS), COMMAND_TEXT, st.integers(0, 60 * 40)),
    max_size=60,
)


def _posts(items):
    ordered = sorted(items, key=lambda item: item[2])
    return [Post(i + 1, author, NOMINATIONS1 + timedelta(minutes=m), raw)
            for i, (author, raw, m) in enumerate(ordered)]


@given(GAME_POSTS)
@settings(max_examples=150, deadline=None)
def test_a_locked_vote_never_changes(items):
    run = Replay(GameState.from_setup(setup(PLAYERS, dead=("Gus",))))
    seen: dict[tuple, object] = {}
    for post in _posts(items):
        run.feed(post)
        days = run.state.past_days + ((run.state.today,) if run.state.today else ())
        for day in days:
            for nomination in day.nominations + day.exiles:
                for index, vote in enumerate(nomination.locked):
                    key = (day.number, nomination.kind, nomination.nominee, index)
                    assert seen.setdefault(key, vote) == vote


@given(GAME_POSTS)
@settings(max_examples=100, deadline=None)
def test_replaying_the_same_posts_gives_the_same_result(items):
    posts = _posts(items)
    state = GameState.from_setup(setup(PLAYERS, dead=("Gus",)))
    first = replay(state, posts).report()
    second = replay(state, list(reversed(posts))).report()  # input order is not post order
    assert first == second


@given(GAME_POSTS)
@settings(max_examples=100, deadline=None)
def test_ghost_tokens_are_spent_at_most_once(items):
    run = replay(GameState.from_setup(setup(PLAYERS, dead=("Gus", "Fatima"))), _posts(items))
    days = run.state.past_days + ((run.state.today,) if run.state.today else ())
    spent = [p for d in days for p in d.ghost_votes_spent]
    assert len(spent) == len(set(spent))

"""Properties of the private side: hostile PM text never crashes it, and a PM either
changes nothing or records the choice or the whisper count, never anything public."""

from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modbot.core.engine import Post, advance, handle_pm
from modbot.core.state.model import GameState

from ..conversation import SEVEN, botf_setup
from ..helpers import START

NAMES = st.sampled_from([*list(SEVEN), "Zed", "al", "@Derek", "Sage", "Imp", ""])
LINES = st.one_of(
    st.builds(lambda v, a, b: f"/{v} {a} {b}", st.sampled_from(["choose", "pass", "action",
                                                                "CHOOSE", "whisper"]),
              NAMES, NAMES),
    st.builds(lambda a, c: f"/choose {a} as {c}", NAMES, NAMES),
    st.text(max_size=80),
    st.sampled_from(["[quote]\n/choose Alex\n[/quote]", "`/choose Alex`", "> /pass",
                     "/choose " + "Alex, " * 300, "/action " + "x" * 5000]),
)
SETUP = botf_setup()
NIGHT = advance(GameState.from_setup(SETUP), START).state
PEOPLE = st.lists(st.sampled_from([n.lower() for n in SEVEN]), max_size=3).map(
    lambda others: tuple(sorted({"modbot", "nightingale", *others})))


@given(st.sampled_from(list(SEVEN)), st.lists(LINES, max_size=8).map("\n".join), PEOPLE,
       st.integers(min_value=0, max_value=47))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hostile_pms_never_crash_and_change_only_private_state(author, raw, people, hours):
    at = START + timedelta(hours=hours)
    before = advance(NIGHT, at).state
    participants = tuple(sorted(set(people) | {author.lower()}))
    outcome = handle_pm(before, Post(7, author, at, raw), participants)
    after = outcome.state
    assert after.seats == before.seats and after.phase == before.phase
    assert after.today == before.today and after.grimoire == before.grimoire
    assert all(type(e).__name__ in ("NightChoiceMade", "WhisperPmCounted", "WhisperPmFlagged")
               for e in outcome.events)

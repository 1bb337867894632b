"""A day whose end makes the game look over starts no night (issue 42): the `!execute`
preview says the game then looks over, the day's last post says the night waits for the
Storytellers and announces no night, and the Storytellers decide: `!phase next` begins the
night (its own post), `!win` ends the game."""

import re
from datetime import timedelta

from ..conversation import DAWN1, NIGHT1_LOCK, START, Conversation, botf_setup, to

H = timedelta(hours=1)


def _day_one_executing_the_demon():
    talk = Conversation(botf_setup())  # Fatima is the No Dashii, the only Demon
    talk.tick(START)
    talk.tick(NIGHT1_LOCK)
    talk.dawn()
    at = DAWN1 + 13 * H
    preview = talk.st("!execute Fatima", at)
    said = talk.st("!execute Fatima --yes", at + H)
    return talk, preview, said, at + H


def test_the_execution_that_ends_the_game_holds_the_night_for_the_storytellers():
    talk, preview, said, _ = _day_one_executing_the_demon()
    assert "the game then looks over (Loyal would win): no night begins until you decide" in \
        to(preview, "pmtopic")[0]
    thread = to(said, "topic")
    day_end = next(raw for raw in thread if "## Day 1 is over" in raw)
    assert "**Fatima** was executed." in day_end
    assert "The night does not begin yet" in day_end and "Night 2 begins" not in day_end
    assert not any("Night 2" in raw for raw in thread)
    notes = " ".join(to(said, "pm:storytellers") + to(said, "pmtopic"))
    assert "`!win Loyal" in notes and "`!phase next` begins night 2" in notes
    assert talk.state.night_held and talk.state.winner is None
    later = talk.tick(talk.state.phase_ends_at + 48 * H)  # no clock runs: nothing happens
    assert not to(later, "topic") and talk.state.night_held


def test_the_storytellers_go_on_and_the_night_begins_with_its_post():
    talk, _, _, at = _day_one_executing_the_demon()
    said = talk.st("!phase next", at + H)
    night = next(raw for raw in to(said, "topic") if "## Night 2 begins" in raw)
    assert "Night actions lock [date=" in night
    assert not talk.state.night_held and talk.state.phase.value == "night"
    assert talk.state.cycle == 2


def test_the_storytellers_confirm_the_win_and_no_night_ever_begins():
    """`!win` takes the script's words for the teams (BotF: Loyal) as well as good or evil."""
    talk, _, _, at = _day_one_executing_the_demon()
    refused = talk.st("!win Town the Demon was executed --yes", at + H)
    assert '"town" is not a team: say Loyal or Cultist (or good or evil)' in \
        " ".join(to(refused, "pmtopic")) and talk.state.winner is None
    said = talk.st("!win Loyal the Demon was executed --yes", at + H)
    assert talk.state.winner == "good"
    assert not any("Night 2" in raw for raw in to(said, "topic"))


def test_status_after_the_win_says_the_game_is_over_and_times_in_words():
    """Issue 56: once `!win` ends the game, `!status` (and `game status`, the same report)
    says the game is over, shows no phase or deadline that no longer applies, and writes the
    day's end in words, never as ISO text."""
    talk, _, _, at = _day_one_executing_the_demon()
    talk.st("!win Loyal the Demon was executed --yes", at + H)
    assert talk.state.winner is not None
    said = talk.st("!status", at + 2 * H)
    (status,) = [raw for raw in to(said, "pmtopic") + to(said, "pm:storytellers")
                 if "The whole game so far" in raw]
    assert "the game is over" in status and "Night 2" not in status
    assert "phase ends" not in status
    assert re.search(r"Day 1 ended \w{3} \d\d \w{3} \d\d:\d\d UTC: Fatima was executed", status)
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:", status)  # no ISO time anywhere

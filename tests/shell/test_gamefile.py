"""Game files: valid ones load; invalid ones name the key and the line."""

from datetime import UTC, datetime

import pytest

from modbot.core.state.model import Profile
from modbot.files.gamefile import GameFileError, load_game, parse_game, with_topic_id

HEADER = """[game]
name = "BotF 1"
topic_id = 1234
storytellers = ["nightingale"]
first_night_starts = "2026-12-01T18:00:00Z"
"""


def seats(*names, extra=""):
    return "".join(f'\n[[seat]]\nplayer = "{n}"\n' for n in names) + extra


FIVE = seats("Alex", "Brianna", "Cameron", "Derek", "Ellen")


def test_valid_file_with_defaults():
    setup = parse_game(HEADER + FIVE)
    assert setup.name == "BotF 1" and setup.topic_id == 1234
    assert setup.profile is Profile.BOTF
    assert setup.first_night_starts == datetime(2026, 12, 1, 18, tzinfo=UTC)
    assert setup.lengths.voting == 24 and setup.lengths.night_action_lock == 2
    assert [s.name for s in setup.seats] == ["Alex", "Brianna", "Cameron", "Derek", "Ellen"]


def test_topic_id_may_be_left_out_and_game_new_writes_it():
    assert parse_game(HEADER.replace("topic_id = 1234\n", "") + FIVE).topic_id is None
    with pytest.raises(GameFileError, match="leave it out until `modbot game new` writes it"):
        parse_game(HEADER.replace("topic_id = 1234", "topic_id = 0") + FIVE)
    written = with_topic_id("# a comment\n" + HEADER.replace("topic_id = 1234\n", "") + FIVE, 77)
    assert parse_game(written).topic_id == 77 and written.startswith("# a comment\n[game]\n")


def test_a_storyteller_or_the_bot_cannot_hold_a_seat():
    """Issue 25: their thread posts are commands (or the bot's own), so the seat's votes
    would be dropped; setup, check and run all load the file, and all refuse it."""
    with pytest.raises(GameFileError, match=r"seat 3 \(Nightingale\) is a Storyteller"):
        parse_game(HEADER + seats("Alex", "Brianna", "Nightingale", "Derek", "Ellen"))
    with pytest.raises(GameFileError, match=r"seat 1 \(modbot\) is the bot's account"):
        parse_game(HEADER + seats("modbot", "Brianna", "Cameron", "Derek", "Ellen"))


def test_overrides_seat_flags_and_aliases():
    text = HEADER + 'rules = "official"\nvoting = 36\n' + seats(
        "Alex", "Brianna", "Cameron", "Derek",
        extra='\n[[seat]]\nplayer = "Ellen"\naliases = ["Elle"]\ndead = true\n'
              'ghost_vote = false\n\n[[seat]]\nplayer = "Tim"\ntraveller = true\n'
              '\n[aliases]\nAl = "Alex"\n')
    setup = parse_game(text)
    assert setup.profile is Profile.OFFICIAL and setup.lengths.voting == 36
    ellen = setup.seats[4]
    assert (ellen.alive, ellen.ghost_vote, ellen.aliases) == (False, False, ("Elle",))
    assert setup.seats[5].traveller
    assert setup.roster.resolve("al") == "Alex"


def test_toml_datetime_value_is_accepted():
    text = HEADER.replace('"2026-12-01T18:00:00Z"', "2026-12-01T18:00:00Z") + FIVE
    assert parse_game(text).first_night_starts.tzinfo is not None


@pytest.mark.parametrize("text, expected", [
    (HEADER + seats("Alex", "Brianna", "Cameron", "Derek"),
     "game.toml: 4 seats that are not travellers; a game needs at least 5"),
    (HEADER + seats("Alex", "Brianna", "Cameron", "Derek", "alex"),
     "game.toml:19: seat 5 (alex): name 'alex' is already used by seat 1 (Alex)"),
    (HEADER + FIVE + '\n[aliases]\nAl = "Alexander"\n',
     "game.toml:23: aliases.Al: unknown player 'Alexander'"),
    (HEADER.replace("2026-12-01T18:00:00Z", "tomorrow") + FIVE,
     "game.toml:5: game.first_night_starts: 'tomorrow' is not a timestamp"),
    (HEADER.replace("2026-12-01T18:00:00Z", "2026-12-01T18:00:00") + FIVE,
     "game.toml:5: game.first_night_starts: needs a time zone"),
    (HEADER + 'rules = "tb"\n' + FIVE, "game.toml:6: game.rules: 'tb' is not a rules profile"),
    (HEADER + "votng = 12\n" + FIVE, "game.toml:6: game.votng: unknown key"),
    (HEADER + "voting = -1\n" + FIVE, "game.toml:6: game.voting: hours, a number >= 0"),
    (HEADER + "whispers_per_day = -3\n" + FIVE, "game.toml:6: game.whispers_per_day: a whole"),
    (HEADER + seats("Alex", "Brianna", "Cameron", "Derek",
                    extra='\n[[seat]]\nplayer = "Ellen"\naliases = ["Bri", "Brianna"]\n'),
     "game.toml:19: seat 5 (Ellen): name 'Brianna' is already used by seat 2 (Brianna)"),
    (HEADER + seats("Alex", "Brianna", "Cameron", "Derek", extra='\n[[seat]]\ndead = true\n'),
     "game.toml:19: seat 5: 'player' is required"),
    (HEADER + seats("Alex", "Brianna", "Cameron", "Derek",
                    extra='\n[[seat]]\nplayer = "Ellen"\ndead = "yes"\n'),
     "game.toml:21: seat 5 (Ellen): dead must be true or false"),
    (HEADER.replace('name = "BotF 1"\n', "") + FIVE, "game.toml:1: game.name: required"),
    ("[game\n", "game.toml: not valid TOML"),
    ('name = "x"\n', "game.toml: unknown section(s): name"),
    (HEADER, "game.toml: no [[seat]] entries"),
])
def test_invalid_files_name_the_key_and_line(text, expected):
    with pytest.raises(GameFileError) as info:
        parse_game(text, "game.toml")
    assert str(info.value).startswith(expected), str(info.value)


def test_bundled_files_load(tmp_path):
    from modbot.cli.rehearsal import DEMO_GAME
    assert len(load_game(DEMO_GAME).seats) == 7
    assert len(load_game("config/example-game.toml").seats) >= 5


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(GameFileError, match="cannot read"):
        load_game(tmp_path / "nope.toml")


def test_a_seat_may_carry_set_up_reminders_the_fortune_tellers_red_herring():
    marked = seats("Alex", "Brianna", "Cameron", "Derek",
                   extra='\n[[seat]]\nplayer = "Ellen"\nreminders = ["red herring"]\n')
    setup = parse_game(HEADER + marked)
    assert dict(setup.grimoire)["Ellen"].reminders == ("red herring",)
    with pytest.raises(GameFileError, match=r"seat 5 \(Ellen\): reminders is a list of short"):
        parse_game(HEADER + marked.replace('["red herring"]', '"red herring"'))

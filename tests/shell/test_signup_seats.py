"""`game new --from-signups` refuses a name that is no forum user (app/starting/signups.py), and the
game file's sign-up keys are checked with one line (files/signupfile.py)."""

import pytest

from modbot.adapters.forum import NotFound
from modbot.app.starting.signups import seats_from_signups
from modbot.core import Signups
from modbot.files.gamefile import GameFileError
from modbot.files.signupfile import load_signups, with_seats


def test_the_seats_are_the_sign_up_posts_own_ids_never_a_look_up_by_name():
    with pytest.raises(NotFound, match="Brianna signed up in posts that carry no user id"):
        seats_from_signups(Signups(players=("Alex", "Brianna")), {"Alex": 3}, None)
    seats, order = seats_from_signups(Signups(players=("Alex", "Bri")), {"Alex": 3, "Bri": 4},
                                      None)
    assert seats == [("Alex", 3), ("Bri", 4)] and order == "in sign-up order"


def test_the_seats_written_load_as_a_game(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text('[game]\nname = "G"\nstorytellers = ["st"]\n'
                    'first_night_starts = "2026-12-10T18:00:00Z"\nsignup_topic_id = 9\n')
    assert not load_signups(path).seated
    names = ["Alex", "Bri", "Cam", "Dee", "Eve"]
    path.write_text(with_seats(path.read_text(), [(n, i) for i, n in enumerate(names, 1)],
                               [('Zed "Z"', 26)], "in sign-up order"))
    from modbot.files.gamefile import load_game
    setup = load_game(path)
    assert [s.name for s in setup.seats] == names and setup.backups == ('Zed "Z"',)
    assert dict(setup.user_ids)["Eve"] == 5 and load_signups(path).seated
    assert dict(setup.user_ids)['Zed "Z"'] == 26  # the backup, by id too


@pytest.mark.parametrize("line, message", [
    ("players_max = 3", "game.players_max: 5 to 20 players"),
    ('signups_close = "soon"', "game.signups_close: a timestamp"),
    ("signup_topic_id = -1", "game.signup_topic_id: a positive whole number"),
])
def test_sign_up_keys_are_checked(tmp_path, line, message):
    path = tmp_path / "game.toml"
    path.write_text(f'[game]\nname = "G"\n{line}\n')
    with pytest.raises(GameFileError, match=message):
        load_signups(path)

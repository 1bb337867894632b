"""The reveal fits Discourse's posts (issue 27): a big game's worst parts (twenty players, each
post's share of nights and days full of choices, long results and every vote), rendered with
the real templates, each stay under the 32,000 characters Discourse accepts."""

from datetime import UTC, datetime, timedelta

from modbot.adapters.outbox import MAX_RAW
from modbot.app.posting.render import render_notice
from modbot.core import Notice
from modbot.core.reveal import DAYS_A_POST, NIGHTS_A_POST, packed
from modbot.core.wording import free, say

AT = datetime(2026, 12, 1, 18, tzinfo=UTC)
PLAYERS = [f"Player{n:02d}" for n in range(1, 21)]
LONG = free("x" * 280)  # a long Storytellers' result, as a free text


def _night(number: int) -> dict:
    return {"number": number, "deaths": PLAYERS[:2], "approved_by": "st", "approved_at": AT,
            "choices": [{"player": p, "character": "Fortune Teller", "for": None,
                         "choice": say("choice.players", players=(PLAYERS[0], PLAYERS[1])),
                         "post_number": 3, "at": AT} for p in PLAYERS],
            "learned": [{"player": p, "said": LONG} for p in PLAYERS],
            "told": [{"player": p, "said": LONG} for p in PLAYERS[:5]],
            "effects": [{"player": p, "field": "poisoned", "value": True,
                         "why": say("by.poisoner")} for p in PLAYERS[:3]]}


def _day(number: int) -> dict:
    votes = [{"player": p, "vote": "yes", "cast": "yes", "post_number": 1234,
              "locked_at": AT, "ghost_vote_spent": False} for p in PLAYERS]
    return {"number": number, "started_at": AT, "ended_at": AT + timedelta(hours=48),
            "executed": PLAYERS[0], "deaths": [{"player": PLAYERS[0], "cause": "execution"}],
            "nominations": [{"kind": "execution", "nominator": p, "nominee": PLAYERS[-1],
                             "post_number": 999, "at": AT, "closed_at": AT, "threshold": 10,
                             "yes": 20, "votes": votes} for p in PLAYERS[:8]]}


def test_a_big_games_parts_each_fit_a_post():
    """Ten nights and ten days of a twenty-player game, packed as the reveal packs them."""
    game = {"name": "A long game", "topic_id": 12345}
    history = [{"day": d, "kind": "execution", "nominee": PLAYERS[-1], "vote": "yes",
                "post_number": 1234, "locked_at": AT} for d in range(1, 11) for _ in range(8)]
    parts = [Notice("thread", "reveal_nights", "k", {"nights": part, "game": game})
             for part in packed([_night(n) for n in range(1, 11)], NIGHTS_A_POST)]
    parts += [Notice("thread", "reveal_timeline", "k", {"days": part, "game": game})
              for part in packed([_day(n) for n in range(1, 11)], DAYS_A_POST)]
    parts += [Notice("thread", "reveal_votes", "k", {"votes": part, "game": game})
              for part in packed([{"player": p, "votes": history} for p in PLAYERS], 20)]
    sizes = [(n.template, len(render_notice(n))) for n in parts]
    assert all(size < MAX_RAW for _, size in sizes), sizes
    assert max(size for _, size in sizes) > MAX_RAW / 4  # big parts: the bound is tested
    assert len(parts) > 3  # long nights took more posts than four to a post

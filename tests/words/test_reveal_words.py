"""The reveal's grimoire in game terms: each change after the deal a sentence ("Ben was
cursed: nominating on day 1 would kill them"), never a field name and an arrow, and the
alignments in the script's own words (BotF: Loyal, Cultist)."""

from datetime import UTC, datetime

from modbot.app.posting.render import render_notice
from modbot.core import Notice

AT = datetime(2026, 12, 2, 18, tzinfo=UTC)


def _seat(n: int, player: str, character: str, alignment: str) -> dict:
    entry = {"character": character, "thinks": None, "alignment": alignment, "evil_team": None}
    return {"seat": n, "player": player, "traveller": False, "alive": True,
            "dealt": entry, "final": entry}


def _change(player: str, field: str, before, after, why=None) -> dict:
    return {"player": player, "field": field, "before": before, "after": after, "at": AT,
            "phase": "night", "cycle": 1, "by": "rules", "cause": None, "why": why}


def test_the_changes_after_the_deal_read_as_sentences_in_the_scripts_words():
    record = {"game": {"name": "BotF 9", "topic_id": 9,
                       "terms": {"good": "Loyal", "evil": "Cultist"}},
              "winner": None, "bluffs": [], "seal": None,
              "seats": [_seat(1, "Ben", "Witch", "evil"), _seat(2, "Ann", "Chef", "good")],
              "changes": [_change("Ben", "cursed_day", None, 1),
                          _change("Ben", "reminders", [], ["twin"]),
                          _change("Ann", "alignment", "good", "evil"),
                          _change("Ann", "poisoned", False, True),
                          _change("Ann", "character", "Chef", "Imp")]}
    text = render_notice(Notice("thread", "reveal_grimoire", "k", {"record": record}))
    assert "**Ben** was cursed: nominating on day 1 would kill them" in text
    assert "**Ben**'s reminders became: twin" in text
    assert "**Ann** turned Cultist (was Loyal)" in text
    assert "**Ann** became poisoned" in text
    assert "**Ann** became the Imp (was the Chef)" in text
    assert "| 1 | Ben | Witch | Cultist | Witch, Cultist |" in text
    assert "→" not in text and "cursed_day" not in text and " evil" not in text

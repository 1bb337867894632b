"""Words that match the game (issue 26): the script's team words (BotF: Loyal, Cultist) in
the end and `!status`, the bot's own account in the opening post, the game's name in the
Storytellers' conversation, the day a Cerenovus's madness is due, the Sweetheart's prompt in
the sheet's words, and a Storyteller's command echoed as written."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from modbot.app.games.runtime import GameRuntime
from modbot.app.posting.catalogue import words
from modbot.app.posting.reactions import WELCOME, GameOptions, Reactor
from modbot.app.starting.opening import opening_post
from modbot.core import parse_commands
from modbot.core.state.names import Roster
from modbot.core.wording import say

from ..conversation import DAWN1, NIGHT1_LOCK, botf_setup, day_one, night_sheet, seven
from ..helpers import START
from ..notices import Told, of


def test_the_game_over_post_names_the_winning_team_in_the_scripts_words():
    told = Told(botf_setup())
    told.tick(START)
    ended = told.st("!win good the Demon is dead --yes", START + timedelta(hours=1))
    over = of(ended, "game_over")[0]
    assert (over.view["winner"], over.view["team"]) == ("good", "Loyal")


def test_the_opening_post_names_the_bots_own_account():
    setup = dataclasses.replace(botf_setup(), bot_username="clocktower_bot")
    post = opening_post(setup)
    assert "@clocktower_bot counts the votes" in post and "modbot counts" not in post


def test_the_conversations_carry_the_games_name_not_its_topic():
    reactor = Reactor(GameOptions(12, "g12", name="Ravenswood 3"))
    note = reactor.note_to_storytellers(("nightingale",), "k", "x")
    assert note.title == "Ravenswood 3: notes for the Storytellers"
    assert reactor.pm("Ann", "k", "x").title == "Ann's grimoire: Ravenswood 3"
    unnamed = Reactor(GameOptions(12, "g12")).pm("Ann", "k", "x").title
    assert unnamed == "Ann's grimoire: the game in topic 12"


def test_the_rebuild_knows_a_games_conversations_by_their_titles():
    """After a lost database, the bot's PM list is searched for the game's conversations by
    title (rebuild.py): the titles it makes now, whoever the player, and those it made before
    they named the game; not another game's."""
    from modbot.app.posting.reactions import title_forms
    forms = title_forms("Ravenswood 3", 12)

    def matches(title: str) -> bool:
        return any(title.startswith(a) and title.endswith(b) for a, b in forms)

    assert matches("Ann's grimoire: Ravenswood 3") and matches("Zoë's grimoire: Ravenswood 3")
    assert matches("Ravenswood 3: notes for the Storytellers")
    assert matches("Ann's grimoire (game 12)")
    assert not matches("Ann's grimoire: Ravenswood 4") and not matches("Ann's grimoire (game 1)")


def test_a_cerenovus_madness_is_told_for_the_day_it_is_due():
    setup = seven("cerenovus", "clockmaker", "imp", "dreamer", "oracle", "seamstress", "chef")
    told = Told(setup)
    told.tick(START)
    told.pm("Alex", "/choose Brianna as Chef", START + timedelta(hours=1))
    told.tick(NIGHT1_LOCK)
    missing = told.state.night.missing_results()
    told.st("".join(f"!result {p} none\n" for p in missing) + "!approve",
            NIGHT1_LOCK + timedelta(hours=1))
    dawn = told.tick(DAWN1)
    lines = [line for n in of(dawn, "night_results") if n.player == "Brianna"
             for line in n.view["lines"]]
    madness = [line for line in lines if getattr(line, "code", "") == "tell.cerenovus"]
    assert [dict(m.params)["day"] for m in madness] == [1]


def test_a_storytellers_command_is_echoed_as_written():
    roster = Roster(("_mireille", "Alex", "Brianna", "Cameron", "Derek"))
    lines = [c.line for c in parse_commands("!dies mireille_\n**!kill _mireille**", roster)]
    assert lines == ["!dies mireille_", "!kill _mireille"]


def test_the_sweetheart_prompt_says_malfunctions_in_the_scripts_words():
    text = words(say("st.sweetheart", player="Alex", term="drunk or poisoned"))
    assert "malfunctions (drunk or poisoned)" in text and "!drunk PLAYER" in text


def test_the_games_first_reaction_opens_the_storytellers_conversation_once():
    runtime = GameRuntime(botf_setup(), GameOptions(1, "g1", storytellers=("nightingale",),
                                                    name="test"), 1)
    first = runtime.on_tick(START).outgoing
    welcome = [o for o in first if o.key == "g1:" + WELCOME]
    assert [(o.thread, o.title) for o in welcome] == [
        ("g1:pm:storytellers", "test: notes for the Storytellers")]
    assert "`!status`" in welcome[0].raw
    later = runtime.on_tick(START + timedelta(hours=1)).outgoing
    assert all(o.key != "g1:" + WELCOME for o in later)


def test_whoever_changes_at_dawn_is_told_their_new_ability_and_commands():
    """Issue 25: the Snake Charmer who chose the Demon is now the Imp: its grimoire PM says
    so with the Imp's ability and how to choose a kill, as a role PM does (without the deal's
    team list or bluffs); the old Demon, now the Snake Charmer, is told its new role too."""
    setup = seven("snakecharmer", "empath", "soldier", "poisoner", "imp", "monk", "pixie")
    _, _, talk = night_sheet(setup, choices=(("Alex", "/choose Ellen"),))
    said = talk.dawn()
    alex = [s.raw for s in said if s.thread == "pm:alex" and "Your character now" in s.raw]
    assert len(alex) == 1 and "You are now the **Imp** (demon), on the **evil** team" in alex[0]
    assert "/choose NAME" in alex[0] and "bluffs" not in alex[0]
    ellen = [s.raw for s in said if s.thread == "pm:ellen" and "Your character now" in s.raw]
    assert len(ellen) == 1 and "**Snake Charmer**" in ellen[0]


def test_the_night_sheet_reads_its_answers_in_words():
    """The information rules are asserted as codes (test_information.py); here, once, the
    words a Storyteller reads for them: sober, malfunctioning, and under the Vortox."""
    chef = seven("chef", "librarian", "empath", "poisoner", "imp", "noble", "pixie")
    entries, _, _ = night_sheet(chef)
    assert entries["Alex"].suggestion == "There is 1 pair of evil players sitting together."
    entries, _, _ = night_sheet(chef, changes=("!poison Alex",))
    assert entries["Alex"].suggestion == ("ST decides (drunk or poisoned); true answer: There is "
                                          "1 pair of evil players sitting together.")
    vortox = seven("chef", "librarian", "empath", "poisoner", "vortox", "noble", "pixie")
    entries, _, _ = night_sheet(vortox)
    assert entries["Alex"].suggestion == (
        "false under the Vortox: There are 0 pairs of evil players sitting together. "
        "(true: There is 1 pair of evil players sitting together.)")


def test_a_prod_the_quiet_list_and_a_count_asked_too_soon_in_words():
    talk, dawn = day_one(dataclasses.replace(seven("chef", "empath", "soldier", "poisoner",
                                                   "imp", "monk", "pixie"),
                                             prod_hours=4, backups=("Zed",)))
    talk.thread("Alex", "Morning.", dawn + timedelta(hours=1))
    said = talk.tick(dawn + timedelta(hours=4))
    (prod,) = [s.raw for s in said if s.thread == "pm:brianna"]
    assert prod.startswith("## The town has not heard from you")
    assert "for 4 hours of day" in prod and "your last post" not in prod
    said = talk.st("!prods", dawn + timedelta(hours=4, minutes=30))
    (listed,) = [s.raw for s in said]  # the table alone: no "Done" before it (issue 42)
    assert "Who is quiet" in listed
    assert "| Alex | 3 |  |" in listed and "| Brianna | 4 | prodded |" in listed
    assert "`!sub PLAYER Zed`" in listed
    talk.thread("Alex", "/vc", dawn + timedelta(hours=6))
    said = talk.thread("Brianna", "/vc", dawn + timedelta(hours=6, minutes=2))
    (answer,) = [s.raw for s in said if s.thread == "pm:brianna"]
    assert f"the next can be asked for from {(dawn + timedelta(hours=6, minutes=10)):%H:%M} UTC" in answer


def test_the_night_sheet_says_when_dawn_is_due_as_a_forum_date():
    """The Storytellers read times as people write them: the sheet's dawn is a [date] tag
    (each reader's own time), never a Python or ISO time."""
    import re

    from ..conversation import START, Conversation, to
    talk = Conversation(botf_setup())
    talk.tick(START)
    said = talk.tick(NIGHT1_LOCK)
    sheet = next(raw for raw in to(said, "pm:storytellers") if "`!approve`" in raw)
    assert re.search(r'Dawn is due \[date=\d{4}-\d\d-\d\d time=\d\d:\d\d:\d\d timezone="UTC"\]',
                     sheet)
    assert not re.search(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d", sheet.replace("[date=", ""))

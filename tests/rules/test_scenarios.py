"""One scenario per character of the four scripts, named after it (`test_scenario[imp]`),
and a check that the list matches the script data, so none is forgotten (issue 7).

Each scenario deals a seven-player game with the character at stake, drives it through PMs,
thread posts and the Storytellers' commands, and checks what the core owes, as codes and
values (tests/notices.py): the night sheet's suggestion, the proposed deaths and effects, the
grimoire, the role PM, or a refusal. Where an ability is not modelled yet (see the README's
known limitations), the scenario pins what the bot does today: it names the character's rule
(the script data's `st` text) on the night sheet as the Storytellers' decision."""

from dataclasses import replace
from datetime import timedelta

import pytest

from modbot.core.state.model import Seat
from modbot.files.scripts import catalogue, catalogue_script

from ..conversation import botf_setup
from ..helpers import START
from ..notices import (
    Told,
    day_one,
    effects,
    failed,
    for_storytellers,
    night_sheet,
    public,
    says,
)
from ..notices import (
    roles as dealt_roles,
)

ALL = catalogue_script()  # every character modbot implements, in the catalogue's order
SEATS = ("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus")
BASE = ["chef", "empath", "soldier", "poisoner", "imp", "monk", "pixie"]
H = timedelta(hours=1)


def game(alex="chef", *, derek="poisoner", ellen="imp", gus="pixie", travellers=(), **kw):
    characters = [alex, "empath", "soldier", derek, ellen, "monk", gus]
    names = dict(zip(SEATS, characters, strict=False))
    spare = [c.id for c in ALL.characters if c.is_good and c.id not in characters]
    kw.setdefault("bluffs", tuple(spare[:3]))
    setup = botf_setup(names, script=ALL, **kw)
    if travellers:
        seats = tuple(replace(s, traveller=s.name in travellers) for s in setup.seats)
        setup = replace(setup, seats=seats)
    return setup


def suggestion(setup, player="Alex", **kw):
    entries, _, _ = night_sheet(setup, **kw)
    return entries[player].suggestion


def role(setup, player: str = "Alex") -> dict:
    """`player`'s role PM's view at the deal."""
    return dealt_roles(Told(setup).tick(START))[player]


def _sheet(character, code, params=None, night=1, choices=(), player="Alex", **kw):
    """The sheet's suggestion for `player` holds `code` (with `params`), at any depth."""
    def check():
        said = suggestion(game(character, **kw), player, night=night, choices=choices)
        assert says(said, code, **(params or {})), said
    return check


def _effects(character, expected, night=2, choices=(), **kw):
    """The night proposes `expected`: (player, field, value, the cause's code)."""
    def check():
        _, night_state, _ = night_sheet(game(character, **kw), night=night, choices=choices)
        assert expected in effects(night_state)
    return check


def _deaths(character, expected, night=2, choices=(), **kw):
    def check():
        _, night_state, _ = night_sheet(game(character, **kw), night=night, choices=choices)
        assert night_state.deaths == expected
    return check


def _role(character, expected):
    """The role PM shows the character's ability (the script's own text)."""
    def check():
        assert expected in role(game(character))["ability"]
    return check


def _fabled(character):
    def check():
        talk = Told(game())
        talk.st(f"!character Alex {ALL.find(character).name}", START - H)
        assert failed(talk) == ["rejection.fabled_not_dealt"]
        assert ALL.find(character).team == "fabled" and ALL.find(character).spec.st
    return check


def _traveller(character):
    def check():
        setup = game(gus=character, travellers=("Gus",))
        entries, _, _ = night_sheet(setup, night=2)
        if character in ALL.other_night:  # wakes, or resolves a day choice, at night
            assert says(entries["Gus"].suggestion, "sheet.st_decides",
                        what=ALL.find(character).spec.st)
        else:
            assert "Gus" not in entries and ALL.find(character).spec.st
    return check


def _won(told: list, reason: str, winner: str) -> bool:
    """Whether the Storytellers were told the game looks won by `winner`, for `reason`."""
    return any(n.view["winner"] == winner and n.view["reason"].code == reason
               for n in for_storytellers(told, "win_detected"))


def _hostess():
    """Without a day choice nothing happens; with one, the chosen character is proposed."""
    setup = game(gus="hostess", travellers=("Gus",))
    entries, _, _ = night_sheet(setup, night=2)
    assert entries["Gus"].suggestion.code == "info.hostess_none"

    def choose(talk, at):
        talk.pm("Gus", "/choose Brianna", at)
        return at
    _, night, _ = night_sheet(setup, night=2, day=choose)
    assert says(night.result_of("Gus"), "result.is_the", player="Brianna", character="Empath")


def _klutz():
    talk, day = day_one(game("klutz"))
    talk.st("!kill Alex --yes", day + H)
    assert _won(talk.thread("Alex", "/choose Derek", day + 2 * H), "win.klutz", "evil")


def _moonchild():
    talk, day = day_one(game("moonchild"))
    talk.st("!execute Alex --yes", day + H)
    talk.thread("Alex", "/choose Brianna", day + 2 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert talk.state.night.deaths == ("Brianna",)


def _damsel():
    talk, day = day_one(game("damsel"))
    assert _won(talk.thread("Derek", "/guess Alex as Damsel", day + H), "win.damsel", "evil")


def _golem():
    talk, day = day_one(game("golem"))
    talk.tick(day + timedelta(hours=12))
    talk.thread("Alex", "/nominate Brianna", day + timedelta(hours=13))
    assert not talk.state.seat("Brianna").alive


def _scarlet_woman():
    talk, day = day_one(game(gus="scarletwoman"))
    talk.st("!execute Ellen --yes", day + H)
    assert talk.state.grimoire_of("Gus").character == "imp"


def _witch():
    _, _night, talk = night_sheet(game(derek="witch"), night=2,
                                  choices=(("Derek", "/choose Alex"),))
    talk.approve(talk.state.phase_ends_at - H)
    talk.tick(talk.state.phase_ends_at + timedelta(hours=12))
    talk.thread("Alex", "/nominate Brianna", talk.state.phase_ends_at - H)
    assert not talk.state.seat("Alex").alive


def _mezepheles():
    talk = Told(game(derek="mezepheles"))
    talk.tick(START)
    talk.tick(START + timedelta(hours=22))
    talk.st("!result Derek pineapple", START + timedelta(hours=22, minutes=5))
    talk.approve(START + timedelta(hours=23))
    talk.tick(START + timedelta(hours=24))
    talk.thread("Alex", "pineapple", START + timedelta(hours=25))
    talk.st("!endday --yes", START + timedelta(hours=26))
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert any(p == "Alex" and says(t, "tell.now_alignment", alignment="evil")
               for p, t in talk.state.night.tells)


def _fearmonger():
    talk = Told(game(derek="fearmonger"))
    talk.tick(START)
    talk.pm("Derek", "/choose Alex", START + H)
    talk.tick(START + timedelta(hours=22))
    talk.approve(START + timedelta(hours=23))
    said = talk.tick(START + timedelta(hours=24))
    assert [n.template for n in public(said)] == ["fear_announced", "phase_discussion"]


def _juggler():
    talk, day = day_one(game("juggler"))
    talk.thread("Alex", "/guess Ellen as Imp\n/guess Brianna as Chef", day + H)
    talk.st("!endday --yes", day + 2 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    entry = next(e for e in talk.state.night.sheet if e.player == "Alex")
    assert says(entry.suggestion, "result.juggler", value="1")


def _marionette():
    setup = game("marionette", thinks={"Alex": "chef"}, gus="empath")
    alex = role(setup)
    assert (alex["character"], alex["team"]) == ("Chef", "townsfolk")
    assert dict(setup.grimoire)["Alex"].thinks == "chef"


def _lil_monsta():
    """No player holds Lil' Monsta (game.lil_monsta); the Minions' majority babysits it."""
    setup = game("chef", ellen="librarian", gus="witch", lil_monsta=True, bluffs=())
    choices = (("Derek", "/babysit Gus"), ("Gus", "/babysit Gus"))
    assert says(suggestion(setup, "lilmonsta", choices=choices), "sheet.babysits", player="Gus")


def _shugenja():
    """The Shugenja (seat 1), the Imp three seats back: the nearest evil, anticlockwise; with
    the Poisoner three seats on as well, a tie the Storytellers settle."""
    _sheet("shugenja", "result.shugenja", {"value": "anticlockwise"}, derek="chef")()
    _sheet("shugenja", "info.shugenja_tie")()


SCENARIOS = {
    # -- Townsfolk ---------------------------------------------------------------------------
    "chef": _sheet("chef", "result.chef", {"value": "1"}),
    "shugenja": _shugenja,
    "librarian": _sheet("librarian", "result.librarian_none"),
    "noble": _sheet("noble", "result.noble", {"players": ("Brianna", "Cameron", "Derek")}),
    "pixie": _sheet("pixie", "result.pixie", {"character": "Empath"}),
    "snakecharmer": _effects("snakecharmer", ("Alex", "character", "imp", "by.snake_charmer"),
                             night=1, choices=(("Alex", "/choose Ellen"),)),
    "empath": _sheet("empath", "result.empath", {"value": "0"}, player="Brianna"),
    "monk": _deaths("monk", (), choices=(("Fatima", "/choose Alex"), ("Ellen", "/choose Alex"))),
    "towncrier": _sheet("towncrier", "result.towncrier", {"value": "no"}, night=2),
    "undertaker": _sheet("undertaker", "info.undertaker_none", night=2),
    "savant": _role("savant", "learn 2 things in private: 1 is true & 1 is false"),
    "artist": _role("artist", "privately ask the Storyteller any yes/no question"),
    "soldier": _deaths("soldier", (), choices=(("Ellen", "/choose Cameron"),)),
    "huntsman": lambda: _huntsman(),
    "clockmaker": _sheet("clockmaker", "result.clockmaker", {"value": "1"}),
    "dreamer": _sheet("dreamer", "info.dreamer", {"player": "Ellen", "character": "Imp"},
                      choices=(("Alex", "/choose Ellen"),)),
    "mathematician": _sheet("mathematician", "info.mathematician"),
    "flowergirl": _sheet("flowergirl", "result.flowergirl", {"value": "no"}, night=2),
    "oracle": _sheet("oracle", "result.oracle", {"value": "0"}, night=2),
    "seamstress": _sheet("seamstress", "result.seamstress",
                         {"first": "Brianna", "second": "Ellen", "value": "no"},
                         choices=(("Alex", "/choose Brianna Ellen"),)),
    "philosopher": _effects("philosopher", ("Alex", "ability_of", "empath", "by.philosopher"),
                            night=1, choices=(("Alex", "/choose Empath"),)),
    "juggler": _juggler,
    "sage": _sheet("sage", "info.sage", night=2, choices=(("Ellen", "/choose Alex"),)),
    "chambermaid": _sheet("chambermaid", "result.chambermaid",
                          {"first": "Brianna", "second": "Fatima", "value": "1"},
                          choices=(("Alex", "/choose Brianna Fatima"),)),
    "innkeeper": _deaths("innkeeper", (), choices=(("Alex", "/choose Brianna Cameron"),
                                                   ("Ellen", "/choose Brianna"))),
    "gambler": _deaths("gambler", ("Alex",), choices=(("Alex", "/choose Ellen as Pukka"),)),
    "cannibal": lambda: _cannibal(),
    # -- Outsiders ---------------------------------------------------------------------------
    "damsel": _damsel,
    "drunk": lambda: _drunk(),
    "mutant": _role("mutant", "If you are \"mad\" about being an Outsider"),
    "lunatic": _sheet("lunatic", "sheet.lunatic_demon_info", thinks={"Alex": "imp"}),
    "sweetheart": lambda: _sweetheart(),
    "barber": _effects("barber", ("Brianna", "character", "soldier", "by.barber"),
                       choices=(("Ellen", "/choose Alex"), ("Ellen", "/swap Brianna Cameron"))),
    "klutz": _klutz,
    "goon": lambda: _goon(),
    "acrobat": lambda: _acrobat(),
    "puzzlemaster": _role("puzzlemaster", "1 player is drunk, even if you die."),
    "golem": _golem,
    "moonchild": _moonchild,
    # -- Minions -----------------------------------------------------------------------------
    "widow": _effects("chef", ("Alex", "poisoned", True, "by.widow"), night=1, derek="widow",
                      choices=(("Derek", "/choose Alex"),)),
    "poisoner": _effects("chef", ("Alex", "poisoned", True, "by.poisoner"),
                         choices=(("Derek", "/choose Alex"),)),
    "witch": _witch,
    "boomdandy": lambda: _boomdandy(),
    "doppelganger": lambda: _doppelganger(),
    "cerenovus": _sheet("chef", "info.cerenovus", {"player": "Alex", "character": "Oracle"},
                        derek="cerenovus", player="Derek",
                        choices=(("Derek", "/choose Alex as Oracle"),)),
    "pithag": _effects("chef", ("Alex", "character", "noble", "by.pit_hag"), derek="pithag",
                       choices=(("Derek", "/choose Alex as Noble"),)),
    "godfather": _sheet("chef", "result.godfather", {"value": "none"}, derek="godfather",
                        player="Derek"),
    "devilsadvocate": lambda: _devils_advocate(),
    "fearmonger": _fearmonger,
    "psychopath": lambda: _psychopath(),
    "assassin": _deaths("chef", ("Cameron",), derek="assassin",
                        choices=(("Derek", "/choose Cameron"),)),
    "mezepheles": _mezepheles,
    "scarletwoman": _scarlet_woman,
    "marionette": _marionette,
    # -- Demons ------------------------------------------------------------------------------
    "imp": _effects("chef", ("Derek", "character", "imp", "by.star_pass"),
                    choices=(("Ellen", "/choose Ellen"),)),
    "nodashii": _deaths("chef", (), ellen="nodashii",  # the Soldier beside it stays sober
                        choices=(("Ellen", "/choose Cameron"),)),  # (the almanac): it is safe
    "vortox": _sheet("chef", "sheet.vortox", ellen="vortox"),
    "lilmonsta": lambda: _lil_monsta(),
    "fanggu": _deaths("chef", ("Ellen",), ellen="fanggu", gus="mutant",
                      choices=(("Ellen", "/choose Gus"),)),
    "vigormortis": _effects("chef", ("Derek", "reminders", ("keeps its ability",), "by.vigormortis"),
                            ellen="vigormortis", choices=(("Ellen", "/choose Derek"),)),
    "pukka": _effects("chef", ("Alex", "poisoned", True, "by.pukka"), night=1, ellen="pukka",
                      choices=(("Ellen", "/choose Alex"),)),
    "lleech": _effects("chef", ("Alex", "poisoned", True, "by.lleech"), night=1, ellen="lleech",
                       choices=(("Ellen", "/choose Alex"),)),
    # -- Travellers and Fabled ---------------------------------------------------------------
    "barista": _traveller("barista"), "hostess": lambda: _hostess(),
    "butcher": _traveller("butcher"), "bonecollector": lambda: _bone_collector(),
    "deviant": _traveller("deviant"),
    "djinn": _fabled("djinn"), "fiddler": _fabled("fiddler"),
    "hellslibrarian": lambda: _hells_librarian(), "revolutionary": _fabled("revolutionary"),
    "fibbin": _fabled("fibbin"),
}


def _acrobat():
    setup = game("acrobat", gus="pixie")  # Gus (Pixie) sits beside Alex
    _, night, _ = night_sheet(setup, night=2, changes=("!poison Gus",))
    assert night.deaths == ("Alex",)
    _, night, _ = night_sheet(setup, night=2)
    assert night.deaths == ()


def _huntsman():
    _, night, _talk = night_sheet(game("huntsman", gus="damsel"),
                                 choices=(("Alex", "/choose Gus"),))
    (effect,) = night.effects
    assert effect.player == "Gus" and effect.field == "character"
    assert ALL.get(effect.value).team == "townsfolk"


def _devils_advocate():
    _, _night, talk = night_sheet(game(derek="devilsadvocate"),
                                 choices=(("Derek", "/choose Alex"),))
    talk.approve(START + timedelta(hours=23))
    talk.tick(START + timedelta(hours=24))
    talk.st("!execute Alex --yes", START + timedelta(hours=30))
    assert talk.state.seat("Alex").alive and talk.state.past_days[-1].executed == "Alex"


def _sweetheart():
    talk, day = day_one(game("sweetheart"))
    said = talk.st("!execute Alex --yes", day + H)
    assert says(for_storytellers(said, "st_note"), "st.sweetheart", player="Alex")


def _goon():
    # The Poisoner (step 1) chooses the Goon before the Imp: the Poisoner is drunk tonight,
    # so its poison fails, and the Goon turns evil.
    _, night, _ = night_sheet(game("goon"), night=2, choices=(
        ("Derek", "/choose Alex"), ("Ellen", "/choose Alex")))
    assert effects(night)[:2] == [("Derek", "drunk", True, "by.chose_goon"),
                                  ("Alex", "alignment", "evil", "by.goon")]
    assert not any(e.field == "poisoned" for e in night.effects)


def _cannibal():
    talk, day = day_one(game("cannibal"))
    talk.st("!execute Brianna --yes", day + H)  # the Empath, good
    assert talk.state.grimoire_of("Alex").ability_of == "empath"
    talk.tick(talk.state.phase_ends_at - 2 * H)
    assert any(e.player == "Alex" and e.character == "Empath" for e in talk.state.night.sheet)


def _bone_collector():
    setup = game(gus="bonecollector", travellers=("Gus",), dead=("Brianna",))
    talk, day = day_one(setup)
    talk.pm("Gus", "/choose Brianna", day + H)
    talk.st("!endday --yes", day + 2 * H)
    talk.tick(talk.state.phase_ends_at - 2 * H)
    brianna = next(e for e in talk.state.night.sheet if e.player == "Brianna")
    assert says(brianna.suggestion, "result.empath")  # the dead Empath acts tonight


def _doppelganger():
    assert says(suggestion(game(derek="doppelganger"), "Derek"), "info.doppelganger")
    talk, day = day_one(game(derek="doppelganger"))
    talk.st("!reminder Alex twin", day + H)
    said = talk.st("!execute Alex --yes", day + 2 * H)
    assert _won(said, "win.twin_executed", "evil")


def _hells_librarian():
    _fabled("hellslibrarian")()
    talk, day = day_one(replace(game(), fabled=("hellslibrarian",)))
    said = talk.thread("nightingale", "Quiet please.\n!silence on", day + H)
    assert [(n.template, n.view) for n in public(said)] == [("silence", {"on": True})]
    said = talk.thread("Brianna", "Sorry, just one thing.", day + 2 * H)
    assert says(for_storytellers(said), "st.spoke_in_silence", player="Brianna")
    talk.thread("nightingale", "Thank you.\n!silence off", day + 3 * H)
    assert for_storytellers(talk.thread("Brianna", "Now I can talk.", day + 4 * H)) == []


def _boomdandy():
    """Seed 000, Boomdandy: "If the Boomdandy is executed, declare that the Boomdandy has
    exploded. ... When you have completed the circle, three players will be alive, including
    the Demon. Then, count down from ten." and "Your countdown should be longer than ten seconds,
    and as slow, dramatic, or erratic as
    you like!" (a ten-minute pointing vote in the thread)"""
    talk, day = day_one(game(derek="boomdandy"))
    said = talk.st("!execute Derek --yes", day + H)
    assert says(for_storytellers(said), "st.boomdandy", player="Derek")
    said = talk.st("!boom Alex Ellen Fatima", day + 2 * H)
    (boom,) = [n for n in public(said) if n.template == "boom"]
    assert boom.view["dead"] == ["Brianna", "Cameron", "Gus"]
    assert boom.view["survivors"] == ("Alex", "Ellen", "Fatima")
    talk.thread("Gus", "/point Brianna", day + 2 * H + timedelta(minutes=1))
    (refused,) = talk.rejected  # only the three who live are pointed at
    assert refused.code == "not_pointing" and refused.params["players"] == ("Alex", "Ellen", "Fatima")
    # seed 000: "Even dead players who have no vote token may point": Gus and Cameron tip it
    talk.thread("Alex", "/point Fatima", day + 2 * H + timedelta(minutes=2))
    talk.thread("Fatima", "/point Alex", day + 2 * H + timedelta(minutes=3))
    talk.thread("Gus", "/point Ellen", day + 2 * H + timedelta(minutes=4))
    talk.thread("Cameron", "/point Ellen", day + 2 * H + timedelta(minutes=5))
    said = talk.tick(day + 2 * H + timedelta(minutes=11))
    (ended,) = [n for n in public(said) if n.template == "boom"]
    assert ended.view["victim"] == "Ellen" and ended.view["ended"]
    assert {"player": "Ellen", "alive": False} in [n.view for n in public(said)]
    assert _won(said, "win.demons_dead", "good")  # Ellen was the Imp


def _drunk():
    alex = role(game("drunk", thinks={"Alex": "noble"}))
    assert (alex["character"], alex["team"]) == ("Noble", "townsfolk")
    entries, _, _ = night_sheet(game("drunk", thinks={"Alex": "noble"}))
    assert says(entries["Alex"].status, "status.is_really", character="Drunk")
    assert entries["Alex"].suggestion.code == "sheet.malfunctioning"


def _psychopath():
    talk, day = day_one(game(derek="psychopath"))
    talk.thread("Derek", "/choose Alex", day + H)
    assert not talk.state.seat("Alex").alive


def test_every_character_the_bot_automates_has_a_scenario():
    """The Storyteller-run ones have theirs in test_storyteller_run.py, Trouble Brewing's in
    test_trouble_brewing.py, test_registration.py and test_tb_travellers.py, Bad Moon Rising's
    beyond the seeds' in test_bad_moon_rising.py, test_bmr_travellers.py and test_bmr_days.py."""
    from .test_bad_moon_rising import BMR_SCENARIOS
    from .test_bmr_days import BMR_DAYS
    from .test_bmr_fabled import BMR_FABLED
    from .test_bmr_travellers import BMR_TRAVELLERS
    from .test_registration import TB_REGISTRATION
    from .test_tb_travellers import TB_TRAVELLERS
    from .test_trouble_brewing import TB_SCENARIOS

    automated = {i for i, record in catalogue().items() if record.get("run") != "storytellers"}
    assert set(SCENARIOS) | set(TB_SCENARIOS) | set(TB_REGISTRATION) | set(TB_TRAVELLERS) | \
        set(BMR_SCENARIOS) | set(BMR_TRAVELLERS) | set(BMR_DAYS) | set(BMR_FABLED) == automated


@pytest.mark.parametrize("character", sorted(SCENARIOS))
def test_scenario(character):
    SCENARIOS[character]()


def test_seat_names():
    assert Seat("Alex").alive and tuple(s.name for s in game().seats) == SEATS

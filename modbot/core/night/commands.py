"""Theory of operation: the Storytellers' commands for the private side of the game.

`!setup` checks the grimoire against the set-up rules; `!start` deals (each player gets
their character by PM) and, before the game, starts night 1
now; `!thinks` and `!bluffs` complete the grimoire; during a night, `!result`, `!dies`,
`!spare`, `!nodeath`, `!tell` and `!effect N off` edit the night sheet, `!sheet` sends it again and `!approve`
lets dawn come (at its time, or now if it is late). `FEATURE` hands the commands,
their rules and events to the registry, and replaces two core rules (`!character` checks
names against the script; `!phase next` waits for the night's approval).
Character names are checked against the game's script (`!character`, `!thinks`, `!mad` too).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from ..characters import fabled
from ..characters.lleech_host import lleech_survives
from ..deciding.rules import reject
from ..deciding.staff import grimoire_rule, next_phase_rule
from ..reading.command_forms import Command
from ..reading.commands import _name, _no_arguments, _one_name
from ..reading.numbers import whole_number
from ..setup.composition import problems
from ..setup.dice import Dice
from ..setup.proposing import propose
from ..state.actions import Context
from ..state.events import Event
from ..state.feature import Feature, unchanged
from ..state.model import GameState, GrimoireEntry, Phase, iso
from ..state.names import Roster
from ..state.private_events import AnswerSent, CharactersDealt, NightApproved, NightSheetEdited, night_of
from ..state.rejection import Refused, Rejection
from ..state.slots import Slot
from ..state.staff_actions import StGrimoire, StNextPhase
from ..state.staff_events import GrimoireChanged, PhaseExtended
from ..wording import Say, say
from .choices import lock_at
from .flow import deal_problems

SILENCE: Slot[datetime | None] = Slot("hells_librarian", None)  # silence called by the STs since


@dataclass(frozen=True, slots=True)
class StStart:
    pass


@dataclass(frozen=True, slots=True)
class StAnswer:
    player: str
    text: str


@dataclass(frozen=True, slots=True)
class StSheetEdit:
    field: str  # result | dies | spare | nodeath | tell
    player: str | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class StApprove:
    pass


@dataclass(frozen=True, slots=True)
class StSheet:
    pass


@dataclass(frozen=True, slots=True)
class StSetupCheck:
    mode: str = "check"  # check | propose | accept


@dataclass(frozen=True, slots=True)
class SetupProposed:
    """A random legal set-up, drawn with dice seeded by the asking post, for the STs."""

    grimoire: tuple[tuple[str, GrimoireEntry], ...]  # (player, GrimoireEntry)
    bluffs: tuple[str, ...]
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class SetupAccepted:
    grimoire: tuple[tuple[str, GrimoireEntry], ...]
    bluffs: tuple[str, ...]
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class SetupChecked:
    """The Storytellers asked whether the grimoire is a legal set-up."""

    problems: tuple[Say, ...]
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class StSilence:
    on: bool


@dataclass(frozen=True, slots=True)
class SilenceCalled:
    """Hell's Librarian: the Storytellers call for silence (or end it), in the thread."""

    on: bool
    by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class SpokeInSilence:
    player: str
    post_number: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class SheetRequested:
    by: str
    at: datetime


# -- parsing ----------------------------------------------------------------------------------

def _text(words: list[str]) -> str:
    return " ".join(words).strip().strip('"“”').strip()


def _result(words: list[str], roster: Roster) -> StSheetEdit:
    name, rest = _name(words, roster)
    if not rest:
        raise Refused("result_text")
    text = _text(rest)
    return StSheetEdit("result", name, "" if text.lower() == "none" else text)


def _tell(words: list[str], roster: Roster) -> StSheetEdit:
    name, rest = _name(words, roster)
    if not _text(rest):
        raise Refused("tell_text")
    return StSheetEdit("tell", name, _text(rest))


def _answer(words: list[str], roster: Roster) -> StAnswer:
    name, rest = _name(words, roster)
    if not _text(rest):
        raise Refused("answer_text")
    return StAnswer(name, _text(rest))


def _player_edit(field: str) -> Callable[[list[str], Roster], StSheetEdit]:
    def build(words: list[str], roster: Roster) -> StSheetEdit:
        return StSheetEdit(field, _one_name(words, roster))
    return build


def _setup_words(words: list[str], _roster: Roster) -> StSetupCheck:
    mode = words[0].lower() if words else "check"
    if len(words) > 1 or mode not in ("check", "propose", "accept"):
        raise Refused("setup_form")
    return StSetupCheck(mode)


def _effect_off(words: list[str], _roster: Roster) -> StSheetEdit:
    if len(words) != 2 or whole_number(words[0]) is None or words[1].lower() != "off":
        raise Refused("effect_form")
    return StSheetEdit("noeffect", None, words[0])


def _silence(words: list[str], _roster: Roster) -> StSilence:
    if [w.lower() for w in words] not in (["on"], ["off"]):
        raise Refused("silence_form")
    return StSilence(words[0].lower() == "on")


def _thinks(words: list[str], roster: Roster) -> StGrimoire:
    name, rest = _name(words, roster)
    if not rest:
        raise Refused("character_missing")
    return StGrimoire(name, "thinks", " ".join(rest))


_NEW_COMMANDS = [
    Command("setup", "!setup [propose|accept]", say("help.setup"), "!setup propose", _setup_words),
    Command("start", "!start", say("help.start"), "!start", _no_arguments(StStart())),
    Command("thinks", "!thinks PLAYER CHARACTER", say("help.thinks"), "!thinks Alex Oracle", _thinks),
    Command("result", "!result PLAYER TEXT", say("help.result"), "!result Alex 1", _result),
    Command("dies", "!dies PLAYER", say("help.dies"),
            "!dies Derek", _player_edit("dies")),
    Command("spare", "!spare PLAYER", say("help.spare"), "!spare Derek",
            _player_edit("spare")),
    Command("nodeath", "!nodeath", say("help.nodeath"), "!nodeath",
            _no_arguments(StSheetEdit("nodeath"))),
    Command("tell", "!tell PLAYER \"TEXT\"", say("help.tell"),
            "!tell Ellen \"You are mad about being the Sage\"", _tell),
    Command("effect", "!effect N off", say("help.effect"), "!effect 1 off", _effect_off),
    Command("silence", "!silence on|off", say("help.silence"), "!silence on",
            _silence),
    Command("sheet", "!sheet", say("help.sheet"), "!sheet", _no_arguments(StSheet())),
    Command("approve", "!approve", say("help.approve"), "!approve", _no_arguments(StApprove())),
    Command("answer", "!answer PLAYER TEXT", say("help.answer"), "!answer Alex Yes, it is.", _answer),
]


# -- rules ------------------------------------------------------------------------------------

def _start(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    if state.dealt:
        return reject(ctx, "already_dealt")
    if state.setup.script is None:
        return reject(ctx, "no_script")
    problems = deal_problems(state)
    if problems:
        return reject(ctx, "cannot_deal", problems=problems)
    events: tuple[Event, ...] = (CharactersDealt(ctx.author, ctx.at),)
    if state.phase is Phase.PREGAME:
        events += (PhaseExtended(state.phase, state.cycle, ctx.at, ctx.at),)
    return events


def _setup_check(state: GameState, action: StSetupCheck, ctx: Context) -> Sequence[Event] | Rejection:
    script = state.setup.script
    if script is None:
        return reject(ctx, "no_script")
    if action.mode != "check" and state.dealt:
        return reject(ctx, "already_dealt")
    if action.mode == "propose":
        dice = Dice(f"{state.setup.topic_id}:{ctx.post_number}:{iso(ctx.at)}")
        grimoire, bluffs = propose(script, state.seats, dice,
                                   lil_monsta=state.setup.lil_monsta)
        return (SetupProposed(tuple(grimoire.items()), bluffs, ctx.author, ctx.at),)
    if action.mode == "accept":
        if state.proposed_setup is None:
            return reject(ctx, "nothing_proposed")
        proposed, bluffs = state.proposed_setup
        return (SetupAccepted(proposed, bluffs, ctx.author, ctx.at),)
    found = problems(script, state.seats, dict(state.grimoire), state.bluffs,
                     lil_monsta=state.setup.lil_monsta, fabled=state.setup.fabled)
    return (SetupChecked(tuple(found), ctx.author, ctx.at),)


def _silence_rule(state: GameState, action: StSilence, ctx: Context) -> Sequence[Event] | Rejection:
    if not fabled.silence_may_be_called(state):
        return reject(ctx, "no_hells_librarian")
    return (SilenceCalled(action.on, ctx.author, ctx.at),)


def _night_open(state: GameState, ctx: Context) -> Rejection | None:
    if not state.dealt or state.phase is not Phase.NIGHT:
        return reject(ctx, "not_in_night", phase=state.phase_said)
    return None


def _sheet_edit(state: GameState, action: StSheetEdit, ctx: Context) -> Sequence[Event] | Rejection:
    refused = _night_open(state, ctx)
    if refused is not None:
        return refused
    if action.field == "dies" and action.player is not None and \
            not state.seat(action.player).alive:
        return reject(ctx, "player_dead", nominee=action.player)
    if action.field == "dies" and action.player is not None and \
            lleech_survives(state, action.player):
        return reject(ctx, "lleech_lives", player=action.player)
    effects = night_of(state, state.cycle).effects
    if action.field == "noeffect" and not 1 <= (whole_number(action.text or "") or 0) <= len(effects):
        return reject(ctx, "no_such_effect", number=action.text, count=len(effects))
    return (NightSheetEdited(state.cycle, action.field, action.player, action.text,
                             ctx.author, ctx.at),)


def _approve(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    refused = _night_open(state, ctx)
    if refused is not None:
        return refused
    night = night_of(state, state.cycle)
    if not night.locked:
        return reject(ctx, "sheet_not_ready", deadline=lock_at(state))
    if night.missing_results():
        return reject(ctx, "results_missing", players=tuple(night.missing_results()))
    return (NightApproved(state.cycle, ctx.author, ctx.at),)


def _answer_rule(state: GameState, action: StAnswer, ctx: Context) -> Sequence[Event] | Rejection:
    """The Storytellers' private answer (an ability used by day): to the player's grimoire PM."""
    if not state.is_seated(action.player):
        return reject(ctx, "unknown_player", text=action.player)
    return (AnswerSent(action.player, action.text, ctx.author, ctx.at),)


def _sheet(state: GameState, _action: object, ctx: Context) -> Sequence[Event] | Rejection:
    refused = _night_open(state, ctx)
    if refused is not None:
        return refused
    if not night_of(state, state.cycle).locked:
        return reject(ctx, "sheet_not_ready", deadline=lock_at(state))
    return (SheetRequested(ctx.author, ctx.at),)


def _grimoire_checked(state: GameState, action: StGrimoire, ctx: Context) -> Sequence[Event] | Rejection:
    """With a script, character names must be on it and are stored as ids."""
    script = state.setup.script
    if script is not None and action.field in ("character", "thinks", "mad_as", "ability_of"):
        found = script.find(str(action.value))
        if found is None:
            return reject(ctx, "unknown_character_st", text=action.value)
        if found.team == "fabled" and action.field == "character":
            return reject(ctx, "fabled_not_dealt", name=found.name)
        action = StGrimoire(action.player, action.field, found.id)
    return grimoire_rule(state, action, ctx)


def _next_phase_checked(state: GameState, action: StNextPhase, ctx: Context) -> Sequence[Event] | Rejection:
    night = night_of(state, state.cycle)
    if state.dealt and state.phase is Phase.NIGHT and night.approved_by is None and \
            not state.night_held:  # a held night has not begun: `!phase next` begins it
        return reject(ctx, "approve_first")
    return next_phase_rule(state, action, ctx)


def _setup_proposed(state: GameState, e: SetupProposed) -> GameState:
    return state.evolve(proposed_setup=(e.grimoire, e.bluffs))


def _setup_accepted(state: GameState, e: SetupAccepted) -> GameState:
    dealt = dict(e.grimoire)
    kept = tuple((p, g) for p, g in state.grimoire if p not in dealt)  # travellers
    return state.evolve(grimoire=kept + e.grimoire, bluffs=e.bluffs, proposed_setup=None)


def _silence_called(state: GameState, e: SilenceCalled) -> GameState:
    return SILENCE.put(state, e.at if e.on else None)


def silence_broken(state: GameState, author: str, post_number: int | None, at: datetime) -> tuple[Event, ...]:
    """A player's thread post while the Storytellers called for silence."""
    since = SILENCE.of(state)
    if since is None or not state.is_seated(author) or at < since:
        return ()
    return (SpokeInSilence(author, post_number, at),)


FEATURE = Feature(
    "night commands",
    appliers={SheetRequested: unchanged, SetupChecked: unchanged, SetupProposed: _setup_proposed,
              SetupAccepted: _setup_accepted, SilenceCalled: _silence_called,
              SpokeInSilence: unchanged},
    staff_rules={StSilence: _silence_rule, StSetupCheck: _setup_check, StStart: _start,
                 StSheetEdit: _sheet_edit, StApprove: _approve, StSheet: _sheet,
                 StAnswer: _answer_rule},
    # With a script, !character and its kin check names against it; no !phase next before
    # the night is approved.
    staff_overrides={StGrimoire: _grimoire_checked, StNextPhase: _next_phase_checked},
    commands=tuple(_NEW_COMMANDS),
    command_of={StSilence: "silence", StSetupCheck: "setup", StStart: "start",
                StSheetEdit: "result", StApprove: "approve", StSheet: "sheet", StAnswer: "answer"},
    slots=(SILENCE,),
)

__all__ = [
    "GrimoireChanged",
    "SetupAccepted",
    "SetupChecked",
    "SetupProposed",
    "SheetRequested",
    "SilenceCalled",
    "SpokeInSilence",
    "StApprove",
    "StSetupCheck",
    "StSheet",
    "StSheetEdit",
    "StStart",
    "silence_broken",
]

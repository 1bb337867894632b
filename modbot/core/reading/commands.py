"""Theory of operation: Storyteller command lines (`!kill Derek --yes`) into staff actions.

Each `Command` holds a command's usage, a one-line description, an example and its argument
parser; this module declares the core's commands, and other features declare theirs the same
way. The registry gathers them into one table, from which `command_line.py` parses posts and
`!help` is generated, so the help can never drift from what is accepted. An argument parser
raises `Refused` with what is wrong (a code of the catalogue's `command` table);
`command_line.py` answers the line with its `Rejection`.
"""

from __future__ import annotations

import re

from ..state.actions import NO, YES, VoteValue
from ..state.feature import Feature
from ..state.names import Ambiguous, Roster
from ..state.rejection import Refused
from ..state.staff_actions import (
    StAlias,
    StCancelNomination,
    StEndDay,
    StEndVoting,
    StExecute,
    StExile,
    StExtend,
    StGhostVote,
    StGrimoire,
    StKill,
    StLock,
    StNextPhase,
    StNominate,
    StPause,
    StResume,
    StRevive,
    StSeat,
    StSetVote,
    StSub,
    StUnlock,
    StVote,
    StVoteCount,
    StWin,
)
from ..wording import say
from .command_forms import (  # what a command line is (command_forms.py)
    Accept,
    Builder,
    Command,
    Confirm,
    Help,
    Log,
    Release,
    Status,
    Undo,
)
from .numbers import whole_number

_DURATION = re.compile(r"^(?:(\d{1,4})\s*d)?\s*(?:(\d{1,6})\s*h)?\s*(?:(\d{1,8})\s*m(?:in)?)?$",
                       re.I | re.ASCII)
LONGEST_EXTENSION = 366 * 24 * 60  # minutes: a phase is extended by a year at most
_VALUES = {"yes": YES, "execute": YES, "no": NO, "pardon": NO}




def _name(words: list[str], roster: Roster) -> tuple[str, list[str]]:
    """The longest run of leading words that names a player; the rest."""
    for count in range(len(words), 0, -1):
        exact = roster.resolve_exact(" ".join(words[:count]))
        if exact is not None:
            return exact, words[count:]
    if not words:
        raise Refused("name_missing")
    found = roster.resolve(words[0])
    if isinstance(found, str):
        return found, words[1:]
    if isinstance(found, Ambiguous):
        raise Refused("ambiguous", text=words[0], candidates=found.candidates)
    suggestions = getattr(found, "suggestions", ())
    raise Refused("unknown_player", text=words[0],
               suggest=say("hint.did_you_mean", names=suggestions) if suggestions else "")


def _one_name(words: list[str], roster: Roster) -> str:
    name, rest = _name(words, roster)
    if rest:
        raise Refused("unexpected", text=" ".join(rest))
    return name


def _kill(words: list[str], roster: Roster) -> StKill:
    name, rest = _name(words, roster)
    return StKill(name, " ".join(rest))


def _ghostvote(words: list[str], roster: Roster) -> StGhostVote:
    if not words or words[-1].lower() not in ("give", "take"):
        raise Refused("give_or_take")
    return StGhostVote(_one_name(words[:-1], roster), words[-1].lower() == "give")


def _nominate(words: list[str], roster: Roster) -> StNominate:
    nominator, rest = _name(words, roster)
    if not rest:  # one name: the Storyteller nominates it (the Bishop's rule)
        return StNominate(None, nominator)
    return StNominate(nominator, _one_name(rest, roster))


def _vote(words: list[str], roster: Roster) -> StVote:
    return StVote(*_voter_value_on(words, roster))


def _cancel(words: list[str], roster: Roster) -> StCancelNomination:
    if words and words[0].lower() == "nomination":
        words = words[1:]
    return StCancelNomination(_one_name(words, roster))


def _extend(words: list[str], _roster: Roster) -> StExtend:
    match = _DURATION.match("".join(words)) if words else None
    if not match or not any(match.groups()):
        raise Refused("duration")
    days, hours, minutes = (int(g or 0) for g in match.groups())
    total = days * 1440 + hours * 60 + minutes
    if total > LONGEST_EXTENSION:
        raise Refused("duration_long")
    return StExtend(total)


def _phase(words: list[str], _roster: Roster) -> StNextPhase:
    if [w.lower() for w in words] != ["next"]:
        raise Refused("phase_next")
    return StNextPhase()


def _no_arguments(action: object) -> Builder:
    def build(words: list[str], _roster: Roster) -> object:
        if words:
            raise Refused("unexpected", text=" ".join(words))
        return action
    return build


def _endvoting(words: list[str], _roster: Roster) -> StEndVoting:
    if not words:
        return StEndVoting()
    if words[0].lower() != "force":
        raise Refused("endvoting")
    return StEndVoting(True, " ".join(words[1:]))


def _log(words: list[str], _roster: Roster) -> Log:
    count = whole_number(words[0]) if len(words) == 1 else 20 if not words else None
    if count is None:
        raise Refused("log_count")
    return Log(min(count, 200))


def _grimoire_field(field: str, value_name: str | None = None,
                    choices: tuple[str, ...] | None = None) -> Builder:
    def build(words: list[str], roster: Roster) -> StGrimoire:
        name, rest = _name(words, roster)
        if value_name is None:
            by = None
            if rest and rest[0].lower() == "by" and len(rest) > 1:  # `!drunk X by Y`: Y's ability
                by, rest = _name(rest[1:], roster)
            if rest:
                raise Refused("unexpected", text=" ".join(rest))
            return StGrimoire(name, field, True, by)
        if not rest:
            raise Refused("value_missing", name=value_name)
        value = " ".join(rest)
        if choices and value.lower() not in choices:
            raise Refused("one_of", choices=" or ".join(choices))
        return StGrimoire(name, field, value.lower() if choices else value)
    return build


def _heal(words: list[str], roster: Roster) -> StGrimoire:
    return StGrimoire(_one_name(words, roster), "heal")


def _win(words: list[str], _roster: Roster) -> StWin:
    """`!win TEAM [reason]`: good or evil, or the script's words for them (checked against
    the script when the command is decided: staff.py)."""
    if not words:
        raise Refused("good_or_evil")
    return StWin(words[0].lower(), " ".join(words[1:]))


def _voter_on(words: list[str], roster: Roster, form: str = "voter_on") -> tuple[list[str], str]:
    """`VOTER… on NOMINEE`: the voter's words, and the nominee."""
    lowered = [w.lower() for w in words]
    if "on" not in lowered:
        raise Refused(form)
    split = lowered.index("on")
    return words[:split], _one_name(words[split + 1:], roster)


def _voter_value_on(words: list[str], roster: Roster) -> tuple[str, str, VoteValue]:
    """`VOTER yes|no on NOMINEE`."""
    voter_words, nominee = _voter_on(words, roster, "voter_value_on")
    if not voter_words or voter_words[-1].lower() not in _VALUES:
        raise Refused("yes_or_no")
    return _one_name(voter_words[:-1], roster), nominee, _VALUES[voter_words[-1].lower()]


def _setvote(words: list[str], roster: Roster) -> StSetVote:
    return StSetVote(*_voter_value_on(words, roster))


def _lock(words: list[str], roster: Roster) -> StLock:
    voter_words, nominee = _voter_on(words, roster)
    return StLock(_one_name(voter_words, roster), nominee)


def _unlock(words: list[str], roster: Roster) -> StUnlock:
    voter_words, nominee = _voter_on(words, roster)
    return StUnlock(_one_name(voter_words, roster), nominee)


def _alias(words: list[str], roster: Roster) -> StAlias:
    name, rest = _name(words, roster)
    if not rest:
        raise Refused("new_name_missing")
    return StAlias(name, " ".join(rest))


def _seat(words: list[str], roster: Roster) -> StSeat:
    order = []
    while words:
        name, words = _name(words, roster)
        order.append(name)
    return StSeat(tuple(order))


def _sub(words: list[str], roster: Roster) -> StSub:
    old, rest = _name(words, roster)
    if len(rest) != 1:
        raise Refused("sub_new_player")
    return StSub(old, rest[0].lstrip("@"))


def _undo(words: list[str], _roster: Roster) -> Undo:
    """`!undo #22` (or `22`): the thread's post #22; `!undo id:1234`: the forum's id of a post
    or PM (as `!log` shows a PM)."""
    value = words[0].lower() if len(words) == 1 else ""
    by_id = value.startswith("id:")
    number = whole_number(value.removeprefix("id:").lstrip("#"))
    if number is None:
        raise Refused("undo_number")
    return Undo(number, by_id)


def _accept(words: list[str], _roster: Roster) -> Accept:
    value = whole_number(words[0].lower().removeprefix("id:").lstrip("#")) if len(words) == 1 \
        else None
    if value is None:
        raise Refused("accept_id")
    return Accept(value)


def _release(discard: bool) -> Builder:
    def build(words: list[str], _roster: Roster) -> Release:
        value = words[0].lower().lstrip("#") if len(words) == 1 else ""
        number = whole_number(value.removeprefix("q"))
        if not value.startswith("q") or number is None:
            raise Refused("release_number")
        return Release(number, discard)
    return build


def _help(words: list[str], _roster: Roster) -> Help:
    return Help(words[0].lower().lstrip("!") if words else None)


BASE_COMMANDS: tuple[Command, ...] = (
    Command("kill", "!kill PLAYER [reason]", say("help.kill"),
            "!kill Derek demon kill", _kill),
    Command("revive", "!revive PLAYER", say("help.revive"), "!revive Derek",
            lambda w, r: StRevive(_one_name(w, r))),
    Command("ghostvote", "!ghostvote PLAYER give|take", say("help.ghostvote"), "!ghostvote Gus give", _ghostvote),
    Command("nominate", "!nominate [NOMINATOR] NOMINEE", say("help.nominate"), "!nominate Alex Derek", _nominate),
    Command("vote", "!vote VOTER yes|no on NOMINEE", say("help.vote"),
            "!vote Ellen yes on Derek", _vote),
    Command("cancel", "!cancel nomination NOMINEE", say("help.cancel"), "!cancel nomination Derek",
            _cancel),
    Command("extend", "!extend DURATION", say("help.extend"),
            "!extend 2h", _extend),
    Command("phase", "!phase next", say("help.phase"), "!phase next", _phase),
    Command("endday", "!endday", say("help.endday"), "!endday --yes", _no_arguments(StEndDay())),
    Command("endvoting", "!endvoting [force REASON]", say("help.endvoting"), "!endvoting", _endvoting),
    Command("execute", "!execute PLAYER", say("help.execute"), "!execute Derek --yes", lambda w, r: StExecute(_one_name(w, r))),
    Command("exile", "!exile TRAVELLER", say("help.exile"),
            "!exile Gus --yes", lambda w, r: StExile(_one_name(w, r))),
    Command("pause", "!pause", say("help.pause"), "!pause",
            _no_arguments(StPause())),
    Command("resume", "!resume", say("help.resume"),
            "!resume", _no_arguments(StResume())),
    Command("setvote", "!setvote VOTER yes|no on NOMINEE", say("help.setvote"), "!setvote Ellen no on Derek", _setvote),
    Command("lock", "!lock VOTER on NOMINEE", say("help.lock"), "!lock Fatima on Derek", _lock),
    Command("unlock", "!unlock VOTER on NOMINEE", say("help.unlock"), "!unlock Fatima on Derek", _unlock),
    Command("character", "!character PLAYER CHARACTER", say("help.character"), "!character Derek imp",
            _grimoire_field("character", "character")),
    Command("alignment", "!alignment PLAYER good|evil", say("help.alignment"), "!alignment Derek evil",
            _grimoire_field("alignment", "alignment", ("good", "evil"))),
    Command("poison", "!poison PLAYER [by CAUSE]", say("help.poison"), "!poison Alex",
            _grimoire_field("poisoned")),
    Command("drunk", "!drunk PLAYER [by CAUSE]", say("help.drunk"), "!drunk Alex by Gus",
            _grimoire_field("drunk")),
    Command("heal", "!heal PLAYER", say("help.heal"), "!heal Alex", _heal),
    Command("mad", "!mad PLAYER CHARACTER", say("help.mad"), "!mad Brianna mutant", _grimoire_field("mad_as", "character")),
    Command("ability", "!ability PLAYER CHARACTER", say("help.ability"), "!ability Gus chef",
            _grimoire_field("ability_of", "character")),
    Command("reminder", "!reminder PLAYER TEXT", say("help.reminder"),
            "!reminder Ellen protected by the monk", _grimoire_field("reminders", "text")),
    Command("sub", "!sub OLD NEW", say("help.sub"), "!sub Derek Dmitri --yes", _sub),
    Command("alias", "!alias PLAYER NAME", say("help.alias"),
            "!alias Brianna Bri", _alias),
    Command("seat", "!seat [PLAYER ...]", say("help.seat"), "!seat", _seat),
    Command("win", "!win good|evil [reason]", say("help.win"),
            "!win good the demon was executed --yes", _win),
    Command("vc", "!vc", say("help.vc"), "!vc", _no_arguments(StVoteCount())),
    Command("status", "!status", say("help.status"),
            "!status", _no_arguments(Status())),
    Command("undo", "!undo #N", say("help.undo"), "!undo #22", _undo),
    Command("accept", "!accept id:N", say("help.accept"), "!accept id:1234", _accept),
    Command("retry", "!retry qN", say("help.retry"), "!retry q1", _release(False)),
    Command("discard", "!discard qN", say("help.discard"), "!discard q1 --yes", _release(True)),
    Command("log", "!log [N]", say("help.log"), "!log 10", _log),
    Command("confirm", "!confirm", say("help.confirm"),
            "!confirm", _no_arguments(Confirm())),
    Command("help", "!help [COMMAND]", say("help.help"), "!help vote", _help),
)


BASE_COMMAND_OF = {  # the command that makes each action, for describing it
    StKill: "kill", StRevive: "revive", StGhostVote: "ghostvote", StNominate: "nominate",
    StVote: "vote", StCancelNomination: "cancel", StExtend: "extend", StNextPhase: "phase",
    StEndDay: "endday", StEndVoting: "endvoting", StVoteCount: "vc", StExecute: "execute",
    StExile: "exile", StPause: "pause", StResume: "resume", StSetVote: "setvote",
    StLock: "lock", StUnlock: "unlock", StGrimoire: "character", StWin: "win", StSub: "sub",
    StAlias: "alias", StSeat: "seat",
}


FEATURE = Feature("storyteller commands", commands=BASE_COMMANDS, command_of=BASE_COMMAND_OF)

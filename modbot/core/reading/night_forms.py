"""Theory of operation: the night grammar: a player's private message into night actions.

A player's PM to the bot is read line by line (quotes and code do not count): `/choose X`,
`/choose X Y`, `/choose X as CHARACTER`, `/choose CHARACTER`, any of them followed by
`if CHARACTER` (a contingency: the choice should the player gain that character tonight), `/pass`, `/action TEXT` for an
ability the Storyteller judges, and `/swap A B`, `/babysit X`, `/fiddle X` for another's
ability. Names resolve exactly as the thread's grammar resolves them (never guessing), and
characters against the game's script. A line that cannot be read is a `Rejection`, placed by
the caller (who sent it, when). What the actions do is the night's rules (night/choices.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..state.names import Ambiguous, Roster
from ..state.night_actions import HELP_VERBS, Choose, FreeAction, Help, NightAction, Pass
from ..state.rejection import Rejection
from ..state.script import Script
from ..wording import Say, say
from .textclean import countable_text

_COMMAND = re.compile(r"^[*_\s]*/(choose|pass|action|swap|babysit|fiddle)\b[*_]*\s*(.*)$", re.I)
_AS = re.compile(r"^(.*)\s+as\s+(.+)$", re.I)  # the last " as " splits players from a character
# `/choose X if Dreamer`, `/choose X if I become the Dreamer`: a contingency for a character
# the player may gain tonight
_IF = re.compile(r"^(.*?)\s+if\s+(?:i\s+(?:become|am)\s+)?(?:the\s+)?(.+?)[.!]?$", re.I)
_SEPARATORS = re.compile(r"\s*(?:,|&|\band\b|\s)\s*", re.I)


@dataclass(frozen=True, slots=True)
class PrivateParse:
    actions: tuple[NightAction, ...] = ()
    errors: tuple[Rejection, ...] = ()  # not yet placed: whose, when


def parse_private(raw: str, roster: Roster, script: Script | None) -> PrivateParse:
    actions: list[NightAction] = []
    errors: list[Rejection] = []
    for line in countable_text(raw).split("\n"):
        match = _COMMAND.match(line.strip())
        if not match:
            continue
        verb, rest = match.group(1).lower(), match.group(2).strip().strip("*_").strip()
        if verb == "pass":
            actions.append(Pass())
        elif verb in HELP_VERBS:
            parsed = _choose(rest, roster, None)
            if isinstance(parsed, Choose):
                actions.append(Help(verb, parsed.players))
            else:
                errors.append(parsed)
        elif verb == "action":
            if rest:
                actions.append(FreeAction(rest[:500]))
            else:
                errors.append(Rejection("empty_action", {"text": line}))
        else:
            parsed = _contingency(rest, roster, script)
            if isinstance(parsed, Choose):
                actions.append(parsed)
            else:
                errors.append(parsed)
    return PrivateParse(tuple(actions), tuple(errors))


def _contingency(text: str, roster: Roster, script: Script | None) -> Choose | Rejection:
    """`/choose …` with, after `if`, the character it is for should the player gain it."""
    split = _IF.match(text)
    if split is None:
        return _choose(text, roster, script)
    becomes = script.find(split.group(2)) if script else None
    if becomes is None:
        return Rejection("unknown_character", {"text": split.group(2)})
    parsed = _choose(split.group(1), roster, script)
    return replace(parsed, if_becomes=becomes.id) if isinstance(parsed, Choose) else parsed


def _choose(text: str, roster: Roster, script: Script | None) -> Choose | Rejection:
    character = None
    split = _AS.match(text)
    if split:
        found = script.find(split.group(2)) if script else None
        if found is None:
            return Rejection("unknown_character", {"text": split.group(2)})
        character, text = found.id, split.group(1)
    elif script is not None and roster.resolve_exact(text) is None and \
            (named := script.find(text)) is not None:
        return Choose((), named.id)
    players = []
    for token in (t for t in _SEPARATORS.split(text) if t):
        resolved = roster.resolve(token)
        if isinstance(resolved, str):
            players.append(resolved)
        elif isinstance(resolved, Ambiguous):
            candidates = tuple(resolved.candidates)
            return Rejection("ambiguous", {"text": token, "candidates": candidates})
        else:
            return Rejection("unknown_player", {"text": token, "suggest": suggestion(resolved)})
    return Choose(tuple(players), character)


def suggestion(unknown: object) -> Say | str:
    """" (did you mean A or B?)" for a name close to seated players' ones, else nothing."""
    found = getattr(unknown, "suggestions", ())
    return say("hint.did_you_mean", names=found) if found else ""


__all__ = ["PrivateParse", "parse_private", "suggestion"]

"""Theory of operation: what the bot will say, as a code and its parameters, never as words.

The core decides *what* to tell (a player's result, a sheet note, why an action was refused)
and records it as a `Say`: a message code and its parameters. The shell's catalogue
(`templates/messages.toml`) owns the words. So rewording a message never changes a decision,
an event or the audit's verdict, and no rule ever reads a message's text. Free text that a
person wrote (a Storyteller's `!result`, a reason given to `!win`) travels as `Say("free")`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Say:
    code: str  # a key of the catalogue, e.g. "result.empath"
    params: tuple[tuple[str, Any], ...] = ()

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)

    def but(self, **changes: Any) -> Say:
        """The same message with these parameters changed or added."""
        return say(self.code, **{**dict(self.params), **changes})


def say(code: str, **params: Any) -> Say:
    """A message; list parameters become tuples, so that every Say is hashable."""
    return Say(code, tuple((k, tuple(v) if isinstance(v, list) else v)
                           for k, v in sorted(params.items())))


def free(text: str) -> Say:
    """Words a person wrote, passed on as they are."""
    return Say("free", (("text", text),))

"""Theory of operation: turn what a player typed into a seated player's canonical name.

A `Roster` knows each seat's username and aliases. `resolve(text)` answers with exactly one
of: the canonical name, `Ambiguous(candidates)` or `Unknown(suggestions)`. It never guesses:
1. normalise (case-insensitive, `@` and surrounding punctuation and emphasis dropped);
2. exact username, then exact alias;
3. a substring of at least 3 characters that belongs to exactly one player (a name or alias).
A fragment found in several players is `Ambiguous`, whatever its length. Anything else is a
rejection that lists the candidates (or close spellings as suggestions).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

MIN_SUBSTRING = 3
_EDGE_JUNK = re.compile(r"^[\s@*_\"'“”‘’(\[{<]+|[\s*_\"'“”‘’)\]}>.,!?:;]+$")


def normalise(text: str) -> str:
    """Case-fold and drop `@`, quotes, emphasis and trailing punctuation around a name."""
    previous = None
    text = text.strip()
    while previous != text:
        previous = text
        text = _EDGE_JUNK.sub("", text)
    return " ".join(text.split()).casefold()


@dataclass(frozen=True, slots=True)
class Ambiguous:
    text: str
    candidates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Unknown:
    text: str
    suggestions: tuple[str, ...] = ()


Resolution = str | Ambiguous | Unknown


@dataclass(frozen=True)
class Roster:
    """Seated players (canonical names in seat order) and their aliases."""

    names: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...] = ()  # (alias, canonical name)
    _exact: dict[str, str] = field(init=False, repr=False, compare=False)
    _keys: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        exact: dict[str, str] = {}
        for alias, name in self.aliases:
            exact[normalise(alias)] = name
        for name in self.names:  # usernames win over aliases
            exact[normalise(name)] = name
        object.__setattr__(self, "_exact", exact)
        object.__setattr__(self, "_keys", tuple(exact.items()))

    def resolve(self, text: str) -> Resolution:
        key = normalise(text)
        if not key:
            return Unknown(text)
        found = self._exact.get(key)
        if found is not None:
            return found
        matches = sorted({name for k, name in self._keys if key in k}, key=self.names.index)
        if len(matches) == 1 and len(key) >= MIN_SUBSTRING:
            return matches[0]
        if len(matches) > 1:
            return Ambiguous(text, tuple(matches))
        if matches:  # a unique but too short fragment: suggest, never guess
            return Unknown(text, tuple(matches))
        close = difflib.get_close_matches(key, [k for k, _ in self._keys], n=3, cutoff=0.75)
        suggestions = tuple(dict.fromkeys(self._exact[k] for k in close))
        return Unknown(text, suggestions)

    def resolve_exact(self, text: str) -> str | None:
        """The canonical name if `text` is exactly a username or alias, else None."""
        return self._exact.get(normalise(text))

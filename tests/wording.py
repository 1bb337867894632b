"""What people read, for assertions: core values with every `Say` written out by the catalogue."""

import dataclasses

from modbot.app.posting.catalogue import words
from modbot.core import Say


def worded(value):
    """`value` (a Say, a dataclass, or tuples, lists and dicts of them) with every Say
    replaced by its words; other values stay as they are."""
    if isinstance(value, Say):
        return words(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: worded(getattr(value, f.name))
                                             for f in dataclasses.fields(value) if f.init})
    if isinstance(value, tuple):
        return tuple(worded(v) for v in value)
    if isinstance(value, list):
        return [worded(v) for v in value]
    if isinstance(value, dict):
        return {k: worded(v) for k, v in value.items()}
    return value


__all__ = ["worded", "words"]

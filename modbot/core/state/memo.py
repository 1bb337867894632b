"""Theory of operation: a pure function's last answer, kept while its inputs are the same objects.

The engine asks every timed rule when it is next due after each post, and most posts change
nothing such a rule reads. `last_answer(parts)` wraps a function of the game state: `parts(state)`
names the frozen values the function reads; while each is the very object of the previous call
(`is`, not `==`, so the check costs nothing), the previous answer is returned. Frozen values
never change and the memo holds them (an object seen again cannot be a new one at an old
address), so the answer is never stale and the function stays pure: same inputs, same answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

T = TypeVar("T")


def last_answer(parts: Callable[[Any], tuple[object, ...]]) -> Callable[[Callable[[Any], T]], Callable[[Any], T]]:
    """Decorate `fn(state)`: answer again from memory while `parts(state)` are the same objects."""
    def decorate(fn: Callable[[Any], T]) -> Callable[[Any], T]:
        memory: list[Any] = [None, None]  # [the parts last asked about, the answer]

        def remembered(state: Any) -> T:
            key = parts(state)
            last = memory[0]
            if last is not None and all(a is b for a, b in zip(key, last, strict=True)):
                return cast(T, memory[1])
            answer = fn(state)
            memory[0], memory[1] = key, answer
            return answer

        remembered.__doc__ = fn.__doc__
        remembered.__name__ = fn.__name__
        return remembered
    return decorate

"""Theory of operation: a seeded, deterministic random source for the core.

The core never rolls real dice: where the rules want a random draw (a proposed set-up), it
takes a source with `choice`, `sample` and `shuffle`. The shell may pass `random.Random`;
inside the game, commands use `Dice(seed)` seeded by the post that asked (game topic and post
number), so replaying the same posts draws the same set-up. SplitMix64, from a 64-bit FNV-1a
hash of the seed text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng(Protocol):
    """What a set-up draw needs of its randomness: these dice, or the shell's `random.Random`
    (`modbot setup --propose --seed N`)."""

    def choice(self, items: Sequence[T], /) -> T: ...

    def shuffle(self, items: list[Any], /) -> None: ...

    def sample(self, items: Sequence[T], k: int, /) -> list[T]: ...


class Dice:
    def __init__(self, seed: str) -> None:
        value = 0xCBF29CE484222325
        for byte in seed.encode("utf-8"):
            value = ((value ^ byte) * 0x100000001B3) & _MASK
        self.state = value

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in range(n), without modulo bias."""
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            value = self._next()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]


__all__ = ["Dice"]

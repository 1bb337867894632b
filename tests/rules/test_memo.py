"""`last_answer` (state/memo.py): the last answer again while the parts are the same objects."""

from dataclasses import dataclass

from modbot.core.state.memo import last_answer


@dataclass(frozen=True)
class _State:
    day: tuple
    other: int


def test_the_answer_is_remembered_while_the_parts_are_the_same_objects_only():
    asked: list = []

    @last_answer(lambda state: (state.day,))
    def size(state: _State) -> int:
        """How long the day is."""
        asked.append(state)
        return len(state.day)

    day = (1, 2, 3)
    assert size(_State(day, 1)) == 3 and size(_State(day, 2)) == 3  # `other` is not a part
    assert len(asked) == 1
    assert size(_State((1, 2, 3, 4), 1)) == 4  # a new day: asked again
    assert size(_State(tuple([1, 2, 3, 4]), 1)) == 4 and len(asked) == 3  # equal, not the same
    assert size.__doc__ == "How long the day is."

"""Vote values and nomination kinds are enums in the core (issue 39), stored as the same
strings as before: an event written to the store reads back as the enum, and an older row's
plain strings fold the same."""

import dataclasses
import json
from datetime import UTC, datetime

from modbot.app.games.event_codec import decode
from modbot.core import GameState
from modbot.core.state.actions import NO, YES, VoteValue
from modbot.core.state.events import VoteCast
from modbot.core.state.model import EXECUTION, EXILE, NominationKind

from ..conversation import botf_setup

AT = datetime(2026, 12, 3, 12, tzinfo=UTC)


def test_the_stored_values_are_the_strings_they_always_were():
    assert (YES, NO, EXECUTION, EXILE) == ("yes", "no", "execution", "exile")
    event = VoteCast(EXECUTION, "Derek", "Ellen", YES, 12, AT)
    stored = json.loads(json.dumps(dataclasses.asdict(event), default=str))
    assert stored["kind"] == "execution" and stored["value"] == "yes"
    back = decode("VoteCast", stored, GameState.from_setup(botf_setup()))
    assert back == event and isinstance(back.kind, NominationKind) and isinstance(back.value, VoteValue)
    assert f"open:{back.kind}:{back.nominee}" == "open:execution:Derek"  # keys unchanged

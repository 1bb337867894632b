"""Theory of operation: every character's rules, one record each, by character id.

What the rules know of a character beyond its catalogue record (data/characters.json) is its
`CharacterRules` (core/state/feature.py): what its step yields at night (`night`, an `Information`
from information.py or effects.py) and what its `/choose X` in the thread does
(`public_choice`, public_abilities.py), what events set off through it (`triggers`,
triggers.py, which asks them itself in its declared order) and when its player counts as
having woken (`woke`, waking.py). Each ability module declares the records of the
characters it implements (`CHARACTERS`); `RECORDS` merges them by id, so one character may take
its night from one module and its public choice from another, and a part declared twice is an
error. `compute` asks the acting character's record what its step yields tonight (the night
sheet's rows), and `FEATURE`'s rule answers `/choose X` from it. A character without a record
is run by the Storytellers from its night sheet row; one that learns something (its catalogue
action's `learns`: the official characters modbot does not automate yet) has its row ask
them for the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime

from ..deciding.rules import reject
from ..state.actions import Context, PublicChoice
from ..state.events import Event
from ..state.feature import CharacterRules, Feature, Notice, to_storytellers, unchanged
from ..state.grimoire import acting_character, character_id, true_character
from ..state.ids import LUNATIC
from ..state.model import GameState, iso
from ..state.night_model import Info, NightChoice
from ..state.registration import ASKING
from ..state.rejection import Rejection
from ..state.script import Character
from ..wording import say
from . import bad_moon_rising, effects, gossip, information, public_abilities, triggers, trouble_brewing, waking

PARTS = tuple(f.name for f in fields(CharacterRules) if f.name != "id")


def merged(*declared: Iterable[CharacterRules]) -> dict[str, CharacterRules]:
    """One record a character from the modules' declarations (a part declared twice fails)."""
    out: dict[str, CharacterRules] = {}
    for record in (r for records in declared for r in records):
        held = out.get(record.id, CharacterRules(record.id))
        for part in PARTS:
            held = _with_part(held, record, part)
        out[record.id] = held
    return out


def _with_part(held: CharacterRules, record: CharacterRules, part: str) -> CharacterRules:
    """`held` with `record`'s `part` added: triggers join, one per event type; a rule is set once."""
    if part == "triggers":
        twice = {k for k, _ in record.triggers} & {k for k, _ in held.triggers}
        if twice:
            raise ValueError(f"{record.id}: its trigger on {sorted(t.__name__ for t in twice)} "
                             "is declared twice")
        return replace(held, triggers=(*held.triggers, *record.triggers))
    if getattr(record, part) is None:
        return held
    if getattr(held, part) is not None:
        raise ValueError(f"{record.id}: its {part} is declared twice")
    return replace(held, **{part: getattr(record, part)})


RECORDS = merged(information.CHARACTERS, effects.CHARACTERS, public_abilities.CHARACTERS,
                 triggers.CHARACTERS, waking.CHARACTERS, trouble_brewing.CHARACTERS,
                 bad_moon_rising.CHARACTERS, gossip.CHARACTERS)


def compute(state: GameState, player: str, choice: NightChoice | None,
            deaths: tuple[str, ...] = (), character: Character | None = None) -> Info:
    """What `player`'s step yields tonight: the answer of the character they act as (the
    Lunatic's Demon: the fake Demon's), from its record; nothing for one without a night rule."""
    character = character or acting_character(state, player)
    if character is None:
        return Info()
    acting_as = character.id
    if true_character(state, player) is not None and \
            character_id(state, player) == LUNATIC and character.team == "demon":
        acting_as = LUNATIC  # its own step, as the Demon it believes it is
    rule = RECORDS[acting_as].night if acting_as in RECORDS else None
    if rule is None and character.spec.learns and character.spec.wakes_on(state.cycle):
        # run by the Storytellers: what it learns is theirs to give, and owed
        return Info(note=say("info.storytellers_run", what=character.spec.st), needs_result=True)
    # the ability asking, for what players register as (state/registration.py)
    return rule(ASKING.put(state, character.id), player, choice, deaths) if rule else Info()



@dataclass(frozen=True, slots=True)
class PublicChoiceNoted:
    """A character the Storytellers run chose in public (the official Slayer's `/choose X`):
    the Storytellers are told, to resolve it; nothing changes by itself."""

    player: str
    character: str
    target: str
    post_number: int | None
    at: datetime


def _public_choice(state: GameState, action: PublicChoice, ctx: Context) -> Sequence[Event] | Rejection:
    """`/choose X`: the public choice of the character its author believes they are; one the
    Storytellers run (by day) goes to them."""
    character = acting_character(state, ctx.author)
    record = RECORDS.get(character.id) if character else None
    rule = record.public_choice if record else None
    if rule is not None:
        return rule(state, action, ctx)
    if character is not None and not character.automated and character.spec.wakes == "day":
        if not state.phase.is_day:
            return reject(ctx, "no_public_ability", what="choice")
        return (PublicChoiceNoted(ctx.author, character.id, action.target, ctx.post_number,
                                  ctx.at),)
    return reject(ctx, "no_public_ability", what="choice")


def _told_noted(state: GameState, event: PublicChoiceNoted, _batch: Sequence[Event]) -> tuple[Notice, ...]:
    name = state.setup.private_script.name_of(event.character)
    return (to_storytellers("st_note", f"public-choice:{event.player}:{iso(event.at)}",
                            text=say("st.public_choice_noted", player=event.player,
                                     character=name, target=event.target,
                                     post=event.post_number or "?")),)


FEATURE = Feature("character records", rules={PublicChoice: _public_choice},
                  appliers={PublicChoiceNoted: unchanged},
                  notices={PublicChoiceNoted: _told_noted})

__all__ = ["RECORDS", "CharacterRules", "PublicChoiceNoted", "compute", "merged"]

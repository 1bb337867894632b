"""The audit trail of a stored game: every input, the events it caused, and a replay check.

`audit_game` folds the game's stored inputs through a fresh runtime, exactly as the daemon
does at start, and compares the events it derives with the events stored when each input
was first handled. `replay_matches` is true when the replay reproduces them all, but for
their words (app/games/outcomes.py): the current state is then exactly the fold of the recorded
inputs, and rewording a message never makes an audit fail.
"""

from __future__ import annotations

import json
from typing import Any

from ..adapters.store import GameRow, Store
from ..app.games.outcomes import comparable
from ..app.games.runtime import GameRuntime
from ..app.posting.catalogue import worded_report
from ..app.posting.reactions import GameOptions
from ..core import GameSetup, report


class AuditError(ValueError):
    pass


def load_runtime(store: Store, setup: GameSetup) -> tuple[GameRow, GameRuntime]:
    row = GameRow.get_or_none(GameRow.key == str(setup.topic_id))
    if row is None:
        raise AuditError(f"game {setup.name!r} (topic {setup.topic_id}) is not in this database")
    assert setup.topic_id is not None  # its row was found by it
    options = GameOptions(setup.topic_id, f"g{setup.topic_id}",
                          storytellers=setup.storytellers, pictures=False)  # events, not posts
    return row, GameRuntime(setup, options, row.id)


def audit_game(store: Store, setup: GameSetup) -> dict[str, Any]:
    row, runtime = load_runtime(store, setup)
    stored = {input_id: [{"type": name, "data": data} for name, data in events]
              for input_id, events in store.events_by_input(row.id).items()}
    entries, mismatched = [], []
    for item in store.inputs(row.id):
        step = runtime.apply_input(item)
        replayed = [{"type": name, "data": json.loads(json.dumps(data, default=str))}
                    for name, data in step.events]
        recorded = stored.get(item.id, [])
        if _outcomes(replayed) != _outcomes(recorded):
            mismatched.append(item.id)
        entries.append({
            "input": {"id": item.id, "kind": item.kind, "post_id": item.post_id,
                      "post_number": item.post_number, "topic_id": item.topic_id,
                      "author": item.author, "at": item.at, "raw": item.raw,
                      "participants": item.participants},
            "events": recorded,
        })
    return {
        "game": setup.name, "topic_id": setup.topic_id, "inputs": len(entries),
        "events": sum(len(e["events"]) for e in entries),
        "replay_matches": not mismatched, "mismatched_inputs": mismatched,
        "entries": entries, "state": worded_report(report(runtime.state)),
    }


def _outcomes(events: list[dict[str, Any]]) -> list[Any]:
    return comparable([(e["type"], e["data"]) for e in events])


def audit_text(audit: dict[str, Any]) -> str:
    lines = [f"Audit of {audit['game']} (topic {audit['topic_id']}): {audit['inputs']} inputs, "
             f"{audit['events']} events"]
    for entry in audit["entries"]:
        item = entry["input"]
        if not entry["events"]:
            continue
        where = _where(item)
        for event in entry["events"]:
            lines.append(f"{item['at']}  {where}: {event['type']}{_fields(event['data'])}")
    verdict = "yes" if audit["replay_matches"] else \
        f"NO (inputs {', '.join(map(str, audit['mismatched_inputs']))})"
    lines.append(f"Replaying the inputs reproduces the stored events: {verdict}")
    return "\n".join(lines)


def _where(item: dict[str, Any]) -> str:
    """What caused an input's events, for every kind of input the store keeps."""
    kind = item["kind"]
    if kind in ("post", "late"):
        return f"{'late ' if kind == 'late' else ''}post #{item['post_number']} by {item['author']}"
    return {"pm": f"PM by {item['author']}", "tick": "the clock",
            "edit": f"edit of post #{item['post_number']}",
            "rename": f"the forum account {item['raw']} renamed {item['author']}",
            "lapse": f"the name {item['author']} taken by someone outside the game"}.get(
                kind, f"input {item['id']} ({kind})")


def _fields(data: dict[str, Any]) -> str:
    plain = [f"{k}={v}" for k, v in data.items()
             if k != "at" and isinstance(v, (str, int, bool)) and v not in ("", None)]
    return f"({', '.join(plain)})" if plain else ""

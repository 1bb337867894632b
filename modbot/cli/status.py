"""`modbot game status`: a stored game rebuilt from its inputs and printed, with the inputs the
bot could not handle (quarantine.py), or one line when its history cannot be replayed."""

from __future__ import annotations

import argparse
import json
import sys

from ..app.posting.catalogue import worded_report
from ..app.posting.render import render_text_report
from ..files.gamefile import load_game
from .config import open_store


def status_command(args: argparse.Namespace) -> int:
    from ..app.games.quarantine import listed, quarantine_lines
    from ..core import report
    from .audit import AuditError, load_runtime
    setup = load_game(args.game)
    store = open_store(args)
    try:
        _row, runtime = load_runtime(store, setup)
        held = [listed(q) for q in store.quarantined(_row.id)]
        runtime.load(store.inputs(_row.id))
    except AuditError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # a stored input that no longer folds (quarantine.py)
        print(f"modbot: game {setup.name!r}: its stored inputs cannot be replayed "
              f"({type(exc).__name__}: {exc}); `modbot recover` rebuilds it from the forum",
              file=sys.stderr)
        return 1
    finally:
        store.close()
    state = report(runtime.state)
    if args.json:
        print(json.dumps({**worded_report(state), "quarantined": held}, indent=2,
                         ensure_ascii=False, default=str))
    else:
        print("\n".join([render_text_report(setup, state), *quarantine_lines(held)]))
    return 0



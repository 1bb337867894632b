"""The configuration a command's `--config` names, shared by the command modules."""

from __future__ import annotations

import sys


def config_or_none(args):
    """The configuration `--config` names, or None after one line saying what is wrong."""
    from .adapters.forum import ConfigurationError
    from .app.daemon import load_config
    try:
        return load_config(args.config)
    except ConfigurationError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return None

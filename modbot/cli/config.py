"""The configuration and the store a command's options name, shared by the command modules."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..adapters.store import Store
    from ..app.running.daemon import Config


def config_or_none(args: argparse.Namespace) -> Config | None:
    """The configuration `--config` names, or None after one line saying what is wrong."""
    from ..adapters.forum import ConfigurationError
    from ..app.running.daemon import load_config
    try:
        return load_config(args.config)
    except ConfigurationError as exc:
        print(f"modbot: {exc}", file=sys.stderr)
        return None


def open_store(args: argparse.Namespace) -> Store:
    """The store `--database`, `DATABASE_URL` or `--config` names (the default otherwise)."""
    from ..adapters.store import DEFAULT_URL, Store
    from ..app.running.daemon import configured_database
    url = args.database or os.environ.get("DATABASE_URL") or (
        configured_database(args.config) if args.config else None) or DEFAULT_URL
    return Store(url)

"""Where modbot's read-only files are: the bundled scripts and demo (`data/`), the templates and
the message catalogue (`templates/`), the example and demo configurations (`config/`).

In a checkout they are the project's top-level folders, their only source; an installed wheel
carries copies of them inside the package (`modbot/_bundled/`, made by setup.py's build step),
so every command works from any directory. What the bot writes (databases) never goes here.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def folder(name: str) -> Path:
    """The bundled folder `name` ("data", "templates" or "config")."""
    installed = _PACKAGE / "_bundled" / name
    return installed if installed.is_dir() else _PACKAGE.parent / name

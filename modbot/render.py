"""Render view models with the jinja2 templates in `templates/` (words live there, not in code)."""

from __future__ import annotations

from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.filters["word"] = lambda vote: "execute" if vote == "yes" else "pardon"
    return env


def render_text_report(setup, report: dict) -> str:
    """A readable summary of a replay report (for `modbot replay --text` and `modbot demo`)."""
    return environment().get_template("replay.txt.j2").render(game=setup, r=report).rstrip()

"""Render view models with the jinja2 templates in `templates/` (words live there, not in code)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import lru_cache
from typing import Any

import jinja2

from ...core import THREAD, GameSetup, Notice, say, storyteller_commands
from .catalogue import TEMPLATES, character_name, worded_report, words
from .views import clock_text, countdown_tag, date_tag, md, range_tag


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,  # Markdown, not HTML: names go through the `md` filter instead
    )
    env.filters["word"] = lambda vote: "execute" if vote == "yes" else "pardon"
    env.filters["md"] = md
    env.filters["words"] = words
    env.filters["clock"] = _clock
    env.filters["code_cell"] = code_cell
    env.filters["date"] = date_tag
    env.filters["reveal_value"] = reveal_value
    env.filters["character"] = character_name
    return env


def reveal_value(value: object) -> str:
    """A grimoire value in the reveal: yes or no for a flag, a list joined, names escaped."""
    if value is True or value is False:
        return "yes" if value else "no"
    if value is None or value == [] or value == ():
        return "–"
    if isinstance(value, list | tuple):
        return md(", ".join(str(v) for v in value))
    return md(value)


def _clock(at: datetime | str) -> str:
    """A forum time (or its ISO text, as the game's history keeps it) as plain text."""
    return clock_text(datetime.fromisoformat(at) if isinstance(at, str) else at)


def render(template: str, **context: Any) -> str:
    """Render one template to text (trailing blank lines trimmed)."""
    return environment().get_template(template).render(**context).strip() + "\n"


def later(template: str, **context: Any) -> Callable[[], str]:
    """One template, rendered when the post is first read (`Outgoing.body`): a fold whose
    posts went out long ago (start-up, the upgrade check) renders nothing. The context must
    not change afterwards: views are built of frozen values or fresh copies."""
    return lambda: render(template, **context)


def render_notice(notice: Notice) -> str:
    """A core `Notice` in words: its template (`{code}.md.j2`) with its view, each moment
    (`datetime`) of the view shown as a forum [date] tag in the reader's own time (a deadline
    in the thread as a countdown)."""
    return render(f"{notice.template}.md.j2", **dated(notice.view, public=notice.to == THREAD))


DEADLINES = ("deadline", "lock", "voting_ends")  # the moments a view names that are deadlines


def dated(view: Mapping[str, Any], *, public: bool = False) -> dict[str, Any]:
    """A view with its moments as forum dates. In a public post a deadline is a countdown (the
    time left; its date as `NAME_at`), and a phase (`starts` to `deadline`) also a range,
    `span`."""
    out = {name: (countdown_tag(value) if public and name in DEADLINES else date_tag(value))
           if isinstance(value, datetime) else value for name, value in view.items()}
    if public:
        out.update({f"{name}_at": date_tag(view[name]) for name in DEADLINES
                    if isinstance(view.get(name), datetime)})
    if public and isinstance(view.get("starts"), datetime) and isinstance(view.get("deadline"), datetime):
        out["span"] = range_tag(view["starts"], view["deadline"])
    return out


PM_MINIMUM = 10  # Discourse refuses a private message shorter than this (characters)


def code_cell(text: str) -> str:
    """Code in a Markdown table cell. A `|` would end the cell, and escaped inside code
    (`\\|`) its backslash shows on some renderers (MkDocs) but not others (Discourse, GitHub):
    so the code is cut at each `|`, written escaped between the pieces, outside the code,
    where every one of them shows a plain `|`."""
    return "\\|".join(f"`{piece}`" for piece in text.split("|"))


def command_guide() -> str:
    """The Markdown table of every Storyteller command, as the Storytellers' guide shows it
    (a test keeps the guide's copy the same)."""
    rows = [f"| {code_cell(c.usage)} | {words(c.summary).replace('|', chr(92) + '|')} | "
            f"{code_cell(c.example)}"
            f"{words(say('label.short_command')) if len(c.example) < PM_MINIMUM else ''} |"
            for c in storyteller_commands()]
    return "\n".join(["| Command | What it does | Example |", "|---|---|---|", *rows])


def render_text_report(setup: GameSetup, report: dict[str, Any]) -> str:
    """A readable summary of a replay report (for `modbot replay --text` and `modbot demo`)."""
    worded = worded_report(copy.deepcopy(report))
    return environment().get_template("replay.txt.j2").render(game=setup, r=worded).rstrip()

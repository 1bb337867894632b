"""The documentation stays true: the README is short and its links resolve, every page is in
the site's navigation, every `modbot` command has its section, and every command the player
guide's tables show is one the parser accepts (as a post Discourse accepts)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from modbot.cli.arguments import _build_parser
from modbot.core import Roster, parse_post
from modbot.files.scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
ROSTER = Roster(("Alex", "Brianna", "Cameron", "Derek", "Ellen", "Fatima", "Gus"), ())


def test_the_readme_is_short_and_starts_with_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert len(readme) <= 10_000, len(readme)
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert blocks[:2] == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/modbot demo",
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/pytest"]
    assert "## Host your first game" in readme


@pytest.mark.parametrize("page", ["README.md", *sorted(p.name for p in DOCS.glob("*.md"))])
def test_every_relative_link_resolves(page):
    path = ROOT / page if page == "README.md" else DOCS / page
    for target in re.findall(r"\]\(([^)#\s]+)[^)]*\)", path.read_text()):
        if target.startswith(("http://", "https://", "/t/", "upload://", "mailto:")):
            continue
        assert (path.parent / target).exists(), f"{page}: {target}"


def test_every_page_is_in_the_sites_navigation():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in DOCS.glob("*.md"):
        assert f": {page.name}" in nav, page.name


def test_every_command_has_its_section():
    reference = (DOCS / "commands.md").read_text()
    commands = _build_parser()._subparsers._group_actions[0].choices
    for name in commands:
        assert re.search(rf"^## `modbot {name}[ `]", reference, re.M), name


def _table_commands(page: str, heading: str) -> list[str]:
    """The code spans of the second column of the first table after `heading`."""
    lines = (DOCS / page).read_text().split(heading, 1)[1].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    spans = []
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        spans += re.findall(r"`([^`]+)`", cells[1])
    return spans


def test_every_thread_command_in_the_player_guide_is_understood():
    """Each form in the table, with X for a player (and the padding a real post needs: the
    forum refuses a post under 20 characters), is an action, never a rejection."""
    forms = _table_commands("players.md", "# Player guide")
    assert len(forms) >= 25
    understood = {"/unvote", "[unvote][/unvote]", "[uv][/uv]", "##unvote"}  # all yours
    for form in forms:
        post = form.replace("X, Y", "Derek, Ellen").replace("X", "Derek") + \
            "\nThat is my post for today."
        parsed = parse_post(post, ROSTER, ("Derek",), ("nightingale",), bot="modbot").to_json()
        actions = parsed["actions"]
        if form in ("yes", "no", "hands up", "hands down") or form in understood:
            assert actions or form in understood, form
            continue
        assert actions and not parsed["rejections"], (form, parsed)


def test_every_private_command_in_the_player_guide_is_understood():
    """The night-choice table of the player guide, read by the grimoire PM's grammar: each form
    is an action, never an error (`/action` with a request, as the table says)."""
    from modbot.core.reading.night_forms import parse_private
    script = load_script("botf")
    forms = _table_commands("players.md", "## By private message")
    assert len(forms) >= 9
    for form in forms:
        if form == "/whisper Storyteller":  # the thread's command, named in the table's row
            assert parse_post(form + "\nA word, please.", ROSTER, (), ("nightingale",)).actions
            continue
        post = form + (" Can I learn who the Demon is?" if form == "/action" else "")
        parsed = parse_private(post + "\nThanks.", ROSTER, script)
        assert parsed.actions and not parsed.errors, (form, parsed)


def test_every_count_the_docs_give_is_computed():
    """The counts the docs give of the characters ("(71 characters)", a script's teams) are
    the catalogue's and the scripts', as `python -m modbot.cli.doctables` writes them."""
    from modbot.cli.doctables import COUNT, counted_pages, with_counts
    counted = [page.name for page in counted_pages() if COUNT.search(page.read_text())]
    assert {"index.md", "characters.md"} <= set(counted)
    for page in counted_pages():
        text = page.read_text()
        assert with_counts(text) == text, f"{page.name}: run `python -m modbot.cli.doctables`"
        loose = re.findall(r"\((\d+) characters\)", COUNT.sub("", text))
        assert not loose, f"{page.name}: a character count typed by hand: {loose}"


def test_the_characters_page_holds_the_table_built_from_the_catalogue_the_code_and_the_tests():
    """docs/characters.md's table (modbot/cli/doctables.py) as built, one row per character of the
    catalogue (issue 25, issue 39)."""
    from modbot.cli.doctables import PAGE, characters_in_table, rewritten
    from modbot.files.scripts import catalogue
    page = PAGE.read_text()
    assert rewritten(page) == page, "run `python -m modbot.cli.doctables` to rewrite the table"
    assert characters_in_table(page) == len(catalogue())


def test_every_command_is_in_the_storyteller_guide():
    from modbot.app.posting.render import code_cell, command_guide
    from modbot.core.registry import COMMANDS
    guide = (Path(__file__).resolve().parents[1] / "docs" / "st-commands.md").read_text()
    assert command_guide() in guide, \
        "paste modbot.app.posting.render.command_guide() into docs/st-commands.md"
    for command in COMMANDS.values():
        usage = code_cell(command.usage)
        assert usage in guide and command.example in guide, command.name

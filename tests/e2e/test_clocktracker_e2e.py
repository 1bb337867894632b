"""The revealed demo game, sent to ClockTracker (issue 41): `modbot export --format
clocktracker` writes what ClockTracker's importer reads (validated against
data/clocktracker-schema.json), and the `--html` page, opened in Chromium, sends it by a plain
form post in the field `game` to an importer that answers as ClockTracker's
`import.post.ts` does (a redirect to its add-game page)."""

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs

import jsonschema
import pytest
from selenium.webdriver.support.expected_conditions import presence_of_element_located
from selenium.webdriver.support.ui import WebDriverWait

from modbot import cli
from modbot.cli.rehearsal import DEMO_GAME

from .browser import chromium

pytestmark = pytest.mark.slow  # the bot against the sandbox over HTTP, and a browser

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "data" / "clocktracker-schema.json").read_text())


class _Importer(BaseHTTPRequestHandler):
    """ClockTracker's import.post.ts: the form field `game`, kept; a redirect to add-game."""

    received: ClassVar[list] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        game = parse_qs(body)["game"][0]
        self.received.append((self.headers["Content-Type"], json.loads(game)))
        self.send_response(302)
        self.send_header("Location", f"/add-game?imported_game={uuid.uuid4()}")
        self.end_headers()

    def do_GET(self):
        page = b"<html><body><h1 id='added'>Add game</h1></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args):
        pass


def _export(revealed, out, *extra):
    return cli.main(["export", str(DEMO_GAME), "--database", revealed.database_url,
                     "--format", "clocktracker", "--output", str(out), *extra])


def test_the_export_is_what_clocktracker_reads(revealed, tmp_path):
    out = tmp_path / "clocktracker.json"
    assert _export(revealed, out) == 0
    document = json.loads(out.read_text())
    jsonschema.validate(document, SCHEMA)
    state = revealed.service.games[revealed.setup.topic_id].state
    assert document["win"] == "GOOD_WINS"
    assert [t["player_name"] for t in document["grimoire"]] == [s.name for s in state.seats]
    assert [t["is_dead"] for t in document["grimoire"]] == [not s.alive for s in state.seats]
    assert document["demon_bluffs"] == list(state.dealt_bluffs)
    assert document["player_count"] == sum(not s.traveller for s in state.seats)


def test_html_needs_the_clocktracker_format(revealed, tmp_path, capsys):
    out = tmp_path / "page.html"
    assert cli.main(["export", str(DEMO_GAME), "--database", revealed.database_url, "--html",
                     "--output", str(out)]) == 2
    assert "add --format clocktracker" in capsys.readouterr().err and not out.exists()


def test_the_page_sends_the_game_to_the_importer_from_the_browser(revealed, tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Importer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    importer = f"http://127.0.0.1:{server.server_port}/api/digital_grimoire/import"
    page, document = tmp_path / "send.html", tmp_path / "game.json"
    assert _export(revealed, page, "--html", "--importer", importer) == 0
    assert _export(revealed, document) == 0
    _Importer.received.clear()
    browser = chromium()
    try:
        browser.get(page.as_uri())
        browser.save_screenshot(str(tmp_path / "clocktracker-page.png"))
        browser.find_element("id", "send").click()
        WebDriverWait(browser, 10).until(  # a click does not wait for the form post's page
            presence_of_element_located(("id", "added")))
        assert "/add-game?imported_game=" in browser.current_url
    finally:
        browser.quit()
        server.shutdown()
    [(kind, received)] = _Importer.received
    assert kind == "application/x-www-form-urlencoded"
    assert received == json.loads(document.read_text())

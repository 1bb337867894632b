"""Benchmark: the slowest hostile post (32,000 characters of unclosed tags, markers, quotes).

Prints one JSON object: `worst_post_ms` and the case that took it, and every case's time.
Hostile text must never hang the daemon: each case here was quadratic or worse at some point.

Run: python benchmarks/hostile.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from modbot.core.reading.parser import parse_post
from modbot.core.state.names import Roster

LIMIT = 32000  # Discourse's max_post_length
CASES = {
    "backticks": "`", "backtick pairs": "` a ", "tildes": "~~ x ", "quote opens": "[quote]",
    "quote attributes": "[quote=", "strike tags": "<s>", "del opens": "<del ",
    "comment opens": "<!--", "bbcode votes": "[vote]", "brackets": "[", "code opens": "[code ",
    "pre opens": "<pre", "blockquote opens": "<blockquote", "details opens": "[details=",
    "emphasis": "*_", "vote lines": "/vote Alex\n", "at signs": "@",
}


def main() -> int:
    roster = Roster(("Alex", "Brianna", "Cameron", "Derek", "Ellen"))
    times = {}
    for name, unit in CASES.items():
        text = (unit * (LIMIT // len(unit) + 1))[:LIMIT]
        began = time.perf_counter()
        parse_post(text, roster, ("Alex",))
        times[name] = round((time.perf_counter() - began) * 1000, 1)
    worst = max(times, key=times.get)
    print(json.dumps({"worst_post_ms": times[worst], "worst_case": worst, "cases_ms": times}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

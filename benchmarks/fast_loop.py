"""Benchmark: how long the developers' fast loop takes (`pytest -m "not slow"`), on this
machine. Runs it `--runs` times (default 1) in a fresh process and prints one JSON object:
the seconds of each run as pytest reports them, the best, the tests run, and the cores.

Run: python benchmarks/fast_loop.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_run() -> tuple[float, int]:
    began = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "pytest", "-m", "not slow", "-q",
                             "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True,
                            text=True)
    took = time.monotonic() - began
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    if result.returncode != 0:
        raise SystemExit(f"the fast loop failed: {summary}")
    passed = re.search(r"(\d+) passed", summary)
    return took, int(passed.group(1)) if passed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    runs = [one_run() for _ in range(args.runs)]
    print(json.dumps({"fast_loop_s": [round(t, 1) for t, _ in runs],
                      "fast_loop_best_s": round(min(t for t, _ in runs), 1),
                      "tests": runs[-1][1], "cores": os.cpu_count()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every ruling of the seeds is quoted by a test, or listed here with the reason it is not
(issue 7). A ruling is a "How to Run" or "Examples & Notes" bullet of seed 000, or a line of
notes or examples under a character of seed 002; it is quoted when eight words of it in a row
appear in a test (quotes and case normalised). The list of rulings not quoted must match
`NOT_QUOTED` exactly, so a ruling that loses its test, or one that gains one, fails here until
this list is brought up to date. Skipped when ../shared (the seeds) is absent."""

import re
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
TESTS = Path(__file__).resolve().parents[1]  # every test file, in every folder
TYPES = ("Townsfolk", "Outsider", "Minion", "Demon", "Fabled")

NOT_QUOTED = {  # (seed, the ruling's first words): why no test quotes it
    ("002", "In a live game add an extra outsider"):
        "advice for live games",
    ("002", "(These rulings are potentially more fun here"):
        "a remark on the regular rule, not a ruling",
}


def _words(text: str) -> list[str]:
    text = text.replace("’", "'").replace("“", '"').replace("”", '"').replace("—", "-")
    return re.findall(r"[a-z0-9']+", text.lower())


def rulings():
    """(seed, character, ruling) for every ruling of seeds 000 and 002."""
    lines = (SEEDS / "000_b379f05c19cd2e1d.txt").read_text().splitlines()
    character, on = None, False
    for index, line in enumerate(lines):
        if line in TYPES:
            character, on = lines[index + 1], False
        elif line.startswith(("How to Run", "Examples")):
            on = True
        elif on and line.startswith("- "):
            yield "000", character, line[2:]
    lines = (SEEDS / "002_8c2f2f629d309046.txt").read_text().splitlines()
    for index, line in enumerate(lines):
        if line not in TYPES or index + 2 >= len(lines) or lines[index + 1] == "Night Order":
            continue  # the night order closing the seed is not a ruling
        for note in lines[index + 3:]:  # after the name and the ability text
            if note in TYPES or note.startswith("Night Order"):
                break
            if note.strip() and note not in ("Examples", "How to Run"):
                yield "002", lines[index + 1], note


def _quoted(ruling: str, corpus: str) -> bool:
    words = _words(ruling)
    size = min(8, len(words))
    return any(" ".join(words[k:k + size]) in corpus
               for k in range(max(1, len(words) - size + 1)))


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seeds are not at {SEEDS}")
def test_every_seed_ruling_is_quoted_by_a_test_or_listed_with_a_reason():
    corpus = " ".join(" ".join(_words(p.read_text())) for p in TESTS.rglob("test_*.py")
                      if p.name != Path(__file__).name)
    found = list(rulings())
    assert len(found) > 100  # the seeds as we know them: 69 + 66 rulings
    missing = {(seed, ruling) for seed, _, ruling in found if not _quoted(ruling, corpus)}
    listed = {(seed, ruling) for seed, ruling in missing
              if any(seed == s and ruling.startswith(start) for s, start in NOT_QUOTED)}
    assert missing - listed == set(), "quote these rulings in a test (or list them here)"
    assert len(listed) == len(NOT_QUOTED), "a listed ruling is quoted now: remove it here"

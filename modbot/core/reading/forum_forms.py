"""Theory of operation: the vote forms forum players bring from other games (`vote_forms =
"forum"`, the default), found in a line before the thread grammar (parser.py) reads it.

Players of mafia-style forum games vote as their last game taught them, and other vote
counters read these forms (Zugbot, Fortress of Lies, Team Liquid's ##vote): `vote X` and
`unvote` on a line of their own, in bold or not; `@bot vote X`; the command after a
sentence on the same line when its keyword is written as a command (`VOTE: X` in capitals,
`##vote X`, or bold), where each such keyword starts a command of its own so that the last
one in a post stands ("VOTE: Bob actually no UNVOTE" withdraws the vote). A word one letter
off a command's keyword (`vtoe Bob`, `nominat Bob`) on a line that is just the keyword and a
player's name is answered, never silently dropped. Everything here only splits, unwraps or
recognises a line; what a command means stays the parser's.
"""

from __future__ import annotations

import re
from typing import Any

from ..state.actions import YES, Unvote, Vote
from ..state.names import Ambiguous, Roster
from .parsed import VALUE_WORDS, Collector

# a keyword written as a command anywhere in a line: ##vote, VOTE: / UNVOTE in capitals,
# or bold (Markdown ** or __, BBCode [b], HTML <b>/<strong>)
_COMMAND_KEYWORD = re.compile(
    r"(?:(?<=\s)|^)(?:#+\s*(?i:(?:un)?vote)\b"
    r"|(?:UN)?VOTE\b:?"
    r"|(?:\*\*|__|\[b\]|<b>|<strong>)\s*(?i:(?:un)?vote)\b)")
_MARKED = re.compile(r"[#*_<\[]|VOTE")  # what a keyword written as a command needs
_MENTION = re.compile(r"^\s*@([\w.\-]+)[:,]?\s+")
_BOLD_KEYWORD = re.compile(
    r"^\s*(?:\*\*|__|\[b\]|<b>|<strong>)\s*((?:un)?vote)\s*:?\s*"
    r"(?:\*\*|__|\[/b\]|</b>|</strong>)(.*)$", re.IGNORECASE)
SHORT_LINE = 60  # characters: "vtoe Bob" and its like are short
MAX_COMMAND_WORDS = 3  # after `vote`: a name (an alias may have two words) and yes/no
MISSPELT = {"vote": "misspelt_vote", "unvote": "misspelt_unvote", "nominate": "misspelt_nominate"}
KEYWORDS = tuple(MISSPELT)
_NOT_TYPOS = {"note", "notes", "voted", "votes", "voter", "vote", "unvote", "nominate", "dote",
              "vole", "tote", "rote", "mote", "nominated", "nominee"}  # words, not slips


def without_mention(line: str, bot: str) -> str:
    """`@modbot vote X` is `vote X`: a mention of the bot's account before a command."""
    if not bot or "@" not in line:
        return line  # the common case, cheaply: no mention at all
    match = _MENTION.match(line)
    if match and bot and match.group(1).casefold() == bot.casefold():
        return line[match.end():]
    return line


def command_segments(line: str) -> list[str]:
    """The commands of a line whose keywords are written as commands after a sentence, or
    several on one line: each from its keyword to the next. [line] when there is none."""
    if "vote" not in line.casefold() or not _MARKED.search(line):
        return [line]  # no keyword, or none written as a command (most lines of chat)
    starts = [m.start() for m in _COMMAND_KEYWORD.finditer(line)]
    if not starts or (starts == [0] or (len(starts) == 1 and not line[:starts[0]].strip())):
        return [line]
    ends = [*starts[1:], len(line)]
    return [line[start:end] for start, end in zip(starts, ends, strict=True)]


def bold_keyword(line: str) -> tuple[str, str] | None:
    """`[b]Unvote[/b] Just kiddin'`: a bold keyword and the words after it."""
    match = _BOLD_KEYWORD.match(line)
    return (match.group(1).casefold(), match.group(2).strip()) if match else None


def misspelt_keyword(word: str) -> str | None:
    """The command `word` is one slip from (a letter added, dropped, changed, or two
    swapped), or None: `vtoe` is `vote`, `nominat` is `nominate`."""
    lowered = word.casefold().rstrip(":")
    if lowered in _NOT_TYPOS or len(lowered) < 3:
        return None
    return next((k for k in KEYWORDS if _one_slip(lowered, k)), None)


def _one_slip(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diffs) == 1 or (len(diffs) == 2 and diffs[1] == diffs[0] + 1
                                   and a[diffs[0]] == b[diffs[1]] and a[diffs[1]] == b[diffs[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


class ForumLines:
    """The forum forms of a line, for the parser's line reader (`_LineParser`)."""

    roster: Roster
    out: Collector

    def _leading_name(self, rest: str) -> tuple[Any, list[str]]:
        raise NotImplementedError  # the parser's

    def _forum_line(self, original: str, line: str) -> bool:
        """`vote X`, `unvote`, `[b]Unvote[/b] words`, or a keyword one letter off (see
        forum_forms.py); True when the line was taken (counted or answered)."""
        if len(line) > SHORT_LINE and not line[:6].casefold().startswith(("vote", "unvote")):
            return False  # a sentence: a slip is looked for only on a short line
        words = line.split()
        verb = words[0].casefold()
        if verb == "unvote":
            return self._plain_unvote(words[1:], bold=bold_keyword(original) is not None)
        if verb == "vote":
            return self._plain_vote(words[1:], line)
        slip = misspelt_keyword(words[0]) if 1 < len(words) <= 4 else None  # a short line
        if slip is not None:
            name, remainder = self._leading_name(" ".join(words[1:]))
            if isinstance(name, str) and not remainder:
                self.out.reject(MISSPELT[slip], line, (name,), soft=True)
                return True
        return False

    def _plain_unvote(self, words: list[str], *, bold: bool) -> bool:
        """`unvote`, `unvote X`; in bold, `[b]Unvote[/b]` whatever words follow it."""
        if len(words) > MAX_COMMAND_WORDS and not bold:
            return False  # a sentence that starts with the word
        name = self._leading_name(" ".join(words))[0] if words else None
        if words and not isinstance(name, str) and not bold:
            return False  # prose: "unvote is what I would do"
        self.out.actions.append(Unvote(name if isinstance(name, str) else None))
        return True

    def _plain_vote(self, words: list[str], line: str) -> bool:
        """`vote X` (or `vote for X`, `vote X no`) on a line of its own; `vote` and a word or
        two that name nobody is answered; a longer line is prose."""
        if words and words[0].casefold() == "for" and self.roster.resolve_exact("for") is None:
            words = words[1:]
        if not words or len(words) > MAX_COMMAND_WORDS:
            return False  # nothing to vote on, or a sentence ("vote for whoever you trust")
        name, remainder = self._leading_name(" ".join(words))
        if isinstance(name, str) and (not remainder or (
                len(remainder) == 1 and remainder[0].casefold() in VALUE_WORDS)):
            value = VALUE_WORDS[remainder[0].casefold()] if remainder else YES
            self.out.actions.append(Vote(name, value))
            return True
        if len(words) <= 2 and not isinstance(name, str):
            if isinstance(name, Ambiguous):
                self.out.reject("ambiguous", line, name.candidates, soft=True)
            else:
                self.out.reject("vote_names_nobody", line, name.suggestions, soft=True)
            return True
        return False

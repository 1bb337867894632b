"""Theory of operation: reduce a post's raw Markdown/BBCode to the text a player *said*.

Discourse stores a post as `raw`. Players quote each other, paste code, strike votes out and
hide notes in comments; none of that may count as an action. `countable_text(raw)` removes, in
this order (the order matters: a `[quote]` typed inside a code block is literal):

1. code: fenced blocks (``` and ~~~), `[code]...[/code]`, `<pre>`, indented blocks, inline
   backtick spans, `<code>`;
2. HTML comments (an unclosed one hides the rest of the post), and the quoted trail of an
   email reply (Discourse's Email::Receiver puts it in `<details class='elided'>`,
   lib/email/receiver.rb `elided_html`: an old vote in it never counts);
3. quotes: `[quote ...]...[/quote]` (nested; an unclosed `[quote]` hides the rest of the post,
   the safe side for a vote counter), `<blockquote>` and `>` lines;
4. strikethrough: `~~x~~`, `[s]`, `[strike]`, `<s>`, `<del>`, `<strike>`;
5. optionally spoilers and `[details]` (they count by default).

What remains keeps its line structure so that line-anchored commands still work. Everything
here is a pure function of its input and never raises on any string. Each pass runs only when
the text holds the character its pattern cannot match without (most posts are plain prose),
and the last few answers are remembered: the engine asks twice for each post.
"""

from __future__ import annotations

import re
from functools import lru_cache

_FLAGS = re.IGNORECASE | re.DOTALL

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# Tag attributes are bounded ({0,200}): an unclosed `<pre` repeated thousands of times must
# not make the scan quadratic on a 32,000-character post.
_BB_CODE = re.compile(r"\[code\b[^\]\n]{0,200}\].*?(?:\[/code\]|\Z)", _FLAGS)
_HTML_PRE = re.compile(r"<pre\b[^>\n]{0,200}>.*?(?:</pre\s*>|\Z)", _FLAGS)
_HTML_CODE = re.compile(r"<code\b[^>\n]{0,200}>.*?(?:</code\s*>|\Z)", _FLAGS)
_INLINE_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_QUOTE_TAG = re.compile(r"\[(/?)quote\b[^\]\n]{0,500}\]", re.IGNORECASE)
_HTML_BLOCKQUOTE = re.compile(r"<blockquote\b[^>\n]{0,200}>.*?(?:</blockquote\s*>|\Z)", _FLAGS)
_GT_LINE = re.compile(r"^ {0,3}>.*$", re.MULTILINE)
_STRIKE = (
    re.compile(r"~~(?=\S)(.*?\S)~~", re.DOTALL),
    re.compile(r"\[s\].*?(?:\[/s\]|\Z)", _FLAGS),
    re.compile(r"\[strike\].*?(?:\[/strike\]|\Z)", _FLAGS),
    re.compile(r"<(s|del|strike)\b[^>\n]{0,200}>.*?(?:</\1\s*>|\Z)", _FLAGS),
)
_SPOILER_TAG = re.compile(r"\[(/?)(spoiler|details)\b[^\]\n]{0,500}\]", re.IGNORECASE)
_HTML_DETAILS = re.compile(r"<details\b[^>\n]{0,200}>.*?(?:</details\s*>|\Z)", _FLAGS)
_ELIDED = re.compile(r"<details\s+class\s*=\s*(['\"])elided\1[^>\n]{0,200}>.*?(?:</details\s*>|\Z)",
                     _FLAGS)


def countable_text(raw: str, *, count_spoilers: bool = True) -> str:
    """Return the parts of `raw` that may carry actions (see module docstring)."""
    return _countable(raw, count_spoilers)


@lru_cache(maxsize=64)
def _countable(raw: str, count_spoilers: bool) -> str:
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    text = _strip_code(text)
    if "<" in text:
        text = _ELIDED.sub("", _COMMENT.sub("", text))
    if "[" in text:
        text = _strip_balanced(text, _QUOTE_TAG)
    if "<" in text:
        text = _HTML_BLOCKQUOTE.sub("", text)
    if ">" in text:
        text = _GT_LINE.sub("", text)
    if "~" in text or "[" in text or "<" in text:
        for pattern in _STRIKE:
            text = pattern.sub("", text)
    if not count_spoilers:
        text = _strip_balanced(text, _SPOILER_TAG) if "[" in text else text
        text = _HTML_DETAILS.sub("", text) if "<" in text else text
    return text


def _strip_code(text: str) -> str:
    if "```" in text or "~~~" in text or "    " in text or "\t" in text:
        text = _strip_fenced_and_indented(text)
    if "[" in text:
        text = _BB_CODE.sub("", text)
    if "<" in text:
        text = _HTML_PRE.sub("", text)
    if "`" in text:
        text = _INLINE_CODE.sub("", text)
    return _HTML_CODE.sub("", text) if "<" in text else text


def _strip_fenced_and_indented(text: str) -> str:
    """Drop fenced code blocks (unclosed ones run to the end) and indented code blocks."""
    kept: list[str] = []
    fence: str | None = None
    previous_blank = True
    in_indented = False
    for line in text.split("\n"):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            continue
        opened = _FENCE_OPEN.match(line)
        if opened:
            fence = opened.group(1)
            continue
        is_blank = not line.strip()
        indented = line.startswith("    ") or line.startswith("\t")
        if indented and not is_blank and (previous_blank or in_indented):
            in_indented = True
            continue
        if not is_blank:
            in_indented = False
        kept.append(line)
        previous_blank = is_blank
    return "\n".join(kept)


def _strip_balanced(text: str, tag: re.Pattern[str]) -> str:
    """Remove every region between an opening tag and its matching closing tag.

    `tag` must capture "/" (or "") in group 1. Tags nest; a stray closing tag is dropped; an
    opening tag that is never closed hides everything after it.
    """
    out: list[str] = []
    depth = 0
    position = 0
    for match in tag.finditer(text):
        closing = match.group(1) == "/"
        if depth == 0:
            out.append(text[position:match.start()])
        if closing:
            depth = max(depth - 1, 0)
        else:
            depth += 1
        position = match.end()
    if depth == 0:
        out.append(text[position:])
    return "".join(out)


_WRAPPER = re.compile(r"^([*_]+)(.*?)([*_]+)$", re.DOTALL)


def unwrapped(line: str) -> str:
    """A line without the emphasis around it (`**!kill Alex**`, `_!status_`), and only
    emphasis that closes as it opens: the underscores of a name stay (`!dies mireille_`)."""
    while (match := _WRAPPER.match(line)) and match.group(1) == match.group(3)[::-1]:
        line = match.group(2).strip()
    return line

"""Cook raw Markdown/BBCode into HTML shaped like Discourse's (enough to read in a browser).

Quotes become `aside.quote > blockquote`, `>` lines `blockquote`, fenced and `[code]` blocks
`pre > code`, inline backticks `code`, strikethrough `s`, bold `strong`, italics `em`. All
other text is HTML-escaped, so a post can never inject markup into the sandbox's pages.
"""

from __future__ import annotations

import html
import re

_QUOTE_OPEN = re.compile(r"^\[quote(?:=\"?([^\]\"]*)\"?)?\]\s*$", re.IGNORECASE)
_QUOTE_CLOSE = re.compile(r"^\[/quote\]\s*$", re.IGNORECASE)
_FENCE = re.compile(r"^(```|~~~)\s*([\w+-]*)\s*$")
_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"\[b\](.+?)\[/b\]", re.IGNORECASE), r"<strong>\1</strong>"),
    (re.compile(r"~~(.+?)~~"), r"<s>\1</s>"),
    (re.compile(r"\[s\](.+?)\[/s\]", re.IGNORECASE), r"<s>\1</s>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
]


def cook(raw: str) -> str:
    lines = raw.replace("\r\n", "\n").split("\n")
    return "".join(_blocks(lines)).strip()


def _blocks(lines: list[str]):
    paragraph: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        quote = _QUOTE_OPEN.match(line)
        if fence or line.strip().lower() == "[code]":
            yield from _flush(paragraph)
            index = yield from _code(lines, index + 1, fence.group(1) if fence else "[/code]",
                                     fence.group(2) if fence else "")
            continue
        if quote:
            yield from _flush(paragraph)
            index = yield from _quote(lines, index + 1, quote.group(1) or "")
            continue
        if line.startswith(">"):
            yield from _flush(paragraph)
            quoted = []
            while index < len(lines) and lines[index].startswith(">"):
                quoted.append(lines[index][1:].lstrip())
                index += 1
            yield "<blockquote>" + "".join(_blocks(quoted)) + "</blockquote>"
            continue
        if not line.strip():
            yield from _flush(paragraph)
        else:
            paragraph.append(line)
        index += 1
    yield from _flush(paragraph)


def _flush(paragraph: list[str]):
    if paragraph:
        yield "<p>" + "<br>\n".join(_inline(line) for line in paragraph) + "</p>\n"
        paragraph.clear()


def _code(lines, index, closer, language):
    body = []
    while index < len(lines) and lines[index].strip().lower() != closer.lower():
        body.append(lines[index])
        index += 1
    css = f' class="lang-{html.escape(language)}"' if language else ""
    yield f"<pre><code{css}>{html.escape(chr(10).join(body))}</code></pre>\n"
    return index + 1


def _quote(lines, index, attributes):
    depth, body = 1, []
    while index < len(lines):
        if _QUOTE_OPEN.match(lines[index]):
            depth += 1
        elif _QUOTE_CLOSE.match(lines[index]):
            depth -= 1
            if depth == 0:
                break
        body.append(lines[index])
        index += 1
    parts = [p.strip() for p in attributes.split(",")] if attributes else []
    username = html.escape(parts[0]) if parts else ""
    data = "".join(f' data-{k}="{html.escape(v)}"' for k, _, v in
                   (p.partition(":") for p in parts[1:]) if k in ("post", "topic"))
    title = f'<div class="title">{username}:</div>' if username else ""
    yield (f'<aside class="quote" data-username="{username}"{data}>{title}'
           f"<blockquote>{''.join(_blocks(body))}</blockquote></aside>\n")
    return index + 1


def _inline(line: str) -> str:
    text = html.escape(line)
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return text

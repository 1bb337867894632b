"""Cook a post's raw text into HTML the way Discourse shows it, for the sandbox's pages and API.

Theory of operation: Discourse renders Markdown with markdown-it and adds BBCode. Here,
markdown-it-py does the Markdown (CommonMark with Discourse's line breaks, tables and
strikethrough; raw HTML is never passed through, so a post cannot inject markup), and two small
passes add what Discourse adds:

1. block BBCode on lines of their own, outside code fences: `[quote="name, post:N, topic:T"]`
   becomes `aside.quote`, `[details="Summary"]` a `<details>` element, `[spoiler]` a blurred
   block; each body is cooked again (they nest);
2. inline BBCode in the rendered text (never inside `<code>`/`<pre>`): `[date=… time=…
   timezone="UTC"]` shown as a date (`countdown="true"` kept as `data-countdown`), a
   `[date-range from=… to=…]` as two dates with "→" between (Discourse's local-dates plugin,
   plugins/discourse-local-dates/assets/javascripts/lib/discourse-markdown/
   discourse-local-dates.js), `[spoiler]…[/spoiler]`, `[b]`, `[i]`, `[s]`, `[u]`; and an
   uploaded image `![ALT|WxH](upload://…)` pointed at the file the sandbox serves.

`countdowns` does what Discourse's client does to a countdown date when a page shows it
(local-date-builder.js, `_applyFormatting`): the time left, humanized as moment.js does, or
"date has passed".

HTML comments (the bot's `<!-- modbot:… -->` markers) are hidden, as Discourse hides them.
`date_tags` lists the times a raw text's `[date]` tags name (the sandbox's "next deadline").
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

from markdown_it import MarkdownIt

_MARKDOWN = MarkdownIt("commonmark", {"breaks": True, "html": False}).enable(
    ["table", "strikethrough"])
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_BLOCK_OPEN = re.compile(r"^\s*\[(quote|details|spoiler)(?:=\"?([^\]\"]*)\"?)?\]\s*$", re.IGNORECASE)
_BLOCK_CLOSE = re.compile(r"^\s*\[/(quote|details|spoiler)\]\s*$", re.IGNORECASE)
_DATE = re.compile(r"\[date=(\d{4}-\d{2}-\d{2})(?: time=(\d{1,2}:\d{2}(?::\d{2})?))?"
                   r"(?: timezone=(?:&quot;|\")?([\w/+-]+)(?:&quot;|\")?)?([^\]]*)\]")
_RANGE = re.compile(r"\[date-range from=(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)"
                    r" to=(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)"
                    r"(?: timezone=(?:&quot;|\")?([\w/+-]+)(?:&quot;|\")?)?[^\]]*\]")
_RANGED = ' data-range="true"'
_COUNTDOWN_ON = re.compile(r"countdown=(?:&quot;|\")?true")
_COUNTDOWN = re.compile(r'(<span class="discourse-local-date" data-date="([\d-]+)" data-time="([\d:]+)" '
                        r'data-timezone="UTC" data-countdown="true">)[^<]*(</span>)')
_INLINE = [
    (re.compile(r"\[spoiler\](.+?)\[/spoiler\]", re.IGNORECASE | re.DOTALL),
     r'<span class="spoiler" tabindex="0">\1</span>'),
    (re.compile(r"\[b\](.+?)\[/b\]", re.IGNORECASE | re.DOTALL), r"<strong>\1</strong>"),
    (re.compile(r"\[i\](.+?)\[/i\]", re.IGNORECASE | re.DOTALL), r"<em>\1</em>"),
    (re.compile(r"\[s\](.+?)\[/s\]", re.IGNORECASE | re.DOTALL), r"<s>\1</s>"),
    (re.compile(r"\[u\](.+?)\[/u\]", re.IGNORECASE | re.DOTALL), r"<u>\1</u>"),
]
_UPLOAD = re.compile(r'<img src="upload://(\w+\.\w+)" alt="([^"|]*)(?:\|(\d+)x(\d+))?"')
_CODE = re.compile(r"(<pre>.*?</pre>|<code>.*?</code>)", re.DOTALL)


def cook(raw: str) -> str:
    """The HTML Discourse would show for `raw` (its `cooked`)."""
    text = _COMMENT.sub("", raw.replace("\r\n", "\n"))
    return "".join(_blocks(text.split("\n"))).strip()


def date_tags(raw: str) -> list[datetime]:
    """The UTC times named by the [date] tags in `raw`, in order."""
    out = []
    for match in _DATE.finditer(raw):
        moment = _moment(match)
        if moment is not None:
            out.append(moment)
    return out


def countdowns(cooked: str, now: datetime) -> str:
    """The cooked HTML as a reader sees it at `now`: each countdown date shows the time left."""
    def shown(match: re.Match) -> str:
        moment = datetime.fromisoformat(f"{match.group(2)}T{match.group(3)}").replace(tzinfo=UTC)
        left = (moment - now).total_seconds()
        return match.group(1) + (humanized(left) if left > 0 else "date has passed") + match.group(4)
    return _COUNTDOWN.sub(shown, cooked)


def humanized(seconds: float) -> str:
    """moment.js's `duration.humanize()` (its default thresholds: 45 s, 45 min, 22 h, 26 d)."""
    minutes, hours, days = round(seconds / 60), round(seconds / 3600), round(seconds / 86400)
    if seconds < 45:
        return "a few seconds"
    if minutes < 45:
        return "a minute" if minutes <= 1 else f"{minutes} minutes"
    if hours < 22:
        return "an hour" if hours <= 1 else f"{hours} hours"
    if days < 26:
        return "a day" if days <= 1 else f"{days} days"
    months = round(days / 30.4)
    return "a month" if months <= 1 else f"{months} months"


def _blocks(lines: list[str]):
    """Cook lines, turning block BBCode on lines of their own into their HTML."""
    plain: list[str] = []
    index, fenced = 0, False
    while index < len(lines):
        line = lines[index]
        if _FENCE.match(line):
            fenced = not fenced
        opened = None if fenced else _BLOCK_OPEN.match(line)
        if opened is None:
            plain.append(line)
            index += 1
            continue
        yield _markdown(plain)
        plain = []
        body, index = _until_closed(lines, index + 1, opened.group(1).lower())
        yield _wrap(opened.group(1).lower(), opened.group(2) or "", "".join(_blocks(body)))
    yield _markdown(plain)


def _until_closed(lines: list[str], index: int, tag: str) -> tuple[list[str], int]:
    """The body of a block tag opened just before `index`, and the line after its close (an
    unclosed tag runs to the end of the post, as Discourse does)."""
    depth, body = 1, list[str]()
    while index < len(lines):
        opened, closed = _BLOCK_OPEN.match(lines[index]), _BLOCK_CLOSE.match(lines[index])
        if opened and opened.group(1).lower() == tag:
            depth += 1
        elif closed and closed.group(1).lower() == tag:
            depth -= 1
            if depth == 0:
                return body, index + 1
        body.append(lines[index])
        index += 1
    return body, index


def _wrap(tag: str, attributes: str, inner: str) -> str:
    if tag == "details":
        summary = html.escape(attributes or "Details")
        return f"<details><summary>{summary}</summary>{inner}</details>\n"
    if tag == "spoiler":
        return f'<div class="spoiler" tabindex="0">{inner}</div>\n'
    parts = [p.strip() for p in attributes.split(",")] if attributes else []
    username = html.escape(parts[0]) if parts else ""
    data = "".join(f' data-{k}="{html.escape(v.strip())}"' for k, _, v in
                   (p.partition(":") for p in parts[1:]) if k in ("post", "topic"))
    title = f'<div class="title">{username}:</div>' if username else ""
    return (f'<aside class="quote" data-username="{username}"{data}>{title}'
            f"<blockquote>{inner}</blockquote></aside>\n")


def _markdown(lines: list[str]) -> str:
    text = "\n".join(lines)
    if not text.strip():
        return ""
    pieces = _CODE.split(_MARKDOWN.render(text))
    return "".join(piece if index % 2 else _inline(piece) for index, piece in enumerate(pieces))


def _inline(rendered: str) -> str:
    out = _UPLOAD.sub(_upload_html, _DATE.sub(_date_html, _RANGE.sub(_range_html, rendered)))
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _upload_html(match: re.Match) -> str:
    """`![ALT|WxH](upload://…)`: the image at its served address, at its stated size."""
    size = f' width="{match.group(3)}" height="{match.group(4)}"' if match.group(3) else ""
    return f'<img src="/uploads/short-url/{match.group(1)}" alt="{match.group(2)}"{size}'


def _date_html(match: re.Match) -> str:
    moment = _moment(match)
    if moment is None:
        return match.group(0)
    return _local_date(moment, ' data-countdown="true"' if _COUNTDOWN_ON.search(match.group(4)) else "")


def _range_html(match: re.Match) -> str:
    start = _at(match.group(1), match.group(2), match.group(5))
    end = _at(match.group(3), match.group(4), match.group(5))
    if start is None or end is None:
        return match.group(0)
    return f"{_local_date(start, _RANGED)}→{_local_date(end, _RANGED)}"


def _local_date(moment: datetime, extra: str) -> str:
    shown = f"{moment:%a %d %b %Y %H:%M} UTC"
    return (f'<span class="discourse-local-date" data-date="{moment:%Y-%m-%d}" '
            f'data-time="{moment:%H:%M:%S}" data-timezone="UTC"{extra}>{shown}</span>')


def _moment(match: re.Match) -> datetime | None:
    return _at(match.group(1), match.group(2), match.group(3))


def _at(day: str, clock: str | None, zone: str | None) -> datetime | None:
    clock, zone = clock or "00:00", zone or "UTC"
    if zone.upper() not in ("UTC", "ETC/UTC", "GMT"):
        return None  # the bot writes UTC; other zones are shown as written
    try:
        moment = datetime.fromisoformat(f"{day}T{clock if clock.count(':') == 2 else clock + ':00'}")
    except ValueError:
        return None
    return moment.replace(tzinfo=UTC)

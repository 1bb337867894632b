"""Theory of operation: one post's raw text in, the actions it asks for out, in document order.

Like python-chess's `parse_san`, parsing happens in the context of the game: names resolve
against the roster, and a bare "yes" only means something when exactly one nomination is open.
Every command either becomes an action with canonical names or a `Rejection` (unknown,
ambiguous, missing target, ...). Nothing is guessed and nothing raises.

Steps: `countable_text` drops quotes, code, strikethrough and comments; `[vote]X[/vote]` and
`[unvote][/unvote]` are taken from anywhere in a line; every other command is line-anchored
(after list markers, headings and emphasis are peeled off), which keeps prose from voting.
With `forms="forum"` (the default) the forms of other forum games count too (forum_forms.py:
`vote X` and `unvote` on a line, `@bot vote X`, a command after a sentence when its keyword
is written as one), a bare `/vote yes` counts on the only open nomination, a bare unvote
after a vote in the same post withdraws that vote, and a line that is a command's keyword
one letter off, or `vote` and a name nobody has, is answered (a `soft` rejection: the shell
answers those at most once an hour a player). `forms="strict"` reads only the usual forms.
Rule checks (phases, limits, locks) are not the parser's business: see `rules.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..state.actions import (
    NO,
    YES,
    AcceptWhisper,
    AskForCount,
    CallExile,
    ComeBack,
    DeclineWhisper,
    DoomsayerCall,
    Fiddle,
    GiveToken,
    Nominate,
    PlayerAction,
    Point,
    PublicChoice,
    PublicGuess,
    PublicStatement,
    SkipNomination,
    Unvote,
    Vote,
    VoteValue,
    Whisper,
    WhisperStoryteller,
)
from ..state.names import Ambiguous, Roster, Unknown, normalise
from .away_form import read_away
from .forum_forms import ForumLines, command_segments, without_mention
from .parsed import VALUE_WORDS, Collector, ParseResult
from .textclean import countable_text

MAX_LINE = 500  # longer lines are prose, never commands
# the slash commands that name one player, and the action each makes
_ONE_TARGET: dict[str, Callable[[str], PlayerAction]] = {
    "nominate": Nominate, "nom": Nominate, "exile": CallExile, "choose": PublicChoice,
    "point": Point, "fiddle": Fiddle, "give": GiveToken}
# the slash commands said in public and kept as written (the Gossip's, the Doomsayer's call)
_CALLS: dict[str, Callable[[str], PlayerAction]] = {"gossip": PublicStatement, "doomsayer": DoomsayerCall}

_BB_VOTE = re.compile(r"\[(vote|v)\](.*?)\[/\1\]", re.IGNORECASE)  # [v] on Fortress of Lies
_BB_UNVOTE = re.compile(r"\[(unvote|uv)\]\s*(.*?)\s*\[/\1\]", re.IGNORECASE)
_HASH_VOTE = re.compile(r"^#+\s*(un)?vote\b\s*:?\s*(.*)$", re.IGNORECASE)  # Team Liquid's ##vote
_BANG_VOTE = re.compile(r"^!(un)?vote\b\s*:?\s*(.*)$", re.IGNORECASE)  # the Storytellers' form
_FORMAT_TAG = re.compile(
    r"\[/?(?:b|i|u|color|size|font|center|right|left|spoiler|details)\b[^\]]{0,200}\]"
    r"|</?(?:b|strong|em|i|u|span|big|small|font|mark|details|summary)\b[^>]{0,200}>",
    re.IGNORECASE,
)
_LINE_PREFIX = re.compile(r"^\s*(?:[-+*]\s+|\d+[.)]\s+|#{1,6}\s+)?")
_EMPHASIS_EDGE = re.compile(r"^[*_]+|[*_]+$")
_KEYWORD = re.compile(r"([A-Za-z]+)\s*(:)?\s*(.*)$", re.DOTALL)
_SEPARATORS = re.compile(r"\s*[:=\-–—]+\s*|\s*,\s*|\s+")

_SLASH_VALUE_COMMANDS = {
    "yes": YES, "execute": YES, "no": NO, "pardon": NO,
    "hands up": YES, "hand up": YES, "hands down": NO, "hand down": NO,
}
_BARE_VALUES = {"yes": YES, "no": NO, "hands up": YES, "hands down": NO}
_SKIP_LINES = {"/skip", "i am not nominating today", "i'm not nominating today"}
_STORYTELLER_WORDS = {"storyteller", "storytellers", "st", "the storyteller", "host", "hosts"}


def parse_post(
    raw: str,
    roster: Roster,
    open_nominees: tuple[str, ...] = (),
    storytellers: tuple[str, ...] = (),
    *,
    count_spoilers: bool = True,
    forms: str = "forum",
    bot: str = "",
) -> ParseResult:
    """Parse one post (see module docstring). `open_nominees` resolve bare yes/no lines;
    `forms`: "forum" or "strict"; `bot`: the bot's username (a mention of it is skipped)."""
    out = Collector()
    parser = _LineParser(roster, open_nominees, {normalise(s) for s in storytellers}, out,
                         forum=forms == "forum", bot=bot)
    for line in countable_text(raw, count_spoilers=count_spoilers).split("\n"):
        if line.strip() and len(line) <= MAX_LINE:
            parser.parse_line(line)
    if parser.forum:
        out.unvote_after_vote()
    return ParseResult(tuple(out.actions), tuple(out.rejections), tuple(dict.fromkeys(out.hints)))


class _LineParser(ForumLines):
    def __init__(self, roster: Roster, open_nominees: Iterable[str], storytellers: set[str], out: Collector,
                 *, forum: bool = True, bot: str = "") -> None:
        self.roster = roster
        self.open_nominees = tuple(open_nominees)
        self.storytellers = storytellers
        self.out = out
        self.forum = forum
        self.bot = bot

    def parse_line(self, line: str) -> None:
        if not self.forum:
            self._parse_command(line)
            return
        for segment in command_segments(without_mention(line, self.bot)):
            self._parse_command(segment)

    def _parse_command(self, line: str) -> None:
        line = self._take_bbcode_votes(line)
        hashed = _HASH_VOTE.match(_unwrapped(line)) if "#" in line else None
        if hashed:  # before _peel, which would read "## vote" as a heading
            self._vote_or_unvote(hashed, line)
            return
        original, line = line, _peel(line)
        if not line:
            return
        banged = _BANG_VOTE.match(line) if line.startswith("!") else None
        if banged:  # a player's "!vote X": counted, and the usual form suggested
            self.out.hints.append("bang_vote")
            self._vote_or_unvote(banged, line)
            return
        lowered = line.casefold()
        if lowered.rstrip(".!") in _SKIP_LINES:
            self.out.actions.append(SkipNomination())
            return
        if lowered in _BARE_VALUES:
            self._bare_vote(_BARE_VALUES[lowered], line)
            return
        if line.startswith("/"):
            self._slash_command(line)
            return
        if self.forum and self._forum_line(original, line):
            return
        self._keyword_command(line)

    # -- forms ------------------------------------------------------------------------------

    def _take_bbcode_votes(self, line: str) -> str:
        """Vote tags count anywhere in a line, as on other forums."""
        if "[" not in line:
            return line  # no tag at all (most lines of chat)
        for match in _BB_UNVOTE.finditer(line):
            self._unvote(_inside_tag(match.group(2)), match.group(0))
        line = _BB_UNVOTE.sub(" ", line)
        for match in _BB_VOTE.finditer(line):
            self._named_vote(_inside_tag(match.group(2)), match.group(0), YES)
        return _BB_VOTE.sub(" ", line)

    def _vote_or_unvote(self, match: re.Match[str], line: str) -> None:
        rest = _peel(match.group(2))
        if match.group(1):
            self._unvote(rest, line)
        else:
            self._vote_command(rest, line)

    def _slash_command(self, line: str) -> None:
        body = line[1:]
        lowered = body.casefold()
        for phrase, value in _SLASH_VALUE_COMMANDS.items():
            if lowered == phrase or lowered.startswith(phrase + " "):
                rest = body[len(phrase):].strip()
                if rest:
                    self._vote(rest, line, value, allow_value_word=False)
                else:
                    self._bare_vote(value, line)
                return
        verb, _, rest = body.partition(" ")
        verb = verb.casefold().rstrip(":")
        if verb in _ONE_TARGET:  # `/nominate X`, `/exile X`, `/choose X`, `/give X`, ...
            name = self._target(rest.strip(), line)
            if name is not None:
                self.out.actions.append(_ONE_TARGET[verb](name))
            return
        if verb in _CALLS:
            self.out.actions.append(_CALLS[verb](rest.strip()[:MAX_LINE]))
            return
        handler = {
            "vote": self._vote_command, "unvote": self._unvote,
            "whisper": self._whisper, "accept": self._accept, "decline": self._decline,
            "guess": self._guess, "vc": self._ask_for_count,
            "away": self._away, "back": self._back,
        }.get(verb)
        if handler is not None:
            handler(rest.strip(), line)

    def _keyword_command(self, line: str) -> None:
        match = _KEYWORD.match(line)
        if match is None:
            return
        verb, colon, rest = match.group(1).casefold(), match.group(2), match.group(3).strip()
        if verb == "nominate" and colon:
            self._nominate(rest, line)
        elif verb == "nominate" and rest:
            name, remainder = self._leading_name(rest)
            if isinstance(name, str) and not remainder:
                self.out.actions.append(Nominate(name))
            elif isinstance(name, Ambiguous):
                self.out.reject("ambiguous", line, name.candidates)
        elif verb == "vote" and colon:
            self._vote_command(rest, line)
        elif verb == "unvote" and colon:
            self._unvote(rest, line)

    # -- commands ---------------------------------------------------------------------------

    def _ask_for_count(self, rest: str, line: str) -> None:
        if not rest:  # `/vc` alone; `/vc and more` is prose
            self.out.actions.append(AskForCount())

    def _away(self, rest: str, line: str) -> None:
        away = read_away(rest)
        self.out.actions.append(away) if away is not None else self.out.reject("away_form", line)

    def _back(self, rest: str, line: str) -> None:
        if not rest:  # `/back` alone; `/back to the vote` is prose
            self.out.actions.append(ComeBack())

    def _nominate(self, rest: str, line: str) -> None:
        name = self._target(rest, line)
        if name is not None:
            self.out.actions.append(Nominate(name))

    def _guess(self, rest: str, line: str) -> None:
        player, sep, character = rest.rpartition(" as ")
        if not sep or not character.strip():
            self.out.reject("missing_target", line)
            return
        name = self._target(player, line)
        if name is not None:
            self.out.actions.append(PublicGuess(name, character.strip()))

    def _vote_command(self, rest: str, line: str) -> None:
        """/vote X, VOTE: X, /vote yes X, /vote for X: a vote names its player."""
        words = _peel(rest).split()
        if words and words[0].casefold() == "for" and self.roster.resolve_exact("for") is None:
            words = words[1:]
        if words and words[0].casefold() in VALUE_WORDS and self.roster.resolve_exact(words[0]) is None:
            value = VALUE_WORDS[words[0].casefold()]
            if len(words) == 1 and self.forum:  # "/vote yes": the only open nomination
                self._bare_vote(value, line)
                return
            self._named_vote(" ".join(words[1:]), line, value, False)
        else:
            self._named_vote(" ".join(words), line, YES)

    def _named_vote(self, rest: str, line: str, value: VoteValue, allow_value_word: bool = True) -> None:
        """A vote whose player slot is empty names nobody: it is refused, never counted on
        the only open nomination (only the bare words do that)."""
        if not rest.strip():
            self.out.reject("vote_needs_name", line)
            return
        self._vote(rest, line, value, allow_value_word)

    def _vote(self, rest: str, line: str, value: VoteValue, allow_value_word: bool = True) -> None:
        if not rest.strip():
            self._bare_vote(value, line)
            return
        name, remainder = self._leading_name(rest)
        if not isinstance(name, str):
            self._reject_name(name, line)
            return
        if allow_value_word and remainder and remainder[0].casefold() in VALUE_WORDS:
            value = VALUE_WORDS[remainder[0].casefold()]
        self.out.actions.append(Vote(name, value))

    def _bare_vote(self, value: VoteValue, line: str) -> None:
        if len(self.open_nominees) == 1:
            self.out.actions.append(Vote(self.open_nominees[0], value))
        else:
            self.out.reject("no_single_open_nomination", line, self.open_nominees)

    def _unvote(self, rest: str, line: str) -> None:
        if not rest.strip():
            self.out.actions.append(Unvote(None))
            return
        name, _ = self._leading_name(rest)
        if isinstance(name, str):
            self.out.actions.append(Unvote(name))
        else:
            self._reject_name(name, line)

    def _whisper(self, rest: str, line: str) -> None:
        if normalise(rest) in _STORYTELLER_WORDS or normalise(rest) in self.storytellers:
            self.out.actions.append(WhisperStoryteller())
            return
        words = [w for w in _SEPARATORS.split(rest) if w and w.casefold() not in ("and", "&")]
        if not words:
            self.out.reject("missing_target", line)
            return
        names: list[str] = []
        while words:
            name, words = self._leading_name(" ".join(words))
            if not isinstance(name, str):
                self._reject_name(name, line)
                return
            if name not in names:
                names.append(name)
        self.out.actions.append(Whisper(tuple(names)))

    def _accept(self, rest: str, line: str) -> None:
        self._answer_whisper(rest, line, AcceptWhisper)

    def _decline(self, rest: str, line: str) -> None:
        self._answer_whisper(rest, line, DeclineWhisper)

    def _answer_whisper(self, rest: str, line: str, kind: type[AcceptWhisper | DeclineWhisper]) -> None:
        if not rest.strip():
            self.out.actions.append(kind(None))
            return
        name = self._target(rest, line)
        if name is not None:
            self.out.actions.append(kind(name))

    # -- names ------------------------------------------------------------------------------

    def _target(self, rest: str, line: str) -> str | None:
        if not rest.strip():
            self.out.reject("missing_target", line)
            return None
        name, _ = self._leading_name(rest)
        if isinstance(name, str):
            return name
        self._reject_name(name, line)
        return None

    def _leading_name(self, rest: str) -> tuple[str | Ambiguous | Unknown, list[str]]:
        """Resolve the longest leading run of words naming a player; return (name, rest)."""
        words = [w for w in rest.split() if w]
        for count in range(len(words), 0, -1):
            exact = self.roster.resolve_exact(" ".join(words[:count]))
            if exact is not None:
                return exact, words[count:]
        if not words:
            return Unknown(rest), []
        first = self.roster.resolve(words[0])
        if isinstance(first, str):
            return first, words[1:]
        whole = self.roster.resolve(" ".join(words))
        if isinstance(whole, str):
            return whole, []
        return first, words[1:]

    def _reject_name(self, resolution: Ambiguous | Unknown, line: str) -> None:
        if isinstance(resolution, Ambiguous):
            self.out.reject("ambiguous", line, resolution.candidates)
        else:
            self.out.reject("unknown_player", line, resolution.suggestions)


def _inside_tag(text: str) -> str:
    """What a vote tag holds, without formatting or a repeated "vote": [vote]**X**[/vote],
    [vote][color=red]X[/color][/vote], [vote]vote X[/vote]."""
    text = _peel(text)
    return re.sub(r"^(?:un)?vote\b\s*:?\s*", "", text, flags=re.IGNORECASE)


def _unwrapped(line: str) -> str:
    """A line without formatting tags and emphasis around it (`**##vote X**`)."""
    line = _FORMAT_TAG.sub("", line).strip()
    previous = None
    while previous != line:
        previous = line
        line = _EMPHASIS_EDGE.sub("", line).strip()
    return line


def _peel(line: str) -> str:
    """Strip formatting tags, list/heading markers and emphasis around a line (each pass
    only where its marks can be: most lines of chat have none)."""
    if "[" in line or "<" in line:
        line = _FORMAT_TAG.sub("", line)
    line = _LINE_PREFIX.sub("", line, count=1)
    if "*" not in line and "_" not in line:
        return line.strip()
    previous = None
    while previous != line:
        previous = line
        line = _EMPHASIS_EDGE.sub("", line.strip()).strip()
    return line

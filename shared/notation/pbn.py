"""PBN 2.1 (Portable Bridge Notation) records as events.

A game is its tag pairs (`[Board "7"]`, the players' names in `[North "Ann"]` …) and sections
(`[Auction "N"]` followed by the calls, four a line). Other tags (`[Event]`, `[Table]`, …) and
commentary (`{ … }`, `;`, `%` lines) are read over. In the auction: `Pass`, `X`, `XX`, bids,
`AP` (all pass: the passes that end the auction), `=n=` (note n, the call's explanation, in
`[Note "n:text"]`), suffixes `!` (alert) and `?`, `$n`, and the irregularity markers of PBN
2.1 section 3.9: `^I` (the next bid is insufficient and was accepted) and `^S` (a player
skipped by an accepted call out of rotation). The play: `[Play "E"]` and a trick a line, the
cards in columns from the opening leader's, `-` for a card not played, `^L` before a lead out
of turn (the trick is played from it), `*` at the end; and
`[Result]` (declarer's tricks, or a side's: `NS 11`), which closes a play the cards leave
open (`shared.notation.play_record`).

A game that cannot be read (a line that is not a tag pair, a tag value out of its form, a call
that is none, …) is skipped and reported by `pbn_boards`; `pbn_events` reads all or nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from shared.calls import ALL_CALLS, PASS, Call
from shared.deal import format_deal, parse_deal
from shared.notation.errors import ReadResult, RecordError, SkippedBoard
from shared.notation.pbn_play import CLAIM, play_events
from shared.seats import NotationError, Seat, Vulnerability

_SEAT_TAGS = (("North", Seat.N), ("East", Seat.E), ("South", Seat.S), ("West", Seat.W))
# the tags the reader reads
_USED = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Score",
         "OptimumScore", "Auction", "Play", "Note", "North", "East", "South", "West",
         "NorthId", "EastId", "SouthId", "WestId")
_VALUE = r'"([^"\\\n]*(?:\\.[^"\\\n]*)*)"'
_NAMES = "|".join(_USED)
# One pass over the file finds the empty lines that end games and the tags the reader uses;
# the lines it passes over (other tags, sections the reader does not use, comments) cost
# nothing in Python. Another pass, before it, finds any line that starts like a tag and is not
# a tag pair (its game cannot be read).
_SCAN = re.compile(r"\n[ \t]*(?:((?=\n))|\[[ \t]*(" + _NAMES + r")[ \t]+" + _VALUE
                   + r"[ \t]*\][ \t]*(?=\n))")  # 1: an empty line; 2, 3: a tag the reader uses
_BAD_TAG = re.compile(r"\n[ \t]*\[(?![ \t]*[A-Za-z0-9_]+[ \t]+" + _VALUE + r"[ \t]*\][ \t]*\n)")
_BLOCK_COMMENT = re.compile(r"\n[ \t]*\{[^}]*(?:\}[^\n]*|\Z)")  # { … }, over lines
_SECTION_END = re.compile(r"\n[ \t]*(?:\[|$)", re.M)  # a tag line or an empty line
_ESCAPE = re.compile(r"\\(.)")
_NOTE = re.compile(r"=(\w+)=")
_SCORE = re.compile(r"(NS|EW) [+-]?\d+")
_RESULT = re.compile(r"(?:(?:NS|EW) )?(?:1[0-3]|[0-9])")
_CONTRACT = re.compile(r"Pass|[1-7](NT|[CDHS])[Xx]{0,2}")
_COMMENT = ("%", ";")
_PLAIN_CALLS = {call.text: call for call in ALL_CALLS} | {"Pass": PASS}  # most auction tokens
_CONTROL = re.compile("[\x00-\x1f\x7f]")
MAX_NAME = 64  # as the codec allows (`players_named`)
Names = dict[str, str]


class _Lines:
    """Line numbers of positions in a text that starts with an extra newline, counted
    forward from the last one asked (positions mostly come in order)."""

    def __init__(self, text: str) -> None:
        self.text, self.position, self.line = text, 0, 0

    def at(self, position: int) -> int:
        """The line of the character after the newline at `position`."""
        if position < self.position:
            self.position, self.line = 0, 0
        self.line += self.text.count("\n", self.position, position + 1)
        self.position = position + 1
        return self.line


@dataclass
class Game:
    tags: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # tag → line
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # (line, text)
    notes: dict[str, str] = field(default_factory=dict)
    hands: dict[Seat, str] | None = None  # the parsed Deal tag
    error: tuple[int, str] | None = None  # the line and the first problem, if any

    def fail(self, line: int, problem: str) -> None:
        """A problem at `line`: the game cannot be read (the first problem is kept)."""
        if self.error is None or line < self.error[0]:
            self.error = (line, problem)

    @property
    def number(self) -> int | None:
        board = self.tags.get("Board", "")
        return int(board) if board.isdigit() else None


_PLAIN = {"Dealer": {"N", "E", "S", "W"}, "Declarer": {"N", "E", "S", "W", ""},
          "Vulnerable": {"None", "NS", "EW", "All", "Both", "Love", "-"}}  # checked at a glance


def _check_tag(game: Game, name: str, value: str) -> None:
    """The tags whose values the engine reads, or that the PBN standard fixes the form of."""
    if value in ("", "?", "#") or value in _PLAIN.get(name, ()):
        return
    if name == "Board" and not (value.isdigit() and int(value) >= 1):
        raise NotationError(f"tag Board: {value!r} is not a board number")
    if name == "Dealer":
        Seat.parse(value)
    elif name == "Vulnerable":
        Vulnerability.parse(value)
    elif name == "Deal":
        game.hands = parse_deal(value)
    elif name == "Declarer" and value.lstrip("^") not in ("N", "E", "S", "W"):
        raise NotationError(f"tag Declarer: {value!r} is not a seat")
    elif name == "Contract" and not _CONTRACT.fullmatch(value):
        raise NotationError(f"tag Contract: {value!r} is not a contract")
    elif name == "Result" and not _RESULT.fullmatch(value):
        raise NotationError(f"tag Result: {value!r} is not a number of tricks (0 to 13)")
    elif name in ("Score", "OptimumScore") and not _SCORE.fullmatch(value):
        raise NotationError(f"tag {name}: {value!r} is not a score such as 'NS 420'")


def _blank_block_comments(text: str) -> str:
    """`{ … }` comments become `%` lines: the line count stays, and a comment never ends a
    game the way an empty line does. A claim our writer notes (`{Claim by …}`,
    `shared.notation.claim_note`) becomes one line in its place, which the play section
    keeps."""
    return _BLOCK_COMMENT.sub(_blank, text)


def _blank(match: re.Match[str]) -> str:
    comment = match.group()
    lines = comment.count("\n")
    body = comment.lstrip()
    end = body.find("}")
    if body.startswith(CLAIM) and end > 0:
        return "\n" + " ".join(body[:end].split()) + "}" + "\n%" * (lines - 1)
    return "\n%" * lines


def _section(text: str, end: int, tag_line: int) -> list[tuple[int, str]]:
    """The lines (number, text) of the section whose tag, on `tag_line`, ends at `end`: up to
    the next tag line or empty line."""
    tag, empty = text.find("\n[", end), text.find("\n\n", end)
    stop = min(tag if tag >= 0 else len(text), empty if empty >= 0 else len(text))
    chunk = text[end + 1:stop]
    if "\n " in chunk or "\n\t" in chunk:  # indented lines: one may be a tag, or empty
        found = _SECTION_END.search(text, end)
        chunk = text[end + 1:found.start() if found else len(text)]
    return [(n, line) for n, line in enumerate(map(str.strip, chunk.split("\n")), tag_line + 1)
            if line and line[0] not in _COMMENT]


def _check_starts(text: str, position: int, game: Game) -> None:
    """The first line of a game (after `position`, a newline) that is not a comment must be a
    tag pair: anything else is text outside a game, and the game cannot be read."""
    while True:
        end = text.find("\n", position + 1)
        line = text[position + 1:end if end >= 0 else len(text)].strip()
        if line[:1] == "[" or (end < 0 and not line):
            return
        if line and not line.startswith(_COMMENT):
            game.fail(_line_at(text, position), f"text outside a game: {line[:60]!r}")
            return
        if end < 0:
            return
        position = end


def _line_at(text: str, position: int) -> int:
    """The line of the character after the newline at `position` (for problems: rare)."""
    return text.count("\n", 0, position + 1)


def _check_bad_tags(text: str, game: Game, bad: list[int], start: int, end: int) -> None:
    """Lines that start like a tag and are not tag pairs (at `bad`), within the game's text
    from `start` to `end`: the game cannot be read."""
    for position in bad:
        if start <= position < end:
            line = text[position + 1:].split("\n", 1)[0].strip()
            game.fail(_line_at(text, position), f"not a tag pair: {line[:60]!r}")
            return


def read_games(text: str) -> list[Game]:
    """The games of a PBN file, with the tags and the sections the reader uses, and the first
    problem of each game that cannot be read (`Game.error`). Games are separated by empty
    lines; `%` and `;` lines and `{ … }` blocks are comments."""
    text = "\n" + text.replace("\r\n", "\n").replace("\r", "\n") + "\n"
    if "{" in text:
        text = _blank_block_comments(text)
    lines = _Lines(text)
    bad = [match.start() for match in _BAD_TAG.finditer(text)]  # mostly none
    games: list[Game] = []
    game = Game()
    previous: dict[str, str] = {}
    start = 0  # where the game's text starts
    if text[1:2] != "[":
        _check_starts(text, 0, game)
    for match in _SCAN.finditer(text):
        gap, name, value = match.groups()
        if gap is not None:  # an empty line: the game, if any, ends
            if bad:
                _check_bad_tags(text, game, bad, start, match.start())
            if game.tags or game.notes or game.error:
                games.append(game)
                previous, game = game.tags, Game()
            start = match.end()
            if text[match.end() + 1:match.end() + 2] != "[":
                _check_starts(text, match.end(), game)
            continue
        if "\\" in value:
            value = _ESCAPE.sub(r"\1", value)
        if value == "#":
            value = previous.get(name, "")
        if name == "Note":
            key, _, note = value.partition(":")
            game.notes[key.strip()] = note.lstrip()  # "1: text" is common
            continue
        try:
            _check_tag(game, name, value)
        except NotationError as exc:
            game.fail(lines.at(match.start()), str(exc))
            continue
        game.tags[name] = value
        if name in ("Auction", "Play"):
            game.lines[name] = lines.at(match.start())
            game.sections[name] = _section(text, match.end(), game.lines[name])
    if bad:
        _check_bad_tags(text, game, bad, start, len(text))
    if game.tags or game.notes or game.error:
        games.append(game)
    return games


def _call(token: str, line: int) -> Call:
    """The call of an auction token (`1NT`, `Pass!`, `X?`)."""
    try:
        return Call.parse(token.rstrip("!?"))
    except NotationError as exc:
        raise RecordError(line, str(exc)) from None


def _auction_events(game: Game, dealer: Seat) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    seat = dealer
    passes, calls = 0, 0
    for number, line in game.sections.get("Auction", []):
        for token in line.split():
            call = _PLAIN_CALLS.get(token)  # a call without marks: the usual token
            if call is None:
                if token == "*" or token.startswith("$") or token in ("-", "+"):
                    continue
                note = _NOTE.fullmatch(token) if token[0] == "=" else None
                if note:
                    if not events:
                        raise RecordError(number, f"note {token} before any call")
                    text = game.notes.get(note.group(1))
                    if text is None:
                        raise RecordError(number, f"note {token} has no [Note] tag")
                    events[-1]["explanation"] = text
                    continue
                if token == "^S":  # the player skipped by an accepted call out of rotation
                    seat = seat.lho
                    continue
                token = token.removeprefix("^I")
                if not token:
                    continue
                if token.upper() == "AP":
                    while not (passes >= 3 and calls > 3) and passes < 4:
                        events.append({"type": "call", "seat": seat.letter, "call": "P"})
                        seat, passes, calls = seat.lho, passes + 1, calls + 1
                    continue
                call = _call(token, number)
            event: dict[str, Any] = {"type": "call", "seat": seat.letter, "call": call.text}
            if token[-1] == "!":
                event["alert"] = True
            events.append(event)
            passes = passes + 1 if call.is_pass else 0
            seat, calls = seat.lho, calls + 1
    return events


def pbn_boards(text: str) -> ReadResult:
    """The events of every board of a PBN file that can be read, in file order:
    `board_started` (board, dealer, vulnerability, deal), `players_named` (the `[North]` …
    tags, when they change from the board before), the calls with alerts and explanations,
    and the opening lead; and the games skipped (the line and the problem)."""
    events: list[dict[str, Any]] = []
    skipped: list[SkippedBoard] = []
    names: Names = {}  # the names the boards read so far leave at the seats
    for game in read_games(text):
        if game.error is not None:
            skipped.append(SkippedBoard(game.number, *game.error))
            continue
        try:
            board = _game_events(game)
        except RecordError as exc:
            skipped.append(SkippedBoard(game.number, exc.line, exc.reason))
            continue
        if board:
            board[1:1], names = _players(game, names)
        events += board
    return ReadResult(events, skipped)


def _players(game: Game, before: Names) -> tuple[list[dict[str, Any]], Names]:
    """The `players_named` event of a game's `[North]`, `[East]`, `[South]` and `[West]` tags,
    with the IDs of its `[NorthId]` … tags (`shared.notation.export.seat_id_tags`), (none if
    the board leaves at the seats the names and IDs the boards before left), and the names
    after it. An unknown name (`?`) or a tag left out is nobody named: the fold would carry
    the previous board's names otherwise."""
    names = {seat.name: _name(game.tags.get(tag, "")) for tag, seat in _SEAT_TAGS}
    ids = {seat.name: pid for tag, seat in _SEAT_TAGS
           if names[seat.name] and (pid := _name(game.tags.get(f"{tag}Id", "")))}
    seen = {**{s: n for s, n in names.items() if n},
            **{f"{s}Id": i for s, i in ids.items()}}  # a seat's name and its ID, together
    if seen == {s: n for s, n in before.items() if n}:
        return [], before
    event: dict[str, Any] = {"type": "players_named", "players": names}
    if ids:
        event["ids"] = ids
    return [event], seen


def _name(value: str) -> str:
    """A player's name as the engine keeps it: `?` (unknown) is none, at most 64
    characters, no control characters."""
    name = _CONTROL.sub("", value).strip()
    return "" if name == "?" else name[:MAX_NAME].strip()


def pbn_events(text: str) -> list[dict[str, Any]]:
    """The events of every board of a PBN file (see `pbn_boards`); a game that cannot be read
    raises `RecordError` (all or nothing)."""
    return pbn_boards(text).all_or_nothing()


def _game_events(game: Game) -> list[dict[str, Any]]:
    """The events of a game; none if it is not a board (an event header, a game without a
    deal)."""
    if game.number is None or not game.tags.get("Deal", "").strip("?"):
        return []
    hands = game.hands if game.hands is not None else parse_deal(game.tags["Deal"])
    start: dict[str, Any] = {"type": "board_started", "board": game.number,
                             "deal": format_deal(hands)}
    if game.tags.get("Dealer", "?") not in ("", "?"):
        start["dealer"] = game.tags["Dealer"]
    if game.tags.get("Vulnerable", "?") not in ("", "?"):
        start["vulnerability"] = str(Vulnerability.parse(game.tags["Vulnerable"]))
    events = [start]
    auction_dealer = game.tags.get("Auction", "")
    if auction_dealer in ("", "?"):
        return events
    try:
        dealer = Seat.parse(auction_dealer)
    except NotationError as exc:
        raise RecordError(game.lines["Auction"], str(exc)) from None
    events += _auction_events(game, dealer)
    events += play_events(events, game.tags, game.sections.get("Play", []),
                          game.lines.get("Play", 0))
    return events

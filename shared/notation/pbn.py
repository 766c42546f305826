"""PBN 2.1 (Portable Bridge Notation) records as events.

A game is its tag pairs (`[Board "7"]`) and sections (`[Auction "N"]` followed by the calls,
four a line). In the auction: `Pass`, `X`, `XX`, bids, `AP` (all pass: the passes that end the
auction), `=n=` (note n, the call's explanation, in `[Note "n:text"]`), suffixes `!` (alert) and
`?`, `$n`,
and the irregularity markers of PBN 2.1 section 3.9: `^I` (the next bid is insufficient and was
accepted) and `^S` (a player skipped by an accepted call out of rotation).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from shared.calls import Call
from shared.cards import Card
from shared.deal import format_deal, parse_deal
from shared.notation.errors import RecordError
from shared.seats import NotationError, Seat, Vulnerability

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_SCORE = re.compile(r"(NS|EW) [+-]?\d+")
_CONTRACT = re.compile(r"Pass|[1-7](NT|[CDHS])[Xx]{0,2}")


@dataclass
class Game:
    tags: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # tag → line
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)


def _check_tag(name: str, value: str, line: int) -> None:
    """The tags whose values the engine reads, or that the PBN standard fixes the form of."""
    if value in ("", "?", "#"):
        return
    try:
        if name == "Board" and not (value.isdigit() and int(value) >= 1):
            raise NotationError(f"tag Board: {value!r} is not a board number")
        if name == "Dealer":
            Seat.parse(value)
        if name == "Vulnerable":
            Vulnerability.parse(value)
        if name == "Deal":
            parse_deal(value)
        if name == "Declarer" and value.lstrip("^") not in ("N", "E", "S", "W"):
            raise NotationError(f"tag Declarer: {value!r} is not a seat")
        if name == "Contract" and not _CONTRACT.fullmatch(value):
            raise NotationError(f"tag Contract: {value!r} is not a contract")
        if name in ("Score", "OptimumScore") and not _SCORE.fullmatch(value):
            raise NotationError(f"tag {name}: {value!r} is not a score such as 'NS 420'")
    except NotationError as exc:
        raise RecordError(line, str(exc)) from None


def read_games(text: str) -> list[Game]:
    games: list[Game] = []
    game: Game | None = None
    section: str | None = None
    previous: dict[str, str] = {}
    in_comment = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if in_comment:
            in_comment = "}" not in line
            continue
        if line.startswith("{"):
            in_comment = "}" not in line
            continue
        if line.startswith(("%", ";")):
            continue
        if not line:
            if game is not None:
                games.append(game)
                previous, game, section = dict(game.tags), None, None
            continue
        if line.startswith("["):
            match = _TAG.fullmatch(line)
            if match is None:
                raise RecordError(number, f"not a tag pair: {line[:60]!r}")
            name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
            game = game or Game()
            if value == "#":
                value = previous.get(name, "")
            if name == "Note":
                key, _, note = value.partition(":")
                game.notes[key.strip()] = note.lstrip()  # "1: text" is common
                continue
            _check_tag(name, value, number)
            game.tags[name], game.lines[name] = value, number
            section = name
            game.sections.setdefault(name, [])
            continue
        if game is None or section is None:
            raise RecordError(number, f"text outside a game: {line[:60]!r}")
        game.sections[section].append((number, line))
    if game is not None:
        games.append(game)
    return games


def _auction_events(game: Game, dealer: Seat) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    seat = dealer
    passes, calls = 0, 0
    for number, line in game.sections.get("Auction", []):
        for token in line.split():
            if token == "*" or token.startswith("$") or token in ("-", "+"):
                continue
            note = re.fullmatch(r"=(\w+)=", token)
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
                    events.append({"type": "call", "seat": seat.name, "call": "P"})
                    seat, passes, calls = seat.lho, passes + 1, calls + 1
                continue
            alerted = token.endswith("!")
            text = token.rstrip("!?")
            try:
                call = Call.parse(text)
            except NotationError as exc:
                raise RecordError(number, str(exc)) from None
            event: dict[str, Any] = {"type": "call", "seat": seat.name, "call": str(call)}
            if alerted:
                event["alert"] = True
            events.append(event)
            passes = passes + 1 if call.is_pass else 0
            seat, calls = seat.lho, calls + 1
    return events


def pbn_events(text: str) -> list[dict[str, Any]]:
    """The events of every board of a PBN file, in file order: `board_started` (board, dealer,
    vulnerability, deal), the calls with alerts and explanations, and the opening lead."""
    events: list[dict[str, Any]] = []
    for game in read_games(text):
        board_text = game.tags.get("Board", "")
        if not board_text.isdigit() or not game.tags.get("Deal", "").strip("?"):
            continue  # not a board (an event header, a game without a deal)
        start: dict[str, Any] = {"type": "board_started", "board": int(board_text),
                                 "deal": format_deal(parse_deal(game.tags["Deal"]))}
        if game.tags.get("Dealer", "?") not in ("", "?"):
            start["dealer"] = game.tags["Dealer"]
        if game.tags.get("Vulnerable", "?") not in ("", "?"):
            start["vulnerability"] = str(Vulnerability.parse(game.tags["Vulnerable"]))
        events.append(start)
        auction_dealer = game.tags.get("Auction", "")
        if auction_dealer in ("", "?"):
            continue
        try:
            dealer = Seat.parse(auction_dealer)
        except NotationError as exc:
            raise RecordError(game.lines["Auction"], str(exc)) from None
        events += _auction_events(game, dealer)
        leader = game.tags.get("Play", "")
        plays = game.sections.get("Play", [])
        if leader not in ("", "?") and plays:
            number, first = plays[0]
            card = first.split()[0] if first.split() else "-"
            if card not in ("-", "*"):
                try:
                    Card.parse(card)
                except NotationError as exc:
                    raise RecordError(number, str(exc)) from None
                events.append({"type": "opening_lead", "seat": Seat.parse(leader).name,
                               "card": card.upper()})
    return events

"""The play of a PBN game as events: the `[Play]` section (PBN 2.1 section 3.6, with section
3.9's `^L` and `^R`), `[Result]`, and the claim our writer notes after the play (`{Claim by
…}`, `shared.notation.claim_note`), handed to `shared.notation.play_record`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from shared.cards import Card
from shared.notation.claim_note import PREFIX, ClaimNote, read_claim_note
from shared.notation.errors import RecordError
from shared.notation.play_record import RecordedPlay, Row
from shared.seats import NotationError, Seat

CLAIM = "{" + PREFIX  # a comment that notes a claim
T = TypeVar("T")


def play_events(events: list[dict[str, Any]], tags: dict[str, str],
                lines: list[tuple[int, str]], tag_line: int) -> list[dict[str, Any]]:
    """The play of a game whose board and auction are `events`: the cards of its play
    section (`lines`, after the `[Play]` tag on `tag_line`), then the events that close the
    play with its `[Result]` (the claim noted, if any). A card the play cannot take (played
    twice, …) raises `RecordError` at the `[Play]` tag's line."""
    leader = tags.get("Play", "")
    rows = _play_rows(lines) if leader not in ("", "?") else []
    tricks = _result(tags)
    if not rows and tricks is None:
        return []
    play = RecordedPlay(events)
    out = []
    if rows:
        try:
            out += play.by_trick(_parsed(Seat.parse, leader, tag_line), rows)
        except NotationError as exc:
            raise RecordError(tag_line, str(exc)) from None
    return out + play.close(tricks, claim_in(lines))


def claim_in(lines: list[tuple[int, str]]) -> ClaimNote | None:
    """The claim noted in a play section (the comment made one line by the reader)."""
    for _, line in lines:
        if line.startswith(CLAIM) and line.endswith("}"):
            return read_claim_note(line[1:-1])
    return None


def _play_rows(lines: list[tuple[int, str]]) -> list[Row]:
    """The tricks of the play section (PBN 2.1 section 3.6): four cards a trick, in columns
    from the opening leader's, `-` for a card not played, `*` ends the play; notes (`=n=`),
    `$n`, `!` and `?` are left out. Section 3.9's `^L` marks the next card as its trick's
    lead, out of turn (`Row.lead`); `^R` (a revoke) is left out: the fold finds revokes in
    the deal (Law 61A)."""
    cards: list[Card | None] = []
    leads: dict[int, int] = {}  # trick → the column of its lead out of turn
    for number, line in lines:
        if line.startswith("{"):  # a claim noted (`claim_in`)
            continue
        for token in line.split():
            if token == "*":
                return _rows(cards, leads)
            if token[0] == "^":  # `^L`, `^R`, before a card or a token of their own
                if token[1:2] == "L":
                    leads[len(cards) // 4] = len(cards) % 4
                token = token[2:]
                if not token:
                    continue
            if token[0] in "=$^" or token == "+":
                continue
            if token == "-":
                cards.append(None)
            else:
                cards.append(_parsed(Card.parse, token.rstrip("!?"), number))
    return _rows(cards, leads)


def _rows(cards: list[Card | None], leads: dict[int, int]) -> list[Row]:
    rows = [Row(cards[i:i + 4], leads.get(i // 4)) for i in range(0, len(cards), 4)]
    return [row for row in rows if any(card is not None for card in row.cards)]


def _result(tags: dict[str, str]) -> int | None:
    """`[Result]`: declarer's tricks (`9`), or a side's (`NS 11`, PBN 2.1 section 3.4.15 for
    a result by side); None if unknown or passed out."""
    value = tags.get("Result", "")
    if value in ("", "?", "-"):
        return None
    side, _, number = value.rpartition(" ")
    tricks = int(number)
    declarer = tags.get("Declarer", "").lstrip("^")
    if side and declarer in ("N", "E", "S", "W") and side != Seat.parse(declarer).side:
        tricks = 13 - tricks
    return tricks


def _parsed(parse: Callable[[str], T], text: str, line: int) -> T:
    """`parse(text)`, or the problem as a `RecordError` at `line`."""
    try:
        return parse(text)
    except NotationError as exc:
        raise RecordError(line, str(exc)) from None

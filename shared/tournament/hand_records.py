"""A tournament's hand records (docs/scoring.md): each board's deal with its double-dummy table
and par (`shared.notation.double_dummy`), at the dealer and vulnerability the board has, as the
results page and the printable hand-record page show them and as PBN 2.1 writes them.

Which boards a reader may see is the gateway's to say (the public: those no table of the
movement has still to play, Laws 80B and 16C1, `shared.tournament.public_boards`; the Director:
every one); a board shown whose record is not solved yet is `pending`.

Pure: the gateway gives the records solved (board → `HandRecord.to_map()`, as Redis keeps
them) and the boards shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from shared.codec import from_map
from shared.events import BoardStarted
from shared.notation.double_dummy import DoubleDummy, Par, pbn_tags
from shared.notation.export import PBN_VULNERABLE
from shared.seats import Seat, Vulnerability
from shared.tournament.session import Tournament

READY = "ready"  # a board shown with its table and par
PENDING = "pending"  # a board shown whose table is still being solved
FAILED = "failed"  # a board the solver could not solve (its deal is not 52 cards, say)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One board's record: its deal, dealer and vulnerability, double-dummy table and par."""

    board: int
    dealer: Seat
    vulnerability: Vulnerability
    deal: str
    table: DoubleDummy
    par: Par

    def to_map(self) -> dict[str, Any]:
        return {"board": self.board, "dealer": self.dealer.name,
                "vulnerable": str(self.vulnerability), "deal": self.deal,
                "double_dummy": self.table.to_map(), "par": self.par.to_map()}

    @staticmethod
    def from_map(m: Mapping[str, Any]) -> HandRecord:
        return HandRecord(int(m["board"]), Seat.parse(m["dealer"]),
                          Vulnerability.parse(m["vulnerable"]), str(m["deal"]),
                          DoubleDummy.from_map(m["double_dummy"]), Par.from_map(m["par"]))


def board_of(made: Tournament, board: int) -> BoardStarted:
    """Board `board` as a round starts it: its deal, and the dealer and vulnerability the
    dealing program's file gave, else its number's (Law 2)."""
    return started_of(board, made.deals[board])


def started_of(board: int, fields: Mapping[str, Any]) -> BoardStarted:
    """A board from a tournament's deal's fields (`Tournament.deals[board]`)."""
    started = from_map({**fields, "type": "board_started", "board": board})
    assert isinstance(started, BoardStarted)
    return started


def document(made: Tournament, records: Mapping[int, Mapping[str, Any]], shown: Iterable[int],
             failed: Iterable[int] = ()) -> dict[str, Any]:
    """The hand records of the boards `shown` (board order): each `ready` with its deal,
    table and par, or `pending`/`failed` with its dealer and vulnerability alone (no deal
    until the table is there: the page shows both together). `withheld`: how many of the
    tournament's boards the reader may not see yet."""
    visible = sorted(set(shown) & set(made.deals))
    lost = set(failed)
    boards = []
    for number in visible:
        if number in records:
            boards.append({**HandRecord.from_map(records[number]).to_map(), "status": READY})
            continue
        started = board_of(made, number)
        boards.append({"board": number, "dealer": started.dealer.name,
                       "vulnerable": str(started.vulnerability),
                       "status": FAILED if number in lost else PENDING})
    return {"tournament": made.tournament, "name": made.name, "boards": boards,
            "withheld": len(made.deals) - len(visible),
            "ready": sum(1 for b in boards if b["status"] == READY)}


def _quoted(text: str) -> str:
    return '"' + " ".join(text.split()).replace("\\", "\\\\").replace('"', '\\"') + '"'


def pbn_document(made: Tournament, doc: Mapping[str, Any]) -> str:
    """The ready boards of a hand-records `document` as a PBN 2.1 export file: a game a board
    with the mandatory tags (no players, no contract: a hand record's are empty) and its
    `OptimumScore`, `ParContract` and `OptimumResultTable`."""
    games = []
    for line in doc["boards"]:
        if line["status"] != READY:
            continue
        record = HandRecord.from_map(line)
        games.append("\n".join([
            f"[Event {_quoted(made.name)}]", f"[Site {_quoted(made.site or '?')}]",
            f"[Date {_quoted((made.date or '?').replace('-', '.'))}]",
            f'[Board "{record.board}"]', '[West ""]', '[North ""]', '[East ""]',
            '[South ""]', f'[Dealer "{record.dealer.name}"]',
            f'[Vulnerable "{PBN_VULNERABLE[str(record.vulnerability)]}"]',
            f'[Deal "{record.deal}"]', '[Scoring ""]', '[Declarer ""]', '[Contract ""]',
            '[Result ""]', *pbn_tags(record.table, record.par)]))
    return "% PBN 2.1\n% EXPORT\n" + "\n\n".join(games) + "\n"


def tags_by_board(records: Mapping[int, Mapping[str, Any]]) -> dict[int, list[str]]:
    """Each solved board's hand-record tags (the Director's export adds them to every game of
    the board)."""
    out = {}
    for number, m in records.items():
        record = HandRecord.from_map(m)
        out[int(number)] = pbn_tags(record.table, record.par)
    return out

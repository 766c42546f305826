"""One player's boards across a tournament's tables: each board he sat at, with its table,
round, seat, partner, contract, result and score (the Director's read; later the player's own
link). Who sat where is the tables' own record (`players_named`: the names at the seats and,
where the Director gave them, the players' IDs, `shared.table.engine`). A player is known by
his ID; at a seat with no ID, by his name (a record written before IDs, or a player who has
none). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_result import contract_line, result_view
from shared.tournament.player_boards_view import PlayerBoard

MAX_PLAYER = 64  # an ID or a name, as the codec takes them (`players_named`)


def seat_of(board: Board, player: str) -> Seat | None:
    """The seat `player` held on `board`: the seat with his ID, else a seat given his name
    and no ID (a seat with another ID is another player of the same name)."""
    for seat, pid in board.player_ids:
        if pid == player:
            return seat
    ids = dict(board.player_ids)
    for seat, name in board.players:
        if name == player and seat not in ids:
            return seat
    return None


def rounds_by_board(round_records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, int], int]:
    """(table, board) → the round that gave the table that board, from the tournament's
    round records (`tables`: each table's boards; a movement's `seatings` too)."""
    out: dict[tuple[str, int], int] = {}
    for record in round_records:
        number = int(record["round"])
        tables: dict[str, Sequence[int]] = dict(record.get("tables") or {})
        for table, seating in (record.get("seatings") or {}).items():
            tables.setdefault(table, seating.get("boards", ()))
        for table, boards in tables.items():
            for board in boards:
                out.setdefault((table, int(board)), number)
    return out


def _result_text(contract: str, tricks: int) -> str:
    """Declarer's tricks against his contract: `=`, `+1`, `-2` (Law 77's odd tricks)."""
    over = tricks - 6 - int(contract[0])
    return "=" if over == 0 else f"{over:+d}"


def board_entry(table: str, round_: int | None, board: Board, seat: Seat) -> PlayerBoard:
    """One board as the player sat at it: where (table, round, seat, his name and ID, his
    partner's name), and once it has its result at the table, the contract, declarer,
    opening lead, declarer's tricks, the result against the contract and the score, NS's
    and his side's (Law 77); before that, only where the board stands (`status`), the
    others null."""
    names, ids = dict(board.players), dict(board.player_ids)
    entry: PlayerBoard = {
        "table": table, "round": round_, "board": board.board, "seat": seat.letter,
        "name": names.get(seat, ""), "id": ids.get(seat), "partner": names.get(seat.partner, ""),
        "status": board.status, "finished": False, "contract": None, "declarer": None,
        "lead": None, "tricks": None, "result": None, "score_ns": None, "score": None}
    line, result = contract_line(board), result_view(board)
    if line is None or result is None:
        return entry
    entry["finished"] = True
    entry["contract"] = contract = str(line["contract"])
    entry["declarer"] = cast(str | None, line.get("declarer"))
    entry["lead"] = cast(str | None, line.get("lead"))
    if isinstance(tricks := line.get("tricks"), int):
        entry["tricks"], entry["result"] = tricks, _result_text(contract, tricks)
    entry["score_ns"] = score_ns = result["score_ns"]
    entry["score"] = score_ns if seat.side == "NS" else -score_ns
    return entry


def player_boards(tables: Mapping[str, Sequence[Board]],
                  rounds: Mapping[tuple[str, int], int], player: str) -> list[PlayerBoard]:
    """Every board `player` (an ID, or a name) sat at, round by round (a board no round
    gave last), in each round table by table in the tournament's order and each table's
    boards in the order it played them; a board played again at a table (started anew)
    once, its last."""
    out: list[PlayerBoard] = []
    for table, boards in tables.items():
        last = {board.board: board for board in boards}
        for board in last.values():
            seat = seat_of(board, player)
            if seat is not None:
                out.append(board_entry(table, rounds.get((table, board.board)), board, seat))
    out.sort(key=lambda e: (e["round"] is None, e["round"] or 0))  # stable: table, board
    return out

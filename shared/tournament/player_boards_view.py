"""One player's boards as the Director reads them (GET /api/tournaments/{t}/boards?player=…),
made by `shared.tournament.player_boards`: every key on every board, null where it has no
value yet (a board without its result) or none (a seat with no ID, a passed-out board's
declarer)."""

# No `from __future__ import annotations`: a TypedDict reads its keys' types at run time;
# `typing_extensions.TypedDict`, the one pydantic reads under Python 3.11.

from typing_extensions import TypedDict

from shared.table.board_view import Seat
from shared.vocabulary import BoardStatus


class PlayerBoard(TypedDict):
    """One board as the player sat at it."""

    table: str
    round: int | None
    """the round that gave the table this board (null: a board the Director started by
    itself)"""
    board: int
    seat: Seat
    name: str
    """the name at the seat"""
    id: str | None
    """the ID at the seat, where the Director gave it"""
    partner: str
    """the name at the partner's seat ("": none)"""
    status: BoardStatus
    """auction, closed (a contract) or passed_out"""
    finished: bool
    """the board has its result at the table"""
    contract: str | None
    """e.g. 4S, 3NTX; PASS when passed out"""
    declarer: Seat | None
    lead: str | None
    """the opening lead, e.g. HK"""
    tricks: int | None
    """declarer's tricks"""
    result: str | None
    """against the contract: =, +1, -2"""
    score_ns: int | None
    """the score from NS's side (Law 77)"""
    score: int | None
    """the score from the player's side"""


class PlayerBoards(TypedDict):
    """Every board one player sat at in a tournament, round by round, then table by table."""

    tournament: str
    player: str
    """the ID or name asked for"""
    boards: list[PlayerBoard]

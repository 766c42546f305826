"""One player's boards across a tournament's tables, for the Director (`GET /api/tournaments/
{t}/boards?player=…`): by the player's ID, or by his name at a seat with no ID."""

from __future__ import annotations

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.tournaments.player_boards import boards_of

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


class PlayerBoard(BaseModel):
    table: str
    round: int | None = Field(description="the round that gave the table this board (null: "
                              "a board the Director started by itself)")
    board: int
    seat: str = Field(description="N, E, S or W")
    name: str = Field(description="the name at the seat")
    id: str | None = Field(None, description="the ID at the seat, where the Director gave it")
    partner: str = Field(description="the name at the partner's seat (\"\": none)")
    status: str = Field(description="auction, closed or passed_out")
    finished: bool = Field(description="the board has its result at the table")
    contract: str | None = Field(None, description="e.g. 4S, 3NTX; PASS when passed out")
    declarer: str | None = None
    lead: str | None = Field(None, description="the opening lead, e.g. HK")
    tricks: int | None = Field(None, description="declarer's tricks")
    result: str | None = Field(None, description="against the contract: =, +1, -2")
    score_ns: int | None = Field(None, description="the score from NS's side (Law 77)")
    score: int | None = Field(None, description="the score from the player's side")


class PlayerBoards(BaseModel):
    tournament: str
    player: str = Field(description="the ID or name asked for")
    boards: list[PlayerBoard] = Field(description="round by round, then table by table")


@router.get("/{tournament}/boards", responses=responses(400, 401, 403, 404, 503))
async def get_player_boards(tournament: str, gw: GatewayDep, _: DirectorDep,
                            player: str = Query(description="the player's ID, or his name "
                                                "(a seat with no ID)", max_length=200)
                            ) -> PlayerBoards:
    """Every board one player sat at in the tournament, across its tables: table, round,
    seat, partner, contract, result and score, from the tables' records (`players_named`'s
    names and IDs). 400 naming `player` for an empty or too long one."""
    return PlayerBoards(**await boards_of(gw, tournament, player))

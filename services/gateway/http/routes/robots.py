"""Our robots at tables: the director seats them, takes them away, fills a tournament's empty
seats, and sees which seats are robots' and whether each is connected."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.http.state_models import TableRobots
from services.gateway.robots import presence as robot_presence, requests as robot_requests

router = APIRouter(tags=["robots"])


class RobotSeatsIn(BaseModel):
    """The seats our robots take (exactly these: the others' robots go); [] takes them all
    away."""

    model_config = ConfigDict(extra="forbid")
    seats: list[Any] = Field(max_length=4, examples=[["E", "W"]],
                             description="N, E, S or W (or their words), each once")


class RobotsFilled(BaseModel):
    tournament: str
    tables: dict[str, list[str]] = Field(description="each table's robots' seats")


@router.post("/api/tables/{table}/robots", responses=responses(400, 401, 403, 404, 409, 503))
async def post_robots(table: str, body: RobotSeatsIn, gw: GatewayDep, _: DirectorDep
                      ) -> TableRobots:
    """Our robots sit at exactly these seats (through the Table Manager host, by the robot
    pool) and play there until taken away: 409 for a seat a person holds (a name given
    there). The seats' names become "Robot"."""
    seats = robot_requests.seats_asked(body.seats)
    return (await robot_requests.seat(gw, table, seats))


@router.delete("/api/tables/{table}/robots", responses=responses(401, 403, 404, 503))
async def delete_robots(table: str, gw: GatewayDep, _: DirectorDep) -> TableRobots:
    """Every robot of our pool at the table stands up."""
    await gw.table_meta(table)
    return (await robot_requests.seat(gw, table, ()))


@router.get("/api/tables/{table}/robots", responses=responses(401, 403, 404, 503))
async def get_robots(table: str, gw: GatewayDep, _: DirectorDep) -> TableRobots:
    """Which seats are robots' (ours, asked for; or any robot the Table Manager host
    seated), and whether each is connected or its seat waits for it."""
    return (await robot_presence.at_table(gw, table))


@router.post("/api/tournaments/{tournament}/robots",
             responses=responses(401, 403, 404, 409, 503))
async def fill_tournament(tournament: str, gw: GatewayDep, _: DirectorDep) -> RobotsFilled:
    """Our robots at every seat of every table with no person: no player named there (at the
    tournament's creation, or at the table since)."""
    return RobotsFilled(tournament=tournament,
                        tables=await robot_requests.fill(gw, tournament))

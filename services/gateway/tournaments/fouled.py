"""A fouled board (Law 87) as the gateway records it: the Director's marking checked against the
rounds started (`shared.tournament.fouled_records`) and appended to the tournament's topic
(`board_fouled`); the results score the board in its groups from then on (Law 87B)."""

from __future__ import annotations

import time
from typing import Any

from services.gateway.refusals import Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments.log import append_record, refuse_closed
from services.gateway.tournaments.scores import record_of
from shared.scores.adjustments import ScoreError
from shared.scores.corrections import scheduled
from shared.tournament.fouled_records import BOARD_FOULED, fouled_board
from shared.tournament.results import rounds_of
from shared.tournament.session import Tournament


async def foul_board(gw: Gateway, made: Tournament, body: dict[str, Any]) -> int:
    """The Director's marking of a fouled board in a pairs event, checked (each place one the
    movement scheduled the board at in the rounds started; a 400 naming the field), appended
    to the tournament's topic with its reason: its offset there."""
    movement = made.movement
    if movement is None or movement.kind.teams:
        raise Refused(f"tournament {made.tournament}: a fouled board is scored in its groups "
                      "in a pairs event with a movement", "tournament")
    await refuse_closed(gw, made.tournament, "tournament", "scores")
    rounds, _, _ = await record_of(gw, made)
    event = {k: v for k, v in body.items() if k in ("board", "groups", "reason")}
    try:
        fouled_board(event, scheduled(rounds_of(rounds, made)))
    except ScoreError as exc:
        raise Refused(str(exc), exc.field) from None
    event = {"type": BOARD_FOULED, **event, "ts": int(time.time() * 1000)}
    return await append_record(gw, made.tournament, event, "record the fouled board",
                               "tournament", "scores")

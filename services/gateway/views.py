"""What each reader may see of a board: a seat its own hand, spectators every hand once the
board has been under way for the delay the settings ask for (vugraph delay), the director
everything."""

from __future__ import annotations

from typing import Any

from services.gateway.tokens import Grant
from shared.deal import format_deal, parse_deal
from shared.seats import Seat


def board_for(grant: Grant, board: dict[str, Any], spectator_delay_s: int, now_ms: int
              ) -> dict[str, Any]:
    deal = board.get("deal")
    if deal is None or grant.role == "director":
        return board
    if grant.role == "spectator":
        started = board.get("started_ts")
        delayed = spectator_delay_s > 0 and (
            started is None or now_ms - started < spectator_delay_s * 1000)
        return {**board, "deal": None} if delayed else board
    hands = parse_deal(deal)
    seat = Seat.parse(grant.seat or "")
    own = {seat: hands[seat]} if seat in hands else {}
    return {**board, "deal": format_deal(own)}

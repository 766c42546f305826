"""What each reader may see of a board: a seat its own hand, spectators every hand (after the
delay the settings ask for), the director everything."""

from __future__ import annotations

from typing import Any

from services.gateway.tokens import Grant
from shared.deal import format_deal, parse_deal
from shared.seats import Seat


def board_for(grant: Grant, board: dict[str, Any], hands_visible_to_spectators: bool
              ) -> dict[str, Any]:
    deal = board.get("deal")
    if deal is None or grant.role == "director":
        return board
    if grant.role == "spectator":
        return board if hands_visible_to_spectators else {**board, "deal": None}
    hands = parse_deal(deal)
    seat = Seat.parse(grant.seat or "")
    own = {seat: hands[seat]} if seat in hands else {}
    return {**board, "deal": format_deal(own)}

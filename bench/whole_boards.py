"""The whole boards of a real record, as a table's players send them through the gateway: the
board's start (the record's deal, dealer and vulnerability), its auction, then its play card
by card, and the claim with both defenders' acceptance when the record ends in one. For
`bench/pipeline_bench.py --play`.

Each event goes with the seat whose token sends it: a call or a claim from the seat that makes
it; a card from the hand it comes from, except dummy's cards, which declarer plays (Law 45);
a claim's acceptance from each defender (Law 69A).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.notation import pbn_events
from shared.seats import Seat

CALL, CARD, CLAIM = "call", "card", "claim"  # the kinds the bench reports apart
KIND = {"call": CALL, "card_played": CARD, "claim": CLAIM, "claim_response": CLAIM}


@dataclass(frozen=True)
class Step:
    kind: str  # CALL, CARD or CLAIM (a claim and its responses)
    body: bytes  # the request's JSON body
    seat: str  # whose token sends it


@dataclass(frozen=True)
class WholeBoard:
    start: dict[str, Any]  # the board's start, but its number: deal, dealer, vulnerability
    steps: list[Step]


def _step(event: dict[str, Any], declarer: Seat | None) -> Step:
    kind = event["type"]
    seat = Seat.parse(event["seat"])
    if kind == "call":
        body: dict[str, Any] = {"type": "call", "call": event["call"]}
    elif kind == "card_played":
        body = {"type": "card_played", "seat": seat.name, "card": event["card"]}
        if declarer is not None and seat == declarer.partner:
            seat = declarer  # dummy's card, from declarer's token
    elif kind == "claim":
        body = {"type": "claim", "tricks": event["tricks"], "statement": event["statement"]}
    else:
        body = {"type": "claim_response", "accept": event["accept"]}
    return Step(KIND[kind], json.dumps(body).encode(), seat.name)


def whole_boards(record: Path) -> list[WholeBoard]:
    """The record's boards whose auction is complete (three passes at its end, Law 22) and,
    unless passed out, whose play ends in the record: the thirteenth trick, or a claim
    agreed (a board ending otherwise is left out)."""
    boards: list[list[dict[str, Any]]] = []
    for event in pbn_events(record.read_text()):
        if event["type"] == "board_started":
            boards.append([event])
        elif boards and event["type"] in KIND:
            boards[-1].append(event)
    out = []
    for start, *events in boards:
        calls = [e["call"] for e in events if e["type"] == "call"]
        if len(calls) < 4 or calls[-3:] != ["P"] * 3:
            continue
        cards = [e for e in events if e["type"] == "card_played"]
        passed_out = calls == ["P"] * 4
        if not passed_out and len(cards) < 52 and events[-1]["type"] != "claim_response":
            continue
        # the opening leader is declarer's left-hand opponent (Law 41A)
        declarer = Seat.parse(cards[0]["seat"]).rho if cards else None
        out.append(WholeBoard({key: start[key] for key in ("deal", "dealer", "vulnerability")
                               if key in start},
                              [_step(e, declarer) for e in events]))
    return out


def spread(counts: dict[str, int]) -> list[str]:
    """Tables in the order to send `counts[table]` events each, every table's spread evenly
    over the whole sequence (by the share of its own events sent so far), so that no table
    sends its events close together."""
    order = sorted(((j + 0.5) / n, table) for table, n in counts.items() for j in range(n))
    return [table for _, table in order]

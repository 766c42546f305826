"""A board's state as text for a terminal: the auction in the usual four columns, the
contract, the director alerts with their Laws, and the play: each trick's cards by seat in the
same columns, its leader marked `>`, its winner, and the tricks each side has won so far."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.vocabulary import BoardStatus

COLUMNS = "WNES"


def render_board(state: Mapping[str, Any]) -> str:
    lines = [f"Board {state['board']}  dealer {state['dealer']}  vulnerable "
             f"{state['vulnerability']}  ({state['ruleset']})",
             "    ".join(f"{c:<4}" for c in COLUMNS).rstrip()]
    cells = [""] * COLUMNS.index(state["dealer"])
    column = len(cells)
    for entry in state["calls"]:
        while COLUMNS[column % 4] != entry["seat"]:  # a player lost his turn (Law 29A)
            cells.append("-")
            column += 1
        cells.append(entry["call"] + ("!" if entry.get("alert") else ""))
        column += 1
    if state["turn"]:
        while COLUMNS[column % 4] != state["turn"]:
            cells.append("-")
            column += 1
        cells.append("?")
    for row in range(0, len(cells), 4):
        lines.append("    ".join(f"{c:<4}" for c in cells[row:row + 4]).rstrip())
    contract = state["contract"]
    if contract:
        lines.append(f"Contract: {contract['level']}{contract['strain']}{contract['risk']} "
                     f"by {contract['declarer']}")
    elif state["status"] == BoardStatus.PASSED_OUT:
        lines.append("Passed out")
    else:
        lines.append(f"{state['turn']} to call" + (
            f"; must pass: {', '.join(f'{s} ({o})' for s, o in state['must_pass'].items())}"
            if state["must_pass"] else ""))
    for entry in state["alerted_calls"]:
        if entry.get("explanation"):
            lines.append(f"  {entry['seat']} {entry['call']}: {entry['explanation']}")
    for alert in state["alerts"]:
        lines.append(f"DIRECTOR  Law {alert['law']}  {alert['kind']}: {alert['message']}")
    for fix in state["rectifications"]:
        lines.append(f"  Law {fix['law']}: {fix['message']}")
    for penalty in state["lead_restrictions"]:
        if penalty.get("applies"):
            suit = f" ({penalty['suit']})" if penalty.get("suit") else ""
            lines.append(f"  Lead penalty (Law {penalty['law']}) on {penalty['player']}: "
                         f"declarer may {penalty['declarer_may']}{suit}")
    if state["opening_lead"]:
        lead = state["opening_lead"]
        lines.append(f"Opening lead: {lead['card']} by {lead['seat']}")
    if state.get("play"):
        lines += render_play(state["play"], state.get("result"))
    return "\n".join(lines)


def render_play(play: Mapping[str, Any], result: Mapping[str, Any] | None) -> list[str]:
    """The tricks: a line each, `Trick n`, the four seats' cards (the leader's marked `>`),
    the winner (Law 44) and the running tricks won by each side; then whose turn it is, a
    claim awaiting its answers, and the result."""
    lines = [f"Play: declarer {play['declarer']}, dummy {play['dummy']}, trumps "
             f"{play['trump'] or 'none'}",
             "Trick  " + "    ".join(f"{c:<4}" for c in COLUMNS) + "    won by  NS  EW"]
    ns = ew = 0
    for number, trick in enumerate(play["tricks"], start=1):
        cards = {c["seat"]: c["card"] for c in trick["cards"]}
        cells = [(">" if seat == trick["leader"] else " ") + cards.get(seat, "")
                 for seat in COLUMNS]
        winner = trick["winner"]
        if winner is None:
            lines.append(f"{number:>5}  " + "    ".join(f"{c:<4}" for c in cells).rstrip())
            continue
        if winner in "NS":
            ns += 1
        else:
            ew += 1
        lines.append(f"{number:>5}  " + "    ".join(f"{c:<4}" for c in cells)
                     + f"    {winner:<6}  {ns:>2}  {ew:>2}")
    if play["turn"]:
        lines.append(f"{play['turn']} to play")
    claim = play.get("claim")
    if claim:
        lines.append(f"Claim by {claim['seat']}: {claim['tricks']} of the "
                     f"{claim['remaining']} remaining tricks"
                     + (" (disputed)" if claim["disputed"] else ""))
    if result and result.get("declarer_tricks") is not None:
        lines.append(f"Result: declarer {result['declarer_tricks']} tricks "
                     f"({play['ended']}), NS {result['score_ns']:+d}")
    return lines

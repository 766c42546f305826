"""A board's state as text for a terminal: the auction in the usual four columns, the
contract, and the director alerts with their Laws."""

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
    return "\n".join(lines)

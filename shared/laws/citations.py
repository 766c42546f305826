"""Which section of the rubber Laws corresponds to a duplicate one.

The engine names its rules by the duplicate text (1997, with the 2007/2017 Law 17); the ACBL
rubber text numbers several sections differently (Laws 24–25, 27, 29–32, 35, 39; in the play,
the revoke established by agreeing to a claim: 2017 63A4, rubber 63A3). `cite`
gives the section of a board's own ruleset, for alerts, rectifications and cancellations.
"""

from __future__ import annotations

from shared.table.board import Board

_RUBBER = {
    "24": "23", "24A": "23(a)", "24B": "23(b)", "24C": "23(b)",
    "25A": "24", "25B": "25", "25B1": "25", "25B2": "25(b)",
    "27A": "27", "27B": "27", "27B1(a)": "27(a)", "27B2": "27(b)", "27B3": "27(b)",
    "28A": "28(a)", "28B": "28(b)", "29A": "29(a)", "29B": "29(b)",
    "30A": "30(a)", "30B1": "30(a)", "30B2": "30(b)",
    "31A": "31(b)", "31A1": "31(b)(i)", "31A2(a)": "31(b)(ii)", "31A2(b)": "31(b)(ii)",
    "31B": "31(a)", "32A": "32(a)", "32B": "32(b)", "32B1": "32(b)(i)", "32B2": "32(b)(ii)",
    "35A": "35(a)", "35B": "35(b)", "35C": "35(c)", "35D": "35(d)",
    "39A": "39(a)", "39B": "39(b)", "21B": "21",
    "20F1": "20", "20F2": "20",
    "63A4": "63A3",  # the agreement to an opponent's claim: "makes or agrees to a claim"
}  # fmt: skip


def cite(board: Board, law: str) -> str:
    """The section of the board's ruleset that corresponds to duplicate section `law`."""
    return law if board.duplicate else _RUBBER.get(law, law)

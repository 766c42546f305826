"""Writing boards back as PBN 2.1 (export format) and as BBO LIN.

The writers take a table's log (event maps), fold it, and write each board: its deal, the calls
that stand with their alerts and explanations (PBN notes; LIN `!` and `an`), the contract and
declarer, and the opening lead. A call accepted out of rotation writes PBN's `^S` for each
player it skipped, an accepted insufficient bid `^I` (PBN 2.1 section 3.9).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.board import Board, StandingCall
from shared.codec import from_map
from shared.deal import parse_deal
from shared.engine import fold
from shared.seats import Seat

_PBN_VUL = {"None": "None", "NS": "NS", "EW": "EW", "Both": "All"}
_PBN_CALL = {"P": "Pass", "X": "X", "XX": "XX"}
_LIN_DEALER = {Seat.S: "1", Seat.W: "2", Seat.N: "3", Seat.E: "4"}
_LIN_VUL = {"None": "o", "NS": "n", "EW": "e", "Both": "b"}


def _boards(events: Iterable[dict[str, Any]]) -> tuple[Board, ...]:
    return fold(from_map(e) for e in events).boards


def _explanations(board: Board) -> list[str | None]:
    """Each standing call's explanation: the caller's own, or the last given when asked (Law
    20F), so that a record keeps what the table was told."""
    texts = [entry.explanation for entry in board.calls]
    for answer in board.explanations:
        if answer["index"] < len(texts):
            texts[answer["index"]] = answer["explanation"]
    return texts


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def to_pbn(events: Iterable[dict[str, Any]]) -> str:
    """PBN 2.1 export format: one game per board, separated by empty lines."""
    games = []
    for board in _boards(events):
        contract = board.contract()
        tags = [("Event", ""), ("Site", ""), ("Date", ""), ("Board", str(board.board)),
                *((tag, dict(board.players).get(seat, "")) for tag, seat in
                  (("West", Seat.W), ("North", Seat.N), ("East", Seat.E), ("South", Seat.S))),
                ("Dealer", board.dealer.name), ("Vulnerable", _PBN_VUL[str(board.vulnerability)]),
                ("Deal", board.deal or f"{board.dealer.name}:- - - -"),
                ("Scoring", ""),
                ("Declarer", contract["declarer"] if contract else ""),
                ("Contract", f"{contract['level']}{contract['strain']}{contract['risk']}"
                 if contract else ("Pass" if board.status == "passed_out" else "")),
                ("Result", "")]
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
        lines.append(f'[Auction "{board.dealer.name}"]')
        tokens: list[str] = []
        notes: list[str] = []
        for entry, explanation in zip(board.calls, _explanations(board), strict=True):
            if isinstance(entry, StandingCall):
                tokens += ["^S"] * len(entry.skipped)
                prefix = "^I" if entry.accepted in ("27A", "27") else ""
            else:
                prefix = ""
            text = str(entry.call)
            token = prefix + _PBN_CALL.get(text, text) + ("!" if entry.alert else "")
            if explanation:
                notes.append(explanation)
                token += f" ={len(notes)}="
            tokens.append(token)
        for start in range(0, len(tokens), 4):
            lines.append(" ".join(tokens[start:start + 4]))
        lines += [f'[Note "{i}:{_escape(note)}"]' for i, note in enumerate(notes, start=1)]
        if board.opening_lead is not None:
            leader, card = board.opening_lead
            lines += [f'[Play "{leader.name}"]', str(card), "*"]
        games.append("\n".join(lines))
    return "% PBN 2.1\n% EXPORT\n" + "\n\n".join(games) + "\n"


def _lin_hand(hand: str) -> str:
    return "".join(suit + cards for suit, cards in zip("SHDC", hand.split("."), strict=True))


def to_lin(events: Iterable[dict[str, Any]]) -> str:
    """BBO LIN, one board a line: `md`, `sv`, `mb` (with `!` and `an`), the lead as `pc`."""
    lines = []
    for board in _boards(events):
        hands = parse_deal(board.deal) if board.deal else {}
        md = _LIN_DEALER[board.dealer] + ",".join(
            _lin_hand(hands[s]) if s in hands else "" for s in (Seat.S, Seat.W, Seat.N, Seat.E))
        names = dict(board.players)
        pn = ",".join(names.get(s, name).replace(",", " ").replace("|", " ")
                      for s, name in ((Seat.S, "South"), (Seat.W, "West"), (Seat.N, "North"),
                                      (Seat.E, "East")))
        parts = [f"pn|{pn}|st||md|{md}|rh||ah|Board {board.board}|"
                 f"sv|{_LIN_VUL[str(board.vulnerability)]}|"]
        for entry, explanation in zip(board.calls, _explanations(board), strict=True):
            text = {"P": "p", "X": "d", "XX": "r"}.get(str(entry.call), str(entry.call))
            parts.append(f"mb|{text}{'!' if entry.alert else ''}|")
            if explanation:
                parts.append(f"an|{explanation.replace('|', '/')}|")
        if board.opening_lead is not None:
            parts.append(f"pg||pc|{board.opening_lead[1]}|")
        lines.append("".join(parts))
    return "\n".join(lines) + "\n"

"""A compact notation for table logs in tests: `"N 1S, E 1H, S decline, E 2H"`.

    N 1S        N calls 1S            N 1S!       … alerted
    S accept    S accepts the option  S decline   S does not
    W shows HK  W exposes HK          W leads SK  W faces the opening lead
    N slips 2H  N replaces an inadvertent call by 2H (Law 25A)
    N changes 2H  N substitutes 2H after a pause (Law 25B)
    E asks      E asks about the opponents' auction (Law 20F)
    E asks 0    E asks about the call at index 0 of the calls that stand
    S explains 0 strong   S explains the call at index 0: "strong"
    E plays DA  a card played from E's hand (dummy's: declarer plays it, Law 45)
    N claims 5 rest  N claims 5 of the remaining tricks, stating "rest" (Law 68)
    E agrees    E acquiesces in the claim (Law 69A)   E objects   E disputes it (Law 70)
    N makes 9   9 tricks for declarer, recorded at the table (Law 79A; any seat's word)
    N 57A highest   declarer's option on a premature play (Law 57A; `prohibit H`, a suit)
    N 50D2 free     declarer's lead option (Law 50D2; `require S`, `prohibit S`)

A board's `deal` (PBN) is given to `log`, `play` and `board_of` as a keyword.
"""

from __future__ import annotations

from typing import Any

from shared import fold, from_map
from shared.cards import Card
from shared.deal import parse_deal
from shared.table.board import Board
from shared.table.engine import TableState


def log(script: str, board: int = 1, ruleset: str = "duplicate", deal: str | None = None
        ) -> list[dict[str, Any]]:
    start: dict[str, Any] = {"type": "board_started", "board": board, "ruleset": ruleset}
    if deal is not None:
        start["deal"] = deal
    events: list[dict[str, Any]] = [start]
    for step in filter(None, (s.strip() for s in script.split(","))):
        seat, verb, *rest = step.split()
        if verb in ("accept", "decline"):
            events.append({"type": "option", "seat": seat, "accept": verb == "accept"})
        elif verb == "shows":
            events.append({"type": "card_exposed", "seat": seat, "card": rest[0],
                           "led": rest[1:] == ["led"]})
        elif verb == "leads":
            events.append({"type": "opening_lead", "seat": seat, "card": rest[0]})
        elif verb == "asks":
            events.append({"type": "question", "seat": seat,
                           **({"index": int(rest[0])} if rest else {})})
        elif verb == "explains":
            events.append({"type": "explanation", "seat": seat, "index": int(rest[0]),
                           "explanation": " ".join(rest[1:])})
        elif verb == "plays":
            events.append({"type": "card_played", "seat": seat, "card": rest[0]})
        elif verb == "claims":
            events.append({"type": "claim", "seat": seat, "tricks": int(rest[0]),
                           "statement": " ".join(rest[1:])})
        elif verb in ("agrees", "objects"):
            events.append({"type": "claim_response", "seat": seat, "accept": verb == "agrees"})
        elif verb in ("57A", "50D2"):
            events.append({"type": "play_option" if verb == "57A" else "lead_option",
                           "seat": seat, "choice": rest[0], **({"suit": rest[1]} if rest[1:]
                                                                else {})})
        elif verb == "makes":
            events.append({"type": "result_recorded", "tricks": int(rest[0])})
        elif verb in ("slips", "changes"):
            events.append({"type": "call_changed", "seat": seat, "call": rest[0],
                           "inadvertent": verb == "slips"})
        else:
            alert = verb.endswith("!")
            events.append({"type": "call", "seat": seat, "call": verb.rstrip("!"),
                           **({"alert": True} if alert else {})})
    return events


def play(script: str, board: int = 1, ruleset: str = "duplicate",
         extra: list[dict[str, Any]] | None = None, deal: str | None = None) -> dict[str, Any]:
    """The board's state after the script (and any `extra` events), as the public dict."""
    return dict(board_of(script, board, ruleset, extra, deal).to_dict())


def board_of(script: str, board: int = 1, ruleset: str = "duplicate",
             extra: list[dict[str, Any]] | None = None, deal: str | None = None) -> Board:
    events = log(script, board, ruleset, deal) + (extra or [])
    last = fold(from_map(m) for m in events).board
    assert last is not None
    return last


def calls(state: dict[str, Any]) -> str:
    """The calls that stand, as `"N 1S, E P"`."""
    return ", ".join(f"{c['seat']} {c['call']}" for c in state["calls"])


def kinds(state: dict[str, Any]) -> list[str]:
    return [a["kind"] for a in state["alerts"]]


def laws(state: dict[str, Any]) -> list[str]:
    return [r["law"] for r in state["rectifications"]]


def lowest_legal(state: TableState, deal: str) -> dict[str, Any]:
    """The card the hand in turn plays in tests, as a `card_played` map: its lowest that
    follows suit, else its lowest (each a legal card, Law 44C), from `deal`."""
    board = state.board
    assert board is not None
    play = board.play
    seat = play.turn if play is not None else board.on_lead()
    assert seat is not None
    played = play.played if play is not None else set()
    hand = parse_deal(deal)[seat]
    held = [c for c in (Card(suit, rank) for suit, ranks in zip("SHDC", hand.split("."),
                                                                strict=True)
                        for rank in ranks) if c.index not in played]
    if play is not None and play.current:
        held = [c for c in held if c.suit == play.current[0][1].suit] or held
    card = min(held, key=lambda c: ("23456789TJQKA".index(c.rank), "SHDC".index(c.suit)))
    return {"type": "card_played", "seat": seat.name, "card": str(card)}

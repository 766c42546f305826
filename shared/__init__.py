"""tableserver's pure core: seats, calls, cards, events and their codec, folded under the Laws.

The subjects, one package each: a table's boards, their fold and what each reader sees
(`shared.table`); the Laws' rules and rectifications (`shared.laws`); a tournament's session,
entrants and results (`shared.tournament`); a field's scores (`shared.scores`); PBN, LIN and
the results formats (`shared.notation`); the robots' reasoning (`shared.robot`); the Table
Manager protocol (`shared.table_manager`).

No I/O, no clock, no randomness: the same log always folds to the same state.

    >>> from shared import Call, Seat, fold, from_map
    >>> log = [{"type": "board_started", "board": 1},
    ...        {"type": "call", "seat": "N", "call": "1nt"},
    ...        *({"type": "call", "seat": s, "call": "pass"} for s in "ESW")]
    >>> state = fold(from_map(m) for m in log).boards[-1]
    >>> state.contract()
    {'level': 1, 'strain': 'NT', 'risk': '', 'declarer': 'N'}
"""

from shared.calls import ALL_CALLS, Call, CallKind, Strain
from shared.cards import Card
from shared.codec import DecodeError, EventError, decode, encode, from_map, to_map
from shared.events import Event, Ruleset
from shared.seats import NotationError, Seat, Vulnerability
from shared.table.board import Board
from shared.table.engine import NoBoardError, TableState, evolve, fold

__all__ = [
    "ALL_CALLS",
    "Board",
    "Call",
    "CallKind",
    "Card",
    "DecodeError",
    "Event",
    "EventError",
    "NoBoardError",
    "NotationError",
    "Ruleset",
    "Seat",
    "Strain",
    "TableState",
    "Vulnerability",
    "decode",
    "encode",
    "evolve",
    "fold",
    "from_map",
    "to_map",
]

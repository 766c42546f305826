"""The engine: `evolve` one event, `fold` a log. Pure and deterministic.

A table's log holds its boards one after another; `board_started` begins a new one. The
state of a table is the tuple of its boards' states. Folding the same log always gives the
same state: nothing here reads a clock, a random source or the outside world.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from shared import laws
from shared.board import Board
from shared.events import (
    BoardStarted,
    CallChanged,
    CallMade,
    CardExposed,
    Event,
    OpeningLeadFaced,
    OptionExercised,
    RulingGiven,
)


class NoBoardError(ValueError):
    """An event came before any `board_started`."""


_HANDLERS: dict[type, Callable[[Board, Any], None]] = {
    CallMade: laws.on_call,
    OptionExercised: laws.on_option,
    CardExposed: laws.on_card_exposed,
    CallChanged: laws.on_call_changed,
    OpeningLeadFaced: laws.on_opening_lead,
    RulingGiven: laws.on_ruling,
}


def apply(board: Board, event: Event) -> None:
    """Apply one event to a board in place. A repeated (seat, client_seq) changes nothing."""
    seq = event.client_seq
    if seq is not None:
        key = (getattr(event, "seat", None), seq)
        if key in board.seen:
            return
        board.seen.add(key)
    board.events += 1
    _HANDLERS[type(event)](board, event)


@dataclass(frozen=True, slots=True)
class TableState:
    """The boards of a table, in the order the log started them."""

    boards: tuple[Board, ...] = ()

    @property
    def board(self) -> Board | None:
        """The board in progress (the last one started)."""
        return self.boards[-1] if self.boards else None

    def to_dicts(self) -> list[dict[str, Any]]:
        return [b.to_dict() for b in self.boards]


def evolve(state: TableState, event: Event) -> TableState:
    """The table after one more event; `state` is left as it was."""
    if isinstance(event, BoardStarted):
        return TableState((*state.boards, Board.start(event)))
    if not state.boards:
        raise NoBoardError(f"a {type(event).__name__} event came before any board_started")
    board = state.boards[-1].copy()
    apply(board, event)
    return TableState((*state.boards[:-1], board))


def fold(events: Iterable[Event], state: TableState = TableState()) -> TableState:
    """The table after all `events`, from `state`. Equal to evolving one event at a time,
    but works in place on a private copy of the board in progress, which keeps it fast."""
    boards = list(state.boards)
    current: Board | None = None  # a private copy of boards[-1], once made
    for event in events:
        if isinstance(event, BoardStarted):
            current = Board.start(event)
            boards.append(current)
            continue
        if current is None:
            if not boards:
                raise NoBoardError(f"a {type(event).__name__} event came before any "
                                   "board_started")
            current = boards[-1] = boards[-1].copy()
        apply(current, event)
    return TableState(tuple(boards))

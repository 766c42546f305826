"""The engine: `evolve` one event, `fold` a log. Pure and deterministic.

A table's log holds its boards one after another; `board_started` begins a new one. The
state of a table is the tuple of its boards' states. Folding the same log always gives the
same state: nothing here reads a clock, a random source or the outside world.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from shared import disclosure, laws
from shared.board import Board
from shared.events import (
    BoardStarted,
    CallChanged,
    CallExplained,
    CallMade,
    CardExposed,
    Event,
    ExplanationRequested,
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
    ExplanationRequested: disclosure.on_question,
    CallExplained: disclosure.on_explanation,
}


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
    return fold((event,), state)


def fold(events: Iterable[Event], state: TableState = TableState()) -> TableState:
    """The table after all `events`, from `state`; `state` is left as it was.

    The fold works in place on a private copy of the board in progress (the boards before it
    are shared, unchanged), which keeps a replay of millions of events fast. An event with a
    `client_seq` its seat already used on the board is a retry and changes nothing."""
    boards = list(state.boards)
    current: Board | None = None  # a private copy of boards[-1], once made
    handlers = _HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is None:  # board_started
            assert isinstance(event, BoardStarted)
            current = Board.start(event)
            boards.append(current)
            continue
        if current is None:
            if not boards:
                raise NoBoardError(f"a {type(event).__name__} event came before any "
                                   "board_started")
            current = boards[-1] = boards[-1].copy()
        seq = event.client_seq
        if seq is not None:
            seat = getattr(event, "seat", None)
            key = seq * 5 + (4 if seat is None else seat.index)
            seen = current.seen
            if key in seen:
                continue
            seen.add(key)
        current.events += 1
        handler(current, event)
    return TableState(tuple(boards))

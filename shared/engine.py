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
    """The boards of a table, in the order the log started them: the `earlier` ones and the
    `board` in progress (the last one started), kept apart so that an event, which changes
    only the board in progress, costs the same on a table of three boards or of three
    thousand."""

    earlier: tuple[Board, ...] = ()
    board: Board | None = None

    @property
    def boards(self) -> tuple[Board, ...]:
        return self.earlier if self.board is None else (*self.earlier, self.board)

    @property
    def count(self) -> int:
        """How many boards the table has started."""
        return len(self.earlier) + (self.board is not None)

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
    earlier: list[Board] = []  # boards finished in this fold, after state.earlier's
    current: Board | None = None  # a private copy of the board in progress, once made
    last = state.board  # the board in progress, as the caller has it
    handlers = _HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is None:  # board_started
            assert isinstance(event, BoardStarted)
            finished = current if current is not None else last
            if finished is not None:
                earlier.append(finished)
            current = Board.start(event)
            continue
        if current is None:
            if last is None:
                raise NoBoardError(f"a {type(event).__name__} event came before any "
                                   "board_started")
            current = last.copy()
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
    if current is None:
        return state
    return TableState((*state.earlier, *earlier) if earlier else state.earlier, current)

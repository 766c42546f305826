"""The engine: `evolve` one event, `fold` a log. Pure and deterministic.

A table's log holds its boards one after another; `board_started` begins a new one, and so
does the end of a board's auction period while a round (`round_started`) has boards left and
the director does not hold the table (`table_held`). The state of a table is the tuple of its
boards' states, and the round's boards still to play. Folding the same log always gives the
same state: nothing here reads a clock, a random source or the outside world. So a round's
next board starts exactly once, at the same event, whoever folds the log and however often:
no component appends it, and none can start it twice or skip it. A `round_started` for a round
the table has already started (a tournament's round sent again after a fault) changes nothing.

A timed round (`round_started`'s `ends_at`, moved by `round_extended`) ends with `round_ended`
(the tournament's clock, docs/scoring.md): its boards not started are dropped; the board in
progress stays as it stands, the seats' calls and cards after it passed over (`ignored`), the
Director's rulings still taken; the next round's first board starts at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from shared import laws
from shared.events import (
    BoardStarted,
    CallChanged,
    CallExplained,
    CallMade,
    CardExposed,
    CardPlayed,
    ClaimMade,
    ClaimResponded,
    Event,
    ExplanationRequested,
    HandFaced,
    LeadOptionChosen,
    OpeningLeadFaced,
    OptionExercised,
    PenaltyCardNamed,
    PlayersNamed,
    PlayOptionChosen,
    ResultRecorded,
    RoundEnded,
    RoundExtended,
    RoundStarted,
    RulingGiven,
    Sender,
    SubstituteLeft,
    SubstituteSeated,
    TableHeld,
)
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_result import rubber_deal
from shared.table.board_view import BoardView
from shared.table.substitutes import substitute_name


class NoBoardError(ValueError):
    """An event came before any `board_started`."""


_HANDLERS: dict[type, Callable[[Board, Any], None]] = {
    CallMade: laws.on_call,
    OptionExercised: laws.on_option,
    CardExposed: laws.on_card_exposed,
    CallChanged: laws.on_call_changed,
    OpeningLeadFaced: laws.on_opening_lead,
    CardPlayed: laws.on_card_played,
    ClaimMade: laws.on_claim,
    ClaimResponded: laws.on_claim_response,
    LeadOptionChosen: laws.on_lead_option,
    HandFaced: laws.on_hand_faced,
    PenaltyCardNamed: laws.on_penalty_card_named,
    PlayOptionChosen: laws.on_play_option,
    ResultRecorded: laws.on_result_recorded,
    RulingGiven: laws.on_ruling,
    ExplanationRequested: laws.on_question,
    CallExplained: laws.on_explanation,
}
_ON_CARD: Callable[[Board, Any], None] = laws.on_card_played  # a numbered event's type, told
_ON_CALL: Callable[[Board, Any], None] = laws.on_call  # by its handler (`fold`)


def on_a_board(event: Event) -> bool:
    """Whether `event` is folded into the board in progress (a call, a card, a claim, a
    ruling …), rather than being the table's own (a board or round started, a hold, names)."""
    return type(event) in _HANDLERS


@dataclass(frozen=True, slots=True)
class TableState:
    """The boards of a table, in the order the log started them: the `earlier` ones and the
    `board` in progress (the last one started), kept apart so that an event, which changes
    only the board in progress, costs the same on a table of three boards or of three
    thousand."""

    earlier: tuple[Board, ...] = ()
    board: Board | None = None
    round: int | None = None  # the round in progress, if the director started one
    queue: tuple[BoardStarted, ...] = ()  # the round's boards still to start, in order
    held: bool = False  # the director holds the table: the next board waits
    players: tuple[tuple[Seat, str], ...] = ()  # the names at the seats, for boards to come
    player_ids: tuple[tuple[Seat, str], ...] = ()  # their IDs, where the director gave them
    clock: RoundClock | None = None  # the round's clock, if timed
    substitutes: tuple[Seat, ...] = ()  # the seats a robot sits in at for their players

    @property
    def boards(self) -> tuple[Board, ...]:
        return self.earlier if self.board is None else (*self.earlier, self.board)

    @property
    def count(self) -> int:
        """How many boards the table has started."""
        return len(self.earlier) + (self.board is not None)

    def to_dicts(self) -> list[BoardView]:
        return [b.to_dict() for b in self.boards]


def evolve(state: TableState, event: Event) -> TableState:
    """The table after one more event; `state` is left as it was."""
    return fold((event,), state)


def fold(events: Iterable[Event], state: TableState = TableState()) -> TableState:
    """The table after all `events`, from `state`; `state` is left as it was.

    The fold works in place on a private copy of the board in progress (the boards before it
    are shared, unchanged), which keeps a replay of millions of events fast. An event with a
    `client_seq` its sender already used on the board is a retry and changes nothing (the
    sender: the event's seat, or a card's `by`, declarer playing dummy's card); a board
    a round starts by itself keeps the `client_seq`s used before it in the round, so that a
    retry of the call that ended the board before is not taken for a call on the new one."""
    earlier: list[Board] = []  # boards finished in this fold, after state.earlier's
    current: Board | None = None  # a private copy of the board in progress, once made
    last = state.board  # the board in progress, as the caller has it
    round_, queue, held, players = state.round, state.queue, state.held, state.players
    clock = state.clock
    ids = state.player_ids
    subs = state.substitutes
    handlers = _HANDLERS
    for event in events:
        try:  # free in Python 3.11 unless raised; a subscript is cheaper than `get`
            handler = handlers[type(event)]
        except KeyError:
            handler = None
        if handler is None:  # the table's own events: boards, rounds, holds
            board = current if current is not None else last
            cut = False
            if isinstance(event, BoardStarted):
                if board is not None:
                    earlier.append(board)
                current = Board.start(event)
                current.players, current.player_ids = _seated(players, subs), ids
                if board is not None and not current.duplicate:
                    _carry_rubber(current, board)
                continue
            if isinstance(event, RoundStarted):
                if round_ is not None and event.round <= round_:
                    continue  # a round this table has started: a retry, or a late copy
                cut = clock is not None and clock.over  # the board before: left unfinished
                round_, queue = event.round, event.boards
                clock = None if event.ends_at is None else RoundClock(event.round, event.ends_at)
            elif isinstance(event, RoundExtended | RoundEnded):
                if clock is None or event.round != round_:
                    continue  # a clock for another round, or an untimed one: nothing
                clock = clock.ended() if isinstance(event, RoundEnded) \
                    else RoundClock(clock.round, event.ends_at, held=event.held)
                if clock.over:
                    queue = ()
                continue
            elif isinstance(event, TableHeld):
                held = event.held
            elif isinstance(event, SubstituteSeated | SubstituteLeft):
                seated = isinstance(event, SubstituteSeated)
                if (event.seat in subs) == seated:
                    continue  # seated already, or no substitute there: a copy, nothing
                subs = tuple(s for s in Seat if (s in subs) != (s is event.seat))
                if seated and board is not None and not board.period_over:
                    if current is None:  # the board in progress: the substitute plays it
                        current = board.copy()
                    current.players = _seated(players, subs)
            elif isinstance(event, PlayersNamed):
                players = _named(players, event.players)
                ids = _identified(ids, event.players, event.ids)
                if board is not None and not board.period_over:  # the board in progress
                    # too; not a board over (a round's last: its record keeps who played it)
                    if current is None:
                        current = board.copy()
                    current.players, current.player_ids = _seated(players, subs), ids
            if queue and not held and (board is None or board.period_over or cut):
                board = current if current is not None else last
                if board is not None:
                    earlier.append(board)
                current, queue = _next_board(queue, board, event.ts)
                current.players, current.player_ids = _seated(players, subs), ids
            continue
        if current is None:
            if last is None:
                raise NoBoardError(f"a {type(event).__name__} event came before any "
                                   "board_started")
            current = last.copy()
        seq = event.client_seq
        if seq is not None:  # a retry is known by its sender: a card's `by`, else its seat
            sent: Any = event  # of the type its handler says: its slots read at once, faster
            if handler is _ON_CARD:  # than `getattr` (cards and calls: most numbered events)
                seat = sent.by or sent.seat
            elif handler is _ON_CALL:
                seat = sent.seat
            else:
                seat = getattr(event, "seat", None)
            key = seq * 5 + (4 if seat is None else seat.index)
            seen = current.seen
            if key in seen:
                continue
            seen.add(key)
        current.events += 1
        if clock is not None and clock.over and event.SENDER is not Sender.DIRECTOR:
            current.note_ignored(TIME_UP)  # the board stays as its round's end left it
            continue
        handler(current, event)
        if queue and not held and current.period_over:
            earlier.append(current)
            current, queue = _next_board(queue, current, event.ts)
            current.players, current.player_ids = _seated(players, subs), ids
    if current is None and (round_, queue, held, players, ids, clock, subs) == (
            state.round, state.queue, state.held, state.players, state.player_ids,
            state.clock, state.substitutes):
        return state
    return TableState((*state.earlier, *earlier) if earlier else state.earlier,
                      current if current is not None else last, round_, queue, held, players,
                      ids, clock, subs)


def _seated(players: tuple[tuple[Seat, str], ...], subs: tuple[Seat, ...]
            ) -> tuple[tuple[Seat, str], ...]:
    """The names a board carries: `players`, a substitute's seat named as his ("Robot (for
    Ann)": `shared.table.substitutes`)."""
    if not subs:
        return players
    named = dict(players) | {seat: substitute_name(seat, dict(players).get(seat))
                             for seat in subs}
    return tuple((seat, named[seat]) for seat in Seat if seat in named)


def _identified(ids: tuple[tuple[Seat, str], ...], named: tuple[tuple[Seat, str], ...],
                given: tuple[tuple[Seat, str], ...]) -> tuple[tuple[Seat, str], ...]:
    """`ids` with those of the seats `named` now: the ID `given` there, else none (a seat
    named again is another player unless his ID comes with his name)."""
    if not ids and not given:
        return ids
    merged = dict(ids) | {seat: "" for seat, _ in named} | dict(given)
    return tuple((seat, pid) for seat, pid in sorted(merged.items(), key=lambda i: i[0].value)
                 if pid)


TIME_UP = ("the round's time is up: the board stays as the round's end left it, and the "
           "Director scores it (Law 12C2)")


@dataclass(frozen=True, slots=True)
class RoundClock:
    """A timed round's clock at a table: its end (ms since the epoch), whether it has come
    (`round_ended`: the tournament's clock, or the director, ended the round), and whether the
    Director holds it (`ends_at` then: when it would end were it let go now)."""

    round: int
    ends_at: int
    over: bool = False
    held: bool = False

    def ended(self) -> RoundClock:
        return RoundClock(self.round, self.ends_at, True)


def _named(players: tuple[tuple[Seat, str], ...], named: tuple[tuple[Seat, str], ...]
           ) -> tuple[tuple[Seat, str], ...]:
    """`players` with the names of `named` (an empty name: nobody named there)."""
    merged = dict(players) | dict(named)
    return tuple((seat, name) for seat, name in sorted(merged.items(), key=lambda i: i[0].value)
                 if name)


def _next_board(queue: tuple[BoardStarted, ...], finished: Board | None, ts: int | None
                ) -> tuple[Board, tuple[BoardStarted, ...]]:
    """The round's next board, started at `ts` (the time of the event that ended the one
    before), and the boards left after it."""
    board = Board.start(queue[0])
    board.started_ts = ts if queue[0].ts is None else queue[0].ts
    if finished is not None:
        board.seen = finished.seen.copy()
        if not board.duplicate:
            _carry_rubber(board, finished)
    return board, queue[1:]


def _carry_rubber(board: Board, before: Board) -> None:
    """Rubber: a deal begins with the rubber as the table's deal before left it (rubber Laws
    72–77: part-scores, games, vulnerability, the rubber won)."""
    if not before.duplicate:
        board.rubber = rubber_deal(before)[1]

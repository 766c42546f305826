"""How long each player thought: the think time of every call and card, from the log's times
(`ts`, the gateway's clock as it took each event), per side per board and per round, and the
calls made after a think far beyond the player's own usual (a tempo mark). The Director's
record only (`shared.table.visibility.think_times_for`): no player's view carries it.

- A think is the time from the event before it at the table (any event: the call or card
  before it, the board or round started, a hold released, names given) to the call or card.
  Whose think: the caller's; a card's sender (`by`: declarer, for dummy's card, Law 45), else
  the hand it comes from; the opening lead's leader. A retry the fold ignored (a `client_seq`
  its sender already used) is no think, and no event before the next one; nor is an event
  without a time (an import's).
- Per side: the thinks of its two players (and of declarer for dummy's cards), summed over a
  board (the table's boards in the order started, each with the round it started in) and
  over a round.
- The tempo mark (Law 16B1: a break in tempo before a call may be unauthorised information
  for partner; the Director decides whether it suggested his call, Law 16B3): a call after
  a think of at least `TEMPO_MIN_MS` (20 s) and over `TEMPO_TIMES` (3) times the player's
  own median think over his calls in the log (the player: his name at the seat, else the
  seat). Only calls are marked: a think in the play is Law 73D1's, left to the Director.
- A robot's turns (a substitute sat in for the seat's player: `substitute_seated`, docs/
  operations.md) are marked `robot` and go under the substitute's name ("Robot (for Ann)"),
  his player's own under his name: neither's medians, nor tempo marks, are the other's.
"""

from __future__ import annotations

import enum
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from shared.codec import DecodeError
from shared.events import CallMade, CardPlayed, Event, OpeningLeadFaced
from shared.seats import Seat
from shared.table.board import Board
from shared.table.engine import TableState
from shared.table.substitutes import substitute_name
from shared.table.table_run import TableRun

TEMPO_MIN_MS = 20_000  # a marked think is at least this long (Law 16B1) …
TEMPO_TIMES = 3  # … and over this many times the player's median think over his calls
TEMPO_RULE = (f"a call after a think of at least {TEMPO_MIN_MS // 1000} s and over "
              f"{TEMPO_TIMES} times the player's own median think over his calls (Law 16B1)")


class ThinkKind(enum.StrEnum):
    """What a think was before."""

    CALL = "call"
    CARD = "card"


class Side(enum.StrEnum):
    """A side at the table."""

    NS = "NS"
    EW = "EW"

    @staticmethod
    def of(seat: Seat) -> Side:
        return Side.NS if seat.index % 2 == 0 else Side.EW

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS


@dataclass(slots=True)
class Think:
    """One call's or card's think: the event's offset in the log, the table's board it was
    on (`deal`: 1 for the first board started), who thought and how long."""

    offset: int
    deal: int
    board: int
    round: int | None
    seat: Seat
    player: str  # his name at the seat, or the seat's letter
    kind: ThinkKind
    ms: int
    tempo: bool = False
    robot: bool = False  # a substitute's turn, not his player's

    def to_map(self) -> dict[str, Any]:
        return {"offset": self.offset, "board": self.board, "round": self.round,
                "seat": self.seat.letter, "player": self.player, "kind": str(self.kind),
                "think_ms": self.ms, "tempo": self.tempo, "robot": self.robot}


@dataclass(slots=True)
class SideTimes:
    """Each side's thinking, in ms."""

    ns_ms: int = 0
    ew_ms: int = 0

    def add(self, side: Side, ms: int) -> None:
        if side is Side.NS:
            self.ns_ms += ms
        else:
            self.ew_ms += ms

    def of(self, side: Side) -> int:
        return self.ns_ms if side is Side.NS else self.ew_ms

    @property
    def total_ms(self) -> int:
        return self.ns_ms + self.ew_ms


@dataclass(frozen=True, slots=True)
class BoardTimes:
    """A board of the table (`deal`: its place in the order started): its number, its round,
    each side's thinking."""

    deal: int
    board: int
    round: int | None
    sides: SideTimes


@dataclass(frozen=True, slots=True)
class TableTimes:
    """A table's thinks, its boards' and rounds' side times."""

    thinks: tuple[Think, ...] = ()
    boards: tuple[BoardTimes, ...] = ()
    rounds: dict[int, SideTimes] = field(default_factory=dict)

    def board(self, deal: int) -> BoardTimes | None:
        """The times of the table's `deal`th board (1-based), None if it had no think."""
        return next((b for b in self.boards if b.deal == deal), None)

    def to_map(self) -> dict[str, Any]:
        """As the Director's history and exports carry it (`think_times`)."""
        return {"rule": TEMPO_RULE,
                "thinks": [t.to_map() for t in self.thinks],
                "boards": [{"board": b.board, "round": b.round, "ns_ms": b.sides.ns_ms,
                            "ew_ms": b.sides.ew_ms} for b in self.boards],
                "rounds": [{"round": r, "ns_ms": s.ns_ms, "ew_ms": s.ew_ms}
                           for r, s in sorted(self.rounds.items())]}


_KIND = {CallMade: ThinkKind.CALL, CardPlayed: ThinkKind.CARD, OpeningLeadFaced: ThinkKind.CARD}


def _thinker(event: Event) -> Seat:
    """Who thought: the caller, the card's sender (declarer, for dummy's), the leader."""
    sent: Any = event  # a call, a card or a lead: each has its `seat`, a card its `by`
    seat: Seat = (sent.by or sent.seat) if type(event) is CardPlayed else sent.seat
    return seat


@dataclass(slots=True)
class ThinkClock:
    """Think times as a table's log is folded: `step` after each event is folded (the board
    it was folded into, its place among the table's boards, the table's round), `times` at
    the end."""

    last_ts: int | None = None
    thinks: list[Think] = field(default_factory=list)
    _events: dict[int, int] = field(default_factory=dict)  # deal → its board's events
    _rounds: dict[int, int | None] = field(default_factory=dict)  # deal → its round

    def step(self, offset: int, event: Event, board: Board | None, deal: int,
             round_: int | None, state: TableState | None = None) -> None:
        """`state`: the table after the event, whose substitutes tell a robot's turn."""
        kind = _KIND.get(type(event))
        if board is None:
            if event.ts is not None:
                self.last_ts = event.ts
            return
        if deal not in self._rounds:
            self._rounds[deal] = round_  # the round the board started in
        seen = self._events.get(deal)
        self._events[deal] = board.events
        if kind is not None and seen == board.events:
            return  # a retry the fold ignored: nothing happened at the table
        ts = event.ts
        if ts is None:
            return
        last, self.last_ts = self.last_ts, ts
        if kind is None or last is None:
            return
        seat = _thinker(event)
        player = next((name for s, name in board.players if s is seat), seat.letter)
        robot = state is not None and seat in state.substitutes
        if state is not None and not robot:  # his own turn on a board a substitute played
            own = next((name for s, name in state.players if s is seat), None)
            if player == substitute_name(seat, own):
                player = own or seat.letter
        self.thinks.append(Think(offset, deal, board.board, self._rounds[deal], seat,
                                 player, kind, max(0, ts - last), robot=robot))

    def times(self) -> TableTimes:
        thinks = marked(self.thinks)
        boards: dict[int, BoardTimes] = {}
        rounds: dict[int, SideTimes] = {}
        for think in thinks:
            found = boards.get(think.deal)
            if found is None:
                found = boards[think.deal] = BoardTimes(think.deal, think.board, think.round,
                                                        SideTimes())
            found.sides.add(Side.of(think.seat), think.ms)
            if think.round is not None:
                rounds.setdefault(think.round, SideTimes()).add(Side.of(think.seat), think.ms)
        return TableTimes(tuple(thinks), tuple(boards[d] for d in sorted(boards)), rounds)


def marked(thinks: Iterable[Think]) -> list[Think]:
    """The thinks with their tempo marks (Law 16B1): a call's think of at least
    `TEMPO_MIN_MS` and over `TEMPO_TIMES` times the player's median over his calls."""
    thinks = list(thinks)
    by_player: dict[tuple[Seat, str], list[int]] = {}
    for think in thinks:
        if think.kind is ThinkKind.CALL:
            by_player.setdefault((think.seat, think.player), []).append(think.ms)
    usual = {who: statistics.median(times) for who, times in by_player.items()}
    return [replace(t, tempo=True) if t.kind is ThinkKind.CALL and t.ms >= TEMPO_MIN_MS
            and t.ms > TEMPO_TIMES * usual[t.seat, t.player] else t for t in thinks]


def table_times(events: Iterable[tuple[int, Event]]) -> TableTimes:
    """A table's think times from its log (offset, event), folded here."""
    return folded_times(events)[1]


def folded_times(events: Iterable[tuple[int, Event | DecodeError]]
                 ) -> tuple[TableState, TableTimes]:
    """A table's log (offset, event or why a record is none) folded as the processor folds it
    (a record that cannot be folded skipped), and its think times."""
    run = TableRun("")
    clock = ThinkClock()
    for offset, event in events:
        before = run.state.count
        run.apply_event(offset, event)
        if isinstance(event, DecodeError):
            continue
        board = run.folded_into(event, before)
        clock.step(offset, event, board, deal_of(run.state.board, board, before,
                                                 run.state.count), run.state.round, run.state)
    return run.state, clock.times()


def deal_of(current: Board | None, board: Board | None, before: int, count: int) -> int:
    """The place (1-based) among the table's boards of `board`, an event just folded into:
    the board in progress's, or the one before it when the event ended it and a round's next
    board started (`shared.table.table_run.TableRun.folded_into`)."""
    return before if board is not current else count

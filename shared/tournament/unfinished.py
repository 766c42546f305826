"""The score by rule of a board left unfinished at a round's end (docs/scoring.md), as the
Director's score events (`score_given`, `shared.tournament.director_scores`) with their reason
in words; the Director may replace any of them at any time (a later score of the same board
stands, `shared.scores.corrections`).

- Not started, or in the auction: no result could be obtained, an artificial adjusted score
  (Law 12C2(a)).
- In the play (the opening lead faced, or awaited) with at most `k` tricks left (the
  Director's setting, `TRICKS_LEFT` by default): the double-dummy result from the point
  reached (the solver the robots use), an assigned score (Law 12C1(b): the likely outcome,
  as online events score a board the clock cut); with more tricks left, an artificial one.
- The fault (Law 12C2(a)) from the log's think times (`shared.table.think_times`): the board's
  own once its sides have thought `BOARD_MIN_MS` on it, else the round's at the table; a side
  that took over `FAULT_SHARE` (3/5) of that time is at fault (average minus), the other not
  (average plus); otherwise both are partly at fault (average). With no think at all, both
  average.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from shared.calls import Strain
from shared.cards import SUITS, Card
from shared.robot.play import Solver
from shared.scores.movements import Seating
from shared.scores.vocabulary import Fault
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_result import result_view
from shared.table.engine import TableState
from shared.table.play import TRICKS, Play
from shared.table.think_times import Side, SideTimes, TableTimes
from shared.tournament.director_scores import ScoreKind

TRICKS_LEFT = 4  # the Director's K by default: at most this many tricks left, double-dummy
FAULT_SHARE = Fraction(3, 5)  # a side that thought over this share of the time is at fault
BOARD_MIN_MS = 120_000  # a board's own times decide once its sides have thought this long


class Stage(enum.StrEnum):
    """Where a board stood when its round ended."""

    NOT_STARTED = "not started"
    AUCTION = "in the auction"
    PLAY = "in the play"
    FINISHED = "finished"


def stage_of(board: Board | None) -> Stage:
    """Where `board` (None: not started at the table) stands."""
    if board is None:
        return Stage.NOT_STARTED
    if result_view(board) is not None:
        return Stage.FINISHED
    if board.play is not None and board.contract() is not None:
        return Stage.PLAY
    return Stage.AUCTION


def tricks_left(board: Board) -> int:
    """The tricks not completed, the one in progress included (13 before the opening lead)."""
    return TRICKS if board.play is None else board.play.remaining


@dataclass(frozen=True, slots=True)
class Blame:
    """The side at fault (None: neither more than the other) and why, in words."""

    slow: Side | None
    words: str


def _duration(ms: int, unit_ms: int) -> int:
    return round(ms / unit_ms)


def _share_words(side: Side, times: SideTimes, of: str) -> str:
    total = times.total_ms
    unit_ms, unit = (60_000, "minutes") if total >= 120_000 else (1000, "seconds")
    return (f"{side} took {_duration(times.of(side), unit_ms)} of the "
            f"{_duration(total, unit_ms)} {unit} of {of}")


def blame(board_times: SideTimes | None, round_times: SideTimes | None) -> Blame:
    """Law 12C2(a)'s fault from the times: the board's once its sides have thought
    `BOARD_MIN_MS` on it, else the round's; a side over `FAULT_SHARE` of it is at fault."""
    if board_times is not None and board_times.total_ms >= BOARD_MIN_MS:
        times, of = board_times, "the board"
    elif round_times is not None and round_times.total_ms > 0:
        times, of = round_times, "the round"
    else:
        return Blame(None, "no think times in the log")
    for side in Side:
        if times.of(side) > FAULT_SHARE * times.total_ms:
            return Blame(side, _share_words(side, times, of))
    slower = Side.NS if times.ns_ms >= times.ew_ms else Side.EW
    return Blame(None, _share_words(slower, times, of))


def _faults(found: Blame) -> tuple[Fault, Fault]:
    """(NS, EW): average minus and average plus by the slow side, else both average."""
    if found.slow is None:
        return Fault.PARTLY, Fault.PARTLY
    slow_ns = found.slow is Side.NS
    return (Fault.DIRECTLY, Fault.NONE) if slow_ns else (Fault.NONE, Fault.DIRECTLY)


_SCORE_WORDS = {Fault.NONE: "average plus", Fault.PARTLY: "average",
                Fault.DIRECTLY: "average minus"}


def _hands_held(play: Play) -> dict[Seat, list[Card]] | None:
    """The cards each hand holds, the trick in progress's back in them (the solver's
    position); None when the deal leaves a hand out."""
    done = 4 * play.done
    gone = {card.index for card in play.cards[:done]}
    hands: dict[Seat, list[Card]] = {}
    for seat in Seat:
        held = play.hands[seat.index]
        if held is None:
            return None
        hands[seat] = [card for suit, ranks in zip(SUITS, held, strict=True)
                       for rank in ranks if (card := Card(suit, rank)).index not in gone]
    return hands


def double_dummy_tricks(board: Board, solve: Solver) -> int | None:
    """Declarer's tricks: those won so far and, from the point reached, the most his side
    takes double-dummy (`solve`); None without a play or a whole deal."""
    play = board.play
    if play is None:
        return None
    hands = _hands_held(play)
    if hands is None:
        return None
    trick = play.cards[4 * play.done:]
    if play.remaining == 0:
        return play.won_by(play.declarer)
    strain = Strain.NT if play.trump is None else Strain[play.trump]
    found = solve(hands, strain, play.leader, trick)
    best = max(found.values()) if found else 0
    to_play = Seat((play.leader.index + len(trick)) % 4)
    declarers = Side.of(to_play) is Side.of(play.declarer)
    return play.won_by(play.declarer) + (best if declarers else play.remaining - best)


def _dd_score(board: Board, tricks: int) -> int:
    """The NS score of the board's contract with `tricks` to declarer (Law 77)."""
    ended = board.copy()
    assert ended.play is not None
    ended.play.declarer_tricks = tricks
    found = result_view(ended)
    assert found is not None
    return found["score_ns"]


def unfinished_score(number: int, board: Board | None, seating: Seating, deal: int,
                     times: TableTimes, round_: int, k: int, solve: Solver
                     ) -> dict[str, Any] | None:
    """The Director's score event for board `number` at a table whose round ended (`board`:
    its state there, None if not started; `deal`: its place among the table's boards), or
    None when it has a result."""
    stage = stage_of(board)
    if stage is Stage.FINISHED:
        return None
    place = {"board": number, "ns": seating.ns, "ew": seating.ew, "round": round_,
             "rule": "unfinished"}
    if board is not None and stage is Stage.PLAY and tricks_left(board) <= k:
        tricks = double_dummy_tricks(board, solve)
        contract = board.contract()
        if tricks is not None and contract is not None:
            score = _dd_score(board, tricks)
            text = f"{contract['level']}{contract['strain']}{contract['risk']}"
            return {"kind": str(ScoreKind.ASSIGNED), **place, "score_ns": score,
                    "reason": f"round ended with {tricks_left(board)} tricks left (at most "
                              f"{k}): the double-dummy result from there, {text} by "
                              f"{contract['declarer']} with {tricks} tricks, NS {score:+d}"}
    board_times = times.board(deal)
    found = blame(None if board_times is None else board_times.sides,
                  times.rounds.get(round_))
    ns, ew = _faults(found)
    where = str(stage) if stage is not Stage.PLAY else \
        f"in the play with {tricks_left(board) if board else TRICKS} tricks left (over {k})"
    return {"kind": str(ScoreKind.ARTIFICIAL), **place, "ns_fault": str(ns),
            "ew_fault": str(ew),
            "reason": f"round ended; board {number} {where}; {found.words}: NS "
                      f"{_SCORE_WORDS[ns]}, EW {_SCORE_WORDS[ew]} (Law 12C2)"}


def round_unfinished(state: TableState, times: TableTimes, seating: Seating, round_: int,
                     k: int, solve: Solver, given: Mapping[int, object] | None = None
                     ) -> list[dict[str, Any]]:
    """The score events of a table's boards of round `round_` (`seating`'s) left unfinished:
    each board as the table's fold last started it, those with a result, or in `given` (board
    → a Director's score there already), left out."""
    if not 0 <= k <= TRICKS:
        raise ValueError(f"tricks_left: 0 to {TRICKS}, not {k}")
    last: dict[int, tuple[int, Board | None]] = {}
    for deal, started in enumerate(state.boards, start=1):
        last[started.board] = (deal, started)
    out = []
    for number in seating.boards:
        if given is not None and number in given:
            continue
        deal, board = last.get(number, (0, None))
        event = unfinished_score(number, board, seating, deal, times, round_, k, solve)
        if event is not None:
            out.append(event)
    return out

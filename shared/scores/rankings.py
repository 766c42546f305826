"""Pairs' rankings from the travellers: each pair's matchpoints as a percentage of the tops it
played for (Law 78A; per direction in a Mitchell, one field in a Howell), or its IMPs (Law 78B),
after the Director's procedural penalties (Law 90) and Law 12C2(c)'s rule for an artificial
score: a side in no way at fault that scores more than 60 % on its other boards, or one at
fault that scores less than 40 % there, gets that percentage instead."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from shared.scores.adjustments import ARTIFICIAL_PERCENT, Artificial, Penalty, ScoreError
from shared.scores.numbers import shown
from shared.scores.travellers import Line, Traveller
from shared.scores.vocabulary import Direction, Fault, PenaltyUnit, Scoring

SIDES = (Direction.NS, Direction.EW)


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's place: `rank` shared by ties (1, 1, 3); `points` its matchpoints (after
    Neuberg and penalties) or IMPs; `top` the matchpoints it played for; `percent` their
    ratio; `direction` the field it is ranked in (None: one field)."""

    entrant: int
    rank: int
    boards: int
    points: float
    direction: Direction | None = None
    top: float | None = None
    percent: float | None = None


@dataclass(slots=True)
class _Card:
    """One pair's scorecard being summed."""

    boards: int = 0
    points: float = 0.0
    top: float = 0.0
    directions: set[Direction] = field(default_factory=set)


def _side(line: Line, side: Direction) -> tuple[int, float, Fault | None]:
    result = line.result
    entrant = result.ns if side is Direction.NS else result.ew
    points = line.ns_points if side is Direction.NS else line.ew_points
    score = result.score
    return entrant, points, score.fault(side) if isinstance(score, Artificial) else None


def _cards(travellers: Iterable[Traveller]
           ) -> tuple[dict[int, _Card], dict[tuple[int, int], float]]:
    cards: dict[int, _Card] = defaultdict(_Card)
    played: dict[tuple[int, int], float] = {}  # (board, entrant): the board's top (or 0)
    for traveller in travellers:
        board_top = float(traveller.top or 0)
        for line in traveller.lines:
            for side in SIDES:
                entrant, points, _ = _side(line, side)
                card = cards[entrant]
                card.boards += 1
                card.directions.add(side)
                played[traveller.board, entrant] = board_top
                card.points += points
                card.top += board_top
    return cards, played


def _other_boards(travellers: Sequence[Traveller]) -> dict[int, float]:
    """Each entrant's matchpoint percentage on its boards without an artificial score."""
    points: dict[int, float] = defaultdict(float)
    tops: dict[int, float] = defaultdict(float)
    for traveller in travellers:
        for line in traveller.lines:
            for side in SIDES:
                entrant, got, fault = _side(line, side)
                if fault is None:
                    points[entrant] += got
                    tops[entrant] += float(traveller.top or 0)
    return {e: 100 * points[e] / tops[e] for e in tops if tops[e]}


def artificial_percent(fault: Fault, other: float | None) -> float:
    """Law 12C2(c): the percentage of an artificial score at matchpoints: 60 / 50 / 40 % by
    the side's fault (12C2(a)), but the side's percentage on its other boards (`other`)
    where that is above 60 % for a side in no way at fault, or below 40 % for one directly
    at fault."""
    pct = ARTIFICIAL_PERCENT[fault]
    if other is not None and ((fault is Fault.NONE and other > pct)
                              or (fault is Fault.DIRECTLY and other < pct)):
        return other
    return pct


def with_law_12c2c(travellers: Iterable[Traveller]) -> list[Traveller]:
    """The travellers with each artificial score at matchpoints as Law 12C2(c) gives it
    (`artificial_percent` of the board's top, by each side's percentage on its other boards):
    the one place the rule is applied, so that the travellers, the scorecards and the
    rankings show and count the same points. Applying it twice changes nothing."""
    boards = list(travellers)
    if not any(t.scoring is Scoring.MATCHPOINTS and any(
            isinstance(line.result.score, Artificial) for line in t.lines) for t in boards):
        return boards
    other = _other_boards(boards)
    out = []
    for traveller in boards:
        if traveller.scoring is not Scoring.MATCHPOINTS or not any(
                isinstance(line.result.score, Artificial) for line in traveller.lines):
            out.append(traveller)
            continue
        full = float(traveller.top or 0)
        lines = []
        for line in traveller.lines:
            score = line.result.score
            if isinstance(score, Artificial):
                ns = artificial_percent(score.ns, other.get(line.result.ns))
                ew = artificial_percent(score.ew, other.get(line.result.ew))
                line = replace(line, ns_points=ns * full / 100, ew_points=ew * full / 100,
                               ns_percent=ns, ew_percent=ew)
            lines.append(line)
        out.append(replace(traveller, lines=tuple(lines)))
    return out


def _penalise(cards: dict[int, _Card], played: Mapping[tuple[int, int], float],
              penalties: Iterable[Penalty], scoring: Scoring) -> None:
    for penalty in penalties:
        board_top = played.get((penalty.board, penalty.entrant))
        if board_top is None:
            raise ScoreError(f"entrant {penalty.entrant} has no result on board "
                             f"{penalty.board}", "board")
        if (penalty.unit is PenaltyUnit.PERCENT) != (scoring is Scoring.MATCHPOINTS):
            raise ScoreError(f"a penalty in {penalty.unit} cannot score {scoring}", "unit")
        cards[penalty.entrant].points -= penalty.amount * board_top / 100 \
            if penalty.unit is PenaltyUnit.PERCENT else penalty.amount


def ranked(items: list[tuple[int, float]]) -> list[tuple[int, int, float]]:
    """(entrant, rank, value), best first; equal values share the rank (1, 1, 3)."""
    ordered = sorted(items, key=lambda item: (-round(item[1], 6), item[0]))
    out: list[tuple[int, int, float]] = []
    for i, (entrant, value) in enumerate(ordered):
        tied = out and round(out[-1][2], 6) == round(value, 6)
        out.append((entrant, out[-1][1] if tied else i + 1, value))
    return out


def pair_rankings(travellers: Iterable[Traveller], penalties: Iterable[Penalty] = (),
                  by_direction: bool = False) -> tuple[Standing, ...]:
    """The pairs ranked: by matchpoint percentage, or by IMPs (cross-IMPs or Butler, per
    comparison summed over the boards). `by_direction` (a Mitchell) ranks the NS pairs and the
    EW pairs apart; a pair that sat both ways cannot be ranked so."""
    boards = list(travellers)
    scoring = boards[0].scoring if boards else Scoring.MATCHPOINTS
    cards, played = _cards(with_law_12c2c(boards))
    _penalise(cards, played, penalties, scoring)
    fields: dict[Direction | None, list[tuple[int, float]]] = defaultdict(list)
    for entrant, card in cards.items():
        direction = None
        if by_direction:
            if len(card.directions) != 1:
                raise ScoreError(f"pair {entrant} sat both ways: no ranking by direction",
                                 "by_direction")
            direction = next(iter(card.directions))
        value = 100 * card.points / card.top if scoring is Scoring.MATCHPOINTS and card.top \
            else card.points
        fields[direction].append((entrant, value))
    standings = []
    for direction in sorted(fields, key=lambda d: "" if d is None else str(d)):
        for entrant, rank, value in ranked(fields[direction]):
            card = cards[entrant]
            matchpoints = scoring is Scoring.MATCHPOINTS
            standings.append(Standing(
                entrant, rank, card.boards, shown(card.points, 4), direction,
                card.top if matchpoints else None, shown(value, 4) if matchpoints else None))
    return tuple(standings)


@dataclass(frozen=True, slots=True)
class CardLine:
    """One board of an entrant's scorecard: where it sat, against whom, and what it scored
    (its own side's matchpoints and percentage, or IMPs)."""

    board: int
    direction: Direction
    opponent: int
    line: Line
    points: float
    percent: float | None


def scorecard(travellers: Iterable[Traveller], entrant: int) -> tuple[CardLine, ...]:
    """An entrant's boards in order, from the travellers."""
    card = []
    for traveller in sorted(travellers, key=lambda t: t.board):
        for line in traveller.lines:
            result = line.result
            if entrant == result.ns:
                card.append(CardLine(traveller.board, Direction.NS, result.ew, line,
                                     line.ns_points, line.ns_percent))
            elif entrant == result.ew:
                card.append(CardLine(traveller.board, Direction.EW, result.ns, line,
                                     line.ew_points, line.ew_percent))
    return tuple(card)

"""IMPs (Law 78B): every boundary of the WBF scale, cross-IMPs and Butler's datum."""

from __future__ import annotations

import pytest

from shared.scores.adjustments import Played
from shared.scores.imps import butler_datum, cross_imps, field_of, imps, round_to_ten
from shared.scores.travellers import Result, traveller
from shared.scores.vocabulary import Scoring

pytestmark = pytest.mark.unit

# Law 78B's table, row by row as the Law prints it: (lowest difference, highest, IMPs).
LAW_78B = [(20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
           (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
           (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
           (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
           (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23)]


@pytest.mark.parametrize(("low", "high", "won"), LAW_78B)
def test_law_78b_each_row_of_the_scale(low: int, high: int, won: int) -> None:
    """Law 78B: each row's lowest and highest difference, one below the row, and the same
    differences negative."""
    assert imps(low) == won and imps(high) == won
    assert imps(low - 10) == won - 1
    assert imps(-low) == -won and imps(-high) == -won


def test_law_78b_ends_of_the_scale() -> None:
    """Law 78B: 0–10 points no IMP; 4000 and upwards 24."""
    assert [imps(d) for d in (0, 10, -10, 4000, 7600, -4000)] == [0, 0, 0, 24, 24, -24]


def test_law_78b_cross_imps_each_against_every_other() -> None:
    """Law 78B across the field: +620 against +620, +170 and −100 wins 0, 10 (450 points)
    and 12 (720) IMPs, 22 over 3 comparisons."""
    field = field_of([620, 620, 170, -100])
    assert cross_imps(620, field) == pytest.approx(22 / 3)
    assert cross_imps(-100, field) == pytest.approx(-(12 + 12 + 7) / 3)
    board = traveller(1, [Result(1, 1, 2, Played(620)), Result(1, 3, 4, Played(170))],
                      Scoring.CROSS_IMPS)
    assert [(line.ns_points, line.ew_points) for line in board.lines] == \
        [(10.0, -10.0), (-10.0, 10.0)]


def test_law_78b_butler_datum_worked_example() -> None:
    """Butler (Law 78B against a datum): the worked example of Rik (BBO forums,
    https://www3.dal12.sl.bridgebase.com/forums/topic/48693-bermuda-bowl-2011-universal-thread/
    page__view__findpost__p__583771): 3 × +980, 11 × +480, 7 × +450, 1 × −50, all counted,
    average 514.55, datum +510; NS +980 wins 10 IMPs, +480 loses 1, +450 2, −50 11."""
    scores = [980] * 3 + [480] * 11 + [450] * 7 + [-50]
    assert butler_datum(scores, trim=0) == 510
    assert [imps(s - 510) for s in (980, 480, 450, -50)] == [10, -1, -2, -11]


def test_law_78b_butler_datum_without_top_and_bottom() -> None:
    """Butler's usual datum drops the highest and the lowest score: the same board without
    one +980 and the −50 averages (2 × 980 + 11 × 480 + 7 × 450) / 20 = 519.5, datum 520."""
    scores = [980] * 3 + [480] * 11 + [450] * 7 + [-50]
    assert butler_datum(scores) == 520
    board = traveller(1, [Result(1, i, 100 + i, Played(s)) for i, s in enumerate(scores)],
                      Scoring.BUTLER)
    assert board.datum == 520
    assert board.lines[0].ns_points == 10 and board.lines[-1].ns_points == -11


def test_datum_rounding_half_to_even_ten() -> None:
    """ACBLscore's rounding of a datum (http://web2.acbl.org/acblscore/manual/83.htm): to the
    nearest 10, a 5 to the even ten: 425 gives 420, 435 gives 440."""
    assert [round_to_ten(p) for p in (425, 435, 514.55, -425, 424.9)] == [420, 440, 510, -420,
                                                                          420]

"""The WBF's continuous 20-VP scale: its published values, its blitz, and the properties its
technical report asks of it (each further IMP worth no more than the last, 20 VPs shared)."""

from __future__ import annotations

import itertools

import pytest

from shared.scores.victory_points import blitz, scale, victory_points

pytestmark = pytest.mark.unit


def test_wbf_scale_published_values() -> None:
    """The WBF continuous scale as published for a 20-board match (quoted by BC Star,
    https://bcstar.nl/continue-wp-schaal-ingevoerd/: "0 IMP: 10,00 WP, 1 IMP: 10,28 WP,
    2 IMP: 10,55 WP"); the winner's and loser's VPs sum to 20 (Buchen, "A Brief Intro to
    the New WBF Scales", https://nswba.com.au/news/news.asp?wbfVPIntro.htm: 12.48 and 7.52)."""
    assert victory_points(0, 20) == (10.0, 10.0)
    assert victory_points(1, 20) == (10.28, 9.72)
    assert victory_points(2, 20) == (10.55, 9.45)
    assert victory_points(-2, 20) == (9.45, 10.55)


@pytest.mark.parametrize(("boards", "margin"), [(16, 60), (8, 43), (12, 52), (32, 85)])
def test_wbf_blitz_is_fifteen_root_n(boards: int, margin: int) -> None:
    """The WBF scale's blitz: a margin of 15 × √N IMPs (60 over 16 boards) or more wins 20–0;
    one IMP less does not."""
    assert blitz(boards) <= margin < blitz(boards) + 1
    assert victory_points(margin, boards) == (20.0, 0.0)
    assert victory_points(margin + 30, boards) == (20.0, 0.0)
    assert victory_points(-margin, boards) == (0.0, 20.0)
    assert victory_points(margin - 1, boards)[0] < 20.0


@pytest.mark.parametrize("boards", range(1, 65))
def test_wbf_scale_each_imp_worth_no_more_than_the_last(boards: int) -> None:
    """The WBF technical report's rule: VPs rise with the margin, each further IMP worth no
    more than the one before (after rounding to the cent), from 10.00 to 20.00."""
    table = scale(boards)
    steps = [round(b - a, 2) for a, b in itertools.pairwise(table)]
    assert table[0] == 10.0 and table[-1] == 20.0
    assert all(step >= 0 for step in steps)
    assert all(later <= earlier for earlier, later in itertools.pairwise(steps))
    assert all(sum(victory_points(m, boards)) == pytest.approx(20) for m in range(-70, 71))

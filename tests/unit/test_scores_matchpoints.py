"""Matchpoints (Law 78A) and the Neuberg formula, against the EBU's and others' worked
examples."""

from __future__ import annotations

import random

import pytest

from shared.scores.adjustments import Played, Weighted, weighted
from shared.scores.matchpoints import matchpoints, neuberg, percent, top
from shared.scores.travellers import Result, traveller

pytestmark = pytest.mark.unit

# The EBU's example (Max Bavin, "The Neuberg Formula - the Principle",
# http://www.ebu.co.uk/lawsandethics/articles/neuberg/principle.htm): a board expected to be
# played 11 times (top 20) has 10 results; each stands for 1.1 of them.
EBU_SCORES = [520, 500, 490, 480, 460, 450, 430, 420, 400, -50]
EBU_MATCHPOINTS = [19.9, 17.7, 15.5, 13.3, 11.1, 8.9, 6.7, 4.5, 2.3, 0.1]


def played(*scores: int) -> list[Result]:
    return [Result(1, 2 * i + 1, 2 * i + 2, Played(s)) for i, s in enumerate(scores)]


def test_law_78a_two_per_result_beaten_one_per_tie() -> None:
    """Law 78A: two matchpoints for each score beaten, one for each tied; top 2 × (n − 1)."""
    points = matchpoints([((s, 1.0),) for s in (620, 620, 170, -100, 650)])
    assert points == [5.0, 5.0, 2.0, 0.0, 8.0]
    assert top(5) == 8 and sum(points) == 5 * top(5) / 2


def test_law_78a_percentages_and_both_sides() -> None:
    """Law 78A: EW score the top less NS's; a percentage is the share of the top."""
    board = traveller(1, played(620, 170, -100))
    assert [(line.ns_points, line.ew_points) for line in board.lines] == \
        [(4.0, 0.0), (2.0, 2.0), (0.0, 4.0)]
    assert [line.ns_percent for line in board.lines] == [100.0, 50.0, 0.0]
    assert percent(3, 4) == 50.0 and percent(0, 1) == 50.0


def test_neuberg_ebu_worked_example() -> None:
    """The Neuberg formula (Law 78A's matchpoints factored to the expected results): the
    EBU's example, 10 results of 11 expected, to the tenth it prints."""
    board = traveller(1, played(*EBU_SCORES), expected=11)
    assert board.top == 20
    assert [round(line.ns_points, 1) for line in board.lines] == EBU_MATCHPOINTS
    assert [round(line.ew_points, 1) for line in board.lines] == EBU_MATCHPOINTS[::-1]


def test_neuberg_formula_example_of_six_results_of_seven() -> None:
    """The Neuberg formula's textbook example (http://gambiter.com/bridge/tournaments/
    Neuberg_formula.html): a board played 6 times where others were played 7: 4 of 10
    becomes 4.8333 of 12, 9 of 10 becomes 10.6667."""
    assert neuberg(4, 6, 7) == pytest.approx(4.8333, abs=1e-4)
    assert neuberg(9, 6, 7) == pytest.approx(10.6667, abs=1e-4)
    with pytest.raises(ValueError, match="Neuberg"):
        neuberg(4, 8, 7)


def test_neuberg_ebu_second_example_whole_numbers() -> None:
    """The EBU's second example: 8 results where 16 were expected (top 30), each result
    standing for two: a shared top of two on 8 results (13 of 14) becomes 27 of 30."""
    assert neuberg(13, 8, 16) == 27.0
    assert neuberg(14, 8, 16) == 29.0  # an outright top: beats the other 14, ties its twin


def test_law_78a_weighted_result_matchpointed_part_by_part() -> None:
    """Law 12C1(c) in matchpoints: a weighted score earns each part's matchpoints for its
    weight, and the others are beaten or tied by it part by part (60 % of +620, 40 % of
    −100 against +620 and −100: 0.6 × 3 + 0.4 × 1)."""
    results = [*played(620, -100), Result(1, 5, 6, weighted((60, 620), (40, -100)))]
    board = traveller(1, results)
    assert [round(line.ns_points, 6) for line in board.lines] == [3.4, 0.4, 2.2]
    assert sum(line.ns_points + line.ew_points for line in board.lines) == pytest.approx(12)


def slow_points(mine: tuple[tuple[int, float], ...],
                others: list[tuple[tuple[int, float], ...]]) -> float:
    """Law 78A by its words, part by part: 2 for each result beaten, 1 for each tied."""
    return sum(w * v * (2 if a > b else 1 if a == b else 0)
               for other in others for a, w in mine for b, v in other)


@pytest.mark.parametrize("seed", range(20))
def test_law_78a_field_equals_the_pairwise_definition(seed: int) -> None:
    """Law 78A: the field's look-ups give each result, weighted or not, the matchpoints of
    comparing it with every other result part by part; NS and EW share the tops."""
    rng = random.Random(seed)
    choices = [-200, -100, 110, 140, 420, 450, 620]
    results = []
    for i in range(rng.randint(2, 15)):
        if rng.random() < 0.3:
            a, b = rng.sample(choices, 2)
            score: Played | Weighted = weighted((70, a), (30, b))
        else:
            score = Played(rng.choice(choices))
        results.append(Result(1, 2 * i + 1, 2 * i + 2, score))
    board = traveller(1, results)
    dists = [r.score.distribution() for r in results]
    for i, line in enumerate(board.lines):
        expected = slow_points(dists[i], dists[:i] + dists[i + 1:])
        assert line.ns_points == pytest.approx(expected)
        assert line.ns_points + line.ew_points == pytest.approx(top(len(results)))

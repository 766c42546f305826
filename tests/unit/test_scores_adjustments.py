"""The Director's scores (Law 12C) and procedural penalties (Law 90) on a traveller and in the
rankings, and the errors that name the field at fault."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shared.scores.adjustments import (
    Artificial,
    Assigned,
    Part,
    Penalty,
    Played,
    ScoreError,
    Split,
    Weighted,
    weighted,
)
from shared.scores.corrections import Adjustment, apply_adjustments, correct, scheduled
from shared.scores.movements import mitchell
from shared.scores.rankings import pair_rankings
from shared.scores.travellers import Result, traveller, travellers
from shared.scores.vocabulary import Fault, PenaltyUnit, ResultKind, Scoring
from shared.scoring import MAX_SCORE

pytestmark = pytest.mark.unit


def played(board: int, *scores: int) -> list[Result]:
    return [Result(board, 2 * i + 1, 2 * i + 2, Played(s)) for i, s in enumerate(scores)]


def field_of(error: pytest.ExceptionInfo[ScoreError]) -> str:
    return error.value.field


def test_law_12c1c_weights_must_sum_to_100_percent() -> None:
    """Law 12C1(c): a weighted score's weights sum to 100 %; each is a share of it, each
    result named once, each a bridge score."""
    assert weighted((60, 620), (40, -100)).kind is ResultKind.WEIGHTED
    third = Fraction(100, 3)
    assert Weighted((Part(third, 620), Part(third, 650), Part(third, -100))).parts[0].percent \
        == third
    cases = [(((60, 620), (30, -100)), "parts"), (((100, 620), (0, -100)), "parts[0].percent"),
             (((50, 620), (50, 620)), "parts"), (((50, 625), (50, -100)), "parts[0].score_ns"),
             (((100, 620),), "parts")]
    for parts, field in cases:
        with pytest.raises(ScoreError) as error:
            weighted(*parts)
        assert field_of(error) == field, parts
    with pytest.raises(ScoreError, match="sum to 90 %"):
        weighted((60, 620), (30, -100))


def test_bad_results_and_penalties_name_their_field() -> None:
    """A result or a penalty that cannot be is refused, naming the field."""
    cases = [(lambda: Result(0, 1, 2, Played(420)), "board"),
             (lambda: Result(1, 3, 3, Played(420)), "ew"),
             (lambda: Played(415), "score_ns"),
             (lambda: Assigned(True), "score_ns"),
             (lambda: Artificial("plus", Fault.NONE), "ns"),  # type: ignore[arg-type]
             (lambda: Penalty(1, 1, 0), "amount"),
             (lambda: Penalty(1, 1, 150), "amount"),
             (lambda: traveller(1, [*played(1, 420), Result(1, 1, 5, Played(450))]), "ns"),
             (lambda: traveller(1, played(1, 420, 450, 400), expected=2), "expected"),
             (lambda: traveller(2, played(1, 420)), "board")]
    for make, field in cases:
        with pytest.raises(ScoreError) as error:
            make()
        assert field_of(error) == field


def test_law_77_a_score_no_board_can_give_is_refused_naming_its_field() -> None:
    """Law 77 bounds a board's score (`MAX_SCORE`, 7,600 either way): a Director's assigned,
    weighted or corrected score beyond it (Law 12C1: a result that could have been obtained)
    is refused, naming the field and the bound; the bound itself is a score."""
    huge = 10 ** 30
    cases = [(lambda: Assigned(huge), "score_ns"), (lambda: correct(-huge), "score_ns"),
             (lambda: Played(MAX_SCORE + 10), "score_ns"),
             (lambda: weighted((60, 620), (40, huge)), "parts[1].score_ns")]
    for make, field in cases:
        with pytest.raises(ScoreError, match=f"between -{MAX_SCORE} and {MAX_SCORE} "
                                             r"\(Law 77") as error:
            make()
        assert field_of(error) == field
    assert Assigned(MAX_SCORE).score_ns == -Assigned(-MAX_SCORE).score_ns == 7600


def test_law_12c2_artificial_scores_in_matchpoints() -> None:
    """Law 12C2(a): average plus 60 %, average 50 %, average minus 40 % of the top; the two
    need not balance. The board's other results are factored to the expected number by
    Neuberg (each of 3 results stands for 4/3 of the 4 expected: top 6)."""
    results = [*played(1, 620, 170, -100), Result(1, 7, 8, Artificial(Fault.NONE,
                                                                     Fault.DIRECTLY))]
    board = traveller(1, results)
    assert board.top == 6 and board.compared == 3
    plus_minus = board.lines[3]
    assert plus_minus.ns_points == pytest.approx(3.6)
    assert plus_minus.ew_points == pytest.approx(2.4)
    assert plus_minus.ns_percent == pytest.approx(60)
    assert plus_minus.ew_percent == pytest.approx(40)
    # the top of three results (4) factored: (4 + 1) × 4 / 3 − 1
    assert board.lines[0].ns_points == pytest.approx(5 * 4 / 3 - 1)
    average = traveller(1, [*played(1, 620), Result(1, 7, 8, Artificial(Fault.PARTLY,
                                                                        Fault.PARTLY))])
    assert [line.ns_percent for line in average.lines] == [50.0, 50.0]


def test_law_12c2_artificial_scores_in_imps() -> None:
    """Law 12C2(b): at IMPs average plus is +3 IMPs and average minus −3 (average 0)."""
    results = [*played(1, 620, 170), Result(1, 7, 8, Artificial(Fault.NONE, Fault.DIRECTLY))]
    for scoring in (Scoring.CROSS_IMPS, Scoring.BUTLER):
        line = traveller(1, results, scoring).lines[2]
        assert (line.ns_points, line.ew_points) == (3.0, -3.0)


def test_law_12c1b_assigned_and_split_scores() -> None:
    """Law 12C1(b): an assigned score is matchpointed as if played; a split score gives each
    side its own, each compared with the other results (the field compares with both, for
    half each)."""
    assigned = traveller(1, [*played(1, 620, -100), Result(1, 5, 6, Assigned(170))])
    assert [line.ns_points for line in assigned.lines] == [4.0, 0.0, 2.0]
    assert assigned.lines[2].kind is ResultKind.ASSIGNED
    split = Split(ns=Assigned(620), ew=Assigned(170))
    board = traveller(1, [*played(1, 650, 420, -100), Result(1, 7, 8, split)])
    line = board.lines[3]
    assert line.ns_points == 4.0  # +620 beats +420 and −100 and loses to +650
    assert line.ew_points == 6 - 2.0  # EW scored by +170: beats −100 only
    # +650 against the split line: beats both halves; +420 beats +170's half, loses to +620's
    assert board.lines[0].ns_points == 6.0 and board.lines[1].ns_points == 3.0


def test_law_12c1c_weighted_in_imps() -> None:
    """Law 12C1(c) at IMPs: the weighted IMPs of each part (60 % of +620, 40 % of −100 against
    +170: 0.6 × 10 + 0.4 × −7 = 3.2)."""
    results = [*played(1, 170), Result(1, 3, 4, weighted((60, 620), (40, -100)))]
    board = traveller(1, results, Scoring.CROSS_IMPS)
    assert board.lines[1].ns_points == pytest.approx(3.2)
    assert board.lines[0].ns_points == pytest.approx(-3.2)


def test_law_12c2c_session_percentage_replaces_average_plus() -> None:
    """Law 12C2(c): a side in no way at fault that scores more than 60 % on its other boards
    gets that percentage for the artificial board; one at fault under 40 %, its own."""
    results = [Result(1, 1, 2, Played(620)), Result(1, 3, 4, Played(100)),
               Result(2, 1, 2, Artificial(Fault.NONE, Fault.DIRECTLY)),
               Result(2, 3, 4, Played(100))]
    standings = {s.entrant: s for s in pair_rankings(travellers(results).values())}
    # pair 1: 100 % on board 1, so 100 % on board 2 too; pair 2: 0 % on board 1, so 0 %
    assert standings[1].percent == 100.0 and standings[2].percent == 0.0
    # pairs 3 and 4 are unaffected: board 2 has one result (Neuberg: 50 %)
    assert standings[3].percent == 25.0 and standings[4].percent == 75.0


def test_law_90_procedural_penalty_in_the_ranking() -> None:
    """Law 90: a procedural penalty takes a share of a top (or IMPs) from the offender alone;
    a penalty on a board the entrant did not play is refused, naming the board."""
    boards = travellers(played(1, 620, 170, -100)).values()
    plain = {s.entrant: s.points for s in pair_rankings(boards)}
    penalised = {s.entrant: s.points
                 for s in pair_rankings(boards, [Penalty(1, 1, 25, reason="slow play")])}
    assert penalised[1] == plain[1] - 1.0  # 25 % of a top of 4
    assert {e: p for e, p in penalised.items() if e != 1} == \
        {e: p for e, p in plain.items() if e != 1}
    with pytest.raises(ScoreError) as error:
        pair_rankings(boards, [Penalty(2, 1, 25)])
    assert field_of(error) == "board"
    with pytest.raises(ScoreError) as error:
        pair_rankings(boards, [Penalty(1, 1, 3, PenaltyUnit.IMPS)])
    assert field_of(error) == "unit"
    imp_boards = travellers(played(1, 620, 170), Scoring.CROSS_IMPS).values()
    imps = {s.entrant: s.points
            for s in pair_rankings(imp_boards, [Penalty(1, 2, 3, PenaltyUnit.IMPS)])}
    assert imps[2] == -10.0 - 3.0


def test_corrected_result_scores_as_played() -> None:
    """A result corrected by the Director replaces the one recorded and is marked so."""
    board = traveller(1, [Result(1, 1, 2, Played(620, corrected=True)),
                          Result(1, 3, 4, Played(170))])
    assert board.lines[0].kind is ResultKind.CORRECTED and board.lines[0].ns_points == 2.0
    assert board.lines[1].kind is ResultKind.PLAYED


def test_law_12c_adjustments_replace_or_add_results() -> None:
    """The Director's scores on a session (Law 12C, and corrections): one replaces the result
    of its board at its table, a later one the earlier; one for a scheduled board that was
    not played adds it; one for a board the table was not to play is refused, naming
    `board`."""
    rounds = mitchell(6, 2, rounds=1)  # round 1: boards 1–2 at table 1, 3–4 at 2, 5–6 at 3
    places = scheduled(rounds)
    results = [Result(1, 1, 4, Played(420)), Result(3, 2, 5, Played(450))]
    changed = apply_adjustments(results, [
        Adjustment(1, 1, 4, correct(450), "the score was entered as 420"),
        Adjustment(1, 1, 4, weighted((50, 450), (50, -50)), "misinformation, Law 21B3"),
        Adjustment(5, 3, 6, Artificial(Fault.NONE, Fault.DIRECTLY), "slow play"),
    ], places)
    assert [r.score.kind for r in changed] == [ResultKind.WEIGHTED, ResultKind.PLAYED,
                                               ResultKind.ARTIFICIAL]
    assert changed[1] == results[1]
    assert (5, 3, 6) in places and (2, 1, 4) in places and (1, 2, 5) not in places
    for place in [(1, 2, 5), (9, 1, 4)]:
        with pytest.raises(ScoreError) as error:
            apply_adjustments(results, [Adjustment(*place, Assigned(100))], places)
        assert field_of(error) == "board"
    with pytest.raises(ScoreError):  # without the schedule only results there can change
        apply_adjustments(results, [Adjustment(5, 3, 6, Assigned(100))])


def test_neuberg_with_an_artificial_score_worked_example() -> None:
    """Law 12C2 with Neuberg: Magic Contest's example (http://brenning.se/mcscneuberg.asp):
    of 11 results the Director turns one into average plus for both sides; the +450 that
    topped the other ten (18 of 18) scores (11 / 10) × (18 + 1) − 1 = 19.9 of 20, and the
    average-plus pairs 60 % of 20 each."""
    others = [450, 420, 420, 400, 170, 170, 140, 110, -50, -100]
    results = [*played(1, *others), Result(1, 31, 32, Artificial(Fault.NONE, Fault.NONE))]
    board = traveller(1, results)
    assert board.top == 20 and board.compared == 10
    assert round(board.lines[0].ns_points, 1) == 19.9
    assert (board.lines[-1].ns_points, board.lines[-1].ew_points) == (12.0, 12.0)

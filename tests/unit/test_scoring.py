"""Scores: duplicate (Law 77's table) and rubber (rubber Laws 72–77, 80), against known scores."""

from __future__ import annotations

import pytest

from shared import fold, from_map
from shared.cards import Card
from shared.scoring import (
    MAX_SCORE,
    Contract,
    RubberState,
    duplicate_score,
    honours,
    rubber_score,
    unfinished_rubber,
)
from shared.table.board_result import rubber_total

pytestmark = pytest.mark.unit


def contract(text: str) -> Contract:
    """`4S`, `1NTx`, `7NTxx`."""
    risk = "XX" if text.endswith("xx") else "X" if text.endswith("x") else ""
    bid = text.rstrip("x")
    return Contract(int(bid[0]), bid[1:], risk)


@pytest.mark.parametrize(("bid", "vulnerable", "tricks", "score"), [
    ("3NT", False, 9, 400),
    ("3NT", True, 10, 630),
    ("4S", True, 11, 650),
    ("4H", False, 10, 420),
    ("1NT", False, 7, 90),
    ("2S", False, 8, 110),
    ("3C", False, 9, 110),
    ("5D", True, 11, 600),
    ("1NTx", True, 5, -500),
    ("7NTxx", True, 13, 2980),
    ("2Dx", False, 8, 180),
    ("6H", True, 12, 1430),
    ("6NT", False, 12, 990),
    ("7S", False, 13, 1510),
    ("1Sx", False, 9, 360),  # 60 + 2 × 100 + 50 + 50
    ("2Hxx", True, 8, 840),  # 240 below (a game) + 500 + 100
    ("4S", False, 9, -50),
    ("4S", True, 7, -300),
    ("4Sx", False, 6, -800),  # 100 + 200 + 200 + 300
    ("4Sx", True, 6, -1100),  # 200 + 300 + 300 + 300
    ("3NTxx", False, 6, -1000),  # twice 100 + 200 + 200
])
def test_law_77_duplicate_scores(bid: str, vulnerable: bool, tricks: int, score: int) -> None:
    """Law 77: trick score, overtricks, the insult, game or part-score, slams; undertricks
    undoubled, doubled, redoubled, by vulnerability."""
    assert duplicate_score(contract(bid), vulnerable, tricks) == score


def test_law_77_the_most_one_board_scores_either_way() -> None:
    """Law 77: over every contract (level, strain, doubled or not, vulnerable or not) and
    every number of tricks, the largest score is `MAX_SCORE` (a grand slam redoubled and
    vulnerable, down 13); the most a side can make, 1NT redoubled vulnerable with 13."""
    scores = [duplicate_score(Contract(level, strain, risk), vulnerable, tricks)
              for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")
              for risk in ("", "X", "XX") for vulnerable in (False, True)
              for tricks in range(14)]
    assert max(abs(s) for s in scores) == MAX_SCORE
    assert -min(scores) == MAX_SCORE == -duplicate_score(contract("7NTxx"), True, 0)
    assert max(scores) == duplicate_score(contract("1NTxx"), True, 13) == 3160


def test_law_77_honours_in_one_hand() -> None:
    """Rubber Law 77: four trump honours in one hand 100, five 150; four aces at no trump
    150; three honours nothing."""
    hand = frozenset(Card.parse(c) for c in ["SA", "SK", "SQ", "SJ", "ST", "HA", "DA", "CA"])
    assert honours(hand, "S") == 150
    assert honours(hand - {Card.parse("ST")}, "S") == 100
    assert honours(hand - {Card.parse("ST"), Card.parse("SJ")}, "S") == 0
    assert honours(hand, "NT") == 150 and honours(hand, "H") == 0


def test_rubber_games_and_the_rubber_across_deals() -> None:
    """Rubber Law 77: the trick score goes below the line; 100 there is a game and wipes both
    sides' part-scores; a side that has a game is vulnerable; its second game wins the
    rubber, 500 when the opponents have a game (700 when they have none), and a new rubber
    begins."""
    state = RubberState()
    score, state = rubber_score(state, contract("2S"), True, 8)  # NS 60 below
    assert (score, state) == (60, RubberState(60, 0, 0, 0))
    score, state = rubber_score(state, contract("3D"), False, 9)  # EW 60 below
    assert (score, state) == (-60, RubberState(60, 60, 0, 0))
    score, state = rubber_score(state, contract("2H"), True, 9)  # NS 60 + 30: a game
    assert (score, state) == (90, RubberState(0, 0, 1, 0))
    score, state = rubber_score(state, contract("4S"), False, 10)  # EW's game
    assert (score, state) == (-120, RubberState(0, 0, 1, 1))
    score, state = rubber_score(state, contract("3NT"), True, 8)  # NS down one, vulnerable
    assert (score, state) == (-100, RubberState(0, 0, 1, 1))
    score, state = rubber_score(state, contract("3NT"), True, 9, honours_ns=150)
    assert (score, state) == (100 + 150 + 500, RubberState())  # the rubber: 2 games to 1
    score, state = rubber_score(state, contract("6H"), False, 12)
    assert (score, state) == (-(180 + 500), RubberState(0, 0, 0, 1))
    score, state = rubber_score(state, contract("3NT"), False, 9)
    assert (score, state) == (-(100 + 700), RubberState())  # 2 games to none
    assert rubber_score(state, None, True, None) == (0, state)  # passed out


@pytest.mark.parametrize(("state", "score"), [
    (RubberState(), 0),  # a rubber finished (or none begun): its bonus went to its deal
    (RubberState(games_ns=1), 300),  # a game won: 300
    (RubberState(part_ew=60), -50),  # a part-score in the unfinished game: 50
    (RubberState(part_ns=40, games_ew=1), 50 - 300),
    (RubberState(part_ns=90, part_ew=20, games_ns=1, games_ew=1), 300 + 50 - 300 - 50)])
def test_an_unfinished_rubber_scores_300_a_game_and_50_a_part_score(state: RubberState,
                                                                     score: int) -> None:
    """Rubber Law 80 (incomplete rubber), with rubber Law 77's scoring table: a side that
    has won a game in a rubber not finished scores 300, a side with a part-score in the
    unfinished game 50; from NS's side."""
    assert unfinished_rubber(state) == score


def rubber_deal(board: int, bid: str, declarer: str, tricks: int) -> list[dict[str, object]]:
    """A deal at rubber: `declarer` bids `bid` as dealer, three passes, `tricks` recorded."""
    seats = "NESW"[("NESW".index(declarer)):] + "NESW"[:"NESW".index(declarer)]
    return [{"type": "board_started", "board": board, "dealer": declarer, "ruleset": "rubber"},
            {"type": "call", "seat": seats[0], "call": bid},
            *({"type": "call", "seat": seat, "call": "P"} for seat in seats[1:]),
            {"type": "result_recorded", "tricks": tricks}]


def test_a_tables_rubber_total_scores_the_rubber_it_leaves_unfinished() -> None:
    """Rubber Laws 72–77 deal by deal (4S made: 120, a game; 2S made: 60, a part-score), then
    Law 80 for the rubber left unfinished: NS have a game (300) and a part-score (50). A
    rubber won on the last deal leaves nothing unfinished (its 700 is the deal's)."""
    log = rubber_deal(1, "4S", "N", 10) + rubber_deal(2, "2S", "S", 8)
    boards = fold(from_map(e) for e in log).boards
    assert [b.to_dict()["result"] for b in boards] == [
        {"declarer_tricks": 10, "score_ns": 120}, {"declarer_tricks": 8, "score_ns": 60}]
    assert rubber_total(boards) == 120 + 60 + 300 + 50
    log += rubber_deal(3, "3NT", "E", 9)  # EW's game wipes NS's part-score: 300 each
    assert rubber_total(fold(from_map(e) for e in log).boards) == 180 - 100 + 300 - 300
    log += rubber_deal(4, "4H", "N", 10)  # NS's second game: the rubber, 500
    assert rubber_total(fold(from_map(e) for e in log).boards) == 180 - 100 + 120 + 500
    duplicate = [{**e, "ruleset": "duplicate"} if e["type"] == "board_started" else e
                 for e in log]
    assert rubber_total(fold(from_map(e) for e in duplicate).boards) is None

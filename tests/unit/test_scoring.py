"""Scores: duplicate (Law 77's table) and rubber (rubber Laws 72–77), against known scores."""

from __future__ import annotations

import pytest

from shared.cards import Card
from shared.scoring import Contract, RubberState, duplicate_score, honours, rubber_score

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

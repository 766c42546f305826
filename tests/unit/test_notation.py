"""Seats, calls, cards, deals and the board rotation: value objects and their notation."""

import pytest

from shared import ALL_CALLS, Call, Card, NotationError, Seat, Strain, Vulnerability
from shared.calls import CallKind
from shared.deal import format_deal, parse_deal
from shared.seats import board_dealer, board_vulnerability


def test_all_38_calls_round_trip_through_notation() -> None:
    """Law 18A: 35 bids, and pass, double and redouble: 38 calls."""
    assert len(ALL_CALLS) == 38 == len(set(ALL_CALLS))
    for call in ALL_CALLS:
        assert Call.parse(str(call)) is call
        assert eval(repr(call)) is call  # repr is the parse expression


@pytest.mark.parametrize(("text", "normal"), [
    ("1nt", "1NT"), ("1N", "1NT"), (" 3 h ", "3H"), ("p", "P"), ("Pass", "P"),
    ("x", "X"), ("D", "X"), ("Dbl", "X"), ("DOUBLE", "X"),
    ("xx", "XX"), ("R", "XX"), ("Rdbl", "XX"), ("redouble", "XX"), ("8c", "8C"),
])
def test_calls_parse_case_insensitively(text: str, normal: str) -> None:
    assert str(Call.parse(text)) == normal


@pytest.mark.parametrize("text", ["", "0C", "1Z", "NT", "XXX", "1", "-1H", "100C", "1 NT!"])
def test_bad_call_notation_is_an_error(text: str) -> None:
    with pytest.raises(NotationError, match="not a call"):
        Call.parse(text)


def test_law_18e_rank_of_denominations_and_supersession() -> None:
    """Law 18B, 18E: NT > S > H > D > C; a higher level supersedes any denomination."""
    assert [s.name for s in sorted(Strain, key=lambda s: s.value)] == ["C", "D", "H", "S", "NT"]
    assert Call.parse("1NT").supersedes(Call.parse("1S"))
    assert Call.parse("2C").supersedes(Call.parse("1NT"))
    assert not Call.parse("1H").supersedes(Call.parse("1H"))
    assert Call.parse("1C").supersedes(None)
    assert Call.parse("8C").kind is CallKind.BID and Call.parse("8C").level == 8


def test_law_17c_seats_rotate_clockwise() -> None:
    """Law 17C: LHO is next in rotation, RHO the previous seat."""
    assert [Seat.N.lho, Seat.E.lho, Seat.S.lho, Seat.W.lho] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert Seat.N.rho is Seat.W and Seat.N.partner is Seat.S
    assert Seat.E.is_opponent_of(Seat.N) and not Seat.S.is_opponent_of(Seat.N)
    assert Seat.parse("north") is Seat.N
    assert Seat.W.seats_until(Seat.N) == (Seat.W,)
    assert Seat.S.seats_until(Seat.N) == (Seat.S, Seat.W)
    with pytest.raises(NotationError):
        Seat.parse("X")


def test_board_rotation_matches_the_standard_16_board_cycle() -> None:
    dealers = "".join(board_dealer(b).name for b in range(1, 17))
    vuls = [str(board_vulnerability(b)) for b in range(1, 17)]
    assert dealers == "NESW" * 4
    assert vuls == ["None", "NS", "EW", "Both", "NS", "EW", "Both", "None",
                    "EW", "Both", "None", "NS", "Both", "None", "NS", "EW"]
    assert board_dealer(17) is Seat.N and board_vulnerability(17) is Vulnerability.NONE


def test_vulnerability_aliases() -> None:
    assert Vulnerability.parse("-") is Vulnerability.NONE
    assert Vulnerability.parse("All") is Vulnerability.BOTH
    assert Vulnerability.parse("b") is Vulnerability.BOTH
    with pytest.raises(NotationError):
        Vulnerability.parse("maybe")


def test_cards_parse_suit_then_rank() -> None:
    """Law 24 speaks of honours: A K Q J T."""
    assert str(Card.parse("h10")) == "HT" and Card.parse("HT").is_honour
    assert not Card.parse("S9").is_honour
    for bad in ("H1", "KH", "Z5", "H"):
        with pytest.raises(NotationError, match="not a card"):
            Card.parse(bad)


def test_deal_notation() -> None:
    text = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
    hands = parse_deal(text)
    assert hands[Seat.E] == "JT987.Q876.AK5.2"
    assert format_deal(hands) == text
    assert parse_deal("W:- - - AJ9754.J62.K62.6") == {Seat.S: "AJ9754.J62.K62.6"}
    for bad, why in [("N:AKQ.2.3", "four hands"), ("X:- - - -", "not a seat"),
                     ("N:AKQJT98765432.. - - -", "four suits"),
                     ("N:AA.KJ32.842.AQ74 - - -", "dealt twice"),
                     ("N:A.K.Q.J - - -", "13 cards")]:
        with pytest.raises(NotationError, match=why):
            parse_deal(bad)

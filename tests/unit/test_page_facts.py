"""Facts of a board's state that the seat page shows and does not work out itself: who faces
the opening lead (Law 41A) and which calls may still be replaced as inadvertent (Law 25A)."""

from __future__ import annotations

from tests.script import play


def test_the_defender_on_declarers_left_is_on_lead_once_the_auction_closes() -> None:
    """Law 41A: North declares 1S, East (his left) faces the opening lead."""
    assert play("N 1S, E P, S P")["on_lead"] is None  # the auction goes on
    assert play("N 1S, E P, S P, W P")["on_lead"] == "E"
    assert play("N P, E 1H, S P, W 2H, N P, E P, S P")["on_lead"] == "S"


def test_nobody_is_on_lead_after_a_pass_out_or_once_the_lead_is_faced() -> None:
    """Law 22A: a passed-out board has no play; 2017 Law 17D1: the lead faced ends it."""
    assert play("N P, E P, S P, W P")["on_lead"] is None
    assert play("N 1S, E P, S P, W P, E leads HK")["on_lead"] is None


def test_a_call_is_replaceable_until_partner_calls() -> None:
    """Law 25A1: an inadvertent call may be replaced until partner makes a call."""
    assert play("N 1S")["replaceable"] == {"N": "1S"}
    assert play("N 1S, E P")["replaceable"] == {"N": "1S", "E": "P"}
    assert "N" not in play("N 1S, E P, S 2S")["replaceable"]


def test_an_irregular_call_pending_is_replaceable_by_its_offender() -> None:
    """Law 25A before Law 27: an insufficient bid made by a slip of the hand is replaced."""
    assert play("N 1S, E 1H")["replaceable"]["E"] == "1H"


def test_nothing_is_replaceable_once_the_opening_lead_is_faced() -> None:
    """2017 Law 17D1: the opening lead faced ends the auction period."""
    assert play("N 1S, E P, S P, W P")["replaceable"] == {"S": "P", "W": "P"}
    assert play("N 1S, E P, S P, W P, E leads HK")["replaceable"] == {}

"""A robot's own call the fold does not take as made is answered in the protocol
(shared/table_manager/session.py): an insufficient bid (Law 27) awaits the Director, who must be
summoned (Law 9B1), and the robot is told so with an `Error` line, not left waiting in silence;
it may then call again. Folded by the real engine, seen as the seat sees it."""

from __future__ import annotations

import pytest

from shared.calls import Call
from shared.cards import Card
from shared.seats import Seat
from shared.table_manager import CallMade, CardPlayed, HostError, Ready, ReadyFor, ReadyForCall
from tests.unit.test_robot_session import START, call, card, seated, view

pytestmark = pytest.mark.unit


def test_an_insufficient_bid_is_answered_with_an_error_naming_law_27_and_the_directors_wait(
        ) -> None:
    """Law 27 (an insufficient bid), Law 9B1 (the Director summoned): East's 1H over 1S."""
    events = [START, call("N", "1S")]
    session = seated(Seat.E, events)
    for line in (Ready(Seat.E, ReadyFor.START), Ready(Seat.E, ReadyFor.DEAL),
                 ReadyForCall(Seat.E, Seat.N)):
        session.on_line(line)
    outcome = session.on_line(CallMade(Seat.E, Call.parse("1H")))
    assert outcome.event is not None and outcome.event["call"] == "1H"
    events.append(call("E", "1H"))
    told = session.on_view(view(events, Seat.E))
    assert len(told) == 1 and isinstance(told[0], HostError), told
    assert "your call 1H is not taken" in told[0].reason
    assert "insufficient bid" in told[0].reason and "waits for the Director" in told[0].reason
    assert session.on_view(view(events, Seat.E)) == []  # told once
    # the robot may call again: a new event at the same place of the auction
    again = session.on_line(CallMade(Seat.E, Call.parse("2H")))
    assert again.event is not None and again.event["call"] == "2H"
    # not the first's `client_seq`: the engine would fold it as a retry of the first, once
    assert again.event["client_seq"] != outcome.event["client_seq"]


def test_a_call_taken_is_not_answered() -> None:
    events = [START, call("N", "1S")]
    session = seated(Seat.E, events)
    for line in (Ready(Seat.E, ReadyFor.START), Ready(Seat.E, ReadyFor.DEAL),
                 ReadyForCall(Seat.E, Seat.N)):
        session.on_line(line)
    session.on_line(CallMade(Seat.E, Call.parse("2H")))
    events.append(call("E", "2H"))
    assert session.on_view(view(events, Seat.E)) == []
    session.on_line(ReadyForCall(Seat.E, Seat.S))
    events.append(call("S", "P"))
    assert session.on_view(view(events, Seat.E)) == [CallMade(Seat.S, Call.parse("P"))]


def test_a_card_faced_by_declarer_before_the_opening_lead_is_answered_with_an_error() -> None:
    """Law 54E: a card of the declaring side faced before the opening lead is no lead; the
    table waits for the Director (Law 9B1), and declarer's robot is told so."""
    events = [START, call("N", "P"), call("E", "P"), call("S", "1S"), call("W", "P"),
              call("N", "P"), call("E", "P")]  # 1S by South: West leads
    session = seated(Seat.S, events)
    for line in (Ready(Seat.S, ReadyFor.START), ReadyForCall(Seat.S, Seat.N),
                 ReadyForCall(Seat.S, Seat.E), CallMade(Seat.S, Call.parse("1S")),
                 ReadyForCall(Seat.S, Seat.W), ReadyForCall(Seat.S, Seat.N),
                 ReadyForCall(Seat.S, Seat.E)):
        assert session.on_line(line).event is None  # its 1S was made: known, not sent
    outcome = session.on_line(CardPlayed(Seat.S, Card.parse("SA")))
    assert outcome.event is not None and outcome.event["card"] == "SA"
    events.append(card("S", "SA"))
    told = session.on_view(view(events, Seat.S))
    assert len(told) == 1 and isinstance(told[0], HostError), told
    assert told[0].reason.startswith("your card SA is not taken: S, of the declaring side, "
                                     "faced SA before the opening lead")
    assert session.cards_told == 0  # not counted as played

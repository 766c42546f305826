"""A robot's conversation with the Table Manager host, pure (shared/table_manager/session.py):
what it is told and when, from the seat's own view of the board, folded by the real engine."""

from __future__ import annotations

from typing import Any

import pytest

from shared.calls import Call
from shared.cards import Card
from shared.codec import from_map
from shared.deal import format_deal, parse_deal
from shared.engine import fold
from shared.seats import Seat, Vulnerability
from shared.table_manager import (
    BoardInfo,
    CallMade,
    CardPlayed,
    DummyCards,
    HandCards,
    HostError,
    Ready,
    ReadyFor,
    ReadyForCall,
    ReadyForCard,
    StartOfBoard,
    Teams,
    Timing,
    ToLead,
)
from shared.table_manager.session import RobotSession

pytestmark = pytest.mark.unit

DEAL = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
START = {"type": "board_started", "board": 1, "deal": DEAL, "ruleset": "duplicate",
         "ts": 1000}


def view(events: list[dict[str, Any]], seat: Seat) -> dict[str, Any]:
    """The board as `seat` sees it: its own hand, and dummy's once the lead is faced."""
    folded = fold([from_map(e) for e in events]).board
    assert folded is not None
    board: dict[str, Any] = dict(folded.to_dict())
    hands = parse_deal(DEAL)
    shown = {seat}
    if board.get("play") and board.get("contract"):
        shown.add(Seat.parse(board["contract"]["declarer"]).partner)
    return {**board, "started_ts": 1000,
            "deal": format_deal({s: hands[s] for s in shown})}


def hand_of(seat: Seat) -> tuple[Card, ...]:
    """`seat`'s 13 cards in DEAL, spades first, each suit high to low."""
    pbn = DEAL[2:].split()[seat.index]
    return tuple(Card.parse(suit + rank) for suit, ranks in zip("SHDC", pbn.split("."),
                                                                strict=True) for rank in ranks)


def call(seat: str, text: str, **more: Any) -> dict[str, Any]:
    return {"type": "call", "seat": seat, "call": text, **more}


def card(seat: str, text: str) -> dict[str, Any]:
    return {"type": "card_played", "seat": seat, "card": text}


def seated(seat: Seat, events: list[dict[str, Any]]) -> RobotSession:
    session = RobotSession(seat)
    session.on_view(view(events, seat))
    return session


def test_the_board_is_announced_once_the_robot_is_ready() -> None:
    session = seated(Seat.W, [START])
    assert session.on_line(Ready(Seat.W, ReadyFor.TEAMS)).replies == [
        Teams("North-South", "East-West")]
    assert session.on_line(Ready(Seat.W, ReadyFor.START)).replies == [StartOfBoard()]
    assert session.on_line(Ready(Seat.W, ReadyFor.DEAL)).replies == [
        BoardInfo(1, Seat.N, Vulnerability.NONE)]
    cards = session.on_line(Ready(Seat.W, ReadyFor.CARDS)).replies
    assert cards == [HandCards(Seat.W, hand_of(Seat.W))]


def test_a_call_awaited_is_told_when_it_comes_with_its_alert() -> None:
    events = [START]
    session = seated(Seat.E, events)
    for line in (Ready(Seat.E, ReadyFor.START), Ready(Seat.E, ReadyFor.DEAL),
                 Ready(Seat.E, ReadyFor.CARDS)):
        session.on_line(line)
    assert session.on_line(ReadyForCall(Seat.E, Seat.N)).replies == []  # not made yet
    events.append(call("N", "1C", alert=True, explanation="could be short"))
    assert session.on_view(view(events, Seat.E)) == [
        CallMade(Seat.N, Call.parse("1C"), alert="could be short")]


def test_the_robots_own_call_becomes_its_seats_event() -> None:
    events = [START, call("N", "P")]
    session = seated(Seat.E, events)
    for line in (Ready(Seat.E, ReadyFor.START), Ready(Seat.E, ReadyFor.DEAL),
                 ReadyForCall(Seat.E, Seat.N)):
        session.on_line(line)
    outcome = session.on_line(CallMade(Seat.E, Call.parse("1NT"), alert="15-17"))
    assert outcome.event == {"type": "call", "call": "1NT", "client_seq": 128 + 1,
                             "alert": True, "explanation": "15-17"}


@pytest.mark.parametrize(("line", "fault"), [
    (CallMade(Seat.N, Call.parse("1C")), "you call for no other seat"),
    (ReadyForCall(Seat.N, Seat.E), "you sit East, not North"),
    (CardPlayed(Seat.E, Card.parse("S2")), "no play is in progress"),
])  # fmt: skip
def test_a_line_for_another_seat_is_refused(line: Any, fault: str) -> None:
    session = seated(Seat.E, [START])
    session.on_line(Ready(Seat.E, ReadyFor.START))
    outcome = session.on_line(line)
    assert outcome.event is None
    assert len(outcome.replies) == 1 and isinstance(outcome.replies[0], HostError)
    assert fault in outcome.replies[0].reason


AUCTION = [START, call("N", "P"), call("E", "P"), call("S", "1S"), call("W", "P"),
           call("N", "P"), call("E", "P")]  # 1S by South: West leads, North is dummy


def told_auction(seat: Seat, events: list[dict[str, Any]]) -> tuple[RobotSession, list[Any]]:
    session = seated(seat, events)
    out: list[Any] = []
    for line in (Ready(seat, ReadyFor.START), Ready(seat, ReadyFor.DEAL)):
        out += session.on_line(line).replies
    for other in (Seat.N, Seat.E, Seat.S, Seat.W, Seat.N, Seat.E):
        if other is not seat:
            out += session.on_line(ReadyForCall(seat, other)).replies
        else:
            out += session.on_line(CallMade(seat, Call.parse("P"))).replies
    return session, out


def test_the_opening_leader_is_told_to_lead_and_dummy_is_shown_after_the_lead() -> None:
    west, told = told_auction(Seat.W, AUCTION)
    assert told[-1] == ToLead(Seat.W)
    outcome = west.on_line(CardPlayed(Seat.W, Card.parse("HA")))
    assert outcome.event == {"type": "card_played", "card": "HA", "client_seq": 128 + 64}
    assert west.on_line(Ready(Seat.W, ReadyFor.DUMMY)).replies == []  # not faced yet
    led = [*AUCTION, card("W", "HA")]
    dummy = west.on_view(view(led, Seat.W))
    assert dummy == [DummyCards(hand_of(Seat.N))]


def test_declarer_is_told_to_lead_for_dummy_and_plays_dummys_cards() -> None:
    # West leads HA; North (dummy) wins nothing… South plays for North: H2; East H6; South HT
    events = [*AUCTION, card("W", "HA"), card("N", "H2"), card("E", "H6"), card("S", "HT")]
    south, _ = told_auction(Seat.S, AUCTION)
    south.on_view(view(events[:8], Seat.S))
    south.on_line(ReadyForCard(Seat.S, Seat.W, 1))
    outcome = south.on_line(CardPlayed(Seat.N, Card.parse("H2")))
    assert outcome.event == {"type": "card_played", "card": "H2", "seat": "N",
                             "client_seq": 128 + 65}
    assert south.on_line(CardPlayed(Seat.E, Card.parse("H6"))).event is None  # not his
    south.on_view(view(events[:10], Seat.S))
    south.on_line(ReadyForCard(Seat.S, Seat.E, 1))
    south.on_line(CardPlayed(Seat.S, Card.parse("HT")))
    assert south.on_view(view(events, Seat.S)) == []  # West won the trick: nothing to push
    assert south.on_line(ReadyForCard(Seat.S, Seat.W, 2)).replies == []


def test_a_passed_out_board_ends_with_timing_and_the_next_is_announced() -> None:
    events = [START, call("N", "P"), call("E", "P"), call("S", "P")]
    west, _ = told_auction(Seat.W, [START])
    west.on_view(view(events, Seat.W))
    passed = [*events, call("W", "P")]
    west.on_line(ReadyForCall(Seat.W, Seat.S))
    out = west.on_line(CallMade(Seat.W, Call.parse("P"))).replies
    out += west.on_view(view(passed, Seat.W))
    assert out == [Timing(out[-1].text)]
    second = {**START, "board": 2, "ts": 2000}
    board2 = view([*passed, second], Seat.W) | {"started_ts": 2000}
    assert west.on_view(board2) == [StartOfBoard()]


def test_a_robot_that_comes_back_is_told_the_board_so_far_and_not_to_call_again() -> None:
    events = [START, call("N", "P"), call("E", "1H")]
    east = seated(Seat.E, events)  # a new connection: nothing told yet
    east.on_line(Ready(Seat.E, ReadyFor.START))
    assert east.on_line(ReadyForCall(Seat.E, Seat.N)).replies == [CallMade(Seat.N, Call.parse("P"))]
    again = east.on_line(CallMade(Seat.E, Call.parse("1H")))
    assert again.event is None and again.replies == []  # made before it left: known


def test_a_robot_that_comes_back_with_another_call_is_told_the_one_that_stands() -> None:
    events = [START, call("N", "P"), call("E", "1H")]
    east = seated(Seat.E, events)
    east.on_line(Ready(Seat.E, ReadyFor.START))
    east.on_line(ReadyForCall(Seat.E, Seat.N))
    outcome = east.on_line(CallMade(Seat.E, Call.parse("1S")))
    assert outcome.event is None and outcome.replies == [HostError("your call here was 1H: "
                                                                   "it stands")]

"""A robot's conversation with the Table Manager host, pure (shared/table_manager/session.py):
what it is told and when, from the seat's own view of the board, folded by the real engine."""

from __future__ import annotations

from typing import Any

import pytest

from shared.calls import Call
from shared.cards import Card
from shared.codec import from_map
from shared.deal import format_deal, parse_deal
from shared.seats import Seat, Vulnerability
from shared.table.engine import fold
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


def caught_up(seat: Seat, events: list[dict[str, Any]]) -> tuple[RobotSession, list[Any]]:
    """A robot that connects again mid-play: told the auction (its own calls sent again,
    known), then asks for each card before its own turns and sends its own cards again, as
    a robot told the board from its start does; what the host told it."""
    session = seated(seat, events)
    told: list[Any] = []
    for line in (Ready(seat, ReadyFor.START), Ready(seat, ReadyFor.DEAL)):
        told += session.on_line(line).replies
    for made in AUCTION[1:]:
        caller = Seat.parse(made["seat"])
        told += session.on_line(CallMade(seat, Call.parse(made["call"])) if caller is seat
                                else ReadyForCall(seat, caller)).replies
    cards = [e for e in events if e["type"] == "card_played"]
    declarer, dummy = Seat.S, Seat.N
    for i, played in enumerate(cards):
        hand = Seat.parse(played["seat"])
        if (hand is seat and seat is not dummy) or (seat is declarer and hand is dummy):
            outcome = session.on_line(CardPlayed(hand, Card.parse(played["card"])))
            assert outcome.event is None, f"card {i} appended again"  # known, not sent
            told += outcome.replies
        else:
            told += session.on_line(ReadyForCard(seat, None if hand is dummy else hand,
                                                 i // 4 + 1)).replies
        if i == 0 and seat is not dummy:
            told += session.on_line(Ready(seat, ReadyFor.DUMMY)).replies
    return session, told


def test_a_robot_that_comes_back_after_its_opening_lead_is_told_to_lead_again() -> None:
    """Leads told again: the host told `West to lead` only once it had told West every card
    played, so a West that led, left and came back waited for that line for ever."""
    events = [*AUCTION, card("W", "HA"), card("N", "H2")]
    west = RobotSession(Seat.W)
    west.on_view(view(events, Seat.W))
    for line in (Ready(Seat.W, ReadyFor.START), Ready(Seat.W, ReadyFor.DEAL)):
        west.on_line(line)
    told = []
    for other in (Seat.N, Seat.E, Seat.S, Seat.W, Seat.N, Seat.E):
        message = CallMade(Seat.W, Call.parse("P")) if other is Seat.W \
            else ReadyForCall(Seat.W, other)
        told += west.on_line(message).replies
    assert told[-1] == ToLead(Seat.W)  # its lead is asked for again, though made
    again = west.on_line(CardPlayed(Seat.W, Card.parse("HA")))
    assert again.event is None and again.replies == []  # the lead it made: known
    assert west.on_line(Ready(Seat.W, ReadyFor.DUMMY)).replies == [DummyCards(hand_of(Seat.N))]
    assert west.on_line(ReadyForCard(Seat.W, None, 1)).replies == [
        CardPlayed(Seat.N, Card.parse("H2"))]


# West wins trick 1 and leads trick 2, South ruffs it and leads trick 3, East wins it and
# leads trick 4, dummy (North) wins it and leads tricks 5 and 6 (declarer is told so)
PLAYED = [card("W", "HA"), card("N", "H2"), card("E", "H6"), card("S", "HT"),
          card("W", "H4"), card("N", "HJ"), card("E", "HQ"), card("S", "S2"),
          card("S", "S3"), card("W", "S6"), card("N", "S4"), card("E", "S7"),
          card("E", "C2"), card("S", "C5"), card("W", "CK"), card("N", "CA"),
          card("N", "CQ"), card("E", "D5"), card("S", "C8"), card("W", "CJ"),
          card("N", "C7")]


@pytest.mark.parametrize(("seat", "cards", "leads"), [
    (Seat.W, 5, [ToLead(Seat.W)] * 2),  # West led tricks 1 and 2, then left
    (Seat.E, 13, [ToLead(Seat.E)]),  # East led trick 4
    (Seat.S, 21, [ToLead(Seat.S), ToLead(Seat.N), ToLead(Seat.N)]),  # his, dummy's twice
    (Seat.N, 21, []),  # dummy is told no lead: declarer plays his cards (Law 45)
])  # fmt: skip
def test_a_robot_that_comes_back_mid_play_is_told_each_lead_it_made(
        seat: Seat, cards: int, leads: list[ToLead]) -> None:
    """Leads told again: each `to lead` the robot was told before it left is told again at its
    place in the board, so that it sends its lead again (Law 44: the trick's winner leads)."""
    session, told = caught_up(seat, [*AUCTION, *PLAYED[:cards]])
    assert [m for m in told if isinstance(m, ToLead)] == leads
    assert session.cards_told == cards


def test_a_card_while_a_claim_is_open_is_refused_and_not_sent() -> None:
    """Law 68D: play ceases once a claim is made. The robot, which the protocol tells nothing
    of claims, is answered an error, and its card is not appended (the fold would only
    ignore it); the board's end, once the claim is agreed (Law 69A), is told by `Timing`."""
    claimed = [*AUCTION, *PLAYED[:4], {"type": "claim", "seat": "S", "tricks": 12}]
    west, told = caught_up(Seat.W, claimed)
    # West won trick 1: its lead to trick 2 is not asked for while play has ceased
    assert [m for m in told if isinstance(m, ToLead)] == [ToLead(Seat.W)]
    outcome = west.on_line(CardPlayed(Seat.W, Card.parse("H4")))
    assert outcome.event is None
    assert outcome.replies == [HostError("play has ceased: a claim is open (Law 68D); the card "
                                         "is not played")]
    assert west.on_line(ReadyForCard(Seat.W, Seat.N, 2)).replies == []
    agreed = [*claimed, {"type": "claim_response", "seat": "W", "accept": True},
              {"type": "claim_response", "seat": "E", "accept": True}]
    assert [type(m) for m in west.on_view(view(agreed, Seat.W))] == [Timing]

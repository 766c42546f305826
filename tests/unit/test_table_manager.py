"""The Table Manager protocol (version 18) read and written, both directions (docs/robots.md).

Each line below is quoted from a client or host that speaks the protocol, with its source:
- OpenSpiel: google-deepmind/open_spiel, open_spiel/python/bots/bluechip_bridge.py (a host
  that drives WBridge5; its example session and the templates it sends and matches);
- BEN: lorserker/ben, src/table_manager_client.py (a client: the f-strings it sends, the
  lines its comments show it receives);
- table-master-parser: richardschneider.github.io/table-master-parser (the grammar's examples).
"""

from __future__ import annotations

import pytest

from shared.calls import Call
from shared.cards import Card
from shared.seats import Seat, Vulnerability
from shared.table_manager import (
    BoardInfo,
    CallMade,
    CardPlayed,
    Connect,
    DummyCards,
    EndOfSession,
    HandCards,
    HostError,
    ProtocolError,
    Ready,
    ReadyFor,
    ReadyForCall,
    ReadyForCard,
    Seated,
    StartOfBoard,
    Teams,
    Timing,
    ToLead,
    format_hand,
    parse_client_line,
    parse_hand,
    parse_host_line,
    write,
)

pytestmark = pytest.mark.unit


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


WEST_HAND = cards("SA ST S9 S5 HK H6 H5 DQ DJ D8 D7 D6 C7")
DUMMY_HAND = cards("SA SQ ST S8 S2 HK H7 DK D5 D2 CA C7 C6")

CLIENT_LINES = [
    # OpenSpiel: "Recv: Connecting "WBridge5" as ANYPL using protocol version 18"
    ('Connecting "WBridge5" as ANYPL using protocol version 18', Connect("WBridge5", None)),
    # BEN: f'Connecting "{self.name}" as {self.seat} using protocol version 18'
    ('Connecting "BEN" as North using protocol version 18', Connect("BEN", Seat.N)),
    # table-master-parser: connecting "..." as north using protocol version 18
    ('connecting "..." as north using protocol version 18', Connect("...", Seat.N)),
    # OpenSpiel: "Recv: WEST ready for teams"; BEN: f'{self.seat} ready for teams'
    ("WEST ready for teams", Ready(Seat.W, ReadyFor.TEAMS)),
    ("North ready for teams", Ready(Seat.N, ReadyFor.TEAMS)),
    # OpenSpiel: "Recv: WEST ready to start"; BEN: f'{self.seat} ready to start'
    ("WEST ready to start", Ready(Seat.W, ReadyFor.START)),
    # OpenSpiel: "Recv: WEST ready for deal"; BEN: f'{self.seat} ready for deal'
    ("WEST ready for deal", Ready(Seat.W, ReadyFor.DEAL)),
    # OpenSpiel: "Recv: WEST ready for cards"
    ("WEST ready for cards", Ready(Seat.W, ReadyFor.CARDS)),
    # BEN: f'{self.seat} ready for dummy'
    ("South ready for dummy", Ready(Seat.S, ReadyFor.DUMMY)),
    # OpenSpiel: "Recv: WEST ready for  NORTH's bid" (two spaces, as it shows it)
    ("WEST ready for  NORTH's bid", ReadyForCall(Seat.W, Seat.N)),
    # OpenSpiel: "Recv: WEST ready for EAST's bid"
    ("WEST ready for EAST's bid", ReadyForCall(Seat.W, Seat.E)),
    # BEN: f"{self.seat} ready for {waiting_for}'s card to trick {trick_i + 1}"
    ("East ready for North's card to trick 1", ReadyForCard(Seat.E, Seat.N, 1)),
    # BEN: waiting_for = "dummy"; OpenSpiel reads "Dummy" there too
    ("East ready for dummy's card to trick 13", ReadyForCard(Seat.E, None, 13)),
    ("EAST ready for Dummy's card to trick 2", ReadyForCard(Seat.E, None, 2)),
    # OpenSpiel: "Recv: WEST PASSES"
    ("WEST PASSES", CallMade(Seat.W, Call.parse("P"))),
    # OpenSpiel's _PLAYER_ACTION: "DOUBLES", "REDOUBLES", and "(?P<alert> Alert.)?"
    ("WEST DOUBLES Alert.", CallMade(Seat.W, Call.parse("X"), alert="")),
    ("WEST REDOUBLES", CallMade(Seat.W, Call.parse("XX"))),
    # BEN: f'{SEATS[self.player_i]} passes' / 'doubles' / 'redoubles' / f'bids {bid}'
    ("North passes", CallMade(Seat.N, Call.parse("P"))),
    ("North doubles", CallMade(Seat.N, Call.parse("X"))),
    ("North redoubles", CallMade(Seat.N, Call.parse("XX"))),
    ("North bids 1NT", CallMade(Seat.N, Call.parse("1NT"))),
    # BEN: msg_bid += ' Alert. ' + bid_resp.explanation; ' Infos. ' + explanation
    ("North bids 2C Alert. Strong, 22+ HCP", CallMade(Seat.N, Call.parse("2C"),
                                                       alert="Strong, 22+ HCP")),
    ("North bids 3D Infos. Invitational", CallMade(Seat.N, Call.parse("3D"),
                                                   info="Invitational")),
    # table-master-parser: south bids 1NT Alert. 12 to 14 total points
    ("south bids 1NT Alert. 12 to 14 total points",
     CallMade(Seat.S, Call.parse("1NT"), alert="12 to 14 total points")),
    # BEN reads a bid with a trailing dot: bid_resp_parts[2].rstrip('.')
    ("East bids 4S.", CallMade(Seat.E, Call.parse("4S"))),
    # BEN: f'{self.seat} plays {card_symbol[::-1]}' (symbol "HA" reversed: "AH")
    ("South plays AH", CardPlayed(Seat.S, Card.parse("HA"))),
    # OpenSpiel's regex: plays (?P<play>[23456789tjqka][cdhs])
    ("WEST plays tc", CardPlayed(Seat.W, Card.parse("CT"))),
    # OpenSpiel's docstring: 'plays ck' (suit first; ranks and suits share no letter)
    ("WEST plays ck", CardPlayed(Seat.W, Card.parse("CK"))),
]


@pytest.mark.parametrize(("line", "message"), CLIENT_LINES)
def test_a_client_line_reads_as_its_message(line: str, message: object) -> None:
    assert parse_client_line(line) == message
    assert parse_client_line(line + "\r\n") == message  # as read off the wire


@pytest.mark.parametrize(("line", "message"), CLIENT_LINES)
def test_a_client_message_written_reads_back(line: str, message: object) -> None:
    written = write(message)  # type: ignore[arg-type]
    assert parse_client_line(written) == message


HOST_LINES = [
    # OpenSpiel: _SEATED = '{seat} ("{client_name}") seated'
    ('WEST ("WBridge5") seated', Seated(Seat.W, "WBridge5")),
    # OpenSpiel: 'Send: Teams: N/S "silent" E/W "bidders"'
    ('Teams: N/S "silent" E/W "bidders"', Teams("silent", "bidders")),
    # BEN reads: r'N/S : "([^"]+)" E/W : "([^"]+)"(?:.*?Playing (\w+))?'
    ('Teams : N/S : "ben" E/W : "others". Playing IMP', Teams("ben", "others")),
    # OpenSpiel: "Send: Start of board"; _START_BOARD = "start of board"
    ("Start of board", StartOfBoard()),
    ("start of board", StartOfBoard()),
    # OpenSpiel: "Send: Board number 8. Dealer WEST. Neither vulnerable."
    ("Board number 8. Dealer WEST. Neither vulnerable.",
     BoardInfo(8, Seat.W, Vulnerability.NONE)),
    # BEN reads vulnerability in {'Neither', 'N/S', 'E/W', 'Both'}
    ("Board number 3. Dealer South. E/W vulnerable.", BoardInfo(3, Seat.S, Vulnerability.EW)),
    ("Board number 2. Dealer East. N/S vulnerable.", BoardInfo(2, Seat.E, Vulnerability.NS)),
    ("Board number 13. Dealer North. Both vulnerable.",
     BoardInfo(13, Seat.N, Vulnerability.BOTH)),
    # table-master-parser: board number 801 . dealer north . Neither vulnerable
    ("board number 801 . dealer north . Neither vulnerable",
     BoardInfo(801, Seat.N, Vulnerability.NONE)),
    # OpenSpiel: "Send: WEST's cards: S A T 9 5. H K 6 5. D Q J 8 7 6. C 7."
    ("WEST's cards: S A T 9 5. H K 6 5. D Q J 8 7 6. C 7.", HandCards(Seat.W, WEST_HAND)),
    # BEN's comment: "North's cards : S 9 3. H -. D J 7 5. C A T 9 8 6 4 3 2."
    ("North's cards : S 9 3. H -. D J 7 5. C A T 9 8 6 4 3 2.",
     HandCards(Seat.N, cards("S9 S3 DJ D7 D5 CA CT C9 C8 C6 C4 C3 C2"))),
    # BEN's comment: "Dummy's cards : S A Q T 8 2. H K 7. D K 5 2. C A 7 6."
    ("Dummy's cards : S A Q T 8 2. H K 7. D K 5 2. C A 7 6.", DummyCards(DUMMY_HAND)),
    # OpenSpiel: _DUMMY_CARDS = "Dummy's cards: {}"
    ("Dummy's cards: S A Q T 8 2. H K 7. D K 5 2. C A 7 6.", DummyCards(DUMMY_HAND)),
    # OpenSpiel: "Send: EAST PASSES", "Send: EAST bids 1C"
    ("EAST PASSES", CallMade(Seat.E, Call.parse("P"))),
    ("EAST bids 1C", CallMade(Seat.E, Call.parse("1C"))),
    # OpenSpiel's _action_to_string: "plays " + rank + suit, lower case
    ("NORTH plays kc", CardPlayed(Seat.N, Card.parse("CK"))),
    # OpenSpiel: _PLAYER_TO_LEAD = "{seat} to lead"
    ("WEST to lead", ToLead(Seat.W)),
    # OpenSpiel: "Timing - N/S : this board  [1:15],  total  [0:11:23].  E/W : this board
    # [1:18],  total  [0:10:23]"
    ("Timing - N/S : this board  [1:15],  total  [0:11:23].  E/W : this board  [1:18],  "
     "total  [0:10:23]", Timing("N/S : this board  [1:15],  total  [0:11:23].  E/W : this "
                                "board  [1:18],  total  [0:10:23]")),
    # BEN: if (msg == "End of session")
    ("End of session", EndOfSession()),
    # BEN's comment: "Blue Chip can send: Error Team name mismatch"
    ("Error Team name mismatch", HostError("Team name mismatch")),
]


@pytest.mark.parametrize(("line", "message"), HOST_LINES)
def test_a_host_line_reads_as_its_message(line: str, message: object) -> None:
    assert parse_host_line(line) == message
    assert parse_host_line(line + "\r\n") == message


@pytest.mark.parametrize(("line", "message"), HOST_LINES)
def test_a_host_message_written_reads_back(line: str, message: object) -> None:
    written = write(message)  # type: ignore[arg-type]
    assert parse_host_line(written) == message


@pytest.mark.parametrize(("message", "line"), [
    (Seated(Seat.W, "WBridge5"), 'West ("WBridge5") seated'),
    (Teams("ns", "ew"), 'Teams : N/S : "ns" E/W : "ew"'),
    (StartOfBoard(), "Start of board"),
    (BoardInfo(8, Seat.W, Vulnerability.NONE), "Board number 8. Dealer West. Neither vulnerable."),
    (BoardInfo(7, Seat.S, Vulnerability.BOTH), "Board number 7. Dealer South. Both vulnerable."),
    (HandCards(Seat.W, WEST_HAND), "West's cards : S A T 9 5. H K 6 5. D Q J 8 7 6. C 7."),
    (DummyCards(DUMMY_HAND), "Dummy's cards : S A Q T 8 2. H K 7. D K 5 2. C A 7 6."),
    (CallMade(Seat.E, Call.parse("P")), "East passes"),
    (CallMade(Seat.E, Call.parse("3NT")), "East bids 3NT"),
    (CallMade(Seat.E, Call.parse("2C"), alert="strong"), "East bids 2C Alert. strong"),
    (CardPlayed(Seat.N, Card.parse("CK")), "North plays KC"),
    (ToLead(Seat.N), "North to lead"),
    (EndOfSession(), "End of session"),
    (Connect("robot", Seat.S), 'Connecting "robot" as South using protocol version 18'),
    (ReadyForCard(Seat.S, None, 4), "South ready for dummy's card to trick 4"),
])  # fmt: skip
def test_a_message_is_written_in_the_protocols_own_spelling(message: object, line: str) -> None:
    # The host writes what BEN compares with (its seats as "North", `Teams : N/S : "…"`,
    # the BEN regex above) and what OpenSpiel's templates show.
    assert write(message) == line  # type: ignore[arg-type]


def test_a_void_is_a_dash_and_suits_come_spades_first() -> None:
    hand = cards("C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK CA")
    assert format_hand(hand) == "S -. H -. D -. C A K Q J T 9 8 7 6 5 4 3 2."
    assert set(parse_hand(format_hand(hand))) == set(hand)


@pytest.mark.parametrize(("line", "fault"), [
    ("North bids 8C", "not a line of the protocol"),
    ("North bids 1NT Hello", "Alert"),
    ("Northwest passes", "not a line of the protocol"),
    ("North plays 1X", "not a card"),
    ("North ready for Nobody's bid", "not a seat"),
    ("North ready for East's card to trick 14", "no trick 14"),
    ('Connecting "x" as Middle using protocol version 18', "not a seat"),
    ("", "not a line of the protocol"),
])  # fmt: skip
def test_a_bad_client_line_says_what_was_expected(line: str, fault: str) -> None:
    with pytest.raises(ProtocolError, match=fault):
        parse_client_line(line)


@pytest.mark.parametrize(("line", "fault"), [
    ("North's cards : S A K. H Q. D J.", "not a hand"),  # clubs missing
    ("North's cards : S A K. S Q. H -. D -. C 2.", "twice"),
    ("North's cards : S A X. H -. D -. C -.", "not a suit"),
    ("Board number 1. Dealer Nobody. Neither vulnerable.", "not a seat"),
])
def test_a_bad_host_line_says_what_was_expected(line: str, fault: str) -> None:
    with pytest.raises(ProtocolError, match=fault):
        parse_host_line(line)

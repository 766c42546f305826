"""Our robot's bidding system, SAYC as the ACBL SAYC System Booklet (revised January 2006)
states it (shared/robot/sayc*.py): a table of hands and the call the booklet expects, each
row citing its section; the disclosure the ACBL alert procedure asks for, sent with the call
(Laws 20F, 40B); partner's calls read through the same rules; every call legal (Law 18B,
Law 19), as the Laws engine judges it."""

from __future__ import annotations

import random

import pytest

from shared.calls import Call
from shared.cards import Card
from shared.codec import from_map
from shared.robot.meaning import Convention, Disclosure
from shared.robot.sayc import decide, explain, shown
from shared.seats import Seat
from shared.table.engine import fold

pytestmark = pytest.mark.unit

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def hand(text: str) -> tuple[Card, ...]:
    """`S.H.D.C` (PBN) → cards."""
    return tuple(Card.parse(s + r) for s, ranks in zip("SHDC", text.split("."), strict=True)
                 for r in ranks)


def calls(text: str) -> list[Call]:
    return [Call.parse(c) for c in text.split()]


# (the hand, the auction before it from North as dealer, the call the booklet expects, its
# section)
ROWS = [
    # Notrump Opening Bids: 1NT 15–17, 2NT 20–21, 3NT 25–27, balanced
    ("AK5.KQ4.J83.Q972", "", "1NT", "Notrump Opening Bids"),
    ("AKQ.KQ4.QJ83.K72", "", "2NT", "Notrump Opening Bids"),
    ("AKQ.AKJ.KQJ3.Q32", "", "3NT", "Notrump Opening Bids"),
    # General Approach: five-card majors, the higher of two five-card suits; Minor Suit
    # Openings: 1D with 4-4 in the minors, 1C with 3-3
    ("AKJ52.K4.Q83.972", "", "1S", "General Approach"),
    ("AKJ52.KQ852.3.97", "", "1S", "General Approach"),
    ("A52.K4.QJ83.K972", "", "1D", "Minor Suit Openings"),
    ("A52.K42.QJ8.K972", "", "1C", "Minor Suit Openings"),
    ("AK5.Q42.J83.9732", "", "P", "General Approach"),
    # Strong 2C Opening: 22+; Weak Two-Bids: a good six-card suit, 5–11; Preemptive Bids
    ("AKQ.AKQJ4.AKJ3.7", "", "2C", "Strong 2C Opening"),
    ("KQJ952.43.752.92", "", "2S", "Weak Two-Bids"),
    ("9.KQJ9652.752.92", "", "3H", "Preemptive Bids"),
    # 1NT Responses: Stayman with a four-card major and 8+, Jacoby transfers with five
    ("K652.A42.Q83.972", "1NT P", "2C", "1NT Responses (Stayman)"),
    ("K6.J9742.Q83.972", "1NT P", "2D", "1NT Responses (Jacoby transfers)"),
    ("J97642.6.Q83.972", "1NT P", "2H", "1NT Responses (Jacoby transfers)"),
    ("K62.A42.Q83.J972", "1NT P", "3NT", "1NT Responses"),
    ("K62.Q42.J83.9732", "1NT P", "P", "1NT Responses"),
    # Stayman's answers; a transfer accepted
    ("AK5.KQ42.J83.Q97", "1NT P 2C P", "2H", "1NT Responses (Stayman)"),
    ("AK52.Q42.KJ3.Q97", "1NT P 2C P", "2S", "1NT Responses (Stayman)"),
    ("AK5.Q42.KJ83.Q97", "1NT P 2C P", "2D", "1NT Responses (Stayman)"),
    ("AK5.Q42.KJ83.Q97", "1NT P 2D P", "2H", "1NT Responses (Jacoby transfers)"),
    # responses to a major: limit raise 10–12, single raise 6–10, Jacoby 2NT 13+ with four
    ("K52.QJ42.A83.972", "1H P", "3H", "Major Suit Openings (responses)"),
    ("952.Q42.K83.J972", "1H P", "2H", "Major Suit Openings (responses)"),
    ("K52.AJ42.A83.K72", "1H P", "2NT", "Major Suit Openings (responses)"),
    # a new suit: at the one level four cards and 6+; at the two level 10+ (two over one)
    ("KJ52.Q4.983.J972", "1H P", "1S", "Responses to one of a suit"),
    ("52.Q4.A983.KQJ72", "1S P", "2C", "Responses to one of a suit"),
    ("95.Q42.J983.K972", "1S P", "1NT", "Responses to one of a suit"),
    # Opener's Rebids: a raise of partner's major with four
    ("AK5.KQ42.J8.Q973", "1C P 1H P", "2H", "Opener's Rebids"),
    # Strong 2C: 2D waiting with no positive; opener's 2NT 22–24 balanced
    ("952.J42.J83.9732", "2C P", "2D", "Strong 2C Opening (responses)"),
    ("AKQ.AQ4.AQ83.K72", "2C P 2D P", "2NT", "Strong 2C Opening (opener's rebids)"),
    # Overcalls (five cards, 8+ at one level), Notrump Overcalls 15–18 with a stopper,
    # Takeout Doubles (short in their suit, support for the others)
    ("A52.KQJ84.83.972", "1C", "1H", "Overcalls"),
    ("AQ5.K4.KJ83.Q972", "1D", "1NT", "Notrump Overcalls"),
    ("AQ52.KJ42.3.K972", "1D", "X", "Takeout Doubles"),
    # Negative Doubles: partner opened, the next hand overcalled, four in the unbid major
    ("K952.Q4.J83.K972", "1C 1H", "X", "Negative Doubles"),
    # Slam Bidding (Blackwood): the answers to 4NT
    ("K52.QJ42.A83.972", "1H P 3H P 4NT P", "5D", "Slam Bidding"),
    ("K52.QJ42.K83.972", "1H P 3H P 4NT P", "5C", "Slam Bidding"),
]


@pytest.mark.parametrize(("cards", "before", "expected", "section"), ROWS)
def test_the_call_the_booklet_expects(cards: str, before: str, expected: str,
                                      section: str) -> None:
    auction = calls(before)
    seat = SEATS[len(auction) % 4]
    decision = decide(hand(cards), seat, Seat.N, auction)
    assert decision.call == Call.parse(expected), decision.rule
    assert section.split(" (")[0] in decision.rule.section


@pytest.mark.parametrize(("cards", "before", "disclosure"), [
    ("AK5.KQ4.J83.Q972", "", Disclosure.ANNOUNCE),  # 1NT: its range announced
    ("K6.J9742.Q83.972", "1NT P", Disclosure.ANNOUNCE),  # a transfer: "transfer"
    ("K652.A42.Q83.972", "1NT P", Disclosure.NONE),  # Stayman: not alerted
    ("K52.AJ42.A83.K72", "1H P", Disclosure.ALERT),  # Jacoby 2NT: alerted
    ("K952.Q4.J83.K972", "1C 1H", Disclosure.NONE),  # a negative double: not alerted
    ("AQ52.KJ42.3.K972", "1D", Disclosure.NONE),  # a takeout double: not alerted
    ("AKQ.AKQJ4.AKJ3.7", "", Disclosure.NONE),  # a strong 2C: not alerted
])  # fmt: skip
def test_disclosure_as_the_acbl_alert_procedure_says(cards: str, before: str,
                                                     disclosure: Disclosure) -> None:
    """Laws 20F and 40B: the robots disclose their agreements like any pair; the ACBL alert
    procedure decides which calls are alerted, which announced, which explained on request."""
    auction = calls(before)
    rule = decide(hand(cards), SEATS[len(auction) % 4], Seat.N, auction).rule
    assert rule.disclosure is disclosure
    text = rule.alert_text()
    if disclosure is Disclosure.NONE:
        assert text is None
    else:
        assert text is not None and rule.meaning in text
        assert text.startswith("Announced" if disclosure is Disclosure.ANNOUNCE else "Alert")


def test_a_transfer_is_announced_with_its_meaning() -> None:
    """Law 20F: the text sent with the call says what it means."""
    rule = decide(hand("K6.J9742.Q83.972"), Seat.S, Seat.N, calls("1NT P")).rule
    assert rule.convention is Convention.TRANSFER
    assert rule.alert_text() == "Announced: transfer: five or more hearts"


def test_partner_reads_each_call_through_the_same_rules() -> None:
    """The robot's partner knows what its calls show (Law 40B: an agreement is the pair's):
    1NT 15–17; 2D a transfer showing five hearts; Stayman's 2H four hearts."""
    assert explain(Seat.N, [], Call.parse("1NT")).points == (15, 17)  # type: ignore[union-attr]
    transfer = explain(Seat.N, calls("1NT P"), Call.parse("2D"))
    assert transfer is not None and transfer.convention is Convention.TRANSFER
    seen = shown(Seat.N, tuple(calls("1NT P 2C P 2H P")), Seat.N)
    assert (seen.low, seen.high) == (15, 17)
    assert seen.lengths[Call.parse("2H").strain] == 4  # type: ignore[index]


def test_responder_places_the_contract_after_stayman() -> None:
    """1NT Responses (Stayman): with four hearts opposite opener's 2H and 10–15, 4H."""
    four_hearts = hand("K65.A942.Q83.J72")
    assert decide(four_hearts, Seat.S, Seat.N, calls("1NT P 2C P 2H P")).call \
        == Call.parse("4H")


def test_the_asker_bids_slam_missing_one_ace_at_most() -> None:
    """Slam Bidding (Blackwood): two aces of the asker's and two shown (5H): six."""
    asker = hand("AKQ5.AKJ4.KQ3.72")
    assert decide(asker, Seat.N, Seat.N, calls("1S P 3S P 4NT P 5H P")).call \
        == Call.parse("6S")


@pytest.mark.parametrize("seed", range(60))
def test_four_robots_bid_only_legal_calls_and_the_auction_ends(seed: int) -> None:
    """Law 18B, Law 19: every call the engine folds as made, nothing to rectify."""
    rng = random.Random(seed)
    deck = [Card.parse(s + r) for s in "SHDC" for r in "23456789TJQKA"]
    rng.shuffle(deck)
    hands = {seat: tuple(deck[13 * i:13 * i + 13]) for i, seat in enumerate(SEATS)}
    dealer = SEATS[seed % 4]
    pbn = "N:" + " ".join(".".join("".join(c.rank for c in hands[s] if c.suit == suit)
                                   for suit in "SHDC") for s in SEATS)
    events: list[dict[str, object]] = [{"type": "board_started", "board": seed % 4 + 1,
                                        "deal": pbn, "ruleset": "duplicate"}]
    auction: list[Call] = []
    seat = dealer
    for _ in range(60):
        board = fold([from_map(e) for e in events]).board
        assert board is not None
        if board.to_dict()["status"] != "auction":
            break
        call = decide(hands[seat], seat, dealer, auction).call
        assert str(call) in board.to_dict()["open_calls"], (auction, call)
        auction.append(call)
        events.append({"type": "call", "seat": seat.name, "call": str(call)})
        seat = seat.lho
    final = fold([from_map(e) for e in events]).board
    assert final is not None and final.to_dict()["status"] in ("closed", "passed_out")
    assert not final.to_dict()["alerts"]

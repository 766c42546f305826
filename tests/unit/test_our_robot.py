"""Our robot's decisions, pure (shared/robot): its natural bidding always makes a legal call,
as the Laws engine judges it; its samples agree with what its seat has seen; its card is legal
and the one a solver says wins most."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from shared.calls import Call, Strain
from shared.cards import Card
from shared.codec import from_map
from shared.robot.bidding import choose_call, hcp
from shared.robot.play import choose_card, legal_cards
from shared.robot.sampling import Seen, sample, shown_out
from shared.seats import Seat
from shared.table.engine import fold

pytestmark = pytest.mark.unit

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def hand(text: str) -> tuple[Card, ...]:
    """`S.H.D.C` (PBN) → cards."""
    return tuple(Card.parse(s + r) for s, ranks in zip("SHDC", text.split("."), strict=True)
                 for r in ranks)


@pytest.mark.parametrize(("cards", "call"), [
    ("AK5.KQ4.J83.Q972", "1NT"),  # 15, balanced
    ("AKJ52.K4.Q83.972", "1S"),  # 14, five spades
    ("AK52.K.QJ83.Q972", "1D"),  # 15, a singleton: not 1NT; four-four minors: 1D
    ("AK5.Q42.J83.9732", "P"),  # 10
    ("AKQ.KQ4.QJ83.K72", "2NT"),  # 20, balanced
    ("AKQ.KQ4.AJ83.K72", "1D"),  # 22: no 2C in this system
])  # fmt: skip
def test_the_openings_of_the_natural_system(cards: str, call: str) -> None:
    assert choose_call(hand(cards), Seat.N, Seat.N, []) == Call.parse(call)


def test_a_raise_of_partners_major_by_strength() -> None:
    four_hearts = hand("K52.KJ42.983.972")  # 7
    assert hcp(four_hearts) == 7
    assert choose_call(four_hearts, Seat.S, Seat.N, [Call.parse("1H"), Call.parse("P")]) \
        == Call.parse("2H")


def test_no_competing_over_the_opponents() -> None:
    strong = hand("AKQ.KQ4.AJ83.K72")
    assert choose_call(strong, Seat.E, Seat.N, [Call.parse("1C")]) == Call.parse("P")


@pytest.mark.parametrize("seed", range(40))
def test_four_robots_bid_only_legal_calls_and_the_auction_ends(seed: int) -> None:
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
    for _ in range(40):
        board = fold([from_map(e) for e in events]).board
        assert board is not None
        if board.to_dict()["status"] != "auction":
            break
        call = choose_call(hands[seat], seat, dealer, auction)
        assert str(call) in board.to_dict()["open_calls"], (auction, call)
        auction.append(call)
        events.append({"type": "call", "seat": seat.name, "call": str(call)})
        seat = seat.lho
    final = fold([from_map(e) for e in events]).board
    assert final is not None and final.to_dict()["status"] in ("closed", "passed_out")
    assert not final.to_dict()["alerts"]  # no irregularity


def test_a_sample_keeps_what_the_seat_saw() -> None:
    deal = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
    hands = dict(zip(SEATS, (hand(h) for h in deal[2:].split()), strict=True))
    # West leads HA against South's spade contract; North (dummy) ducks; East plays a club
    played = [(Seat.W, Card.parse("HA")), (Seat.N, Card.parse("H2")),
              (Seat.E, Card.parse("C2"))]
    seen = Seen({Seat.S: hands[Seat.S], Seat.N: hands[Seat.N]}, played, shown_out(played))
    assert seen.voids == {Seat.E: frozenset("H")}
    rng = random.Random(7)
    for _ in range(30):
        dealt = sample(seen, rng)
        assert not any(c.suit == "H" for c in dealt[Seat.E])  # East showed out of hearts
        assert len(dealt[Seat.E]) == 12 and len(dealt[Seat.W]) == 12
        assert len(dealt[Seat.S]) == 13 and len(dealt[Seat.N]) == 12
        everything = [c for cards in dealt.values() for c in cards] + [c for _, c in played]
        assert sorted(everything, key=lambda c: c.index) == sorted(
            [c for h in hands.values() for c in h], key=lambda c: c.index)


def test_the_card_is_legal_and_the_one_the_solver_rates_highest() -> None:
    mine = hand("AK532.T.JT6.T985")
    dummy = hand("4.KJ32.842.AQ743")
    played = [(Seat.W, Card.parse("D3"))]
    seen = Seen({Seat.S: mine, Seat.N: dummy}, played, {})
    calls: list[tuple[Seat, Sequence[Card]]] = []

    def solver(hands: Mapping[Seat, Sequence[Card]], trump: Strain, leader: Seat,
               trick: Sequence[Card]) -> dict[Card, int]:
        calls.append((leader, list(trick)))
        assert trump is Strain.S and trick == [Card.parse("D3")]
        assert Card.parse("D3") in hands[Seat.W]  # the trick's card back in its hand
        return {Card.parse("D8"): 9, Card.parse("D4"): 8, Card.parse("D2"): 8}

    card = choose_card(seen, Seat.N, Strain.S, random.Random(1), solver, samples=5)
    assert card == Card.parse("D8")
    assert legal_cards(dummy, [Card.parse("D3")]) == [Card.parse("D8"), Card.parse("D4"),
                                                       Card.parse("D2")]
    assert len(calls) == 5 and all(leader is Seat.W for leader, _ in calls)


def folded_view(events: list[dict[str, object]]) -> dict[str, Any]:
    """The board after `events`, with nothing the engine refused, ignored or must rectify."""
    folded = fold([from_map(e) for e in events]).board
    assert folded is not None
    view: dict[str, Any] = dict(folded.to_dict())
    assert not view["alerts"] and not view["ignored"] and not view["pending"], view
    return view


def test_fifty_boards_among_four_robots_with_nothing_the_laws_refuse() -> None:
    """Four robots bid and play 50 boards (a cheap random solver stands in for DDS: the
    legality is the robot's own); the engine folds every call and card, and finds nothing to
    refuse, ignore or rectify; every board ends."""
    rng = random.Random(50)

    def any_solver(hands: Mapping[Seat, Sequence[Card]], trump: Strain, leader: Seat,
                   trick: Sequence[Card]) -> dict[Card, int]:
        return {c: rng.randrange(14) for cards in hands.values() for c in cards}

    ended = 0
    for number in range(1, 51):
        deck = [Card.parse(s + r) for s in "SHDC" for r in "23456789TJQKA"]
        rng.shuffle(deck)
        hands = {seat: tuple(deck[13 * i:13 * i + 13]) for i, seat in enumerate(SEATS)}
        pbn = "N:" + " ".join(".".join("".join(c.rank for c in hands[s] if c.suit == suit)
                                       for suit in "SHDC") for s in SEATS)
        events: list[dict[str, object]] = [{"type": "board_started", "board": number,
                                            "deal": pbn, "ruleset": "duplicate"}]

        def board(events: list[dict[str, object]] = events) -> dict[str, Any]:
            return folded_view(events)

        dealer, auction = SEATS[(number - 1) % 4], []
        seat = dealer
        while board()["status"] == "auction":
            call = choose_call(hands[seat], seat, dealer, auction)
            auction.append(call)
            events.append({"type": "call", "seat": seat.name, "call": str(call)})
            seat = seat.lho
        view = board()
        if view["contract"] is not None:
            declarer = Seat.parse(view["contract"]["declarer"])
            strain = Strain[view["contract"]["strain"]]
            played: list[tuple[Seat, Card]] = []
            while board()["result"] is None:
                turn = Seat.parse(board()["play"]["turn"] if played else declarer.lho.name)
                decider = declarer if turn is declarer.partner else turn
                seen_hands = {decider: hands[decider]}
                if played:
                    seen_hands[declarer.partner] = hands[declarer.partner]
                card = choose_card(Seen(seen_hands, list(played), shown_out(played)), turn,
                                   strain, rng, any_solver, samples=2)
                played.append((turn, card))
                events.append({"type": "card_played", "seat": turn.name, "card": str(card)})
            assert len(played) == 52 and not board()["play"]["revokes"]
        ended += board()["result"] is not None
    assert ended == 50

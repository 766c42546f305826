"""The fold's fast paths give the state the Laws' general path gives.

The usual card (in turn, held, following suit when able: Laws 44B–C, 45) takes a fast path in
`shared.laws.play.on_card_played`, with the winner of a trick (Law 44E–F) unrolled
(`last_trick_winner`), and boards and plays are built field by field (`Board.start`,
`Play.start`). Here a log of whole boards, with random cards that are often irregular (out of
turn, Laws 53–57; revokes, Law 61; cards not held or played again), is folded three ways: with
the fast path, with every card sent down the general path (`irregular_card`), and event by
event (`evolve`, which copies the board each time). The three must agree in every field of
every board, so that a change to a fast path cannot silently diverge from the Laws.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from shared import evolve, fold, from_map
from shared.cards import RANKS, SUITS, Card
from shared.deal import format_deal
from shared.events import BoardStarted, CardPlayed, Event
from shared.laws.play import irregular_card
from shared.seats import Seat, Vulnerability
from shared.table.board import Board
from shared.table.engine import _HANDLERS, TableState
from shared.table.play import NO_HANDS, Play, last_trick_winner, winner_of

pytestmark = pytest.mark.unit

DECK = [Card(suit, rank) for suit in SUITS for rank in RANKS]


def slow_card(board: Board, event: CardPlayed) -> None:
    """`on_card_played` without its fast path: what it does for any card it does not take."""
    irregular_card(board, event)
    if board.play is not None:
        board.play.recheck()


def deal_of(rng: random.Random) -> tuple[str, dict[Seat, list[Card]]]:
    deck = DECK.copy()
    rng.shuffle(deck)
    hands = {seat: deck[13 * seat.index:13 * seat.index + 13] for seat in Seat}
    first = rng.choice(list(Seat))  # deals written from any seat (`_hands` turns them)
    return format_deal({seat: ".".join("".join(sorted(
        (c.rank for c in cards if c.suit == suit), key=lambda r: -RANKS.index(r)))
        for suit in SUITS) for seat, cards in hands.items()}, first), hands


def next_card(rng: random.Random, state: TableState, hands: dict[Seat, list[Card]]
              ) -> dict[str, Any]:
    """A card for the board in progress: most often a legal one by the seat whose turn it is,
    else a card held but not following suit, a card out of turn, or one already played."""
    board = state.board
    assert board is not None and board.play is not None
    play = board.play
    turn = play.turn if play.turn is not None else rng.choice(list(Seat))
    left = {s: [c for c in hands[s] if c.index not in play.played] for s in Seat}
    roll = rng.random()
    seat = turn if roll < 0.95 else rng.choice(list(Seat))
    if roll < 0.02 and play.cards:
        card = rng.choice(play.cards)  # played already
    elif not left[seat]:
        card = rng.choice(DECK)
    else:
        led = play.cards[-play.in_trick].suit if play.in_trick else None
        options = [c for c in left[seat] if c.suit == led] if roll < 0.85 else []
        card = rng.choice(options or left[seat])
    return {"type": "card_played", "seat": seat.letter, "card": card.text}


def whole_boards(seed: int, boards: int) -> list[Event]:
    """A log of `boards` boards: a one-bid auction, then cards until the play ends (a claim
    agreed on some), events chosen by folding the log so far."""
    rng = random.Random(seed)
    log: list[Event] = []
    state = TableState()
    for number in range(1, boards + 1):
        deal, hands = deal_of(rng)
        declarer = rng.choice(list(Seat))
        strain = rng.choice(["C", "D", "H", "S", "NT"])
        dealer = Seat((number - 1) % 4)
        calls = [(s, "P") for s in dealer.seats_until(declarer)]
        calls += [(declarer, f"{rng.randint(1, 7)}{strain}"), (declarer.lho, "P"),
                  (declarer.partner, "P"), (declarer.rho, "P")]
        maps: list[dict[str, Any]] = [
            {"type": "board_started", "board": number, "deal": deal,
             "ruleset": "rubber" if number % 5 == 0 else "duplicate"},
            *({"type": "call", "seat": s.letter, "call": c, "client_seq": i}
              for i, (s, c) in enumerate(calls))]
        for event in map(from_map, maps):
            log.append(event)
            state = evolve(state, event)
        claim_at = rng.choice([None, None, 20, 37])
        while state.board is not None and not state.board.period_over:
            board, play = state.board, state.board.play
            if play is not None and play.lead is not None and rng.random() < 0.5:
                maps = [{"type": "option", "seat": rng.choice(play.lead.holders).letter,
                         "accept": rng.random() < 0.5}]
            elif play is not None and len(play.cards) == claim_at and play.turn is not None:
                maps = [{"type": "claim", "seat": play.declarer.letter, "tricks": 2},
                        {"type": "claim_response", "seat": play.declarer.lho.letter,
                         "accept": True},
                        {"type": "claim_response", "seat": play.declarer.rho.letter,
                         "accept": True}]
            elif play is None:  # the opening lead, by the seat on lead or another
                seat = board.on_lead() if rng.random() < 0.9 else rng.choice(list(Seat))
                assert seat is not None
                maps = [{"type": "card_played", "seat": seat.letter,
                         "card": rng.choice(hands[seat]).text}]
            else:
                maps = [next_card(rng, state, hands)]
            for event in map(from_map, maps):
                log.append(event)
                state = evolve(state, event)
            if len(log) > 120 * number:
                break  # a board the random cards keep irregular: the next one
    return log


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_laws_44_45_61_the_fast_path_folds_as_the_general_path(seed: int,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """Laws 44–45 (the usual card), 53–57 and 61–64 (cards out of turn, revokes): the log folded
    with the fast path, without it, and event by event, gives equal boards, field by field."""
    log = whole_boards(seed, 12)
    fast = fold(log)
    stepped = TableState()
    for event in log:
        stepped = evolve(stepped, event)
    monkeypatch.setitem(_HANDLERS, CardPlayed, slow_card)
    slow = fold(log)
    boards = fast.boards
    ended = [b.play.ended for b in boards if b.play is not None]
    assert len(boards) == 12 and ended.count("tricks") >= 3 and "claim" in ended
    assert sum(len(b.alerts) for b in boards) > 0  # irregular cards were folded too
    assert boards == slow.boards == stepped.boards
    assert fast.to_dicts() == slow.to_dicts() == stepped.to_dicts()


def test_law_44_the_unrolled_winner_is_the_winner_of_any_four_cards() -> None:
    """Law 44E–F: `last_trick_winner` (the fold's, unrolled) names the winner `winner_of` names,
    for every four cards of three ranks in three suits (led, trumps, another), at every trump
    and from every leader."""
    cards = [Card(suit, rank) for suit in "SHD" for rank in "29A"]
    checked = 0
    for trick in itertools.permutations(cards, 4):
        for trump, leader in itertools.product((None, "S", "H", "D", "C"), Seat):
            assert last_trick_winner(leader, [DECK[0], *trick], trump) \
                is winner_of(leader, list(trick), trump)
            checked += 1
    assert checked == 9 * 8 * 7 * 6 * 5 * 4


def test_a_board_and_a_play_started_field_by_field_equal_the_dataclasses() -> None:
    """`Board.start` (Law 17B: the dealer calls first) and `Play.start` (Law 41A: declarer's
    LHO leads) set every field as the dataclasses' constructors do."""
    event = BoardStarted(5, Seat.N, Vulnerability.NS, deal=None, ts=7)
    assert Board.start(event) == Board(5, Seat.N, Vulnerability.NS, event.ruleset, None, 7,
                                       turn=Seat.N)
    assert Play.start(Seat.S, "H", NO_HANDS, Seat.W) == Play(Seat.S, "H", NO_HANDS, Seat.W,
                                                             Seat.W)

"""The cards the hand whose card is due may play now, as the fold takes them as regular: in
turn, held, following suit (Law 44C), honouring declarer's options (Laws 50D2, 51B, 26 and
57A), the Director's lead restriction (Law 26) and the penalty cards (Laws 50C, 50D1, 51A).
A card outside them is irregular (a revoke, a lead against an option, a penalty card not
played) and the fold's Laws judge it; a page and a robot offer only these.

Read from the `Play` the fold keeps, never from a copy of its Laws: each rule narrows the
cards the one before left, and a rule that would leave none binds not (Law 59: unable to
comply, any card). Two waits leave none on purpose: a defender on lead while declarer's
option on it is awaited (Law 50D2: he "may not lead until" declarer has stated it) and the
partner of a defender who played prematurely while declarer's Law 57A option is awaited.
Nothing is due (None) while the play has not begun or has ended, a claim stands (Law 68D) or
a lead out of turn awaits its option (Laws 53–56), or the deal leaves that hand out.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from shared.cards import RANKS, SUITS, Card
from shared.events import RulingAction
from shared.seats import Seat
from shared.table.play import Play, Suits, is_minor
from shared.vocabulary import BoardStatus, LeadOption, LeadRestriction, PlayOption

if TYPE_CHECKING:  # the board's output calls this module
    from shared.table.board import Board


@dataclass(frozen=True, slots=True)
class Playable:
    """The hand whose card is due (dummy's is declarer's to play, Law 45) and its cards that
    may go now, in suit order (S, H, D, C), high to low."""

    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class LeadRule:
    """The Director's lead restriction on `seat` at the opening lead (Law 26, a `ruling`
    `lead_restriction`): `suit` required or prohibited."""

    seat: Seat
    restriction: LeadRestriction
    suit: str


_DECK = tuple(Card(suit, rank) for suit in SUITS for rank in RANKS)  # by `Card.index`


def held(play: Play, seat: Seat) -> tuple[Card, ...] | None:
    """The cards `seat` still holds, high to low suit by suit (None when the deal leaves his
    hand out)."""
    hand = play.hands[seat.index]
    if hand is None:
        return None
    gone = play.gone
    return tuple([_DECK[i] for i in _dealt(hand) if not gone[i]])


@functools.lru_cache(maxsize=1024)
def _dealt(hand: Suits) -> tuple[int, ...]:
    """A hand's cards by `Card.index`, high to low suit by suit: once a hand, as the state is
    written after every event."""
    return tuple(index for number, ranks in enumerate(hand)
                 for index in sorted((number * 13 + RANKS.index(r) for r in ranks), reverse=True))


def following(cards: Sequence[Card], led: str | None) -> list[Card]:
    """Law 44C: a card of the suit led when the hand holds one; else any (44D), as at a
    lead."""
    follow = [c for c in cards if c.suit == led] if led is not None else []
    return follow or list(cards)


def playable(play: Play, rules: Sequence[LeadRule] = ()) -> Playable | None:
    """The hand whose card is due and the cards it may play now (the module's rules)."""
    seat = play.turn
    if seat is None or play.ended is not None or play.claim is not None \
            or play.lead is not None:
        return None
    cards = held(play, seat)
    if cards is None:
        return None
    led = play.cards[-play.in_trick].suit if play.in_trick else None
    may = following(cards, led)
    if play.plain and not rules:
        return Playable(seat, tuple(may))
    may = _lead(play, seat, may, rules) if led is None \
        else _partner_option(play, seat, may, led)
    return Playable(seat, tuple(_penalty_cards(play, seat, may, led)))


def _narrowed(cards: list[Card], kept: list[Card]) -> list[Card]:
    """`kept` unless it is empty: Law 59, unable to comply he plays any card."""
    return kept or cards


def _lead(play: Play, seat: Seat, cards: list[Card], rules: Sequence[LeadRule]) -> list[Card]:
    """A lead under declarer's option (Laws 50D2, 51B; Law 26's kept so): none while it is
    awaited; the suit required for this lead; not the suits prohibited while he keeps the
    lead. At the opening lead, the Director's restriction (Law 26). Law 59: unable to
    comply, any card."""
    options = play.lead_options
    if options is not None and options.seat is seat:
        if options.choice is None:
            return []
        required = options.choice is LeadOption.REQUIRE
        cards = _narrowed(cards, [c for c in cards if (c.suit in options.chosen) == required])
    if not play.winners:
        for rule in rules:
            if rule.seat is seat:
                required = rule.restriction is LeadRestriction.REQUIRE
                cards = _narrowed(cards, [c for c in cards if (c.suit == rule.suit) == required])
    return cards


def _partner_option(play: Play, seat: Seat, cards: list[Card], led: str) -> list[Card]:
    """Law 57A: the partner of a defender who played prematurely plays as declarer selected:
    the highest or the lowest card he holds of the suit led (57A1–2), a card of the suit
    declarer names (57A3), none of the suit he prohibits (57A4); none before declarer has
    selected. Following suit he complies with 57A3–4; Law 57B with 59: unable to, any card."""
    option = play.partner_option
    if option is None or option[0] is not seat:
        return cards
    _, choice, suit = option
    if choice is None:
        return []
    of_led = [c for c in cards if c.suit == led]
    if choice is PlayOption.HIGHEST or choice is PlayOption.LOWEST:
        if not of_led:
            return cards
        pick = max if choice is PlayOption.HIGHEST else min
        return [pick(of_led, key=lambda c: RANKS.index(c.rank))]
    if of_led:
        return cards  # following suit (`following`): he complies with 57A3–4
    required = choice is PlayOption.REQUIRE
    return _narrowed(cards, [c for c in cards if (c.suit == suit) == required])


def _penalty_cards(play: Play, seat: Seat, cards: list[Card], led: str | None) -> list[Card]:
    """A defender's penalty cards: the one declarer designated, when he may play it (Law
    51A); else a major one he may legally play now he must play (Law 50D1: at the first legal
    opportunity); with a minor one, no card of its suit below honour rank before it (Law
    50C)."""
    mine = [c for s, c in play.penalty if s is seat]
    if not mine:
        return cards
    named = play.designated
    if named is not None and named[0] is seat and named[1] in cards:
        return [named[1]]
    major = [c for c in mine if not is_minor(play, seat, c)]
    must = [c for c in cards if c in major]
    if must:
        return must
    minor = [c for c in mine if c not in major]
    return _narrowed(cards, [c for c in cards if c in minor or c.is_honour
                             or all(m.suit != c.suit for m in minor)])


def lead_rules(board: Board) -> tuple[LeadRule, ...]:
    """The Director's lead restrictions of `board` (Law 26, `ruling` `lead_restriction`)."""
    rules = []
    for ruling in board.rulings:
        seat, suit, restriction = ruling.get("seat"), ruling.get("suit"), \
            ruling.get("restriction")
        if ruling["action"] == RulingAction.LEAD_RESTRICTION and seat and suit and restriction:
            rules.append(LeadRule(Seat.parse(seat), LeadRestriction(restriction), suit))
    return tuple(rules)


def board_playable(board: Board) -> Playable | None:
    """`playable` of `board`: before the opening lead (no `Play` yet) that of the play as the
    fold will begin it (`shared.laws.play.begin_play` on a copy: the auction's penalty
    cards, Law 24, and their lead options, Law 50D2, count at the opening lead)."""
    play = board.play
    if play is None:
        if board.status is not BoardStatus.CLOSED or board.opening_lead is not None \
                or board.on_lead() is None:
            return None
        from shared.laws.play import begin_play  # the Laws import the board, which imports us
        play = begin_play(board.copy())
        if play is None:
            return None
    return playable(play, lead_rules(board) if board.rulings else ())

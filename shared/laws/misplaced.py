"""Cards that fit no turn of the trick in progress, beyond a lead or a play out of turn (Laws
53–57, `shared.laws.play`): a second card from a hand that has already played to the trick —
simultaneous cards from one hand (Law 58B) or, with three cards in the trick and his the
winning one, a lead to the next while a hand has not played to this one, the defective trick
(Law 67); a defender's second card after another player's, his partner not having played, is
Law 57A's — and a defender's card before declarer's required lead (Law 60B).

Simultaneous plays by two players (Law 58A) are read by the log's order, as simultaneous calls
are (Law 33): the card logged later is deemed subsequent to the other, and is judged in turn or
out of turn as it then stands. The log holds no mark of simultaneity, so a card logged before
the legal card it was simultaneous with is a premature play (Law 57) until the Director rules.
"""

from __future__ import annotations

from shared.cards import Card
from shared.laws.citations import cite
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import Play, winner_of
from shared.vocabulary import Irregularity


def misplaced(board: Board, play: Play, seat: Seat, card: Card) -> bool:
    """`card` from `seat`, whose turn it is not, when it is a second card of his hand to the
    trick in progress: a defender's logged after another player's card while his partner has
    not played is Law 57A's premature lead (left to `shared.laws.premature`: the log's order
    rules out simultaneity); else a lead to the next trick when three cards are in and his is
    winning (Law 67), or a card played together with his first (Law 58B: his card the last
    logged to the trick, or one waiting for his turn, Law 57C3/57D); or a defender's card
    before declarer's required lead (Law 60B). Returns whether it was dealt with here."""
    if not play.in_trick:
        if play.retracted_at == len(play.cards) and seat.is_opponent_of(play.declarer):
            before_required_lead(board, play, seat, card)
            return True
        return False
    current = play.current
    first = next((c for s, c in current if s is seat), None)
    if first is None:
        waiting = play.card_in_trick(seat)
        if waiting is None:
            return False
        simultaneous_cards(board, play, seat, card, waiting)  # his premature card waits
        return True
    missing = play.turn
    if missing is None:
        return False
    if seat.is_opponent_of(play.declarer) and current[-1][0] is not seat \
            and play.card_in_trick(seat.partner) is None:
        return False  # Law 57A: after another player's card, before partner has played
    if play.in_trick < 3 or seat is not winner_of(play.leader, [c for _, c in current],
                                                  play.trump):
        simultaneous_cards(board, play, seat, card, first)
    else:
        defective_trick(board, play, seat, card, missing)
    return True


def simultaneous_cards(board: Board, play: Play, seat: Seat, card: Card, first: Card) -> None:
    """Law 58B: a second card from a hand that has played to the trick in progress is read as
    two cards played together from one hand (the log orders them; Law 45E's fifth card needs a
    complete trick, which the fold has quitted). The first card logged stands as the one
    played (58B1–2: the offender designates the card he plays; the Director may let him
    designate the other). The other: a defender's is a penalty card (58B2, Law 50); one from
    declarer's or dummy's hand goes back without rectification (Law 48A)."""
    if seat.is_opponent_of(play.declarer):
        play.penalty += ((seat, card),)
        play.inadvertent += ((seat, card),)  # Law 50B: a minor one, if below honour rank
        outcome = f"{card} is a penalty card (Laws 58B2, 50)"
    else:
        outcome = f"{card} goes back to the hand, without rectification (Law 48A)"
    board.alert(Irregularity.SIMULTANEOUS_PLAY, cite(board, "58B"), seat,
                f"{seat} played {card} to a trick he had already played {first} to: {first} "
                f"stands as played; {outcome}.",
                (f"the Director may let {seat} designate {card} as the card played instead "
                 "(Law 58B2); an opponent who played after the withdrawn card may change his "
                 "card (Law 58B3)",))


def defective_trick(board: Board, play: Play, seat: Seat, card: Card, missing: Seat) -> None:
    """Law 67A: a player who has not played to a trick (here: three cards in it, and a hand
    that has played to it leads to the next) must supply a card he can legally play (67A1) if
    attention is drawn before both sides have played to the next trick. The fold keeps the
    trick open, `missing` to play; the card led early goes back (a defender's leading before
    his partner has played is Law 57A's premature lead, `shared.laws.play.out_of_turn`)."""
    trick = ", ".join(f"{s} {c}" for s, c in play.current)
    board.alert(Irregularity.DEFECTIVE_TRICK, cite(board, "67A"), missing,
                f"{seat} led {card} to the next trick while {missing} had not played to this "
                f"one ({trick}): a defective trick.",
                (f"{missing} supplies a card he can legally play to the trick (Law 67A1); "
                 f"{card} goes back and is led again once the trick is complete (a defender's "
                 "card so exposed may be a penalty card: the Director rules, Law 49)",
                 "found only after both sides have played to the next trick, the Director "
                 "rectifies under Law 67B (the card placed among the played cards, a deemed "
                 "revoke with Law 64A2's one-trick transfer)"))


def before_required_lead(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """Law 60B: a defender who plays a card after declarer has been required to retract his
    lead out of turn from either hand (Law 55A), but before declarer has led from the correct
    hand: the card is a major penalty card (Law 50), with no option to accept it."""
    play.penalty += ((seat, card),)
    board.alert(Irregularity.PLAY_OUT_OF_TURN, cite(board, "60B"), seat,
                f"{seat} played {card} before declarer led from the correct hand ({play.turn}) "
                "after his lead out of turn was withdrawn: a major penalty card (Laws 60B, 50).",
                (f"declarer ({play.declarer}) has Law 50D's options when {seat.partner} is next "
                 "on lead",))

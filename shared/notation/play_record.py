"""The play of a board as a record gives it, as events: each card with the hand it came from
(`card_played`), and the result the record states, when the cards leave it open.

A record names the cards, not always who played them: LIN gives the cards in the order
played (the hand is the one dealt the card, else the hand in turn), PBN by trick in columns
from the opening leader (each trick is played from its leader, the winner of the trick
before: Law 44G). The mechanics of `shared.table.play` seat the cards; the fold judges them.

The result (LIN `mc|N`, PBN `[Result]`: declarer's tricks in all, agreed at the table) ends a
play the cards leave unfinished:

- as the claim the record notes (`shared.notation.claim_note`: who claimed, a defender's
  concession too, and his statement, Laws 68A-C), agreed (Law 69A), when folded it gives the
  record's number (revokes settled by the fold, Law 64);
- else as a claim by declarer of the tricks still to come and both defenders' acceptance (Laws
  68, 69A) when the fold can state it so: a card has been played, no revoke is on the board (an
  agreed claim settles revokes, Law 64, and the record's number already counts them), and
  the tricks left to declarer are between none and those remaining;
- otherwise as `result_recorded` (Law 79A: the number of tricks agreed at the table), which
  the fold takes as given: no card recorded, a revoke, or a number the claim cannot say.

Cards after the thirteenth trick, or a card played twice, make the board unreadable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from shared.cards import Card
from shared.codec import from_map
from shared.events import CardPlayed
from shared.laws.play import begin_play
from shared.notation.claim_note import ClaimNote
from shared.seats import NotationError, Seat
from shared.table.engine import TableState, fold
from shared.table.play import Play


@dataclass(frozen=True, slots=True)
class Row:
    """A PBN trick: the cards of the four hands in columns from the opening leader's, None
    where none; `lead`, the column of the trick's lead when it was led out of turn (PBN 2.1
    section 3.9's `^L`), else None: the winner of the trick before leads (Law 44G)."""

    cards: Sequence[Card | None]
    lead: int | None = None


class RecordedPlay:
    """The play of one board as its record gives it: the auction folded once (`events`, the
    board's events so far), the cards seated by the play's mechanics, then folded by the Laws
    onto the auction to close the play (`close`)."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.state = fold(from_map(e) for e in events)
        board = self.state.board
        self.play = None if board is None else begin_play(board.copy())
        self.cards: list[CardPlayed] = []

    def _card(self, play: Play, seat: Seat, card: Card) -> dict[str, Any]:
        if play.ended is not None:
            raise NotationError(f"{card}: a card after the thirteenth trick")
        if play.gone[card.index]:
            raise NotationError(f"{card} is played twice")
        play.add(seat, card)
        self.cards.append(CardPlayed(seat, card))
        return {"type": "card_played", "seat": seat.name, "card": str(card)}

    def in_order(self, cards: Iterable[Card],
                 holder: Callable[[Card], Seat | None]) -> list[dict[str, Any]]:
        """LIN: the cards in the order played, each from the hand `holder` says was dealt
        it, or else from the hand in turn."""
        play = self.play
        if play is None:
            return []
        return [self._card(play, holder(card) or play.turn or play.leader, card)
                for card in cards]

    def by_trick(self, leader: Seat, rows: Iterable[Row]) -> list[dict[str, Any]]:
        """PBN: each trick's cards in columns from `leader`'s (the opening leader), played
        from the trick's leader clockwise: the winner of the trick before (Law 44G), or the
        hand that led out of turn (`Row.lead`; the Laws judge it: 53A accepts it once the
        next hand plays to it)."""
        play = self.play
        if play is None:
            return []
        play.leader = play.turn = leader
        columns = clockwise(leader)
        out = []
        for row in rows:
            by_seat = {seat: card for seat, card in zip(columns, row.cards, strict=False)
                       if card is not None}
            if row.lead is not None and not play.in_trick:
                play.leader = play.turn = columns[row.lead]
            for seat in clockwise(play.leader):
                card = by_seat.get(seat)
                if card is not None:
                    out.append(self._card(play, seat, card))
            if len(by_seat) < 4 and play.current:  # an unfinished trick: the last
                break
        return out

    def close(self, tricks: int | None, note: ClaimNote | None = None) -> list[dict[str, Any]]:
        """The events that end the play with declarer's `tricks` (None: the record states
        none), after the cards: the claim the record notes (`note`) if it gives those
        tricks, else a claim agreed or a result recorded, as the module says; none if the
        play has ended or there is no contract."""
        if tricks is None or self.play is None:
            return []
        state = fold(self.cards, self.state)
        play = None if state.board is None else state.board.play
        if play is not None and play.ended is not None:
            return []
        accepted = []
        if play is not None and play.lead is not None:
            # the record's last card, led out of turn, is in its trick: it stood (Law 53A)
            accepted = [{"type": "option", "seat": play.lead.holders[0].name, "accept": True}]
            state = fold([from_map(accepted[0])], state)
            play = None if state.board is None else state.board.play
        if play is None or not any(play.gone):
            return [*accepted, {"type": "result_recorded", "tricks": tricks}]
        noted = [] if note is None else _noted_claim(state, play, note, tricks)
        if noted:
            return [*accepted, *noted]
        rest = tricks - play.won_by(play.declarer)
        if play.revokes or not 0 <= rest <= play.remaining:
            return [*accepted, {"type": "result_recorded", "tricks": tricks}]
        return [*accepted, *_agreed(ClaimNote(play.declarer, rest, play.remaining, ""), play)]


def _agreed(note: ClaimNote, play: Play) -> list[dict[str, Any]]:
    """`note`'s claim and its opponents' acquiescence (Law 69A: both defenders in
    declarer's claim, declarer in a defender's)."""
    declarer = play.declarer
    answering = (declarer,) if note.seat.is_opponent_of(declarer) else (declarer.lho,
                                                                        declarer.rho)
    return [{"type": "claim", "seat": note.seat.name, "tricks": note.tricks,
             "statement": note.statement},
            *({"type": "claim_response", "seat": seat.name, "accept": True}
              for seat in answering)]


def _noted_claim(state: TableState, play: Play, note: ClaimNote, tricks: int
                 ) -> list[dict[str, Any]]:
    """The claim a record notes, agreed, if folded it ends the play with the record's
    `tricks` (revokes settled as the Laws settle them, Law 64); else none."""
    if note.remaining != play.remaining or note.seat is play.dummy:
        return []
    events = _agreed(note, play)
    board = fold((from_map(e) for e in events), state).board
    closed = None if board is None else board.play
    if closed is None or closed.ended != "claim" or closed.declarer_tricks != tricks:
        return []
    return events


def clockwise(seat: Seat) -> tuple[Seat, Seat, Seat, Seat]:
    """`seat` and the three after it in rotation."""
    return seat, seat.lho, seat.partner, seat.rho

"""A hand faced during the play (`hand_faced`): declarer spreading his hand after a faced
opening lead out of turn (Law 54A), and any other showing of a hand, which is a claim (Laws
48B2, 68A). A faced hand is seen by all (`Play.faced`; the gateway's views).

Read in the 2017 Laws (the rubber Laws' 54 and 68 are alike):
- 54A: after a faced opening lead out of turn, declarer may spread his hand; he becomes
  dummy, and dummy becomes declarer. Spreading accepts the lead (the offender's card is then
  led by declarer's new LHO: in turn).
- 48B: declarer facing his cards after an opening lead out of turn: Law 54 applies; at any
  other time he may be deemed to have claimed or conceded (Law 68).
- 68A: a contestant also claims when he shows his cards (unless he demonstrably did not
  intend to claim: the Director's judgement, asked by disputing the claim).
- 49: a defender's cards shown in a claim or concession (the application of Law 68) are not
  penalty cards.
"""

from __future__ import annotations

from shared.events import HandFaced
from shared.laws.citations import cite
from shared.laws.play import settle_lead
from shared.laws.revoke import establish
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import Claim, IrregularLead, Play


def on_hand_faced(board: Board, event: HandFaced) -> None:
    """`seat` faces his hand: declarer's after a faced opening lead out of turn is Law 54A's
    spread (`spread`); any other hand faced in the play is a claim (`claim_by_facing`), or
    shows the hand for a claim already open (Law 68C). Before the play, the auction's cards are
    `card_exposed` (Law 24); dummy's hand is faced already (Law 41D)."""
    play, seat = board.play, event.seat
    if play is None:
        board.note_ignored("a hand is faced in the play only (in the auction: card_exposed, "
                           "Law 24)")
        return
    if play.ended is not None:
        board.note_ignored("the play is over")
        return
    if seat is play.dummy or seat in play.faced:
        board.note_ignored(f"{seat}'s hand is faced already")
        return
    lead = play.lead
    if lead is not None and lead.law == "54" and seat is play.declarer:
        spread(board, play, lead)
    else:
        claim_by_facing(board, play, seat)
    play.recheck()


def spread(board: Board, play: Play, lead: IrregularLead) -> None:
    """Law 54A (rubber 54A): after a faced opening lead out of turn, declarer spreads his hand;
    he becomes dummy and his partner declarer. The lead is accepted (Law 53A): it comes from
    the new declarer's LHO, so it is in turn, and the new declarer plays dummy's (his
    partner's) card to it. The contract is the same; the score follows the new declarer."""
    presumed = play.declarer
    play.declarer = presumed.partner
    play.faced += (presumed,)
    board.rectify(cite(board, "54A"), presumed, f"{presumed} spread his hand after the opening "
                  f"lead out of turn: he is dummy, {presumed.partner} declarer.")
    settle_lead(board, play, lead, accept=True)


def claim_by_facing(board: Board, play: Play, seat: Seat) -> None:
    """Law 68A: a player who shows his cards claims (for declarer, Law 48B2): with no claim
    open, his side is deemed to claim all the remaining tricks, until his own `claim` states
    the number (`shared.laws.claims.on_claim`); the opponents answer it as any claim (Law 69;
    one who holds he did not intend to claim disputes it, and the Director rules, Law 70). A
    defender's cards so shown are not penalty cards (Law 49: the application of Law 68). With
    a claim open (Law 68D: play has ceased), his hand is shown for it."""
    play.faced += (seat,)
    if play.claim is not None:
        board.rectify(cite(board, "68D"), seat, f"{seat} faced his hand for the claim open.")
        return
    revokes, lead = play.revokes, play.lead  # the play as the claim found it (Law 68B2)
    if play.revokes:
        establish(board, play, seat, claim=True)  # Law 63A3
    law = "48B2" if seat is play.declarer else "68A"
    play.lead = None
    play.claim = Claim(seat, play.remaining, play.remaining, "hand faced", deemed=True,
                       revokes=revokes, lead=lead)
    board.rectify(cite(board, law), seat, f"{seat} faced his hand: a claim of the "
                  f"{play.remaining} remaining tricks (Law 68A), unless his claim states "
                  "otherwise; no card of it is a penalty card (Law 49).")

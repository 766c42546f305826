"""Who answers a claim or concession standing (Laws 68–69), read from the `Play` the fold
keeps: the fold (`shared.laws.claims`) agrees the claim by these rules, and a reader's view
(`play.claim`'s `awaited` and `may_object`) names the seats from them, so that a page offers
its buttons to exactly the seats whose answer the fold takes."""

from __future__ import annotations

from shared.seats import Seat
from shared.table.play import Claim, Play


def needed(play: Play, claim: Claim) -> frozenset[Seat]:
    """Law 69A: the seats whose acquiescence agrees `claim`: both defenders in declarer's
    (or dummy's side's) claim, declarer in a defender's; dummy takes no part (Law 43A)."""
    if claim.seat.is_opponent_of(play.declarer):
        return frozenset((play.declarer,))
    return frozenset((play.declarer.lho, play.declarer.rho))


def awaited(play: Play) -> tuple[Seat, ...]:
    """The seats whose answer the claim standing still awaits (Law 69A: `needed` not yet
    acquiesced), in seat order; none once it is disputed (Law 68D: the Director rules) or
    when no claim stands."""
    claim = play.claim
    if claim is None or claim.disputed:
        return ()
    agreed = {s for s, yes in claim.answers if yes}
    return tuple(s for s in Seat if s in needed(play, claim) and s not in agreed)


def may_object(play: Play) -> Seat | None:
    """Law 68B2: the partner of a defender who concedes one or more of the remaining tricks,
    while he has not acquiesced and the concession is not disputed: his objection means
    "neither a concession nor a claim has occurred" and play continues."""
    claim = play.claim
    if claim is None or claim.disputed or not claim.concedes \
            or not claim.seat.is_opponent_of(play.declarer):
        return None
    partner = claim.seat.partner
    return None if (partner, True) in claim.answers else partner

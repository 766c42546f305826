"""A claim agreed, as the writers note it and the readers take it back: who claimed, the
tricks his side wins of those remaining, and his statement (Laws 68A–C, 69A).

Neither format has a place for a claim: LIN's `mc|N|` and PBN's `[Result]` are declarer's
tricks in all, whoever claimed, and no statement. So the writers add one line of words, a
PBN comment after the play (`{…}`, PBN 2.1 section 3.8) and a LIN note (`nt|…|`):

    Claim by E (Laws 68A-B): E-W win 2 of the 5 remaining tricks, agreed (Law 69A).
    Statement: the rest are mine

and the readers, finding that line on a board whose result it agrees with, close the play
with that claim (`shared.notation.play_record`): a defender's concession reads back as his,
not as declarer's claim, and the statement with it. The statement comes back on one line
(a record's notes do not span lines), PBN's braces as parentheses (a comment cannot hold
them), LIN's `|` as `/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared.seats import Seat
from shared.table.play import Claim

PREFIX = "Claim by "
_NOTE = re.compile(r"Claim by ([NESW]) \(Laws 68A-B\): (?:N-S|E-W) win (\d{1,2}) of the "
                   r"(\d{1,2}) remaining tricks, agreed \(Law 69A\)\.(?: Statement: (.*))?")


@dataclass(frozen=True, slots=True)
class ClaimNote:
    """A claim agreed as a record notes it: `seat`'s side wins `tricks` of the `remaining`
    tricks (the trick in progress included, Law 68), with `statement` (Law 68C)."""

    seat: Seat
    tricks: int
    remaining: int
    statement: str


def claim_words(claim: Claim) -> str:
    """The line a record notes for `claim`, agreed."""
    side = "N-S" if claim.seat.index % 2 == 0 else "E-W"
    statement = " ".join(claim.statement.split())
    return (f"{PREFIX}{claim.seat.name} (Laws 68A-B): {side} win {claim.tricks} of the "
            f"{claim.remaining} remaining tricks, agreed (Law 69A)."
            + (f" Statement: {statement}" if statement else ""))


def read_claim_note(text: str) -> ClaimNote | None:
    """The claim a record's note states (`claim_words`' form), or None if it is not one."""
    match = _NOTE.fullmatch(" ".join(text.split()))
    if match is None:
        return None
    seat, tricks, remaining, statement = match.groups()
    if not 0 <= int(tricks) <= int(remaining) <= 13:
        return None
    return ClaimNote(Seat.parse(seat), int(tricks), int(remaining), statement or "")

"""What the Laws keep on a board besides its calls: a call that stands with what they say of
it, a director alert, the irregular call awaiting its option holder, the correction expected
of an offender, a lead penalty (Law 26), an inadmissible call cancelled at once. Immutable
records: a board shares them between its copies (`Board.copy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from shared.calls import Call, Strain
from shared.events import CallMade, Ruleset
from shared.seats import Seat
from shared.table.board_view import AlertView, CancelledCallView, LeadPenaltyView, PendingView
from shared.vocabulary import BoardStatus, Irregularity, PassObligation

if TYPE_CHECKING:  # a lead penalty is read against its board; the board holds these records
    from shared.table.board import Board


@dataclass(frozen=True, slots=True)
class StandingCall:
    """A call that stands with what the Laws say of it: `accepted` names the Law under which
    an irregular call was accepted or condoned; `skipped` lists the seats that lost their turn
    to it; `deemed` names the Law under which a pass is deemed made (Law 28A).

    A call that stands with nothing to say of it is kept as the `CallMade` event itself: the
    fold then allocates nothing per call, which keeps it fast (see `Standing`)."""

    seat: Seat
    call: Call
    alert: bool = False
    explanation: str | None = None
    accepted: str | None = None
    skipped: tuple[Seat, ...] = ()
    deemed: str | None = None

    @staticmethod
    def annotate(entry: Standing, accepted: str, skipped: tuple[Seat, ...] = ()) -> StandingCall:
        """`entry` accepted (or condoned) under Law `accepted`."""
        return StandingCall(entry.seat, entry.call, entry.alert, entry.explanation, accepted,
                            skipped)


Standing: TypeAlias = CallMade | StandingCall
"""A call that stands: the event itself, or a `StandingCall` when the Laws annotated it."""


def skipped_by(entry: Standing) -> tuple[Seat, ...]:
    """The seats that lost their turn to an accepted call out of rotation."""
    return entry.skipped if isinstance(entry, StandingCall) else ()


@dataclass(frozen=True, slots=True)
class Alert:
    """A director alert: an irregularity, the Law that governs it and the options open."""

    kind: Irregularity
    law: str
    seat: Seat | None
    message: str
    options: tuple[str, ...] = ()
    call: Call | None = None
    event: int = 0

    def to_dict(self) -> AlertView:
        d: AlertView = {"kind": self.kind, "law": self.law,
                        "seat": self.seat.name if self.seat else None,
                        "message": self.message, "options": list(self.options),
                        "event": self.event}
        if self.call is not None:
            d["call"] = str(self.call)
        return d


@dataclass(frozen=True, slots=True)
class Pending:
    """An irregular call its offender's LHO may accept: he accepts it by calling or with an
    `option` event (Laws 25B1, 27A, 29A); otherwise it is cancelled and the Laws rectify.
    An inadmissible call is never pending: nobody may accept it, and it is rectified at once
    (see `Inadmissible`)."""

    kind: Irregularity
    law: str
    entry: Standing
    at_turn: Seat  # whose turn it was when the call was made
    replaces: Standing | None = None  # a change of call (Law 25B): the call it replaces
    prior: Pending | None = None  # a substitute for an irregular call still pending: that one

    @property
    def offender(self) -> Seat:
        return self.entry.seat

    @property
    def option_holder(self) -> Seat:
        return self.entry.seat.lho

    def to_dict(self) -> PendingView:
        d: PendingView = {"kind": self.kind, "law": self.law, "offender": self.offender.name,
                          "call": str(self.entry.call), "at_turn": self.at_turn.name,
                          "option_holder": self.option_holder.name}
        if self.replaces is not None:
            d["replaces"] = str(self.replaces.call)
        return d


@dataclass(frozen=True, slots=True)
class Correction:
    """What the Laws expect of an offender after his irregular call was cancelled: the
    substitute for an insufficient bid (27B), the call after RHO's (31A, 32B), the choice
    after an unaccepted change of call (25B2)."""

    law: str
    offender: Seat
    call: Call
    rho_acted: bool | None = None
    other: Call | None = None  # after a change of call: the substitute that was not accepted


@dataclass(frozen=True, slots=True)
class LeadPenalty:
    """A lead penalty (Law 26) that applies if the offender's partner becomes a defender."""

    offender: Seat
    withdrawn: Call
    source: str  # the Law that invoked Law 26
    final: Call | None = None  # the call the offender substituted at that turn, when known

    def suit_repeated(self, board: Board, strain: Strain) -> bool:
        """Whether the withdrawn call's suit takes no lead penalty. Duplicate Law 26A1: the
        offender specified the suit in the legal auction. Rubber Law 26(a) is its own test:
        "the substituted call did not repeat that suit" — the call the offender substituted at
        that turn, where the Law has him choose it at once (Laws 25(b)(ii), 27(b),
        31(b)(ii)); otherwise his calls in the legal auction stand for it."""
        if self.final is not None and board.ruleset is Ruleset.RUBBER:
            return self.final.strain is strain
        return board.named_strain(self.offender, strain)

    def to_dict(self, board: Board) -> LeadPenaltyView:
        """The restriction Law 26 puts on the opening lead, and whether it applies (the
        offender's partner is a defender) once the auction has closed."""
        partner = self.offender.partner
        strain = self.withdrawn.strain
        suit = strain.name if strain is not None and strain is not Strain.NT else None
        if strain is not None and suit is not None and self.suit_repeated(board, strain):
            law, declarer_may, suit = "26A1", None, None
        elif suit is not None:
            law, declarer_may = "26A2", "require or prohibit the suit"
        else:
            law, declarer_may = "26B", "prohibit the lead of any one suit"
        if board.ruleset is Ruleset.RUBBER:
            law = {"26A1": "26", "26A2": "26(a)", "26B": "26(b)"}[law]
        declarer = board.declarer
        applies = None if board.status == BoardStatus.AUCTION else (
            declarer is not None and partner.is_opponent_of(declarer)
            and declarer_may is not None)
        player, offender, withdrawn = partner.name, self.offender.name, str(self.withdrawn)
        if suit is not None:  # 26A2: the suit declarer may require or prohibit
            return {"player": player, "offender": offender, "withdrawn": withdrawn,
                    "source": self.source, "law": law, "suit": suit,
                    "declarer_may": declarer_may, "applies": applies}
        return {"player": player, "offender": offender, "withdrawn": withdrawn,
                "source": self.source, "law": law, "declarer_may": declarer_may,
                "applies": applies}


@dataclass(frozen=True, slots=True)
class Inadmissible:
    """An inadmissible call the Laws cancelled at once (Laws 32, 36, 37, 38), and what its
    rectification found before it changed the board. Until the next call, offender's LHO may
    still call over it: Law 35 then takes the penalty back (`Board.restore`)."""

    kind: Irregularity
    entry: Standing
    at_turn: Seat  # whose turn it was when the call was made, and is again
    must_pass: tuple[tuple[Seat, PassObligation], ...]
    may_not_double: tuple[tuple[Seat, str], ...]
    lead_penalties: tuple[LeadPenalty, ...]
    correction: Correction | None
    cancelled: tuple[CancelledCallView, ...]

    @property
    def offender(self) -> Seat:
        return self.entry.seat

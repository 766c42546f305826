"""The state of one board: the calls that stand, whose turn it is, obligations and alerts.

This module knows rotation (Law 17), sufficiency (Law 18), the legality of doubles and
redoubles (Law 19), the end of the auction and the contract (Law 22). It knows nothing of
irregularities: `shared.laws` applies those, through the few mutators here.

A `Board` is mutable so that a fold over a million events stays fast; the engine copies
it before changing it whenever a caller keeps the old state (`shared.engine.evolve`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from shared.calls import ALL_CALLS, PASS, Call, CallKind, Strain
from shared.cards import Card
from shared.events import BoardStarted, CallMade, Ruleset, RulingAction
from shared.seats import Seat, Vulnerability
from shared.vocabulary import BoardStatus, Irregularity, PassObligation

# The words the fold reads on every event or board, as module globals: under Python 3.11 an
# enum class's attribute (`BoardStatus.CLOSED`) goes through `EnumType.__getattr__`'s hook,
# some thousand instructions a read.
_CLOSED, _PASSED_OUT = BoardStatus.CLOSED, BoardStatus.PASSED_OUT
_NEXT_TURN = PassObligation.NEXT_TURN


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


def standing_to_dict(entry: Standing) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": entry.seat.name, "call": str(entry.call)}
    if entry.alert:
        d["alert"] = True
    if entry.explanation is not None:
        d["explanation"] = entry.explanation
    if isinstance(entry, StandingCall):
        if entry.accepted is not None:
            d["accepted"] = entry.accepted
        if entry.skipped:
            d["skipped"] = [s.name for s in entry.skipped]
        if entry.deemed is not None:
            d["deemed"] = entry.deemed
    return d


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

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "law": self.law,
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

    def to_dict(self) -> dict[str, Any]:
        d = {"kind": self.kind, "law": self.law, "offender": self.offender.name,
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

    def to_dict(self, board: Board) -> dict[str, Any]:
        partner = self.offender.partner
        d: dict[str, Any] = {"player": partner.name, "offender": self.offender.name,
                             "withdrawn": str(self.withdrawn), "source": self.source}
        strain = self.withdrawn.strain
        suit = strain.name if strain is not None and strain is not Strain.NT else None
        if strain is not None and suit is not None and self.suit_repeated(board, strain):
            d.update(law="26A1", declarer_may=None)
        elif suit is not None:
            d.update(law="26A2", suit=suit, declarer_may="require or prohibit the suit")
        else:
            d.update(law="26B", declarer_may="prohibit the lead of any one suit")
        if board.ruleset is Ruleset.RUBBER:
            d["law"] = {"26A1": "26", "26A2": "26(a)", "26B": "26(b)"}[d["law"]]
        declarer = board.declarer
        d["applies"] = None if board.status == BoardStatus.AUCTION else (
            declarer is not None and partner.is_opponent_of(declarer)
            and d["declarer_may"] is not None)
        return d


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
    cancelled: tuple[dict[str, Any], ...]

    @property
    def offender(self) -> Seat:
        return self.entry.seat


@dataclass(slots=True)
class Board:
    board: int
    dealer: Seat
    vulnerability: Vulnerability
    ruleset: Ruleset
    deal: str | None = None
    started_ts: int | None = None  # the producer's stamp on board_started (ms since the epoch)
    status: BoardStatus = BoardStatus.AUCTION
    turn: Seat | None = None
    calls: list[Standing] = field(default_factory=list)
    must_pass: dict[Seat, PassObligation] = field(default_factory=dict)
    may_not_double: dict[Seat, str] = field(default_factory=dict)  # seat → Law
    pending: Pending | None = None
    correction: Correction | None = None
    inadmissible: Inadmissible | None = None  # cancelled at once; Law 35 until the next call
    alerts: tuple[Alert, ...] = ()
    lead_penalties: tuple[LeadPenalty, ...] = ()
    exposed: tuple[tuple[Seat, Card, bool], ...] = ()
    cancelled: tuple[dict[str, Any], ...] = ()
    rectifications: tuple[dict[str, Any], ...] = ()
    rulings: tuple[dict[str, Any], ...] = ()
    questions: tuple[dict[str, Any], ...] = ()  # Law 20F: who asked, about which call
    explanations: tuple[dict[str, Any], ...] = ()  # the answers: which call, by whom
    ignored: tuple[dict[str, Any], ...] = ()
    opening_lead: tuple[Seat, Card] | None = None
    after_final_pass: Seat | None = None  # offender of the last call after the final pass
    seen: set[int] = field(default_factory=set)  # client_seq * 5 + seat (4: no seat)
    events: int = 0
    players: tuple[tuple[Seat, str], ...] = ()  # the names at the seats, as the director gave
    # derived from `calls`, kept up to date by `_track` and rebuilt by `recompute`
    last_bid: Call | None = None
    last_bid_seat: Seat | None = None
    risk: str = ""
    risk_seat: Seat | None = None
    trailing_passes: int = 0

    @staticmethod
    def start(event: BoardStarted) -> Board:
        """A board before its first call: the dealer calls first (Law 17B)."""
        return Board(event.board, event.dealer, event.vulnerability, event.ruleset, event.deal,
                     event.ts, turn=event.dealer)

    def copy(self) -> Board:
        """A copy the fold may change without touching this board. Written out field by field:
        ten times faster than `copy.copy`, and the fold makes one per event it is given alone
        (the processor, replay). The record of alerts, rulings and so on is kept in tuples:
        shared safely, and no list is allocated for them on the many boards that have none."""
        new = Board.__new__(Board)
        new.board, new.dealer, new.vulnerability = self.board, self.dealer, self.vulnerability
        new.ruleset, new.deal, new.started_ts = self.ruleset, self.deal, self.started_ts
        new.status, new.turn = self.status, self.turn
        new.calls = self.calls.copy()
        new.must_pass = self.must_pass.copy()
        new.may_not_double = self.may_not_double.copy()
        new.pending, new.correction = self.pending, self.correction
        new.inadmissible = self.inadmissible
        new.alerts, new.lead_penalties, new.exposed = self.alerts, self.lead_penalties, \
            self.exposed
        new.cancelled, new.rectifications = self.cancelled, self.rectifications
        new.rulings, new.questions = self.rulings, self.questions
        new.explanations, new.ignored = self.explanations, self.ignored
        new.opening_lead, new.after_final_pass = self.opening_lead, self.after_final_pass
        new.seen = self.seen.copy()
        new.players = self.players
        new.events, new.last_bid, new.last_bid_seat = self.events, self.last_bid, \
            self.last_bid_seat
        new.risk, new.risk_seat = self.risk, self.risk_seat
        new.trailing_passes = self.trailing_passes
        return new

    @property
    def duplicate(self) -> bool:
        return self.ruleset is Ruleset.DUPLICATE

    @property
    def period_over(self) -> bool:
        """Duplicate Law 17E (2017 Law 17D): the auction period ends when all four players
        pass, or when the opening lead is faced after the auction."""
        return self.status is _PASSED_OUT or self.opening_lead is not None

    # --- queries ----------------------------------------------------------------------------

    def is_sufficient(self, call: Call) -> bool:
        """Law 18C: a bid that supersedes the last preceding bid is sufficient."""
        return call.supersedes(self.last_bid)

    def double_is_legal(self, seat: Seat) -> bool:
        """Law 19A1: only the last bid, made by an opponent, with no call but pass since."""
        bidder = self.last_bid_seat
        return bidder is not None and self.risk == "" and bidder.is_opponent_of(seat)

    def redouble_is_legal(self, seat: Seat) -> bool:
        """Law 19B1: only the last double, made by an opponent, with no call but pass since."""
        doubler = self.risk_seat
        return self.risk == "X" and doubler is not None and doubler.is_opponent_of(seat)

    def is_legal(self, seat: Seat, call: Call) -> bool:
        """Whether `call` by `seat` now would be legal in form (Laws 18–19, 38)."""
        if call.kind is CallKind.BID:
            return call.level <= 7 and self.is_sufficient(call)
        if call.kind is CallKind.DOUBLE:
            return self.double_is_legal(seat)
        if call.kind is CallKind.REDOUBLE:
            return self.redouble_is_legal(seat)
        return True

    def legal_calls(self) -> list[Call]:
        """The calls open to the player whose turn it is, respecting an obligation to pass."""
        seat = self.turn
        if seat is None or self.pending is not None:
            return []
        if seat in self.must_pass:
            return [PASS]
        calls = [c for c in ALL_CALLS if self.is_legal(seat, c)]
        if seat in self.may_not_double:
            calls = [c for c in calls if c.is_bid or c.is_pass]
        return calls

    def pass_ends_auction(self) -> bool:
        """Whether a pass now would end the auction (Law 22: the third pass after a call, or
        the fourth pass), as `append` would find after it."""
        passes = self.trailing_passes
        return passes >= 2 and (passes >= 3 or len(self.calls) >= 3)

    def last_call_of(self, seat: Seat) -> int | None:
        """Index in `calls` of `seat`'s last standing call."""
        for index in range(len(self.calls) - 1, -1, -1):
            if self.calls[index].seat is seat:
                return index
        return None

    def on_lead(self) -> Seat | None:
        """Law 41A: after the auction closes, the defender on declarer's left faces the opening
        lead; None before the auction closes, after a pass-out, and once a lead is faced."""
        declarer = self.declarer
        if self.status != BoardStatus.CLOSED or declarer is None or self.opening_lead is not None:
            return None
        return declarer.lho

    def replaceable(self) -> dict[Seat, Call]:
        """Law 25A (rubber 24): the calls their players may still replace as inadvertent, each
        seat's last call until his partner calls over it (an irregular call pending or just
        cancelled included), until the opening lead is faced (2017 Law 17D1)."""
        if self.opening_lead is not None:
            return {}
        found: dict[Seat, Call] = {}
        for seat in Seat:
            index = self.last_call_of(seat)
            if index is not None and all(e.seat is not seat.partner
                                         for e in self.calls[index + 1:]):
                found[seat] = self.calls[index].call
        if self.pending is not None and self.pending.kind != Irregularity.CHANGE_OF_CALL:
            found[self.pending.offender] = self.pending.entry.call
        if self.inadmissible is not None:
            found[self.inadmissible.offender] = self.inadmissible.entry.call
        return found

    def named_strain(self, seat: Seat, strain: Strain) -> bool:
        """Whether `seat` named `strain` in a bid that stands (Law 26A1)."""
        return any(c.seat is seat and c.call.strain is strain for c in self.calls)

    @property
    def declarer(self) -> Seat | None:
        """Law 22B: the first player of the declaring side to name the final strain."""
        if self.last_bid is None or self.last_bid_seat is None \
                or self.status == BoardStatus.AUCTION:
            return None
        side, strain = self.last_bid_seat.side, self.last_bid.strain
        for entry in self.calls:
            if entry.call.strain is strain and entry.seat.side == side:
                return entry.seat
        return self.last_bid_seat

    def contract(self) -> dict[str, Any] | None:
        """Law 22B: the final bid is the contract (with any double or redouble, Law 19D)."""
        declarer = self.declarer
        if declarer is None or self.last_bid is None or self.last_bid.strain is None:
            return None
        return {"level": self.last_bid.level, "strain": self.last_bid.strain.name,
                "risk": self.risk, "declarer": declarer.name}

    # --- mutators used by the Laws ----------------------------------------------------------

    def alert(self, kind: Irregularity, law: str, seat: Seat | None, message: str,
              options: tuple[str, ...] = (), call: Call | None = None) -> None:
        self.alerts += (Alert(kind, law, seat, message, options, call, self.events),)

    def rectify(self, law: str, seat: Seat | None, message: str) -> None:
        self.rectifications += ({"law": law, "seat": seat.name if seat else None,
                                 "message": message, "event": self.events},)

    def cancel(self, entry: Standing, law: str, reason: str) -> None:
        """Record a call as cancelled (it never stands, or no longer does)."""
        self.cancelled += ({"seat": entry.seat.name, "call": str(entry.call), "law": law,
                            "reason": reason, "event": self.events},)

    def hold(self, kind: Irregularity, law: str, entry: Standing, at_turn: Seat) -> None:
        """Cancel an inadmissible call at once (its rectification follows), keeping what the
        board holds now so that Law 35 can take the rectification back."""
        self.inadmissible = Inadmissible(
            kind, entry, at_turn, tuple(self.must_pass.items()),
            tuple(self.may_not_double.items()), self.lead_penalties, self.correction,
            self.cancelled)
        self.cancel(entry, law, "inadmissible: cancelled at once")
        self.turn = at_turn

    def restore(self, held: Inadmissible) -> None:
        """The board as it was before `held` was cancelled and rectified (Law 35: no penalty);
        the call itself is neither standing nor cancelled until the caller says."""
        self.must_pass, self.may_not_double = dict(held.must_pass), dict(held.may_not_double)
        self.lead_penalties, self.correction = held.lead_penalties, held.correction
        self.cancelled = held.cancelled
        self.turn = held.at_turn

    def penalise_lead(self, offender: Seat, withdrawn: Call, source: str,
                      final: Call | None = None) -> None:
        """A lead penalty of Law 26 for `withdrawn`, once: a call that two Laws cancel (Laws 32
        and 36, say) gives one. `final`: the call substituted for it at that turn, if made."""
        if not any(p.offender is offender and p.withdrawn == withdrawn
                   for p in self.lead_penalties):
            self.lead_penalties += (LeadPenalty(offender, withdrawn, source, final),)

    def oblige(self, seat: Seat, obligation: PassObligation) -> None:
        """`seat` must pass; an obligation for every turn is never weakened to one turn."""
        if self.must_pass.get(seat) != PassObligation.EVERY_TURN:
            self.must_pass[seat] = obligation

    def note_ignored(self, reason: str) -> None:
        """An event the Laws give no effect (e.g. an option nobody holds)."""
        self.ignored += ({"event": self.events, "reason": reason},)

    def append(self, entry: Standing) -> bool:
        """The call stands and rotation moves on (Law 17C). Returns whether the auction would
        now end (Law 22: four passes, or three passes after a call); the Laws decide."""
        calls = self.calls
        calls.append(entry)
        call, seat = entry.call, entry.seat
        if call.is_pass:  # what `_track` does, inlined: this runs for every call
            self.trailing_passes += 1
        else:
            self._track(entry)

        if self.must_pass and self.must_pass.get(seat) == _NEXT_TURN:
            del self.must_pass[seat]
        if self.may_not_double and seat in self.may_not_double:
            del self.may_not_double[seat]
        correction = self.correction
        if correction is not None and correction.rho_acted is None \
                and seat is correction.offender.rho:
            self.correction = replace(correction, rho_acted=not call.is_pass)
        self.turn = seat.lho
        passes = self.trailing_passes
        return passes >= 3 and (passes >= 4 or len(calls) > 3)

    def _track(self, entry: Standing) -> None:
        call = entry.call
        if call.is_pass:
            self.trailing_passes += 1
            return
        self.trailing_passes = 0
        if call.is_bid:
            self.last_bid, self.last_bid_seat = call, entry.seat
            self.risk, self.risk_seat = "", None
        else:
            self.risk = "X" if call.kind is CallKind.DOUBLE else "XX"
            self.risk_seat = entry.seat

    def recompute(self) -> None:
        """Rebuild what is derived from `calls` after calls were cancelled."""
        self.last_bid = self.last_bid_seat = self.risk_seat = None
        self.risk, self.trailing_passes = "", 0
        for entry in self.calls:
            self._track(entry)
        self.turn = self.calls[-1].seat.lho if self.calls else self.dealer

    def truncate(self, index: int, law: str, reason: str) -> Seat:
        """Cancel the call at `index` and every call after it; returns the first caller."""
        removed = self.calls[index:]
        del self.calls[index:]
        for entry in removed:
            self.cancel(entry, law, reason)
        self.recompute()
        return removed[0].seat

    def close(self) -> None:
        """The auction is over: a contract (Law 22B) or a passed-out board (Law 22A)."""
        self.status = _CLOSED if self.last_bid is not None else _PASSED_OUT
        self.turn = None
        self.must_pass.clear()
        self.may_not_double.clear()
        self.correction = None

    def reopen(self) -> None:
        """Calls at the end were cancelled: the auction goes on."""
        self.status = BoardStatus.AUCTION
        self.opening_lead = None

    # --- output -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The public state of the board (see docs/api.md)."""
        declarer = self.declarer
        exposed = [{"seat": s.name, "card": str(c), "led": led} for s, c, led in self.exposed]
        defending = [declarer is not None and s.is_opponent_of(declarer)
                     for s, _, _ in self.exposed]
        d: dict[str, Any] = {
            "board": self.board,
            "dealer": self.dealer.name,
            "vulnerability": str(self.vulnerability),
            "ruleset": self.ruleset.value,
            "status": self.status,
            "turn": self.turn.name if self.turn else None,
            # what the player in turn may call now (Laws 18, 19; an obligation to pass):
            # a bidding box enables these
            "open_calls": [str(c) for c in self.legal_calls()] if self.status == BoardStatus.AUCTION
            else [],
            "calls": [standing_to_dict(c) for c in self.calls],
            "contract": self.contract(),
            "must_pass": {s.name: o for s, o in sorted(self.must_pass.items(),
                                                       key=lambda i: i[0].value)},
            "may_not_double": {s.name: law for s, law in self.may_not_double.items()},
            "pending": self.pending.to_dict() if self.pending else None,
            "alerts": [a.to_dict() for a in self.alerts],
            "rectifications": list(self.rectifications),
            "lead_restrictions": [p.to_dict(self) for p in self.lead_penalties]
            + [r for r in self.rulings if r["action"] == RulingAction.LEAD_RESTRICTION],
            "exposed_cards": exposed if self.status == BoardStatus.AUCTION else [],
            "penalty_cards": [e for e, defender in zip(exposed, defending, strict=True)
                              if defender],
            "alerted_calls": [standing_to_dict(c) for c in self.calls
                              if c.alert or c.explanation],
            "cancelled": list(self.cancelled),
            "rulings": list(self.rulings),
            "questions": list(self.questions),
            "explanations": list(self.explanations),
            "opening_lead": ({"seat": self.opening_lead[0].name,
                              "card": str(self.opening_lead[1])} if self.opening_lead else None),
            "auction_period_ended": self.opening_lead is not None and self.duplicate,
            "on_lead": None if (leader := self.on_lead()) is None else leader.name,  # Law 41A
            # Law 25A: seat → the call he may still replace as inadvertent (an undo button)
            "replaceable": {s.name: str(c) for s, c in self.replaceable().items()},
            "ignored": list(self.ignored),
            "events": self.events,
        }
        if self.deal is not None:
            d["deal"] = self.deal
        if self.players:
            d["players"] = {seat.name: name for seat, name in self.players}
        if self.started_ts is not None:
            d["started_ts"] = self.started_ts
        if self.status == BoardStatus.PASSED_OUT and not self.duplicate:
            d["next_dealer"] = self.dealer.lho.name  # rubber Law 22(a)
        return d

"""The state of one board: the calls that stand, whose turn it is, obligations and alerts.

This module knows rotation (Law 17), sufficiency (Law 18), the legality of doubles and
redoubles (Law 19), the end of the auction and the contract (Law 22). It knows nothing of
irregularities: `shared.laws` applies those, through the few mutators here. What the Laws
keep on a board (alerts, the pending call, lead penalties …) is in `shared.table.board_records`;
the map a reader gets, `to_dict()`, is built by `shared.table.board_output` to the shape of
`shared.table.board_view.BoardView`.

A `Board` is mutable so that a fold over a million events stays fast; the engine copies
it before changing it whenever a caller keeps the old state (`shared.table.engine.evolve`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from shared.calls import ALL_CALLS, PASS, Call, CallKind, Strain
from shared.cards import Card
from shared.events import BoardStarted, Ruleset
from shared.scoring import RubberState
from shared.seats import Seat, Vulnerability
from shared.table.board_output import view_of
from shared.table.board_records import (
    Alert,
    Correction,
    Inadmissible,
    LeadPenalty,
    Pending,
    Standing,
)
from shared.table.board_view import (
    BoardView,
    CancelledCallView,
    ContractView,
    ExplanationView,
    IgnoredView,
    QuestionView,
    RectificationView,
    RulingView,
)
from shared.table.play import Play
from shared.vocabulary import BoardStatus, Irregularity, PassObligation

# The words the fold reads on every event or board, as module globals: under Python 3.11 an
# enum class's attribute (`BoardStatus.CLOSED`) goes through `EnumType.__getattr__`'s hook,
# some thousand instructions a read.
_AUCTION, _CLOSED, _PASSED_OUT = BoardStatus.AUCTION, BoardStatus.CLOSED, BoardStatus.PASSED_OUT
_DUPLICATE = Ruleset.DUPLICATE
_NEXT_TURN, _EVERY_TURN = PassObligation.NEXT_TURN, PassObligation.EVERY_TURN


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
    cancelled: tuple[CancelledCallView, ...] = ()
    rectifications: tuple[RectificationView, ...] = ()
    rulings: tuple[RulingView, ...] = ()
    questions: tuple[QuestionView, ...] = ()  # Law 20F: who asked, about which call
    explanations: tuple[ExplanationView, ...] = ()  # the answers: which call, by whom
    ignored: tuple[IgnoredView, ...] = ()
    opening_lead: tuple[Seat, Card] | None = None
    play: Play | None = None  # the play of the hand, from the opening lead (or a result)
    rubber: RubberState | None = None  # rubber: the rubber as this deal began
    after_final_pass: Seat | None = None  # offender of the last call after the final pass
    # Law 34: the player the auction reverted to, who missed his turn, and how many calls stood
    # then; until a call stands after it, another player's pass is a "subsequent pass"
    reverted_to: tuple[Seat, int] | None = None
    seen: set[int] = field(default_factory=set)  # client_seq * 5 + sender (4: no seat)
    events: int = 0
    players: tuple[tuple[Seat, str], ...] = ()  # the names at the seats, as the director gave
    player_ids: tuple[tuple[Seat, str], ...] = ()  # their IDs, where given (the record's)
    # derived from `calls`, kept up to date by `_track` and rebuilt by `recompute`
    last_bid: Call | None = None
    last_bid_seat: Seat | None = None
    risk: str = ""
    risk_seat: Seat | None = None
    trailing_passes: int = 0

    @staticmethod
    def start(event: BoardStarted) -> Board:
        """A board before its first call: the dealer calls first (Law 17B). Written out field
        by field, as `copy` is: the dataclass's `__init__` costs twice as much, once a board."""
        new = Board.__new__(Board)
        new.board, new.dealer, new.vulnerability = event.board, event.dealer, event.vulnerability
        new.ruleset, new.deal, new.started_ts = event.ruleset, event.deal, event.ts
        new.status, new.turn = _AUCTION, event.dealer
        new.calls, new.must_pass, new.may_not_double, new.seen = [], {}, {}, set()
        new.pending = new.correction = new.inadmissible = new.opening_lead = new.play = None
        new.rubber = new.after_final_pass = new.last_bid = new.last_bid_seat = None
        new.reverted_to = None
        new.risk_seat = None
        new.alerts = new.lead_penalties = new.exposed = new.cancelled = new.rectifications = ()
        new.rulings = new.questions = new.explanations = new.ignored = new.players = ()
        new.player_ids = ()
        new.events = new.trailing_passes = 0
        new.risk = ""
        return new

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
        new.reverted_to = self.reverted_to
        new.play = None if self.play is None else self.play.copy()
        new.rubber = self.rubber
        new.seen = self.seen.copy()
        new.players, new.player_ids = self.players, self.player_ids
        new.events, new.last_bid, new.last_bid_seat = self.events, self.last_bid, \
            self.last_bid_seat
        new.risk, new.risk_seat = self.risk, self.risk_seat
        new.trailing_passes = self.trailing_passes
        return new

    @property
    def duplicate(self) -> bool:
        return self.ruleset is _DUPLICATE

    @property
    def auction_period_over(self) -> bool:
        """Duplicate Law 17E (2017 Law 17D): the auction period ends when all four players
        pass, or when the opening lead is faced after the auction."""
        return self.status is _PASSED_OUT or self.opening_lead is not None

    @property
    def period_over(self) -> bool:
        """The board is over: passed out (Law 22A), or its play period has ended (the
        thirteenth trick, a claim agreed or ruled, a result recorded: Laws 44, 69, 70, 79A).
        A round's next board starts then."""
        if self.status is _PASSED_OUT:
            return True
        play = self.play
        return play is not None and play.ended is not None

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
        if self.status is not _CLOSED or declarer is None or self.opening_lead is not None:
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
        """Law 22B: the first player of the declaring side to name the final strain; once
        the play begins, the play's (Law 54A: he may have become dummy, his partner
        declarer)."""
        if self.play is not None:
            return self.play.declarer
        if self.last_bid is None or self.last_bid_seat is None \
                or self.status is _AUCTION:
            return None
        side, strain = self.last_bid_seat.index % 2, self.last_bid.strain
        for entry in self.calls:
            if entry.call.strain is strain and entry.seat.index % 2 == side:
                return entry.seat
        return self.last_bid_seat

    def contract(self) -> ContractView | None:
        """Law 22B: the final bid is the contract (with any double or redouble, Law 19D)."""
        declarer = self.declarer
        if declarer is None or self.last_bid is None or self.last_bid.strain is None:
            return None
        return {"level": self.last_bid.level, "strain": self.last_bid.strain.name,
                "risk": self.risk, "declarer": declarer.letter}

    # --- mutators used by the Laws ----------------------------------------------------------

    def alert(self, kind: Irregularity, law: str, seat: Seat | None, message: str,
              options: tuple[str, ...] = (), call: Call | None = None) -> None:
        self.alerts += (Alert(kind, law, seat, message, options, call, self.events),)

    def rectify(self, law: str, seat: Seat | None, message: str) -> None:
        rectification: RectificationView = {"law": law, "seat": seat.name if seat else None,
                                            "message": message, "event": self.events}
        self.rectifications += (rectification,)

    def cancel(self, entry: Standing, law: str, reason: str) -> None:
        """Record a call as cancelled (it never stands, or no longer does)."""
        cancelled: CancelledCallView = {"seat": entry.seat.name, "call": str(entry.call),
                                        "law": law, "reason": reason, "event": self.events}
        self.cancelled += (cancelled,)

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
        if self.must_pass.get(seat) != _EVERY_TURN:
            self.must_pass[seat] = obligation

    def note_ignored(self, reason: str) -> None:
        """An event the Laws give no effect (e.g. an option nobody holds)."""
        ignored: IgnoredView = {"event": self.events, "reason": reason}
        self.ignored += (ignored,)

    def append(self, entry: Standing) -> bool:
        """The call stands and rotation moves on (Law 17C). Returns whether the auction would
        now end (Law 22: four passes, or three passes after a call); the Laws decide."""
        calls = self.calls
        calls.append(entry)
        call, seat = entry.call, entry.seat
        if call.is_pass:  # what `_track` does, inlined: this runs for every call
            self.trailing_passes += 1
        else:
            self.trailing_passes = 0
            if call.is_bid:
                self.last_bid, self.last_bid_seat = call, seat
                self.risk, self.risk_seat = "", None
            else:
                self.risk = "X" if call.kind is CallKind.DOUBLE else "XX"
                self.risk_seat = seat

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
        self.status = _AUCTION
        self.opening_lead = self.play = None

    # --- output -----------------------------------------------------------------------------

    def to_dict(self) -> BoardView:
        """The public state of the board (see docs/api.md, and `shared.table.board_view`)."""
        return view_of(self)

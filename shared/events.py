"""The table events: everything that happens at a table, as immutable records.

Events are named in the past tense and carry no behaviour; the engine folds them.
Producers may stamp `id`, `ts` (ms since the epoch) and `client_seq`; the engine only
uses `client_seq`, to make retries safe (a repeated sender and `client_seq` on the same
board changes nothing).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias, get_args

from shared.calls import Call
from shared.cards import Card
from shared.seats import Seat, Vulnerability
from shared.vocabulary import LeadOption, LeadRestriction, PassObligation, PlayOption


class EventType(enum.StrEnum):
    """Every event type, as an event map's `type` spells it (docs/api.md: the event schema)."""

    BOARD_STARTED = "board_started"
    ROUND_STARTED = "round_started"
    ROUND_EXTENDED = "round_extended"
    ROUND_ENDED = "round_ended"
    TABLE_HELD = "table_held"
    PLAYERS_NAMED = "players_named"
    SUBSTITUTE_SEATED = "substitute_seated"
    SUBSTITUTE_LEFT = "substitute_left"
    CALL = "call"
    OPTION = "option"
    CARD_EXPOSED = "card_exposed"
    CALL_CHANGED = "call_changed"
    OPENING_LEAD = "opening_lead"
    CARD_PLAYED = "card_played"
    CLAIM = "claim"
    CLAIM_RESPONSE = "claim_response"
    LEAD_OPTION = "lead_option"
    HAND_FACED = "hand_faced"
    PENALTY_CARD_NAMED = "penalty_card_named"
    PLAY_OPTION = "play_option"
    RESULT_RECORDED = "result_recorded"
    QUESTION = "question"
    EXPLANATION = "explanation"
    RULING = "ruling"


class Sender(enum.StrEnum):
    """Who sends an event of a type to a table (the gateway's check of authority)."""

    TABLE = "table"  # the table's course: boards, rounds, players (the director's routes)
    SEAT = "seat"  # a player, from his seat (or the table's operator, for any seat)
    DECLARER = "declarer"  # a seat, declarer alone once the contract stands (his options)
    DIRECTOR = "director"  # the director's rulings


def wire(*, minimum: int = 0, maximum: int | None = None, suit: bool = False,
         if_true: bool = False) -> dict[str, Any]:
    """A field's rules in the event schema, past its type (`shared.codec_derive` reads them): a
    number's bounds, a text that is a suit (S, H, D, C; written upper case), a flag written
    only when true."""
    return {"minimum": minimum, "maximum": maximum, "suit": suit, "if_true": if_true}


class Ruleset(enum.StrEnum):
    """Which text of the Laws governs a board."""

    DUPLICATE = "duplicate"
    RUBBER = "rubber"


@dataclass(frozen=True, slots=True, kw_only=True)
class Stamped:
    """What a producer may stamp on any event: an `id`, a time `ts` (ms since the epoch) and
    the sender's `client_seq`. The engine reads only `client_seq` (retries)."""

    TYPE: ClassVar[EventType]  # each event class's own: its type, and who sends it
    SENDER: ClassVar[Sender]

    id: str | None = None
    ts: int | None = None
    client_seq: int | None = None


@dataclass(frozen=True, slots=True)
class BoardStarted(Stamped):
    """A new board begins: the dealer makes the first call (Law 17B)."""

    TYPE = EventType.BOARD_STARTED
    SENDER = Sender.TABLE
    board: int = field(metadata=wire(minimum=1))
    dealer: Seat
    vulnerability: Vulnerability
    ruleset: Ruleset = Ruleset.DUPLICATE
    deal: str | None = None


@dataclass(frozen=True, slots=True)
class RoundStarted(Stamped):
    """The director starts a round at the table: its `boards`, played one after the other.
    The first starts at once if no board is in progress (or the one in progress is over); each
    of the others starts by itself when the auction period of the one before ends (duplicate
    Law 17E, 2017 Law 17D: a pass-out, or the opening lead faced)."""

    TYPE = EventType.ROUND_STARTED
    SENDER = Sender.TABLE
    round: int
    boards: tuple[BoardStarted, ...]
    ends_at: int | None = None  # the round's end by the clock (ms since the epoch), if timed


@dataclass(frozen=True, slots=True)
class RoundExtended(Stamped):
    """The director moves the end of the round in progress (`ends_at`, ms since the epoch):
    more time, or less; or holds the clock (`held`: the round does not end by itself, and
    `ends_at` is now plus the time it had left) (the tournament's clock: docs/scoring.md)."""

    TYPE = EventType.ROUND_EXTENDED
    SENDER = Sender.TABLE
    round: int = field(metadata=wire(minimum=1))
    ends_at: int = field(metadata=wire(minimum=0))
    held: bool = field(default=False, metadata=wire(if_true=True))


@dataclass(frozen=True, slots=True)
class RoundEnded(Stamped):
    """The round's time is up (or the director ends it): its boards not started are dropped,
    and the board in progress, unfinished, is left as it stands (its score is the Director's,
    by rule: Law 12C2); the next round's first board starts at once."""

    TYPE = EventType.ROUND_ENDED
    SENDER = Sender.TABLE
    round: int = field(metadata=wire(minimum=1))


@dataclass(frozen=True, slots=True)
class TableHeld(Stamped):
    """The director holds the table (`held`: its next board waits) or lets it go on."""

    TYPE = EventType.TABLE_HELD
    SENDER = Sender.TABLE
    held: bool


@dataclass(frozen=True, slots=True)
class PlayersNamed(Stamped):
    """The director names the players at seats (an empty name: nobody named there); the
    names stand from the board in progress on, until named again. `ids`, optional: the IDs
    of players named here (a federation number or an email), so that the table's record
    knows who sat where; a seat named again without one has none."""

    TYPE = EventType.PLAYERS_NAMED
    SENDER = Sender.TABLE
    players: tuple[tuple[Seat, str], ...]
    ids: tuple[tuple[Seat, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SubstituteSeated(Stamped):
    """A robot sits in for the player at `seat`, who had no open page at his turn for the
    Director's time (docs/operations.md, "Substitutes"): the seat's name on the board in
    progress and the boards to come reads "Robot (for …)" until the substitute leaves."""

    TYPE = EventType.SUBSTITUTE_SEATED
    SENDER = Sender.TABLE
    seat: Seat


@dataclass(frozen=True, slots=True)
class SubstituteLeft(Stamped):
    """The substitute at `seat` stands up (its player is back at his turn, or the Director
    ended the substitution): the boards started from now on carry the player's own name; the
    board in progress keeps the substitute's, who played part of it."""

    TYPE = EventType.SUBSTITUTE_LEFT
    SENDER = Sender.TABLE
    seat: Seat


@dataclass(frozen=True, slots=True)
class CallMade(Stamped):
    """A call made at the table, legal or not; `alert`/`explanation` are the caller's self-alert."""

    TYPE = EventType.CALL
    SENDER = Sender.SEAT
    seat: Seat
    call: Call
    alert: bool = field(default=False, metadata=wire(if_true=True))
    explanation: str | None = None


@dataclass(frozen=True, slots=True)
class OptionExercised(Stamped):
    """The opponent entitled to accept an irregular call accepts it or not (Laws 25, 27, 29, 32)."""

    TYPE = EventType.OPTION
    SENDER = Sender.SEAT
    seat: Seat
    accept: bool


@dataclass(frozen=True, slots=True)
class CardExposed(Stamped):
    """A card of `seat` was exposed during the auction (duplicate Law 24, rubber Law 23)."""

    TYPE = EventType.CARD_EXPOSED
    SENDER = Sender.SEAT
    seat: Seat
    card: Card
    led: bool = False


@dataclass(frozen=True, slots=True)
class CallChanged(Stamped):
    """`seat` substitutes `call` for his last call (duplicate Law 25, rubber Laws 24–25)."""

    TYPE = EventType.CALL_CHANGED
    SENDER = Sender.SEAT
    seat: Seat
    call: Call
    inadvertent: bool = False


@dataclass(frozen=True, slots=True)
class OpeningLeadFaced(Stamped):
    """The opening lead is faced: the auction period ends (2017 Law 17D1)."""

    TYPE = EventType.OPENING_LEAD
    SENDER = Sender.SEAT
    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed(Stamped):
    """A card played from `seat`'s hand: the hand it comes from, so declarer plays dummy's
    cards from dummy's seat (Law 45). The first card after the auction is the opening lead
    (Law 41A), which ends the auction period (2017 Law 17D1). `by`: the seat that sent it,
    when not `seat` (declarer, for dummy's card; the gateway stamps it from the token), so
    that a retry is known by its sender (`shared.table.engine.fold`)."""

    TYPE = EventType.CARD_PLAYED
    SENDER = Sender.SEAT
    seat: Seat
    card: Card
    by: Seat | None = None


@dataclass(frozen=True, slots=True)
class ClaimMade(Stamped):
    """`seat` claims (or concedes) that his side will win `tricks` of the tricks not yet
    completed, the one in progress included, with his `statement` of how (Law 68)."""

    TYPE = EventType.CLAIM
    SENDER = Sender.SEAT
    seat: Seat
    tricks: int = field(metadata=wire(maximum=13))
    statement: str = ""


@dataclass(frozen=True, slots=True)
class ClaimResponded(Stamped):
    """An opponent of the claimer acquiesces in the claim (`accept`) or disputes it (Law 69;
    a dispute goes to the Director, Law 70)."""

    TYPE = EventType.CLAIM_RESPONSE
    SENDER = Sender.SEAT
    seat: Seat
    accept: bool


@dataclass(frozen=True, slots=True)
class LeadOptionChosen(Stamped):
    """Declarer (`seat`) states his option on the lead of the partner of a defender with a
    major penalty card (Laws 50D2, 51B): require or prohibit the lead of a suit of the penalty
    cards (`suit`: which one, needed to require when there are several), or let it be free."""

    TYPE = EventType.LEAD_OPTION
    SENDER = Sender.DECLARER
    seat: Seat
    choice: LeadOption
    suit: str | None = field(default=None, metadata=wire(suit=True))


@dataclass(frozen=True, slots=True)
class PlayOptionChosen(Stamped):
    """Declarer (`seat`) selects his option on the play of the partner of a defender who
    played prematurely (Law 57A): the highest or the lowest card of the suit led, a card of
    another `suit` required or prohibited."""

    TYPE = EventType.PLAY_OPTION
    SENDER = Sender.DECLARER
    seat: Seat
    choice: PlayOption
    suit: str | None = field(default=None, metadata=wire(suit=True))


@dataclass(frozen=True, slots=True)
class PenaltyCardNamed(Stamped):
    """Declarer (`seat`) designates which of a defender's two or more penalty cards that can
    legally be played is played at his turn (Law 51A)."""

    TYPE = EventType.PENALTY_CARD_NAMED
    SENDER = Sender.DECLARER
    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class HandFaced(Stamped):
    """`seat` faces his hand during the play: declarer spreading his after a faced opening
    lead out of turn (Law 54A), or any player showing his cards, which is a claim (Laws 48B2,
    68A)."""

    TYPE = EventType.HAND_FACED
    SENDER = Sender.SEAT
    seat: Seat


@dataclass(frozen=True, slots=True)
class ResultRecorded(Stamped):
    """The tricks declarer won in all, agreed at the table (Law 79A: the number of tricks won
    is agreed before the four hands are returned to the board). Recorded by the table's
    operator or the Director (`seat` None), it stands; sent from a `seat`, it is that seat's
    proposal, which the other side must agree to: the claim of the tricks it leaves to be won
    (Laws 68, 69A)."""

    TYPE = EventType.RESULT_RECORDED
    SENDER = Sender.SEAT
    tricks: int = field(metadata=wire(maximum=13))
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class ExplanationRequested(Stamped):
    """`seat` asks for an explanation of the opponents' auction, or of the call at `index` of
    the calls that stand (Law 20F; rubber Law 20)."""

    TYPE = EventType.QUESTION
    SENDER = Sender.SEAT
    seat: Seat
    index: int | None = None


@dataclass(frozen=True, slots=True)
class CallExplained(Stamped):
    """`seat` explains the call at `index`: the caller himself (online self-alert) or his
    partner (at the table, Law 20F1). `own`: the sender says it is his own call (a seat
    online: the gateway sets it), and the explanation counts only if it is."""

    TYPE = EventType.EXPLANATION
    SENDER = Sender.SEAT
    seat: Seat
    index: int
    explanation: str
    own: bool = field(default=False, metadata=wire(if_true=True))


class RulingAction(enum.StrEnum):
    """What a Director's ruling does."""

    CANCEL_CALL = "cancel_call"  # Law 17D: a call made on cards from a wrong board
    ALLOW_CHANGE = "allow_change"  # Law 21B: a change of call after misinformation
    SET_PASS_OBLIGATION = "set_pass_obligation"
    LIFT_PASS_OBLIGATION = "lift_pass_obligation"  # an obligation applied in error (not Law 23)
    LEAD_RESTRICTION = "lead_restriction"  # Law 26
    ADJUSTED_SCORE = "adjusted_score"  # Laws 23, 27B1(b), 40C …
    TRICKS = "tricks"  # Laws 64C, 69B, 70, 71: the tricks declarer wins, the play ends


@dataclass(frozen=True, slots=True)
class RulingGiven(Stamped):
    """A Director's ruling on what needs judgement; the fold applies it mechanically.

    - `cancel_call`: `seat` (his last call) or `index` (of the calls that stand): that call and
      all after it are cancelled and the auction reverts to its caller (Law 17D).
    - `allow_change`: `seat` may change his last call; it and any later call are cancelled and
      the auction reverts to him (Law 21B1; his LHO may then change his call, 21B2).
    - `set_pass_obligation`: `seat` must pass, `obligation` `next_turn` or `every_turn`.
    - `lift_pass_obligation`: `seat` is freed from an obligation to pass (and from one not to
      double), whatever imposed it: to correct one applied in error. Law 23 lifts none: the
      enforced pass stands and the Director may give an `adjusted_score` afterwards.
    - `lead_restriction`: `seat` must (`restriction` `require`) or must not (`prohibit`) lead
      `suit` at his first turn to lead (Law 26).
    - `adjusted_score`: `score`, e.g. `"NS 420"`, `"A-/A+"` (Laws 23, 27B1(b), 40C).
    - `tricks`: declarer wins `tricks` tricks in all and the play ends: a disputed claim
      (Laws 70, 71), a claim withdrawn from (69B), equity after a revoke (64C).
    """

    TYPE = EventType.RULING
    SENDER = Sender.DIRECTOR
    action: RulingAction
    law: str | None = None
    index: int | None = None
    obligation: PassObligation | None = None
    suit: str | None = field(default=None, metadata=wire(suit=True))
    restriction: LeadRestriction | None = None
    score: str | None = None
    tricks: int | None = field(default=None, metadata=wire(maximum=13))
    note: str | None = None
    seat: Seat | None = None  # last: the schema's maps have always written it last


Event: TypeAlias = (
    BoardStarted
    | RoundStarted
    | RoundExtended
    | RoundEnded
    | TableHeld
    | PlayersNamed
    | SubstituteSeated
    | SubstituteLeft
    | CallMade
    | OptionExercised
    | CardExposed
    | CallChanged
    | OpeningLeadFaced
    | CardPlayed
    | ClaimMade
    | ClaimResponded
    | LeadOptionChosen
    | HandFaced
    | PenaltyCardNamed
    | PlayOptionChosen
    | ResultRecorded
    | ExplanationRequested
    | CallExplained
    | RulingGiven
)
"""Every event; each class carries its `TYPE` and its `SENDER`, and its fields are its map's
(`shared.codec` derives the reader and writer of each from them)."""

EVENT_CLASSES: dict[EventType, type[Event]] = {cls.TYPE: cls for cls in get_args(Event)}
"""Each type's event class."""

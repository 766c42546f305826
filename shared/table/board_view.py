"""The state of a board as a reader gets it: the map `Board.to_dict()` builds (see docs/api.md),
key by key. The processor writes it to Redis, the store gives it back as this type, the
gateway shows it to each reader (`shared.table.visibility`) and OpenAPI shows this very
declaration (`services.gateway.http.state_models` builds the schema from it), the history carries
it after each event, the pages draw it.

A seat is its letter (`"N"`), a call its normal notation (`"1NT"`, `"P"`, `"X"`, `"XX"`), a card
suit then rank (`"HK"`), a Law its section in the board's ruleset (`"27B1(a)"`, rubber
`"27(a)"`). A key marked `NotRequired` is left out when there is nothing to say. The words are
the vocabulary's (`shared.vocabulary`), which are the strings they stand for. The string under
a key is its description in the schema; `OneOf`, `Between` and `Examples` name the values a
key holds.
"""

# No `from __future__ import annotations` here: under Python 3.11 a TypedDict sees
# `NotRequired` only in annotations it evaluates (`__required_keys__`, pydantic, the tests).
# `typing_extensions.TypedDict`: the one pydantic reads under Python 3.11 (the schema).
from dataclasses import dataclass
from typing import Annotated, Any, NotRequired

from typing_extensions import TypedDict

from shared.events import Ruleset, RulingAction
from shared.vocabulary import (
    BoardStatus,
    Irregularity,
    LeadOption,
    LeadRestriction,
    PassObligation,
)

Handler = Any  # pydantic's GetJsonSchemaHandler, named without importing it (a pure core)


@dataclass(frozen=True, slots=True)
class OneOf:
    """The strings a key may hold: its schema's `enum` (by the hook pydantic calls on an
    `Annotated` key's metadata; the core itself checks nothing with it)."""

    values: tuple[str, ...]

    def __get_pydantic_json_schema__(self, core: Any, handler: Handler) -> dict[str, Any]:
        return {**handler(core), "enum": list(self.values)}


@dataclass(frozen=True, slots=True)
class Between:
    """The bounds of a number a key holds: its schema's `minimum` and `maximum`."""

    low: int
    high: int

    def __get_pydantic_json_schema__(self, core: Any, handler: Handler) -> dict[str, Any]:
        return {**handler(core), "minimum": self.low, "maximum": self.high}


@dataclass(frozen=True, slots=True)
class Examples:
    """Values a key may hold, shown as its schema's `examples`."""

    values: tuple[str, ...]

    def __get_pydantic_json_schema__(self, core: Any, handler: Handler) -> dict[str, Any]:
        return {**handler(core), "examples": list(self.values)}


Seat = Annotated[str, OneOf(("N", "E", "S", "W"))]
Card = Annotated[str, Examples(("HK",))]
"""A card: suit then rank."""
Suit = Annotated[str, OneOf(("S", "H", "D", "C"))]
Side = Annotated[str, OneOf(("NS", "EW"))]
Vulnerability = Annotated[str, OneOf(("None", "NS", "EW", "Both"))]
PlayEnd = Annotated[str, OneOf(("tricks", "claim", "ruling", "recorded"))]


class CallView(TypedDict):
    """A call that stands (`calls`, `alerted_calls`)."""

    seat: Seat
    call: Annotated[str, Examples(("1NT", "P", "X", "XX"))]
    alert: NotRequired[bool]
    """the caller's self-alert (always true when there)"""
    explanation: NotRequired[str]
    """the caller's own explanation"""
    accepted: NotRequired[str]
    """the Law under which an irregular call was accepted or condoned"""
    skipped: NotRequired[list[Seat]]
    """the seats that lost their turn to it"""
    deemed: NotRequired[str]
    """the Law under which the pass is deemed made (Law 28A)"""


class ContractView(TypedDict):
    """The contract (Law 22B), with its double or redouble (Law 19D)."""

    level: Annotated[int, Between(1, 7)]
    strain: Annotated[str, OneOf(("C", "D", "H", "S", "NT"))]
    risk: Annotated[str, OneOf(("", "X", "XX"))]
    declarer: Seat


class PendingView(TypedDict):
    """The irregular call awaiting its option holder, the offender's LHO."""

    kind: Irregularity
    law: str
    offender: Seat
    call: str
    at_turn: Seat
    """whose turn it was when the call was made"""
    option_holder: Seat
    replaces: NotRequired[str]
    """a change of call (Law 25B): the call it replaces"""


class AlertView(TypedDict):
    """A director alert: the irregularity, its Law and the options open."""

    kind: Irregularity
    law: str
    seat: Seat | None
    message: str
    options: list[str]
    event: int
    """the board's `events` when it was raised"""
    call: NotRequired[str]


class RectificationView(TypedDict):
    """What the Laws applied, with the section."""

    law: str
    seat: Seat | None
    message: str
    event: int


class CancelledCallView(TypedDict):
    """A call that never stood, or no longer does."""

    seat: Seat
    call: str
    law: str
    reason: str
    event: int


class LeadPenaltyView(TypedDict):
    """A lead penalty of Law 26 for the offender's partner, should he become a defender."""

    player: Seat
    """the offender's partner"""
    offender: Seat
    withdrawn: str
    """the call withdrawn"""
    source: str
    """the Law that invoked Law 26"""
    law: str
    """26A1, 26A2 or 26B (rubber 26, 26(a), 26(b))"""
    suit: NotRequired[str]
    """26A2: the suit declarer may require or prohibit"""
    declarer_may: str | None
    """null: no restriction (the suit was named in the legal auction)"""
    applies: bool | None
    """null while the auction goes on"""


class RulingView(TypedDict):
    """A Director's ruling, as the board records it (`shared.events.RulingGiven`)."""

    action: RulingAction
    law: str | None
    event: int
    index: NotRequired[int]
    obligation: NotRequired[PassObligation]
    suit: NotRequired[str]
    restriction: NotRequired[LeadRestriction]
    score: NotRequired[str]
    tricks: NotRequired[int]
    """a `tricks` ruling: declarer's tricks in all"""
    note: NotRequired[str]
    seat: NotRequired[Seat]


class ExposedCardView(TypedDict):
    """A card face up during the auction (Law 24), or a defender's penalty card after it."""

    seat: Seat
    card: Card
    led: bool
    minor: NotRequired[bool]
    """a minor penalty card (Law 50B); absent: major"""


class OpeningLeadView(TypedDict):
    seat: Seat
    card: str


class QuestionView(TypedDict):
    """A question about the opponents' auction, or the call at `index` (Law 20F)."""

    seat: Seat
    index: int | None
    in_turn: bool
    event: int


class ExplanationView(TypedDict):
    """An explanation of the call at `index`, by its `caller` or his partner (Law 20F1)."""

    index: int
    caller: Seat
    seat: Seat
    explanation: str
    event: int


class IgnoredView(TypedDict):
    """An event the Laws give no effect, and why."""

    event: int
    reason: str


class PlayedCardView(TypedDict):
    """A card played to a trick, from `seat`'s hand (dummy's played by declarer, Law 45)."""

    seat: Seat
    """the hand it comes from (dummy's: declarer plays it)"""
    card: Card


class TrickView(TypedDict):
    """A trick: who led, the cards in order; `winner` once it is complete (Law 44)."""

    leader: Seat
    cards: list[PlayedCardView]
    """in the order played"""
    winner: Seat | None
    """once complete (Law 44)"""


class ClaimView(TypedDict):
    """A claim or concession awaiting its answers, or disputed (Laws 68–70)."""

    seat: Seat
    tricks: Annotated[int, Between(0, 13)]
    """of the `remaining` tricks, the claimer's side's"""
    remaining: Annotated[int, Between(1, 13)]
    statement: str
    answers: dict[Seat, bool]
    """seat → acquiesced (Law 69A)"""
    disputed: bool
    awaited: list[Seat]
    """the seats whose answer agrees it, not yet given (Law 69A: both defenders for declarer's
    side, declarer for a defender's; dummy none, Law 43A); empty once disputed
    (`shared.table.claim_answers`)"""
    may_object: Seat | None
    """the partner of a defender who concedes a trick, who may object (Law 68B2: then play
    continues); null for any other claim"""


class RevokeView(TypedDict):
    """A revoke (Law 61): the trick (1-based), the hand, the card; established (Law 63),
    corrected (Law 62)."""

    seat: Seat
    trick: Annotated[int, Between(1, 13)]
    card: str
    established: bool
    """Law 63A"""
    corrected: bool
    """Law 62"""


class HeldAnswerView(TypedDict):
    seat: Seat
    """the defender not next in turn to the lead"""
    accept: bool


class LeadOutOfTurnView(TypedDict):
    """A lead out of turn faced, awaiting the option of those who may accept it (53–56)."""

    seat: Seat
    card: str
    law: str
    option_holders: list[Seat]
    held: NotRequired[HeldAnswerView]
    """Law 55A: the answer of the defender not next in turn, held until the player next in
    turn (who prevails) answers or plays, or another card comes"""


class LeadOptionsView(TypedDict):
    """Declarer's options on the lead of `seat`, whose partner has major penalty cards in
    `suits` (Laws 50D2, 51B): `choice` null until declarer states it (`lead_option`), then
    `require` (the suit in `chosen`, for this lead) or `prohibit` (while he keeps the lead)."""

    seat: Seat
    suits: list[Suit]
    choice: LeadOption | None
    """null: declarer's `lead_option` awaited"""
    chosen: list[Suit]


class PartnerOptionView(TypedDict):
    """Law 57A: the offender's partner (`seat`) and declarer's option on his play to the
    trick: `choice` null until selected, then highest, lowest, require or prohibit (`suit`)."""

    seat: Seat
    """the partner of the defender who played prematurely"""
    choice: Annotated[str, OneOf(("highest", "lowest", "require", "prohibit"))] | None
    """null: declarer's `play_option` awaited (Law 57A)"""
    suit: Suit | None


class PlayView(TypedDict):
    """The play of the hand (from the opening lead, or a result recorded)."""

    declarer: Seat
    dummy: Seat
    trump: Suit | None
    """null: no trump"""
    tricks: list[TrickView]
    """the completed ones, then the one in progress"""
    turn: Seat | None
    """the hand whose card is due (dummy's: declarer plays it, Law 45)"""
    won: dict[Side, int]
    """NS, EW → tricks won so far"""
    claim: ClaimView | None
    lead_out_of_turn: LeadOutOfTurnView | None
    lead_options: LeadOptionsView | None
    """Laws 50D2, 51B"""
    revokes: list[RevokeView]
    ended: PlayEnd | None
    """how the play period ended"""
    faced: list[Seat]
    """the hands faced in the play, seen by all (Laws 54A, 68A)"""
    partner_option: PartnerOptionView | None
    """Law 57A: declarer's option on the partner's play to the trick"""
    designated: PlayedCardView | None
    """the penalty card declarer named to be played at its holder's turn (Law 51A)"""
    waiting: list[PlayedCardView]
    """premature cards that stand, each to go to the trick at its hand's turn (Laws 57C3,
    57D, 54B2)"""
    inspect_last: list[Seat]
    """the seats that may see the last completed trick now (Law 66A: declarer and each
    defender until his side plays to the next, not dummy; 66D: all four once play has ceased;
    `shared.table.last_trick`)"""


class PlayableView(TypedDict):
    """The hand whose card is due and the cards it may play now, as the fold takes them as
    regular (`shared.table.playable`: Laws 44C, 50C–D, 51A, 26, 57A); none while declarer's
    option is awaited. A reader's view carries it only for a hand he plays from
    (`shared.table.visibility`)."""

    seat: Seat
    """the hand due (dummy's: declarer plays it, Law 45)"""
    cards: list[str]
    """the cards the fold takes as regular now; empty while declarer's option is awaited"""


class ResultView(TypedDict):
    """The board's result once its play ends: declarer's tricks (None: passed out) and the
    score from North–South's side (duplicate Law 77; rubber Laws 72–77)."""

    declarer_tricks: int | None
    """null: passed out"""
    score_ns: int
    """from North–South's side (duplicate Law 77; rubber Laws 72–77)"""


class ClockView(TypedDict):
    """The round's clock at the table (`clock` in a table's state), when the round is timed:
    its end, and whether it has come (the board in progress then stays unfinished)."""

    round: int
    ends_at: int
    """ms since the epoch"""
    over: bool
    """the round's time is up: no more calls or cards at this table until the next round"""
    held: bool
    """the Director holds the clock: the round does not end by itself"""


class BoardEndView(TypedDict):
    """The board before the one in progress, as it ended (`previous` in a table's state): a
    round's next board starts in the step that ends the one before, so its end is carried
    here until the next board ends."""

    board: int
    dealer: Seat
    vulnerability: Vulnerability
    status: BoardStatus
    """passed_out, or the status it had when it ended (or was left)"""
    contract: ContractView | None
    result: ResultView | None
    """null: the board was left unfinished (a board started by hand)"""
    ended: PlayEnd | None
    """how its play period ended"""
    last_trick: TrickView | None
    """the last trick completed (Law 66A: the last trick seen)"""
    players: NotRequired[dict[Seat, str]]
    """seat → name, once named"""
    deal: NotRequired[str]
    """its four hands (PBN), once it ended with a result at the table (Law 66D)"""


class BoardView(TypedDict):
    """The state of a board, as the reader may see it (docs/api.md, the state of a board;
    `Board.to_dict()`)."""

    board: int
    dealer: Seat
    vulnerability: Vulnerability
    ruleset: Ruleset
    status: BoardStatus
    turn: Seat | None
    """the seat due to call (while an option is open, its holder)"""
    open_calls: list[str]
    """what the player in turn may call now (Laws 18, 19; must pass)"""
    calls: list[CallView]
    """the calls that stand, in order"""
    contract: ContractView | None
    must_pass: dict[Seat, PassObligation]
    """seat → how long"""
    may_not_double: dict[Seat, str]
    """seat → the Law (30B2(b))"""
    pending: PendingView | None
    """the irregular call awaiting its option holder, the offender's LHO"""
    alerts: list[AlertView]
    rectifications: list[RectificationView]
    lead_restrictions: list[LeadPenaltyView | RulingView]
    """Law 26's, and the Director's"""
    exposed_cards: list[ExposedCardView]
    penalty_cards: list[ExposedCardView]
    alerted_calls: list[CallView]
    cancelled: list[CancelledCallView]
    rulings: list[RulingView]
    questions: list[QuestionView]
    explanations: list[ExplanationView]
    opening_lead: OpeningLeadView | None
    auction_period_ended: bool
    """2017 Law 17D1 (duplicate)"""
    play: PlayView | None
    """null until the opening lead (or a result recorded) starts it"""
    result: ResultView | None
    """null until the play ends; passed out: no tricks, 0"""
    on_lead: Seat | None
    """Law 41A: the defender to face the opening lead"""
    replaceable: dict[Seat, str]
    """seat → the call he may still replace (Law 25A)"""
    ignored: list[IgnoredView]
    events: int
    """the events the board has folded"""
    deal: NotRequired[str | None]
    """PBN (a seat's: his own hand, and those shown); null: not for this reader yet (the
    vugraph delay)"""
    players: NotRequired[dict[Seat, str]]
    """seat → name, once named"""
    started_ts: NotRequired[int]
    """when the board started, ms since the epoch"""
    next_dealer: NotRequired[Seat]
    """rubber Law 22(a), after a passed-out deal"""
    previous: NotRequired[BoardEndView]
    """the board before, as it ended: its contract, result, score and last trick
    (`shared.table.board_end`)"""
    clock: NotRequired[ClockView]
    """the round's clock, when the tournament's round is timed"""
    playable: NotRequired[PlayableView]
    """the cards the hand due may play now (`shared.table.playable`); in a seat's view only for a
    hand he plays from (his own, dummy's for declarer)"""


class WithheldView(TypedDict):
    """What the public sees of a tournament's board some table of the movement has still to
    play (`withheld`): its tray and the table's names, and why."""

    board: int
    dealer: Seat
    vulnerability: Vulnerability
    ruleset: Ruleset
    players: NotRequired[dict[Seat, str]]
    """seat → name, once named"""
    clock: NotRequired[ClockView]
    """the round's clock, when timed (the round's time left tells nothing of the board)"""
    withheld: str
    """why: the board is still being played at other tables of the tournament"""

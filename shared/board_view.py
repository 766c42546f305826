"""The state of a board as a reader gets it: the map `Board.to_dict()` builds (see docs/api.md),
key by key. The processor writes it to Redis, the gateway shows it to each reader
(`services.gateway.views`, with `services.gateway.models.BoardState` as its mirror in OpenAPI),
the history carries it after each event, the pages draw it.

A seat is its letter (`"N"`), a call its normal notation (`"1NT"`, `"P"`, `"X"`, `"XX"`), a card
suit then rank (`"HK"`), a Law its section in the board's ruleset (`"27B1(a)"`, rubber
`"27(a)"`). A key marked `NotRequired` is left out when there is nothing to say. The words are
the vocabulary's (`shared.vocabulary`), which are the strings they stand for.
"""

# No `from __future__ import annotations` here: under Python 3.11 a TypedDict sees
# `NotRequired` only in annotations it evaluates (`__required_keys__`, pydantic, the tests).
from typing import NotRequired, TypedDict

from shared.events import Ruleset, RulingAction
from shared.vocabulary import (
    BoardStatus,
    Irregularity,
    LeadOption,
    LeadRestriction,
    PassObligation,
)


class CallView(TypedDict):
    """A call that stands (`calls`, `alerted_calls`)."""

    seat: str
    call: str
    alert: NotRequired[bool]  # the caller's self-alert (always true when there)
    explanation: NotRequired[str]  # the caller's own explanation
    accepted: NotRequired[str]  # the Law under which an irregular call was accepted or condoned
    skipped: NotRequired[list[str]]  # the seats that lost their turn to it
    deemed: NotRequired[str]  # the Law under which the pass is deemed made (Law 28A)


class ContractView(TypedDict):
    """The contract (Law 22B), with its double or redouble (Law 19D)."""

    level: int
    strain: str  # C, D, H, S or NT
    risk: str  # "", "X" or "XX"
    declarer: str


class PendingView(TypedDict):
    """The irregular call awaiting its option holder, the offender's LHO."""

    kind: Irregularity
    law: str
    offender: str
    call: str
    at_turn: str  # whose turn it was when the call was made
    option_holder: str
    replaces: NotRequired[str]  # a change of call (Law 25B): the call it replaces


class AlertView(TypedDict):
    """A director alert: the irregularity, its Law and the options open."""

    kind: Irregularity
    law: str
    seat: str | None
    message: str
    options: list[str]
    event: int  # the board's `events` when it was raised
    call: NotRequired[str]


class RectificationView(TypedDict):
    """What the Laws applied, with the section."""

    law: str
    seat: str | None
    message: str
    event: int


class CancelledCallView(TypedDict):
    """A call that never stood, or no longer does."""

    seat: str
    call: str
    law: str
    reason: str
    event: int


class LeadPenaltyView(TypedDict):
    """A lead penalty of Law 26 for the offender's partner, should he become a defender."""

    player: str  # the offender's partner
    offender: str
    withdrawn: str  # the call withdrawn
    source: str  # the Law that invoked Law 26
    law: str  # 26A1, 26A2 or 26B (rubber 26, 26(a), 26(b))
    suit: NotRequired[str]  # the suit declarer may require or prohibit (26A2)
    declarer_may: str | None  # None: no restriction (the suit was named in the legal auction)
    applies: bool | None  # None while the auction goes on


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
    tricks: NotRequired[int]  # a `tricks` ruling: declarer's tricks in all
    note: NotRequired[str]
    seat: NotRequired[str]


class ExposedCardView(TypedDict):
    """A card face up during the auction (Law 24), or a defender's penalty card after it."""

    seat: str
    card: str
    led: bool
    minor: NotRequired[bool]  # a minor penalty card (Law 50B); absent: major


class OpeningLeadView(TypedDict):
    seat: str
    card: str


class QuestionView(TypedDict):
    """A question about the opponents' auction, or the call at `index` (Law 20F)."""

    seat: str
    index: int | None
    in_turn: bool
    event: int


class ExplanationView(TypedDict):
    """An explanation of the call at `index`, by its `caller` or his partner (Law 20F1)."""

    index: int
    caller: str
    seat: str
    explanation: str
    event: int


class IgnoredView(TypedDict):
    """An event the Laws give no effect, and why."""

    event: int
    reason: str


class PlayedCardView(TypedDict):
    """A card played to a trick, from `seat`'s hand (dummy's played by declarer, Law 45)."""

    seat: str
    card: str


class TrickView(TypedDict):
    """A trick: who led, the cards in order; `winner` once it is complete (Law 44)."""

    leader: str
    cards: list[PlayedCardView]
    winner: str | None


class ClaimView(TypedDict):
    """A claim or concession awaiting its answers, or disputed (Laws 68–70)."""

    seat: str
    tricks: int  # of the `remaining` tricks, the claimer's side's
    remaining: int
    statement: str
    answers: dict[str, bool]  # seat → acquiesced
    disputed: bool


class RevokeView(TypedDict):
    """A revoke (Law 61): the trick (1-based), the hand, the card; established (Law 63),
    corrected (Law 62)."""

    seat: str
    trick: int
    card: str
    established: bool
    corrected: bool


class HeldAnswerView(TypedDict):
    seat: str
    accept: bool


class LeadOutOfTurnView(TypedDict):
    """A lead out of turn faced, awaiting the option of those who may accept it (53–56)."""

    seat: str
    card: str
    law: str
    option_holders: list[str]
    # Law 55A: the answer of the defender not next in turn, held until the player next in turn
    # (who prevails) answers or plays, or another card comes
    held: NotRequired[HeldAnswerView]


class LeadOptionsView(TypedDict):
    """Declarer's options on the lead of `seat`, whose partner has major penalty cards in
    `suits` (Laws 50D2, 51B): `choice` null until declarer states it (`lead_option`), then
    `require` (the suit in `chosen`, for this lead) or `prohibit` (while he keeps the lead)."""

    seat: str
    suits: list[str]
    choice: LeadOption | None
    chosen: list[str]


class PartnerOptionView(TypedDict):
    """Law 57A: the offender's partner (`seat`) and declarer's option on his play to the
    trick: `choice` null until selected, then highest, lowest, require or prohibit (`suit`)."""

    seat: str
    choice: str | None
    suit: str | None


class PlayView(TypedDict):
    """The play of the hand (from the opening lead, or a result recorded)."""

    declarer: str
    dummy: str
    trump: str | None  # S, H, D, C; None at no trump
    tricks: list[TrickView]  # the completed ones, then the one in progress
    turn: str | None  # the hand whose card is due (dummy's: declarer plays it, Law 45)
    won: dict[str, int]  # NS, EW → tricks won so far
    claim: ClaimView | None
    lead_out_of_turn: LeadOutOfTurnView | None
    lead_options: LeadOptionsView | None  # Laws 50D2, 51B
    revokes: list[RevokeView]
    ended: str | None  # tricks, claim, ruling or recorded: how the play period ended
    faced: list[str]  # the hands faced in the play, seen by all (Laws 54A, 68A)
    partner_option: PartnerOptionView | None  # Law 57A: declarer's option on the partner
    designated: PlayedCardView | None  # the penalty card declarer named to be played (51A)
    # premature cards that stand, each to go to the trick at its hand's turn (57C3, 57D, 54B2)
    waiting: list[PlayedCardView]


class PlayableView(TypedDict):
    """The hand whose card is due and the cards it may play now, as the fold takes them as
    regular (`shared.playable`: Laws 44C, 50C–D, 51A, 26, 57A); none while declarer's option
    is awaited. A reader's view carries it only for a hand he plays from (`shared.visibility`)."""

    seat: str
    cards: list[str]


class ResultView(TypedDict):
    """The board's result once its play ends: declarer's tricks (None: passed out) and the
    score from North–South's side (duplicate Law 77; rubber Laws 72–77)."""

    declarer_tricks: int | None
    score_ns: int


class BoardEndView(TypedDict):
    """The board before the one in progress, as it ended (`previous` in a table's state)."""

    board: int
    dealer: str
    vulnerability: str
    status: BoardStatus  # passed_out, or the status it had when it ended (or was left)
    contract: ContractView | None
    result: ResultView | None  # None: the board was left unfinished (a board started by hand)
    ended: str | None  # how its play period ended: tricks, claim, ruling or recorded
    last_trick: TrickView | None  # the last trick completed (Law 66A: the last trick seen)
    players: NotRequired[dict[str, str]]


class BoardView(TypedDict):
    """The state of one board, as `Board.to_dict()` gives it (docs/api.md, the state of a
    board)."""

    board: int
    dealer: str
    vulnerability: str  # None, NS, EW or Both
    ruleset: Ruleset
    status: BoardStatus
    turn: str | None  # the seat due to call (while an option is open, its holder)
    open_calls: list[str]  # what the player in turn may call now (Laws 18, 19; must pass)
    calls: list[CallView]
    contract: ContractView | None
    must_pass: dict[str, PassObligation]  # seat → how long
    may_not_double: dict[str, str]  # seat → the Law (30B2(b))
    pending: PendingView | None
    alerts: list[AlertView]
    rectifications: list[RectificationView]
    lead_restrictions: list[LeadPenaltyView | RulingView]  # Law 26, and the Director's
    exposed_cards: list[ExposedCardView]
    penalty_cards: list[ExposedCardView]
    alerted_calls: list[CallView]
    cancelled: list[CancelledCallView]
    rulings: list[RulingView]
    questions: list[QuestionView]
    explanations: list[ExplanationView]
    opening_lead: OpeningLeadView | None
    auction_period_ended: bool  # 2017 Law 17D1 (duplicate)
    play: PlayView | None  # None until the opening lead (or a result) starts it
    result: ResultView | None  # None until the play ends; passed out: no tricks, 0
    on_lead: str | None  # Law 41A
    replaceable: dict[str, str]  # seat → the call he may still replace (Law 25A)
    ignored: list[IgnoredView]
    events: int  # the events the board has folded
    deal: NotRequired[str | None]  # PBN; None: not for this reader yet (the gateway's view)
    players: NotRequired[dict[str, str]]  # seat → name, once named
    started_ts: NotRequired[int]  # when the board started, ms since the epoch
    next_dealer: NotRequired[str]  # rubber Law 22(a), after a passed-out deal
    previous: NotRequired[BoardEndView]  # the board before, as it ended (shared.board_end)
    playable: NotRequired[PlayableView]  # the cards the hand due may play (shared.playable)

"""The state a reader gets, as OpenAPI shows it: a board's (`BoardState`, the mirror of
`shared.board_view.BoardView` key by key), a table's history, a tournament's overview
(`shared.table_summary.TableSummary`, a line a table). `tests/test_board_state_model.py` holds
the mirror to the TypedDicts and to real states: a key added to the state and not here fails
it (`extra="forbid"`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.events import Ruleset, RulingAction
from shared.robot.seats import RobotStatus
from shared.vocabulary import (
    BoardStatus,
    Irregularity,
    LeadOption,
    LeadRestriction,
    PassObligation,
    TableStatus,
)

Seat = Literal["N", "E", "S", "W"]


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def omitted(description: str | None = None) -> Any:
    """A key the state leaves out when it has nothing to say (`NotRequired` in
    `shared.board_view`): not required, no default in the schema; the routes leave unset keys
    out (`response_model_exclude_unset`), so a key the state leaves out is absent from the
    answer, not null."""
    return Field(None, description=description, json_schema_extra=_no_default)


class View(BaseModel):
    """A part of a board's state: its keys exactly, no other (a key added to the state and
    not here fails validation, and the tests)."""

    model_config = ConfigDict(extra="forbid")


class CallState(View):
    seat: Seat
    call: str = Field(examples=["1NT", "P", "X", "XX"])
    alert: bool = omitted("the caller's self-alert")
    explanation: str = omitted("the caller's own explanation")
    accepted: str = omitted("the Law under which an irregular call was accepted or condoned")
    skipped: list[Seat] = omitted("the seats that lost their turn to it")
    deemed: str = omitted("the Law under which the pass is deemed made (Law 28A)")


class ContractState(View):
    level: int = Field(ge=1, le=7)
    strain: Literal["C", "D", "H", "S", "NT"]
    risk: Literal["", "X", "XX"]
    declarer: Seat


class PendingState(View):
    kind: Irregularity
    law: str
    offender: Seat
    call: str
    at_turn: Seat = Field(description="whose turn it was when the call was made")
    option_holder: Seat
    replaces: str = omitted("a change of call (Law 25B): the call it replaces")


class AlertState(View):
    kind: Irregularity
    law: str
    seat: Seat | None
    message: str
    options: list[str]
    event: int = Field(description="the board's `events` when it was raised")
    call: str = omitted()


class RectificationState(View):
    law: str
    seat: Seat | None
    message: str
    event: int


class CancelledCall(View):
    seat: Seat
    call: str
    law: str
    reason: str
    event: int


class LeadPenaltyState(View):
    """A lead penalty of Law 26 for the offender's partner, should he become a defender."""

    player: Seat
    offender: Seat
    withdrawn: str
    source: str = Field(description="the Law that invoked Law 26")
    law: str
    suit: str = omitted("26A2: the suit declarer may require or prohibit")
    declarer_may: str | None
    applies: bool | None = Field(description="null while the auction goes on")


class RulingState(View):
    action: RulingAction
    law: str | None
    event: int
    index: int = omitted()
    obligation: PassObligation = omitted()
    suit: str = omitted()
    restriction: LeadRestriction = omitted()
    score: str = omitted()
    tricks: int = omitted("a `tricks` ruling: declarer's tricks in all")
    note: str = omitted()
    seat: Seat = omitted()


class ExposedCard(View):
    seat: Seat
    card: str = Field(examples=["HK"])
    led: bool
    minor: bool = omitted("a minor penalty card (Law 50B); absent: major")


class OpeningLead(View):
    seat: Seat
    card: str


class Question(View):
    seat: Seat
    index: int | None
    in_turn: bool
    event: int


class Explanation(View):
    index: int
    caller: Seat
    seat: Seat
    explanation: str
    event: int


class Ignored(View):
    event: int
    reason: str


class PlayedCard(View):
    seat: Seat = Field(description="the hand it comes from (dummy's: declarer plays it)")
    card: str = Field(examples=["HK"])


class TrickState(View):
    leader: Seat
    cards: list[PlayedCard] = Field(description="in the order played")
    winner: Seat | None = Field(description="once complete (Law 44)")


class ClaimState(View):
    seat: Seat
    tricks: int = Field(ge=0, le=13, description="of the remaining, the claimer's side's")
    remaining: int = Field(ge=1, le=13)
    statement: str
    answers: dict[Seat, bool] = Field(description="seat → acquiesced (Law 69A)")
    disputed: bool


class RevokeState(View):
    seat: Seat
    trick: int = Field(ge=1, le=13)
    card: str
    established: bool = Field(description="Law 63A")
    corrected: bool = Field(description="Law 62")


class HeldAnswer(View):
    seat: Seat = Field(description="the defender not next in turn to the lead")
    accept: bool


class LeadOutOfTurn(View):
    seat: Seat
    card: str
    law: str
    option_holders: list[Seat]
    held: HeldAnswer = omitted("Law 55A: the answer of the defender not next in turn, which "
                               "applies unless the player next in turn chooses otherwise")


class LeadOptions(View):
    """Declarer's options on the lead of `seat`, whose partner has major penalty cards in
    `suits` (Laws 50D2, 51B)."""

    seat: Seat
    suits: list[Literal["S", "H", "D", "C"]]
    choice: LeadOption | None = Field(description="null: declarer's `lead_option` awaited")
    chosen: list[Literal["S", "H", "D", "C"]]


class PartnerOption(View):
    seat: Seat = Field(description="the partner of the defender who played prematurely")
    choice: Literal["highest", "lowest", "require", "prohibit"] | None = Field(
        description="null: declarer's `play_option` awaited (Law 57A)")
    suit: Literal["S", "H", "D", "C"] | None


class Playable(View):
    """The hand whose card is due and the cards it may play now (`shared.playable`)."""

    seat: Seat = Field(description="the hand due (dummy's: declarer plays it, Law 45)")
    cards: list[str] = Field(description="the cards the fold takes as regular now (Laws 44C, "
                             "50C-D, 51A, 26, 57A); empty while declarer's option is awaited")


class PlayState(View):
    """The play of the hand (from the opening lead, or a result recorded)."""

    declarer: Seat
    dummy: Seat
    trump: Literal["S", "H", "D", "C"] | None = Field(description="null: no trump")
    tricks: list[TrickState] = Field(description="the completed ones, then the one in "
                                     "progress")
    turn: Seat | None = Field(description="the hand whose card is due (dummy's: declarer "
                              "plays it, Law 45)")
    won: dict[Literal["NS", "EW"], int]
    claim: ClaimState | None
    lead_out_of_turn: LeadOutOfTurn | None
    lead_options: LeadOptions | None
    revokes: list[RevokeState]
    ended: Literal["tricks", "claim", "ruling", "recorded"] | None
    faced: list[Seat] = Field(description="the hands faced in the play, seen by all (Laws "
                              "54A, 68A)")
    partner_option: PartnerOption | None = Field(description="Law 57A: declarer's option on "
                                                 "the partner's play to the trick")
    designated: PlayedCard | None = Field(description="the penalty card declarer named to be "
                                          "played at its holder's turn (Law 51A)")
    waiting: list[PlayedCard] = Field(description="cards played to the trick in progress "
                                      "before their hand's turn that stand (Laws 57C3, 57D, "
                                      "54B2): each goes to the trick at its hand's turn")


class ResultState(View):
    declarer_tricks: int | None = Field(description="null: passed out")
    score_ns: int = Field(description="from North–South's side (duplicate Law 77; rubber "
                          "Laws 72–77)")


class BoardEnd(View):
    """The board before the one in progress, as it ended (`shared.board_view.BoardEndView`):
    a round's next board starts in the step that ends the one before, so its end is carried
    here until the next board ends."""

    board: int
    dealer: Seat
    vulnerability: Literal["None", "NS", "EW", "Both"]
    status: BoardStatus
    contract: ContractState | None
    result: ResultState | None = Field(description="null: left unfinished")
    ended: Literal["tricks", "claim", "ruling", "recorded"] | None
    last_trick: TrickState | None = Field(description="the last trick completed (Law 66A)")
    players: dict[Seat, str] = omitted("seat → name, once named")


class BoardState(View):
    """The state of a board, as the reader may see it (docs/api.md, the state of a board;
    `shared.board_view.BoardView`)."""

    board: int
    dealer: Seat
    vulnerability: Literal["None", "NS", "EW", "Both"]
    ruleset: Ruleset
    status: BoardStatus
    turn: Seat | None = Field(description="due to call (while an option is open, its holder)")
    open_calls: list[str] = Field(description="what the player in turn may call now")
    calls: list[CallState] = Field(description="the calls that stand, in order")
    contract: ContractState | None
    must_pass: dict[Seat, PassObligation]
    may_not_double: dict[Seat, str] = Field(description="seat → the Law (30B2(b))")
    pending: PendingState | None = Field(description="the irregular call awaiting its option "
                                         "holder, the offender's LHO")
    alerts: list[AlertState]
    rectifications: list[RectificationState]
    lead_restrictions: list[LeadPenaltyState | RulingState] = Field(
        description="Law 26's, and the Director's")
    exposed_cards: list[ExposedCard]
    penalty_cards: list[ExposedCard]
    alerted_calls: list[CallState]
    cancelled: list[CancelledCall]
    rulings: list[RulingState]
    questions: list[Question]
    explanations: list[Explanation]
    opening_lead: OpeningLead | None
    auction_period_ended: bool
    play: PlayState | None = Field(description="from the opening lead (or a result recorded)")
    result: ResultState | None = Field(description="null until the play ends")
    on_lead: Seat | None = Field(description="Law 41A: the defender to face the opening lead")
    replaceable: dict[Seat, str] = Field(description="seat → the call he may still replace "
                                         "(Law 25A)")
    ignored: list[Ignored]
    events: int = Field(description="the events the board has folded")
    deal: str | None = omitted("PBN (a seat's: his own hand); null: not for this reader yet "
                               "(the vugraph delay)")
    players: dict[Seat, str] = omitted("seat → name, once named")
    started_ts: int = omitted("when the board started, ms since the epoch")
    next_dealer: Seat = omitted("rubber Law 22(a), after a passed-out deal")
    previous: BoardEnd = omitted("the board before, as it ended: its contract, result, "
                                 "score and last trick")
    playable: Playable = omitted("the cards the hand due may play now; in a seat's view only "
                                 "for a hand he plays from (his own, dummy's for declarer)")


class WithheldBoard(View):
    """What the public sees of a tournament's board some table of the movement has still to
    play (`services.gateway.views.withheld`): its tray and the table's names, and why."""

    board: int
    dealer: Seat
    vulnerability: Literal["None", "NS", "EW", "Both"]
    ruleset: Ruleset
    players: dict[Seat, str] = omitted("seat → name, once named")
    withheld: str = Field(description="why: the board is still being played at other tables "
                          "of the tournament")


class HistoryEntry(View):
    offset: int
    board: int | None = Field(description="the board the event was folded into (null before "
                              "any board)")
    event: dict[str, Any] | None = Field(description="the event as the reader may see it "
                                         "(null: a record that is not an event)")
    alerts: list[dict[str, Any]] = Field(description="the director alerts it raised, as the "
                                         "reader's state of their board shows them; "
                                         "`in_play`: that board's play lasts")
    caller: Seat = omitted("an explanation: whose call it explains")
    state: BoardState = omitted("with states=true: the board just after it")


class History(View):
    """A table's history (format=json; `services.replay.history`)."""

    table: str
    board: int | None
    until: int | None
    version: int | None
    history: list[HistoryEntry]
    state: BoardState | WithheldBoard | None = Field(description="the board at the end")
    boards: list[int] = Field(description="the table's boards, in the order played")


class TableLine(View):
    """A table in the tournament's overview (`shared.table_summary.TableSummary`, and when
    its last event came)."""

    table: str
    board: int | None
    status: TableStatus
    turn: Seat | None
    round: int | None
    boards_left: int
    held: bool
    boards_finished: int
    alerts: int
    open_alerts: int
    last_ts: int | None
    idle_s: int | None
    robots: dict[Seat, RobotStatus] = Field(default_factory=dict, description="each seat a "
                                            "robot holds: connected, stalled (the table has "
                                            "waited for its call or card for long), or "
                                            "waiting for it")
    vugraph_match: bool | None = Field(None, description="the Director shows the table live "
                                       "to the public (a vugraph match); null: not known now")


class OverviewTotals(View):
    tables: int
    playing: int
    boards_finished: int
    alerts_raised: int
    alerts_open: int


class StandingLine(View):
    """An entrant near the top of its field (`shared.tournament_results.standings`): a pair's
    boards, points and percentage, or a team's matches, VPs and IMPs."""

    entrant: int
    name: str
    rank: int
    direction: Literal["NS", "EW"] | None = None
    boards: int | None = None
    points: float | None = None
    top: float | None = None
    percent: float | None = None
    matches: int | None = None
    vp: float | None = None
    imps: float | None = None


class StandingsField(View):
    direction: Literal["NS", "EW"] | None
    top: list[StandingLine]


class Standings(View):
    scoring: str
    complete: int = Field(description="boards every table of the movement has a result on")
    fields: list[StandingsField]


class Overview(View):
    tournament: str
    name: str
    now: int
    totals: OverviewTotals
    tables: list[TableLine]
    standings: Standings | None = Field(
        description="the top of each field's ranking (none: no entrants and movement)")

"""The gateway's request and response bodies, as OpenAPI shows them. An event's own syntax is
the event schema's (`shared.codec`); these models say what a client sends and gets. The state
a reader gets (a board's, a history's, a tournament's overview) is `state_models`'."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool, field_validator

from services.gateway.http.state_models import BoardView, Seat, WithheldView
from shared.codec import EVENT_ID, Sender, sent_by, unfit_text
from shared.events import Ruleset
from shared.ids import TABLE_ID
from shared.scores.vocabulary import Scoring, TeamScoring
from shared.tournament.entrants import MovementKind
from shared.tournament.session import MAX_BOARD
from shared.tournament.unfinished import TRICKS_LEFT
from shared.vocabulary import LeadRestriction, PassObligation


class TableCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: str = Field(pattern=f"^{TABLE_ID.pattern}$", description="1–63 letters, digits, - "
                       "or _")
    ruleset: Ruleset = Ruleset.DUPLICATE


class TableLinks(BaseModel):
    table: str
    seats: dict[Seat, str] = Field(description="each seat's token")
    spectator: str = Field(description="the spectators' token")
    links: dict[Seat, str] = Field(description="each seat's page, its token in the fragment "
                                   "(/seat#<token>), on this gateway")
    vugraph: str = Field(description="the table's spectator page (/vugraph#<spectator token>)")


class TableCreated(TableLinks):
    ruleset: Ruleset


class TableListed(BaseModel):
    table: str
    ruleset: Ruleset
    tournament: str | None = Field(description="the tournament it plays in, if any")


class TableList(BaseModel):
    tables: list[TableListed] = Field(description="by name")


class OperatorLink(BaseModel):
    """A table's operator token (a vugraph operator, a physical table's recorder) and his
    capture page."""

    table: str
    token: str = Field(description="reads the table (the whole board) and sends any seat's "
                       "events there, the seat in the body; no ruling, no other table")
    link: str = Field(description="the capture page, its token in the fragment "
                      "(/capture#<token>), on this gateway")


class BoardStart(BaseModel):
    """A new board at the table (`board_started`): dealer and vulnerability from the board
    number (16-board cycle) unless given."""

    model_config = ConfigDict(extra="forbid")
    board: int = Field(ge=1, le=MAX_BOARD)
    deal: str | None = Field(None, description="PBN, e.g. N:AKQ2.3.JT98.5432 …")
    dealer: str | None = Field(None, examples=["N"], description="N, E, S, W (or the "
                               "name); checked by the event schema")
    vulnerability: str | None = Field(None, examples=["None", "NS", "EW", "Both"],
                                      description="also All, Love, … as PBN writes it")
    id: str | None = Field(None, pattern=f"^{EVENT_ID.pattern}$")


class RoundStart(BaseModel):
    """A round at the table (`round_started`): its boards, played one after the other; each
    starts by itself when the auction period of the one before ends (Law 17E)."""

    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=10**4)
    boards: list[BoardStart] = Field(min_length=1, max_length=36)
    id: str | None = Field(None, pattern=f"^{EVENT_ID.pattern}$")


class Players(BaseModel):
    """Names at the seats (`players_named`): from the board in progress on; "" names
    nobody."""

    model_config = ConfigDict(extra="forbid")
    players: dict[str, str] = Field(examples=[{"N": "Ann", "S": "Bob"}], min_length=1,
                                    max_length=4)
    ids: dict[str, str] | None = Field(None, examples=[{"N": "EBU 12345"}], max_length=4)
    """The IDs of players named here (a federation number or an email): the Director's."""
    id: str | None = Field(None, pattern=f"^{EVENT_ID.pattern}$")


class Hold(BaseModel):
    """The director holds the table (`table_held`: its next board waits) or lets it go on."""

    model_config = ConfigDict(extra="forbid")
    held: bool
    id: str | None = Field(None, pattern=f"^{EVENT_ID.pattern}$")


class Accepted(BaseModel):
    offset: int = Field(description="the event's offset in the table's topic, acknowledged")


class Closed(BaseModel):
    closed: list[str] = Field(description="the tables closed: archived, their topics deleted")
    events: int = Field(description="the events archived (all the tables' records)")
    steps_s: dict[str, float] = Field(description="seconds each step of the close took "
                                      "(checked, closed, fenced, folded, archived, marked, "
                                      "deleted; a tournament's five more: its topic's); the "
                                      "steps already done before are left out")
    tournament: str | None = Field(None, description="the tournament whose topic was closed")
    tournament_events: int | None = Field(None, description="the tournament's own records "
                                          "archived (its creation, rounds, entrants, scores)")


SENT_TYPES: list[JsonValue] = [*sorted(sent_by(Sender.SEAT, Sender.DECLARER,
                                               Sender.DIRECTOR))]


class EventIn(BaseModel):
    """An event of the schema (docs/api.md), without `seat` from a seat: the seat comes from the
    token. Each type takes the fields the schema gives it."""

    model_config = ConfigDict(extra="allow")
    type: str = Field(json_schema_extra={"enum": SENT_TYPES},
                      description="the event schema's types a seat, the table's operator or "
                      "the director sends (`shared.codec`)")
    call: str | None = Field(None, examples=["1H", "P", "X"])
    alert: bool | None = None
    explanation: str | None = Field(None, max_length=2000)
    client_seq: int | None = Field(None, ge=0, description="the sender's number: a retry "
                                   "with the same number is folded once, answered with the "
                                   "first one's offset")
    id: str | None = Field(None, pattern=f"^{EVENT_ID.pattern}$")
    accept: bool | None = None
    card: str | None = Field(None, examples=["HK"])
    led: bool | None = None
    inadvertent: bool | None = None
    index: int | None = Field(None, ge=0)
    action: str | None = None
    seat: str | None = Field(None, examples=["S"], description="an operator's: the seat (a "
                             "result_recorded: none); a card played: the hand it comes from "
                             "(declarer plays dummy's)")
    by: str | None = Field(None, examples=["N"], description="a card played: who sent it, "
                           "when not its hand's seat (the operator's or the director's; a "
                           "seat's comes from its token)")
    tricks: int | None = Field(None, ge=0, le=13, description="a claim: of the tricks left, "
                               "the claimer's side's; a result: declarer's in all (from a "
                               "seat, a proposal the other side agrees to: Law 79A)")
    statement: str | None = Field(None, max_length=2000, description="a claim's line of play")
    choice: str | None = Field(None, examples=["require"], description="a lead_option: "
                               "require, prohibit or free (Laws 26, 50D2); a play_option: "
                               "highest, lowest, require or prohibit (Law 57A)")
    suit: str | None = Field(None, examples=["H"], description="S, H, D or C: the suit of "
                             "a lead_option or play_option, or of a lead_restriction ruling")
    law: str | None = Field(None, examples=["27B1(a)"], description="a ruling's Law")
    obligation: PassObligation | None = Field(None, description="a set_pass_obligation "
                                              "ruling's")
    restriction: LeadRestriction | None = Field(None, description="a lead_restriction "
                                                "ruling's")
    score: str | None = Field(None, examples=["NS 420", "A-/A+"], description="an "
                              "adjusted_score ruling's")
    note: str | None = Field(None, max_length=2000, description="a ruling's note")


class TableState(BaseModel):
    table: str
    version: int | None = Field(description="the offset folded")
    board: BoardView | WithheldView | None = Field(
        description="the board's state, as the reader may see it (docs/api.md: the state of a "
        "board); the public's of a tournament's board still in play elsewhere: withheld")


C1_CONTROLS = re.compile("[\x80-\x9f]")  # control characters too, past the event schema's


class MarkAlert(BaseModel):
    """The director has dealt with an alert (or, `handled: false`, has not after all)."""

    model_config = ConfigDict(extra="forbid")
    handled: StrictBool = True  # true or false, never "yes" or 1 taken for one
    note: str | None = Field(None, max_length=500, description="what he did, for the record")

    @field_validator("note")
    @classmethod
    def _fit_to_show(cls, note: str | None) -> str | None:
        if note is not None and (unfit_text(note) or C1_CONTROLS.search(note)):
            raise ValueError("a control character or a lone surrogate (a line break or a "
                             "tab is fine)")
        return note


class Health(BaseModel):
    status: Literal["ok", "unavailable"]
    kafka: Literal["ok", "unreachable", "not writable"]
    redis: Literal["ok", "unreachable"]


class Ready(BaseModel):
    ready: bool


TOURNAMENT_ID = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$"
TableName = Annotated[str, Field(pattern=f"^{TABLE_ID.pattern}$")]
PlayerName = Annotated[str, Field(max_length=64)]


class EntrantGiven(BaseModel):
    """A pair (its two players, NS or EW in that order) or a team (four or more players: its
    first two sit NS in the open room, the next two NS in the closed room)."""

    model_config = ConfigDict(extra="forbid")
    number: int | None = Field(None, description="its place in the list, from 1")
    name: str = Field("", max_length=200)
    players: list[PlayerName] = Field(default_factory=list, max_length=6)
    player_ids: list[PlayerName] | None = Field(
        None, max_length=6, examples=[["EBU 12345", "ann@example.org"]],
        description="each player's ID in the order of `players` (a federation number or an "
                    "email; \"\" for none): tells apart players of one name, in the exports")


class EntrantAdded(BaseModel):
    """An entrant added before the first round (`POST /api/tournaments/{t}/entrants`)."""

    number: int
    name: str
    players: list[str]
    added: bool = Field(description="false: the same entrant was there already")


class MovementGiven(BaseModel):
    """A movement: `mitchell`, `howell` or `swiss_pairs` (pairs; a Swiss pairs each round
    paired by the VPs so far, scored in IMPs to VPs), `teams` (a round robin of matches) or
    `swiss` (teams, each round paired by the VPs so far)."""

    model_config = ConfigDict(extra="forbid")
    kind: MovementKind
    boards_per_round: int = Field(ge=1, le=36)
    rounds: int | None = Field(None, ge=1, le=200, description="by default all the "
                               "movement's rounds (a Swiss, teams or pairs: required)")
    scoring: Scoring = Field(Scoring.MATCHPOINTS, description="a pairs event's scoring")
    minutes_per_board: float | None = Field(
        None, gt=0, le=60, examples=[7],
        description="the round's clock: a round lasts its boards × these minutes, then the "
                    "next round starts by itself (none: the Director starts each round)")
    arrow_switch: bool | int = Field(
        False, ge=0, le=200, description="a Mitchell's last rounds arrow-switched (one "
        "winner): true for the EBU's practice (the last round; the last two with rounds of at "
        "most two boards and eight rounds or more), or how many")
    team_scoring: TeamScoring = Field(
        TeamScoring.VP, description="a round robin of teams: `vp` (IMPs to VPs), "
        "`board_a_match` (1, ½, 0 a board) or `aggregate` (total points, Law 78C)")
    imps_to_vp: bool = Field(False, description="a pairs event scored in IMPs (`cross_imps` "
                             "or `butler`) ranked by VPs: each round's IMPs to VPs on the WBF "
                             "continuous scale")
    sections: int = Field(1, ge=1, le=26, description="a Mitchell or Howell in sections (A, "
                          "B, …: the entrants split in order, each section its own movement "
                          "at its own tables, all on the same boards), scored with a top "
                          "across the field and ranked over it and within each section")


class TournamentCreate(BaseModel):
    """A tournament (a session): its tables, each with its topic and tokens, and its deals.
    The same request again creates nothing and answers the same tables."""

    model_config = ConfigDict(extra="forbid")
    tournament: str = Field(pattern=TOURNAMENT_ID, description="1–40 letters, digits, - or _; "
                            "tables are named <tournament>-1, -2, … unless named")
    name: str = Field("", max_length=200, description="the event's name (PBN [Event])")
    tables: int | list[TableName] = Field(description="how many tables, or their names",
                                          examples=[120])
    ruleset: Ruleset = Ruleset.DUPLICATE
    players: dict[str, dict[Seat, PlayerName]] = Field(
        default_factory=dict, description="table → seat → name",
        examples=[{"spring-1": {"N": "Ann", "S": "Bob"}}])
    deals: str = Field(max_length=2 * 2**20, description="the deals: a PBN file as a dealing "
                       "program writes it ([Board], [Deal], and [Dealer], [Vulnerable] or "
                       "Law 2's)")
    site: str = Field("", max_length=200, description="PBN [Site]")
    date: str = Field("", pattern=r"^(\d{4}\.\d{2}\.\d{2})?$", description="PBN [Date], "
                      "YYYY.MM.DD")
    entrants: list[EntrantGiven] = Field(
        default_factory=list, max_length=4000, description="the pairs or teams, numbered 1, "
        "2, … in order",
        examples=[[{"name": "Ann & Bob", "players": ["Ann", "Bob"]}]])
    movement: MovementGiven | None = Field(None, description="how the entrants move; none: "
                                           "the director's own rounds")
    continues: str | None = Field(
        None, pattern=TOURNAMENT_ID, description="a multi-session event: the tournament (a "
        "pairs session scored the same way) this session continues; its results carry the "
        "totals over (docs/scoring.md)")
    session: str = Field("", max_length=100, examples=["Session 2"],
                         description="the session's name in a multi-session event")

    @field_validator("tables")
    @classmethod
    def _between_1_and_2000(cls, tables: int | list[str]) -> int | list[str]:
        count = tables if isinstance(tables, int) else len(tables)
        if not 1 <= count <= MAX_TABLES:
            raise ValueError(f"1 to {MAX_TABLES} tables")
        return tables


MAX_TABLES = 2000


class TournamentLinks(BaseModel):
    tournament: str
    name: str
    boards: list[int] = Field(description="the deals' board numbers")
    tables: list[TableLinks]
    vugraph: str = Field(description="the tournament's vugraph page (/vugraph#<token>): its "
                         "tables live, each as a spectator sees it; for the public")
    results: str = Field(description="the tournament's public results page "
                         "(/results#<tournament>): no token needed")


class TournamentCreated(TournamentLinks):
    created: bool = Field(description="false: the same request found the tournament")
    steps_s: dict[str, float] = Field(default_factory=dict, description="seconds each step "
                                      "of this request took, in order")


class TournamentRound(BaseModel):
    """A round: `boards` at every table, or the director's `movement` (table → boards; a table
    left out sits the round out). Each table's next boards start by themselves."""

    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1, le=10**4)
    boards: list[int] | None = Field(None, examples=[[1, 2, 3]], description="none when the "
                                     "tournament has a movement: it gives each table's")
    movement: dict[str, list[int]] | None = Field(None, examples=[{"spring-1": [1, 2, 3],
                                                                   "spring-2": [4, 5, 6]}])


class UnfinishedRule(BaseModel):
    """How a round's unfinished boards are scored (docs/scoring.md)."""

    model_config = ConfigDict(extra="forbid")
    tricks_left: int = Field(TRICKS_LEFT, ge=0, le=13, description="K: a board in the play "
                             "with at most this many tricks left gets the double-dummy result "
                             "from there")


class VugraphMatch(BaseModel):
    """The Director's setting for one table of a tournament: shown live to the public (a
    vugraph match: after the delay alone), or not (each board once every table has played
    it)."""

    model_config = ConfigDict(extra="forbid")
    on: bool


class VugraphMatchSet(BaseModel):
    tournament: str
    table: str
    on: bool


class RoundStarted(BaseModel):
    round: int
    tables: int = Field(description="tables the round was appended to (acknowledged)")
    steps_s: dict[str, float] = Field(default_factory=dict, description="seconds each step "
                                      "of this request took, in order")


class PlayerMove(BaseModel):
    """The Director moves a player by hand (a late change of partner): player `place` of
    entrant `entrant` sits from now on as player `to_place` of entrant `to_entrant`."""

    model_config = ConfigDict(extra="forbid")
    entrant: int = Field(ge=1)
    place: int = Field(ge=1)
    to_entrant: int = Field(ge=1)
    to_place: int = Field(ge=1)

"""The results document as a reader gets it (`shared.tournament.results.results`, GET
/api/tournaments/{t}/results): the entrants, the Director's scores, the rankings and the
travellers and scorecards (pairs) or matches (teams), and a continuing session's totals carried
over (`shared.tournament.carry_over`). The string under a key is its description in the
route's schema (`services.gateway.http.state_models` builds it from these TypedDicts, no key but
those declared: a key the document gains and no declaration names fails the schema's tests).
A key some forms of event have and others not is `NotRequired`."""

# No `from __future__ import annotations`: under Python 3.11 a TypedDict sees `NotRequired`
# only in annotations it evaluates (as `shared.table.board_view` says).
import enum
from typing import Annotated, NotRequired

from typing_extensions import TypedDict

from shared.scores.vocabulary import Fault, PenaltyUnit, ResultKind, Scoring, TeamScoring
from shared.table.board_view import OneOf, Seat, Side
from shared.tournament.entrants import MovementKind
from shared.tournament.standings_view import RankingLine


def _words(vocabulary: type[enum.StrEnum]) -> OneOf:
    """A vocabulary's words as the strings a key may hold."""
    return OneOf(tuple(str(word) for word in vocabulary))


Kind = Annotated[str, _words(ResultKind)]
FaultWord = Annotated[str, _words(Fault)]


class MovementMap(TypedDict):
    """The movement as created (`shared.tournament.entrants.Movement.to_map`)."""

    kind: Annotated[str, _words(MovementKind)]
    """how the entrants move"""
    boards_per_round: int
    """boards a round (a match, in teams)"""
    rounds: int
    """the movement's rounds"""
    scoring: Annotated[str, _words(Scoring)]
    """how a pairs event is scored"""
    minutes_per_board: NotRequired[float]
    """a timed round's minutes a board"""
    arrow_switch: NotRequired[int]
    """a Mitchell's last rounds arrow-switched (one field)"""
    team_scoring: NotRequired[Annotated[str, _words(TeamScoring)]]
    """a teams event scored board-a-match or by aggregate"""
    imps_to_vp: NotRequired[bool]
    """a pairs event's IMPs ranked by VPs, round by round"""
    sections: NotRequired[int]
    """the sections the event is played in (more than one)"""


class EntrantMap(TypedDict):
    """An entrant (`shared.tournament.entrants.Entrant.to_map`)."""

    number: int
    """its number"""
    name: str
    """its name"""
    players: list[str]
    """its players' names"""
    player_ids: NotRequired[list[str]]
    """its players' IDs ("" none), in the Director's view alone"""


class WeightedPart(TypedDict):
    """A part of a weighted score (Law 12C1(c))."""

    percent: float
    """its weight, to two decimals (33.33)"""
    percent_text: str
    """its weight exact as the Director gave it ("100/3", "60")"""
    score_ns: int
    """the score NS get in it"""


class PartScore(TypedDict):
    """A side's own assigned or weighted score in a split (Law 12C1(b), (c))."""

    score_ns: NotRequired[int]
    """assigned: the score"""
    parts: NotRequired[list[WeightedPart]]
    """weighted: its parts"""


class ShownScore(TypedDict):
    """A score as the results show it (`shared.tournament.director_scores.score_map`): its
    kind and what it holds."""

    kind: Kind
    """played, corrected (Law 79C), assigned (Law 12C1(b)), weighted (12C1(c)), split, or
    artificial (12C2)"""
    score_ns: NotRequired[int]
    """played, corrected or assigned: NS's score"""
    parts: NotRequired[list[WeightedPart]]
    """weighted: its parts"""
    ns_fault: NotRequired[FaultWord]
    """artificial: NS's share of the fault (average plus, average, average minus)"""
    ew_fault: NotRequired[FaultWord]
    """artificial: EW's share of the fault"""
    ns_score: NotRequired[PartScore]
    """split: NS's own score"""
    ew_score: NotRequired[PartScore]
    """split: EW's own score"""


class AdjustmentLine(ShownScore):
    """A Director's score on a board between two entrants, with its reason."""

    board: int
    ns: int
    """the NS entrant"""
    ew: int
    """the EW entrant"""
    reason: str
    """the Director's reason"""


class PenaltyLine(TypedDict):
    """A procedural penalty (Law 90) on an entrant."""

    board: int
    entrant: int
    amount: float
    """how much: a percentage of a top, or IMPs"""
    unit: Annotated[str, _words(PenaltyUnit)]
    """percent (of a top, in matchpoints) or imps"""
    reason: str
    """the Director's reason"""


class PlayLine(TypedDict):
    """What a traveller's line says of the play (`shared.table.board_result.contract_line`),
    once the board has a result."""

    contract: NotRequired[str]
    """the contract played (`4S`, `3NTX`; `PASS` passed out)"""
    declarer: NotRequired[Seat]
    """its declarer"""
    tricks: NotRequired[int]
    """declarer's tricks"""
    lead: NotRequired[str]
    """the opening lead (`HK`)"""
    substitutes: NotRequired[str]
    """the seats where a substitute played (`W`, `EW`)"""


class TravellerLine(ShownScore, PlayLine):
    """A result on a traveller, what each side scored on it, and the play."""

    ns: int
    """the NS entrant"""
    ew: int
    """the EW entrant"""
    ns_points: float
    """NS's matchpoints or IMPs"""
    ew_points: float
    """EW's matchpoints or IMPs"""
    ns_percent: float | None
    """NS's matchpoints as a percentage of the top (null: IMPs, or not compared)"""
    ew_percent: float | None
    """EW's likewise"""
    group: NotRequired[int]
    """a fouled board's form the line played (Law 87B: 0 the correct one)"""
    reason: NotRequired[str]
    """the Director's reason for his score"""


class Fouled(TypedDict):
    """A fouled board (Law 87B)."""

    forms: int
    """its changed forms (each line's `group` says which it played)"""
    reason: str
    """the Director's reason"""


class TravellerView(TypedDict):
    """A board's traveller."""

    board: int
    top: int | None
    """the matchpoint top (null: IMPs)"""
    datum: int | None
    """Butler's datum (null: another scoring, or a fouled board)"""
    lines: list[TravellerLine]
    fouled: NotRequired[Fouled]
    """a fouled board's forms and the Director's reason (Law 87B)"""


class ScorecardLine(TravellerLine):
    """A board on an entrant's scorecard: its traveller's line and the entrant's own part."""

    board: int
    direction: Side
    """where the entrant sat"""
    opponent: int
    """the entrant it played against"""
    points: float
    """its matchpoints or IMPs"""
    percent: float | None
    """its matchpoints as a percentage of the top (null: IMPs)"""
    partner: NotRequired[int]
    """an individual: the player's partner on the board (a player's scorecard)"""


class Room(ShownScore):
    """A match's board in one room."""

    ns: int
    """the team sitting NS"""
    ew: int
    """the team sitting EW"""
    reason: NotRequired[str]
    """the Director's reason for his score"""


class MatchBoard(TypedDict):
    """A board of a match: its two rooms and what each team scored."""

    board: int
    open: Room
    closed: Room
    home_imps: NotRequired[float]
    """by VPs: the home team's IMPs"""
    away_imps: NotRequired[float]
    """by VPs: the away team's IMPs"""
    home_points: NotRequired[float]
    """board-a-match or aggregate: the home team's points"""
    away_points: NotRequired[float]
    """board-a-match or aggregate: the away team's points"""


class MatchView(TypedDict):
    """A teams match (Law 78B, 78C)."""

    home: int
    """the home team (NS in the open room)"""
    away: int
    """the away team"""
    boards: list[MatchBoard]
    """the boards shown"""
    round: NotRequired[int]
    """by VPs: the match's round"""
    home_imps: NotRequired[float]
    """by VPs: the home team's IMPs"""
    away_imps: NotRequired[float]
    """by VPs: the away team's IMPs"""
    home_vp: NotRequired[float]
    """by VPs: the home team's VPs"""
    away_vp: NotRequired[float]
    """by VPs: the away team's VPs"""
    home_points: NotRequired[float]
    """board-a-match or aggregate: the home team's points"""
    away_points: NotRequired[float]
    """board-a-match or aggregate: the away team's points"""


class VpRound(TypedDict):
    """A pair's round in a pairs event ranked by VPs (`shared.scores.pair_vps`)."""

    round: int
    entrant: int
    opponent: int
    boards: int
    """the boards counted"""
    imps: float
    """its IMPs"""
    vp: float
    """their VPs"""


class SectionView(TypedDict):
    """A section of the event (`shared.scores.sections`)."""

    name: str
    entrants: list[int]
    """its entrants' numbers"""
    tables: list[str]
    """its tables"""


class SessionTotal(TypedDict):
    """A pair's total in one session carried over."""

    points: float
    """its matchpoints, IMPs or VPs"""
    percent: float | None
    """matchpoints: its percentage (null: IMPs or VPs)"""


class OverallLine(TypedDict):
    """A pair's place over the sessions so far (`shared.tournament.carry_over`)."""

    name: str
    """the pair, the same from session to session by its name"""
    entrant: int | None
    """its number in this session (null: it does not play it)"""
    rank: int
    points: float
    """its matchpoints, IMPs or VPs summed"""
    top: float | None
    """matchpoints: the tops it played for, summed (null: IMPs or VPs)"""
    percent: float | None
    """matchpoints: 100 × Σ MP / Σ top (null: IMPs or VPs)"""
    boards: int
    """the boards it played"""
    sessions: list[SessionTotal | None]
    """each session's total (null: it missed it)"""


class Carried(TypedDict):
    """The totals carried over from session to session."""

    sessions: list[str]
    """the sessions' names, this one last"""
    carried: Annotated[str, OneOf(("percent", "imps", "vp"))]
    """what is carried: matchpoint percentages, IMPs or VPs"""
    overall: list[OverallLine]
    """the overall ranking"""


class ResultsBase(TypedDict):
    """What every results document has, whatever the form of event."""

    tournament: str
    name: str
    movement: MovementMap
    entrants: list[EntrantMap]
    rounds: int
    """the rounds started"""
    complete: list[int]
    """the boards every table the movement seats at them has a result on"""
    counted: Annotated[str, OneOf(("all", "complete"))]
    """which boards count: `all` (the Director's view) or the `complete` ones (the
    public's, Law 16C1)"""
    adjustments: list[AdjustmentLine]
    """the Director's scores (Law 12C) on the boards counted"""
    penalties: list[PenaltyLine]
    """the procedural penalties (Law 90) on the boards counted"""


class ResultsDoc(ResultsBase):
    """A tournament's results: entrants, rankings, travellers and scorecards (pairs) or
    matches (teams), the Director's scores with their reasons."""

    scoring: str
    """how the event is scored: a pairs event's `Scoring`, a teams event's `TeamScoring`"""
    rankings: list[RankingLine]
    """the ranking (Law 78)"""
    teams: NotRequired[bool]
    """board-a-match or aggregate: a teams event"""
    matches: NotRequired[list[MatchView]]
    """teams: each match"""
    travellers: NotRequired[list[TravellerView]]
    """pairs: each board's traveller"""
    scorecards: NotRequired[dict[str, list[ScorecardLine]]]
    """pairs: each entrant's boards, by its number"""
    vp_rounds: NotRequired[list[VpRound]]
    """pairs by VPs: each pair's rounds"""
    sections: NotRequired[list[SectionView]]
    """an event in sections: each section"""
    sessions: NotRequired[list[str]]
    """a session that continues another: the sessions' names, this one last"""
    session: NotRequired[str]
    """a session that continues another: its name"""
    continues: NotRequired[str]
    """the tournament this session continues"""
    carried: NotRequired[Annotated[str, OneOf(("percent", "imps", "vp"))]]
    """what is carried over: matchpoint percentages, IMPs or VPs"""
    overall: NotRequired[list[OverallLine]]
    """the overall ranking over the sessions so far"""
    partnerships: NotRequired[list[EntrantMap]]
    """an individual: the partnerships that played, each number with its two players (the
    travellers' and scorecards' NS and EW); `rankings` and `scorecards` are the players'"""

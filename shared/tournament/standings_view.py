"""The overview's standings as a reader gets them (`shared.tournament.results.standings`): a
line of the results' ranking (`RankingLine`, the keys of its kind of event), named, the top
of each field. The string under a key is its description in the overview's schema
(`services.gateway.http.state_models` builds it from these TypedDicts, no key but those
declared: a key the ranking gains and no declaration names fails the schema's tests)."""

# No `from __future__ import annotations`: under Python 3.11 a TypedDict sees `NotRequired`
# only in annotations it evaluates (as `shared.table.board_view` says).
from typing import NotRequired

from typing_extensions import TypedDict

from shared.scores.tie_breaks import TieBreak
from shared.table.board_view import Side


class RankingLine(TypedDict):
    """An entrant's place in the results' ranking (Law 78): a pair's boards, points and
    percentage (by VPs: its IMPs and VPs), or a team's matches and VPs (board-a-match or
    aggregate: points)."""

    entrant: int
    """the entrant's number"""
    rank: int
    """its place, shared by ties (1, 1, 3)"""
    direction: NotRequired[Side | None]
    """pairs: its field, a Mitchell's NS or EW line (null: one field)"""
    boards: NotRequired[int]
    """pairs: the boards it has a result on"""
    points: NotRequired[float]
    """pairs: its matchpoints or IMPs (after penalties); teams by board-a-match or aggregate:
    its points"""
    top: NotRequired[float | None]
    """pairs: the matchpoints it played for (null: scored by IMPs)"""
    percent: NotRequired[float | None]
    """pairs by matchpoints: its points as a percentage of its top (null: nothing compared
    yet)"""
    matches: NotRequired[int]
    """teams: the matches it has played"""
    vp: NotRequired[float]
    """by VPs: its victory points"""
    imps: NotRequired[float]
    """teams by VPs: its net IMPs over its matches"""
    rounds: NotRequired[int]
    """pairs by VPs: the rounds it has played"""
    tie_break: NotRequired[TieBreak | None]
    """the rule that split a tie for first (`shared.scores.tie_breaks`), if one did"""
    section: NotRequired[str]
    """an event in sections: the entrant's section"""
    section_rank: NotRequired[int]
    """an event in sections: its place among its section's pairs in its field"""


class StandingLine(RankingLine):
    """A line of the standings: the ranking's line and the entrant's name."""

    name: str
    """the entrant's name ("" when it has none)"""


class StandingsField(TypedDict):
    """The top of a field's ranking."""

    direction: Side | None
    """a Mitchell's NS or EW line; null: the one field"""
    top: list[StandingLine]
    """its first places, ties included"""


class Standings(TypedDict):
    """The top of each field's ranking, and how many boards are complete."""

    scoring: str
    """how the event is scored: a pairs event's `Scoring` (`matchpoints`, `cross_imps`,
    `butler`), a teams event's `TeamScoring` (`vp`, `board_a_match`, `aggregate`)"""
    complete: int
    """boards every table of the movement has a result on"""
    fields: list[StandingsField]

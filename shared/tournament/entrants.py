"""A tournament's entrants (pairs or teams) and the movement that seats them (docs/scoring.md).

The director gives the entrants and a movement at creation: `mitchell`, `howell` or
`swiss_pairs` (pairs paired round by round by their VPs) for pairs, `teams` (a round robin of
matches, two tables each) or `swiss` (teams paired round by round by their VPs) for teams,
or none (the director's own rounds, as before). Each round of the movement gives every table
its NS and EW entrants and its boards (`shared.scores.movements`); the players' names at the
seats follow. The rounds a movement plays are kept on the tournament's topic, so that each
table's result is linked to the entrants who sat there.

Pure: checks a request's fields and raises `TournamentError` naming the field at fault.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from shared.scores.adjustments import ScoreError
from shared.scores.arrow_switch import arrow_switched, default_switches
from shared.scores.individuals import individual, is_partnership, seat_players
from shared.scores.movements import Round, Seating, howell, matches_round, mitchell, team_rounds
from shared.scores.sections import Section, sectioned
from shared.scores.swiss import swiss
from shared.scores.swiss_pairs import swiss_pairs_round
from shared.scores.vocabulary import Scoring, TeamScoring
from shared.tournament.errors import TournamentError

if TYPE_CHECKING:  # the results' view names the movement's kinds
    from shared.tournament.results_view import EntrantMap, MovementMap

MAX_ENTRANTS = 4000


class MovementKind(enum.StrEnum):
    """How the entrants move: each the string on the wire."""

    MITCHELL = "mitchell"  # pairs, NS stay, EW move; ranked per direction
    HOWELL = "howell"  # pairs, every pair meets every other; one field
    TEAMS = "teams"  # teams, a round robin of matches (two rooms each)
    SWISS = "swiss"  # teams, each round paired by the VPs so far
    SWISS_PAIRS = "swiss_pairs"  # pairs, each round paired by the VPs so far, IMPs to VPs
    INDIVIDUAL = "individual"  # players alone, each partnering each other once; one field

    @property
    def teams(self) -> bool:
        return self in (MovementKind.TEAMS, MovementKind.SWISS)

    @property
    def swiss(self) -> bool:
        """Each round after the first paired by the scores so far (not planned ahead)."""
        return self in (MovementKind.SWISS, MovementKind.SWISS_PAIRS)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A pair or a team: its number (from 1), its name and its players (a pair's two, NS or
    EW in that order; a team's four or more: its first two sit NS in the open room, the next
    two NS in the closed room). `player_ids`, when given, one a player in the same order: his
    ID (a federation number or an email; "" for none), which tells apart two players of one
    name and reaches the exports (USEBIO's)."""

    number: int
    name: str
    players: tuple[str, ...] = ()
    player_ids: tuple[str, ...] = ()

    def to_map(self) -> EntrantMap:
        m: EntrantMap = {"number": self.number, "name": self.name,
                             "players": list(self.players)}
        if any(self.player_ids):
            m["player_ids"] = list(self.player_ids)
        return m

    @staticmethod
    def from_map(m: Mapping[str, Any]) -> Entrant:
        """An entrant as `to_map` wrote it (on the tournament's topic)."""
        return Entrant(int(m["number"]), str(m["name"]), tuple(m.get("players", ())),
                       tuple(m.get("player_ids", ())))


@dataclass(frozen=True, slots=True)
class Movement:
    """A movement as created: its kind, boards a round (a match, in teams), rounds, how a
    pairs event is scored, and its clock: the minutes a board (None: rounds untimed, the
    Director starts each). `arrow_switch`: how many of a Mitchell's last rounds are
    arrow-switched (0: none, two fields; else one field: `shared.scores.arrow_switch`).
    `team_scoring`: how a round robin of teams scores its matches (IMPs to VPs,
    board-a-match or aggregate: `shared.scores.team_forms`). `imps_to_vp`: a pairs event
    scored in IMPs ranked by VPs, each round's IMPs converted (`shared.scores.pair_vps`)."""

    kind: MovementKind
    boards_per_round: int
    rounds: int
    scoring: Scoring = Scoring.MATCHPOINTS
    minutes_per_board: float | None = None
    arrow_switch: int = 0
    team_scoring: TeamScoring = TeamScoring.VP
    imps_to_vp: bool = False
    sections: int = 1  # several: a top across the field (`shared.scores.sections`)

    @property
    def one_field(self) -> bool:
        """The pairs ranked as one field (all but a Mitchell not arrow-switched)."""
        return self.kind is not MovementKind.MITCHELL or self.arrow_switch > 0

    def to_map(self) -> MovementMap:
        m: MovementMap = {"kind": str(self.kind), "boards_per_round": self.boards_per_round,
             "rounds": self.rounds, "scoring": str(self.scoring)}
        if self.minutes_per_board is not None:
            m["minutes_per_board"] = self.minutes_per_board
        if self.arrow_switch:
            m["arrow_switch"] = self.arrow_switch
        if self.team_scoring is not TeamScoring.VP:
            m["team_scoring"] = str(self.team_scoring)
        if self.imps_to_vp:
            m["imps_to_vp"] = True
        if self.sections > 1:
            m["sections"] = self.sections
        return m

    @staticmethod
    def from_map(m: Mapping[str, Any]) -> Movement:
        minutes = m.get("minutes_per_board")
        return Movement(MovementKind(m["kind"]), int(m["boards_per_round"]), int(m["rounds"]),
                        Scoring(m.get("scoring", Scoring.MATCHPOINTS)),
                        None if minutes is None else float(minutes),
                        int(m.get("arrow_switch", 0)),
                        TeamScoring(m.get("team_scoring", TeamScoring.VP)),
                        bool(m.get("imps_to_vp", False)), int(m.get("sections", 1)))


def entrants_of(given: Sequence[Mapping[str, Any]]) -> tuple[Entrant, ...]:
    """The entrants of a request, numbered 1 … n in order (a number given must be its place),
    each with a name (by default its number)."""
    if len(given) > MAX_ENTRANTS:
        raise TournamentError(f"entrants: at most {MAX_ENTRANTS}", "entrants")
    out = []
    for i, m in enumerate(given):
        number = m.get("number")
        number = i + 1 if number is None else number
        if number != i + 1:
            raise TournamentError(f"entrants[{i}].number: the entrants are numbered 1, 2, … in "
                                  f"order; this one is {i + 1}, not {number}",
                                  f"entrants[{i}].number")
        players = tuple(str(p) for p in m.get("players", ()))
        out.append(Entrant(i + 1, str(m.get("name") or i + 1), players,
                           player_ids_of(m.get("player_ids"), players, i)))
    return tuple(out)


MAX_ID = 64


def player_ids_of(given: Any, players: Sequence[str], i: int) -> tuple[str, ...]:
    """An entrant's players' IDs as given (None: none), checked: one a player, each text of at
    most `MAX_ID` characters ("" for a player without one)."""
    field = f"entrants[{i}].player_ids"
    if given is None:
        return ()
    if not isinstance(given, list) or len(given) != len(players):
        raise TournamentError(f"{field}: a list with one ID a player ({len(players)}), \"\" "
                              "for a player without one", field)
    for j, pid in enumerate(given):
        if not isinstance(pid, str) or len(pid) > MAX_ID:
            raise TournamentError(f"{field}[{j}]: an ID is text of at most {MAX_ID} characters",
                                  f"{field}[{j}]")
    ids = tuple(pid.strip() for pid in given)
    return ids if any(ids) else ()


def plan(movement: Movement, entrants: int) -> list[Round]:
    """Every round of the movement (a Swiss, its first round only: later ones follow the
    scores), each table numbered from 1. A movement that does not fit the entrants raises
    `TournamentError` naming the field (`entrants`, `movement.rounds`, …)."""
    kind, per, rounds = movement.kind, movement.boards_per_round, movement.rounds or None
    if movement.sections > 1:
        return sectioned_plan(movement, entrants)[0]
    try:
        if kind is MovementKind.MITCHELL:
            seated = mitchell(entrants, per, rounds)
            return arrow_switched(seated, movement.arrow_switch) if movement.arrow_switch \
                else seated
        if kind is MovementKind.HOWELL:
            return howell(entrants, per, rounds)
        if kind is MovementKind.TEAMS:
            return team_rounds(entrants, per, rounds)
        if kind is MovementKind.SWISS_PAIRS:
            return [swiss_pairs_round(1, entrants, per, {})]
        if kind is MovementKind.INDIVIDUAL:
            return individual(entrants, per, rounds)
        if entrants < 2:
            raise TournamentError("entrants: a Swiss needs at least two teams", "entrants")
        return [swiss_round(1, entrants, per, {}, ())]
    except ScoreError as exc:
        field = "entrants" if exc.field in ("pairs", "teams", "players") else exc.field
        field = field if field == "entrants" else f"movement.{field}"
        raise TournamentError(f"{field}: {exc}", field) from None


def swiss_round(number: int, teams: int, per: int, vp: Mapping[int, float],
                met: Sequence[frozenset[int]], byes: Sequence[int] = ()) -> Round:
    """Round `number` of a Swiss: the teams paired by their VPs so far (`vp`), without a
    repeat where the field allows, the bye to the lowest team that has not had one (`byes`);
    each round its own group of boards."""
    pairing = swiss({t: vp.get(t, 0.0) for t in range(1, teams + 1)}, met, byes)
    out = () if pairing.bye is None else (pairing.bye,)
    return matches_round(number, list(pairing.matches), per, sit_out=out)


def movement_of(kind: MovementKind, per: int, rounds: int | None, scoring: Scoring,
                entrants: int, tables: int, deals: Sequence[int],
                arrow_switch: bool | int = False,
                team_scoring: TeamScoring = TeamScoring.VP,
                imps_to_vp: bool = False, sections: int = 1) -> Movement:
    """The movement of a creation request (`rounds` None: all the movement's rounds), checked
    against the entrants, the tables and the deals. `arrow_switch` (a Mitchell's): true for
    the default count of last rounds switched (`default_switches`), or a count.
    `team_scoring` other than VPs: a round robin of teams only; `imps_to_vp`: a pairs
    event scored in IMPs only."""
    if kind.swiss and rounds is None:
        raise TournamentError("movement.rounds: a Swiss plays the rounds the director says",
                              "movement.rounds")
    if kind.teams and scoring is not Scoring.MATCHPOINTS:
        raise TournamentError("movement.scoring: team matches are scored in IMPs and VPs",
                              "movement.scoring")
    if kind is MovementKind.SWISS_PAIRS:
        imps_to_vp = swiss_pairs_scoring(scoring)
    if sections > 1 and (kind not in (MovementKind.MITCHELL, MovementKind.HOWELL)
                         or arrow_switch not in (False, 0)):
        raise TournamentError("movement.sections: sections play a Mitchell or a Howell each "
                              "(not arrow-switched)", "movement.sections")
    planned = plan(Movement(kind, per, rounds or 0, scoring, sections=sections), entrants)
    if kind.swiss:
        assert rounds is not None
        planned = [swiss_pairs_round(r, entrants, per, {}) if kind is MovementKind.SWISS_PAIRS
                   else swiss_round(r, entrants, per, {}, ()) for r in range(1, rounds + 1)]
    switches = _switches(arrow_switch, kind, len(planned), per)
    if switches:
        planned = plan(Movement(kind, per, len(planned), scoring, arrow_switch=switches),
                       entrants)
    if team_scoring is not TeamScoring.VP and kind is not MovementKind.TEAMS:
        raise TournamentError("movement.team_scoring: board-a-match and aggregate score a "
                              "round robin of teams (a Swiss pairs by VPs)",
                              "movement.team_scoring")
    if imps_to_vp and kind is MovementKind.INDIVIDUAL:
        raise TournamentError("movement.imps_to_vp: an individual ranks its players by their "
                              "points, not VPs", "movement.imps_to_vp")
    if imps_to_vp and (kind.teams or scoring is Scoring.MATCHPOINTS):
        raise TournamentError("movement.imps_to_vp: converts the IMPs of a pairs event "
                              "(scoring cross_imps or butler) to VPs", "movement.imps_to_vp")
    check_fit(planned, tables, deals)
    return Movement(kind, per, len(planned), scoring, arrow_switch=switches,
                    team_scoring=team_scoring, imps_to_vp=imps_to_vp, sections=sections)


def check_individuals(entrants: Sequence[Entrant]) -> None:
    """An individual's entrants are players alone: one name each at most, else a
    `TournamentError` naming `entrants[i].players`."""
    for i, e in enumerate(entrants):
        if len(e.players) > 1:
            raise TournamentError(f"entrants[{i}].players: an individual's entrant is one "
                                  f"player, not {len(e.players)}", f"entrants[{i}].players")


def sectioned_plan(movement: Movement, entrants: int) -> tuple[list[Round], tuple[Section, ...]]:
    """An event in sections (`movement.sections`): each section seated by the movement's kind
    on the same boards, entrants and tables numbered on from the sections before it
    (`shared.scores.sections`), and the sections."""
    try:
        return sectioned(entrants, movement.sections,
                         lambda n: plan(replace(movement, sections=1), n))
    except ScoreError as exc:
        raise TournamentError(f"movement.{exc.field}: {exc}", f"movement.{exc.field}") from None


def swiss_pairs_scoring(scoring: Scoring) -> bool:
    """A Swiss pairs scores each match in IMPs (cross-IMPs or Butler) converted to VPs: the
    `imps_to_vp` it implies; matchpoints are refused, naming `movement.scoring`."""
    if scoring is Scoring.MATCHPOINTS:
        raise TournamentError("movement.scoring: a Swiss pairs scores each match in IMPs "
                              "(cross_imps or butler) converted to VPs", "movement.scoring")
    return True


def _switches(given: bool | int, kind: MovementKind, rounds: int, per: int) -> int:
    """The count of last rounds a creation's `arrow_switch` asks for (a Mitchell only)."""
    if given is False or given == 0:
        return 0
    if kind is not MovementKind.MITCHELL:
        raise TournamentError("movement.arrow_switch: only a Mitchell is arrow-switched",
                              "movement.arrow_switch")
    return default_switches(rounds, per) if given is True else int(given)


def check_fit(rounds: Sequence[Round], tables: int, deals: Sequence[int]) -> None:
    """The movement fits the tables and deals given: as many tables as its rounds use, and a
    deal for each of its boards."""
    needed = max((s.table for r in rounds for s in r.tables), default=0)
    if tables != needed:
        raise TournamentError(f"tables: this movement seats its entrants at {needed} tables, "
                              f"not {tables}", "tables")
    missing = sorted({b for r in rounds for s in r.tables for b in s.boards} - set(deals))
    if missing:
        raise TournamentError(f"movement.boards_per_round: boards {missing[:5]} are not among "
                              "the deals", "movement.boards_per_round")


def seat_names(seating: Seating, entrants: Sequence[Entrant], teams: bool
               ) -> dict[str, str]:
    """The players' names at a table's seats for a round: a pair's two at N and S (NS pair)
    or E and W; a team's: in the open room (home NS) the home team's first two at N and S and
    the away team's last two at E and W; in the closed room the away team's first two NS and
    the home team's last two EW (each team's two pairs in the two rooms); an individual's
    table (its NS and EW partnerships' numbers, past the entrants): each player at his seat."""
    if is_partnership(seating.ns):  # an individual's (`shared.scores.individuals`)
        return {seat: name for seat, p in seat_players(seating).items()
                if (name := next(iter(entrants[p - 1].players), ""))}
    ns, ew = entrants[seating.ns - 1].players, entrants[seating.ew - 1].players
    if teams:
        ns, ew = ns[:2], ew[2:4]
    names = dict(zip("NS", ns, strict=False)) | dict(zip("EW", ew, strict=False))
    return {seat: name for seat, name in names.items() if name}


def seating_map(seating: Seating) -> dict[str, Any]:
    return {"ns": seating.ns, "ew": seating.ew, "boards": list(seating.boards)}

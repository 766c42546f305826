"""A tournament's results (scoring.md): each table's results linked to the entrants the movement
seated there, the Director's scores applied, and the travellers and rankings of
`shared.scores` (pairs: matchpoints, cross-IMPs or Butler; teams: each match's IMPs and VPs).

Pure: the gateway gives the rounds recorded on the tournament's topic, each table's results
(board → NS score, from its log) and the Director's scores in the order recorded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from shared.scores.adjustments import Penalty, Played, ScoreError
from shared.scores.corrections import Adjustment, Place, apply_adjustments, scheduled
from shared.scores.movements import Round, Seating
from shared.scores.numbers import shown
from shared.scores.pair_tie_breaks import pair_standings
from shared.scores.rankings import Standing, pair_rankings, with_law_12c2c
from shared.scores.team_rankings import MatchScore, match_score, team_rankings
from shared.scores.tie_breaks import TieBreak, team_standings
from shared.scores.travellers import Line, Result, Traveller, travellers
from shared.scores.vocabulary import ResultKind, Scoring, TeamScoring
from shared.tournament.director_scores import parse, score_map
from shared.tournament.entrants import Entrant, MovementKind, plan
from shared.tournament.fouled_records import BOARD_FOULED, fouled_boards
from shared.tournament.individual_results import individual_ranked
from shared.tournament.pair_vp_results import vp_ranked
from shared.tournament.results_view import (
    EntrantMap,
    MatchView,
    PlayLine,
    ResultsBase,
    ResultsDoc,
    Room,
    ScorecardLine,
    TravellerLine,
    TravellerView,
)
from shared.tournament.section_results import section_ranked
from shared.tournament.session import Tournament
from shared.tournament.standings_view import RankingLine, StandingLine, Standings
from shared.tournament.team_form_results import form_results
from shared.tournament.team_matches import each_match


def rounds_of(records: Iterable[Mapping[str, Any]], made: Tournament) -> list[Round]:
    """The movement's rounds started, from the tournament's round records (a round recorded
    twice: the last stands), tables numbered by their place in the tournament."""
    index = {t: i + 1 for i, t in enumerate(made.tables)}
    by_number: dict[int, Round] = {}
    for record in records:
        seatings = record.get("seatings")
        if not seatings:
            continue
        tables = tuple(Seating(index[t], s["ns"], s["ew"], tuple(s["boards"]))
                       for t, s in seatings.items())
        by_number[record["round"]] = Round(record["round"], tables,
                                           tuple(record.get("sit_out", ())))
    return [by_number[n] for n in sorted(by_number)]


def played(rounds: Sequence[Round], made: Tournament,
           table_results: Mapping[str, Mapping[int, int]]) -> list[Result]:
    """Each board a table finished, as the result between the entrants seated there."""
    out = []
    for rnd in rounds:
        for s in rnd.tables:
            scores = table_results.get(made.tables[s.table - 1], {})
            out += [Result(b, s.ns, s.ew, Played(scores[b])) for b in s.boards if b in scores]
    return out


@dataclass(frozen=True, slots=True)
class Given:
    """The Director's scores in the order given."""

    adjustments: tuple[Adjustment, ...]
    penalties: tuple[Penalty, ...]


def pairs_matchpoints(made: Tournament) -> bool:
    m = made.movement
    return m is not None and not m.kind.teams and m.scoring is Scoring.MATCHPOINTS


def given(made: Tournament, places: frozenset[Place],
          records: Iterable[Mapping[str, Any]]) -> Given:
    adjustments: list[Adjustment] = []
    penalties: list[Penalty] = []
    for record in records:
        found = parse(record, places, pairs_matchpoints(made))
        if isinstance(found, Penalty):
            penalties.append(found)
        else:
            adjustments.append(found)
    return Given(tuple(adjustments), tuple(penalties))


def to_play(made: Tournament, rounds: Sequence[Round]) -> frozenset[Place]:
    """Every board each table plays in the whole movement: its rounds planned from the start
    (Mitchell, Howell, teams) and those started (a Swiss's later rounds, paired as they come,
    each on boards of its own; the director's own rounds)."""
    movement = made.movement
    planned = [] if movement is None else plan(movement, len(made.entrants))
    return scheduled(rounds) | scheduled(planned)


def expected_plays(every: Iterable[Place]) -> int:
    """How many results a board is scored against (Neuberg's N): the most times the whole
    movement seats a board (`to_play`), not the most any board has so far, so that a board
    played once of three is average on a top of 4 (Neuberg: (0 + 1) × 3 / 1 − 1 = 2), not
    a zero on a top of 0."""
    counts = Counter(place[0] for place in every)
    return max(counts.values(), default=0)


def results(made: Tournament, round_records: Sequence[Mapping[str, Any]],
            table_results: Mapping[str, Mapping[int, int]],
            score_records: Sequence[Mapping[str, Any]], everything: bool = True,
            table_lines: Mapping[str, Mapping[int, Mapping[str, Any]]] | None = None
            ) -> ResultsDoc:
    """The results document (`shared.tournament.results_view.ResultsDoc`): entrants,
    rankings, travellers and scorecards (pairs) or matches (teams), the Director's scores
    with their reasons. `table_lines` (each table's board → its contract, declarer, lead and
    tricks: `shared.table.board_result.contract_line`) go on the travellers' lines of the
    results played.

    Not `everything` (the public's view, the tournament's regulation under Law 80B so that no
    pair learns a result of a board it has still to play, Law 16C1): everything in it, the
    rankings too, counts the boards `complete` only (every table the whole movement seats at
    a board has a result); a ranking that counted the others would move as another table
    plays a board, and tell how it went. The Director's view (`everything`) counts every
    result as it comes. In matchpoints every board is scored as if played as many times as
    the movement seats it (`expected_plays`, Neuberg), so a running ranking is each pair's
    percentage over the boards it has played, against the results so far. The entrants'
    players' IDs (`player_ids`) are in the Director's view alone: the public's has the
    names."""
    movement = made.movement
    if movement is None:
        raise ScoreError("this tournament has no entrants and movement to score", "tournament")
    rounds = rounds_of(round_records, made)
    places = scheduled(rounds)
    director = given(made, places, [r for r in score_records
                                    if r.get("type") != BOARD_FOULED])
    fouled, fouled_why = fouled_boards(score_records, places)
    all_results = apply_adjustments(played(rounds, made, table_results),
                                    director.adjustments, places)
    have = {(r.board, r.ns, r.ew) for r in all_results}
    every = to_play(made, rounds)
    complete = sorted({p[0] for p in every} - {p[0] for p in every - have})
    visible = set(complete) if not everything else {p[0] for p in every}
    counted = [r for r in all_results if r.board in visible]
    penalties = [p for p in director.penalties if p.board in visible]
    reasons = {a.place: a.reason for a in director.adjustments}
    plays = _plays(rounds, made, table_lines or {})
    doc: ResultsBase = {
        "tournament": made.tournament, "name": made.name, "movement": movement.to_map(),
        "entrants": [_entrant_map(e, everything) for e in made.entrants],
        "rounds": len(rounds),
        "complete": complete, "counted": "all" if everything else "complete",
        "adjustments": [{"board": a.board, "ns": a.ns, "ew": a.ew, "reason": a.reason,
                         **score_map(a.score)} for a in director.adjustments
                        if a.board in visible],
        "penalties": [{"board": p.board, "entrant": p.entrant, "amount": p.amount,
                       "unit": str(p.unit), "reason": p.reason} for p in penalties]}
    if movement.kind.teams and movement.team_scoring is not TeamScoring.VP:
        return form_results(doc, movement.team_scoring, rounds, counted, penalties, visible,
                            reasons)
    if movement.kind.teams:
        scores = _matches(rounds, counted, penalties)
        # the keys a form has not are not in `doc` (strict mypy cannot know a TypedDict
        # unpacked has no more than its own)
        return {**doc, "scoring": "vp", "rankings": [  # type: ignore[typeddict-item]
            {"entrant": s.team, "rank": s.rank, "matches": s.matches, "vp": s.vp,
             "imps": shown(s.imps, 2), "tie_break": rule}
            for s, rule in team_standings(team_rankings(scores), scores)],
            "matches": [{**_match_map(m, visible, reasons), "round": n}
                        for n, m in zip(_match_rounds(rounds), scores, strict=True)]}
    expected = expected_plays(every) if movement.scoring is Scoring.MATCHPOINTS else None
    boards = with_law_12c2c(travellers(counted, movement.scoring, expected, fouled).values())
    standings = pair_rankings(boards, penalties, by_direction=not movement.one_field)
    pairs: ResultsDoc = {**doc, "scoring": str(movement.scoring), "rankings": [  # type: ignore[typeddict-item]
        _ranking_line(s, rule)
        for s, rule in _placed(standings, boards, movement.imps_to_vp)]}
    if movement.imps_to_vp:
        pairs["rankings"], pairs["vp_rounds"] = vp_ranked(pairs["rankings"], boards, rounds,
                                                          penalties)
    if movement.sections > 1:
        pairs["rankings"], pairs["sections"] = section_ranked(pairs["rankings"], made)
    lines = {t.board: [_line_map(line, reasons, plays) for line in t.lines] for t in boards}
    pairs["travellers"] = [_traveller(t, lines[t.board], fouled_why) for t in boards]
    pairs["scorecards"] = _scorecards(boards, lines, [e.number for e in made.entrants])
    if movement.kind is MovementKind.INDIVIDUAL:  # one ranking of players
        pairs["rankings"], pairs["scorecards"], pairs["partnerships"] = individual_ranked(
            standings, made.entrants, pairs["scorecards"])
    return pairs


def _ranking_line(s: Standing, rule: TieBreak | None) -> RankingLine:
    """A pair's place in the ranking (Law 78), the rule that split a tie for first if one
    did."""
    line: RankingLine = {
        "entrant": s.entrant, "rank": s.rank,
        "direction": None if s.direction is None else str(s.direction), "boards": s.boards,
        "points": s.points, "top": s.top, "percent": s.percent}
    if rule is not None:
        line["tie_break"] = rule
    return line


def _traveller(t: Traveller, lines: list[TravellerLine], reasons: Mapping[int, str]
               ) -> TravellerView:
    """A board's traveller; a fouled board's (Law 87B) with its changed forms and the
    Director's reason (each line's `group` says which form it played)."""
    out: TravellerView = {"board": t.board, "top": t.top, "datum": t.datum, "lines": lines}
    if t.fouled:
        out["fouled"] = {"forms": t.fouled, "reason": reasons.get(t.board, "")}
    return out


def _placed(standings: Sequence[Standing], boards: Sequence[Traveller], by_vp: bool
            ) -> list[tuple[Standing, TieBreak | None]]:
    """The pairs' standings, a tie for first split by the EBU's order
    (`shared.scores.pair_tie_breaks`); ranked by VPs (`vp_ranked` ranks again): as they are."""
    return [(s, None) for s in standings] if by_vp else pair_standings(standings, boards)


def _entrant_map(entrant: Entrant, everything: bool) -> EntrantMap:
    """An entrant in the results: its IDs only in the Director's view (`everything`): an ID
    may be an email, and the public's results are anyone's."""
    m = entrant.to_map()
    if not everything:
        m.pop("player_ids", None)
    return m


def _plays(rounds: Sequence[Round], made: Tournament,
           table_lines: Mapping[str, Mapping[int, Mapping[str, Any]]]
           ) -> dict[Place, PlayLine]:
    """Each board's play at each place, from its table's lines (`shared.table.board_result.
    contract_line`'s keys, which `PlayLine` declares)."""
    out: dict[Place, PlayLine] = {}
    for rnd in rounds:
        for s in rnd.tables:
            lines = table_lines.get(made.tables[s.table - 1], {})
            out.update({(b, s.ns, s.ew): cast(PlayLine, lines[b]) for b in s.boards
                        if b in lines})
    return out


def _scorecards(public: Sequence[Traveller], lines: Mapping[int, list[TravellerLine]],
                entrants: Sequence[int]) -> dict[str, list[ScorecardLine]]:
    """Each entrant's boards shown (by its number, as a JSON key), in one pass over the
    travellers: where it sat, against whom, its own points and percentage, and the line as
    the traveller shows it (`lines`), as `shared.scores.rankings.scorecard` gives them."""
    cards: dict[str, list[ScorecardLine]] = {str(n): [] for n in entrants}
    for traveller in sorted(public, key=lambda t: t.board):
        for line, mapped in zip(traveller.lines, lines[traveller.board], strict=True):
            r = line.result
            for me, direction, them, points, percent in (
                    (r.ns, "NS", r.ew, line.ns_points, line.ns_percent),
                    (r.ew, "EW", r.ns, line.ew_points, line.ew_percent)):
                cards.setdefault(str(me), []).append({
                    "board": traveller.board, "direction": direction, "opponent": them,
                    "points": shown(points, 4),
                    "percent": None if percent is None else shown(percent, 2),
                    **mapped})  # type: ignore[typeddict-item]  # (an individual's `partner`: later)
    return cards


def _line_map(line: Line, reasons: Mapping[Place, str],
              plays: Mapping[Place, PlayLine]) -> TravellerLine:
    r = line.result
    out: TravellerLine = {"ns": r.ns, "ew": r.ew, **score_map(r.score),  # type: ignore[typeddict-item]
           "ns_points": shown(line.ns_points, 4), "ew_points": shown(line.ew_points, 4),
           "ns_percent": None if line.ns_percent is None else shown(line.ns_percent, 2),
           "ew_percent": None if line.ew_percent is None else shown(line.ew_percent, 2)}
    if line.group is not None:
        out["group"] = line.group  # a fouled board's changed form (Law 87B)
    if (r.board, r.ns, r.ew) in reasons:
        out["reason"] = reasons[r.board, r.ns, r.ew]
    elif r.score.kind is ResultKind.PLAYED and (r.board, r.ns, r.ew) in plays:
        out.update(plays[r.board, r.ns, r.ew])  # type: ignore[typeddict-item]
    return out


def _matches(rounds: Sequence[Round], results: Sequence[Result],
             penalties: Sequence[Penalty]) -> list[MatchScore]:
    """Each match of each round scored in IMPs and VPs, given its own results only."""
    return [match_score(match, mine, off)
            for match, mine, off in each_match(rounds, results, penalties)]


def _match_rounds(rounds: Sequence[Round]) -> list[int]:
    """Each match's round, in `each_match`'s order (a match a pair of tables of its round)."""
    return [rnd.number for rnd in rounds for _ in sorted(rnd.tables, key=lambda s: s.table)[0::2]]


def _match_map(m: MatchScore, visible: set[int], reasons: Mapping[Place, str]
               ) -> MatchView:
    def room(r: Result) -> Room:
        out: Room = {"ns": r.ns, "ew": r.ew, **score_map(r.score)}  # type: ignore[typeddict-item]
        if (r.board, r.ns, r.ew) in reasons:
            out["reason"] = reasons[r.board, r.ns, r.ew]
        return out
    return {"home": m.home, "away": m.away, "home_imps": shown(m.home_imps, 2),
            "away_imps": shown(m.away_imps, 2), "home_vp": m.home_vp, "away_vp": m.away_vp,
            "boards": [{"board": s.board, "open": room(s.open_room),
                        "closed": room(s.closed_room), "home_imps": shown(s.home_imps, 2),
                        "away_imps": shown(s.away_imps, 2)}
                       for s in m.boards if s.board in visible]}


STANDINGS_TOP = 3  # the places each field's standings in the overview show (ties included)


def standings(doc: ResultsDoc, top: int = STANDINGS_TOP) -> Standings:
    """The top of the ranking in each field (a Mitchell's NS and EW pairs; else one field),
    each line with the entrant's name, and how many boards are complete: the standings the
    tournament's overview carries (`shared.tournament.standings_view`)."""
    names = {e["number"]: e["name"] for e in doc["entrants"]}
    rankings: Sequence[RankingLine] = doc["rankings"]
    fields: dict[str | None, list[StandingLine]] = {}
    for line in rankings:
        field = fields.setdefault(line.get("direction"), [])
        if line["rank"] <= top:
            field.append({**line, "name": names.get(line["entrant"], "")})
    return {"scoring": doc["scoring"], "complete": len(doc["complete"]),
            "fields": [{"direction": d, "top": lines} for d, lines in fields.items()]}

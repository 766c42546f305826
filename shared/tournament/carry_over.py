"""A multi-session event: a tournament that continues another (`continues`), its sessions named,
the totals carried over from session to session (docs/scoring.md).

The rule (our choice; the Laws leave it to the conditions of contest, Law 78D, and we found no
regulation in our sources that fixes it): a pair is the same pair from session to session by
its name. At matchpoints its total is its matchpoints of every session over the tops it played
for in them, **percent = 100 × Σ MP / Σ top**: the sessions' percentages averaged, each weighted
by the tops played (by the boards played where every board has the same top), which is the sum
of the matchpoints where the sessions' tops are equal (the usual "carried forward" total). At
IMPs (cross-IMPs, Butler) the IMPs are summed; a pairs event in VPs sums its VPs. Ties share
their place (`shared.scores.rankings.ranked`). A pair that missed a session carries what it
played (its other sessions' tops only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.scores.numbers import shown
from shared.scores.rankings import ranked
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import Movement
from shared.tournament.errors import TournamentError
from shared.tournament.results_view import Carried, OverallLine, ResultsDoc


@dataclass(frozen=True, slots=True)
class Session:
    """One session's results document (`shared.tournament.results.results`) and its name."""

    name: str
    doc: Mapping[str, Any]


def check_continues(previous: Movement | None, movement: Movement | None, name: str) -> None:
    """A session may continue a pairs session scored the same way (`continues` at fault
    otherwise: a 400 naming it)."""
    if previous is None or movement is None or previous.kind.teams or movement.kind.teams:
        raise TournamentError(f"continues: {name}: only a pairs session with a movement "
                              "continues another one", "continues")
    if (previous.scoring, previous.imps_to_vp) != (movement.scoring, movement.imps_to_vp):
        raise TournamentError(f"continues: {name} is scored in {previous.scoring}"
                              f"{' to VPs' if previous.imps_to_vp else ''}: a session that "
                              "continues it is scored the same way", "continues")


def carried(sessions: Sequence[Session]) -> Carried:
    """The overall ranking of the sessions so far (the last the current one): each pair, by
    name, with each session's total and the total carried over."""
    last = sessions[-1].doc
    scoring = Scoring(last["scoring"])
    vp = any("vp" in line for line in last["rankings"])
    matchpoints = scoring is Scoring.MATCHPOINTS and not vp
    per: dict[str, list[dict[str, Any] | None]] = {}
    for i, session in enumerate(sessions):
        names = {e["number"]: e["name"] for e in session.doc["entrants"]}
        for line in session.doc["rankings"]:
            row = per.setdefault(names[line["entrant"]], [None] * len(sessions))
            row[i] = {"points": float(line["vp" if vp else "points"]), "top": line.get("top"),
                      "percent": line.get("percent"), "boards": line["boards"]}
    order = sorted(per)
    totals: list[tuple[int, float]] = []
    summed: dict[str, tuple[float, float]] = {}
    for k, name in enumerate(order):
        played = [s for s in per[name] if s is not None]
        points = sum(s["points"] for s in played)
        top = sum(float(s["top"] or 0) for s in played) if matchpoints else 0.0
        summed[name] = (points, top)
        totals.append((k, 100 * points / top if matchpoints and top else points))
    number = {e["name"]: e["number"] for e in last["entrants"]}
    overall: list[OverallLine] = []
    for k, rank, value in ranked(totals):
        name = order[k]
        points, top = summed[name]
        overall.append({
            "name": name, "entrant": number.get(name), "rank": rank,
            "points": shown(points, 4), "top": shown(top, 4) if matchpoints else None,
            "percent": shown(value, 4) if matchpoints else None,
            "boards": sum(s["boards"] for s in per[name] if s is not None),
            "sessions": [None if s is None else {
                "points": shown(s["points"], 4),
                "percent": s["percent"] if matchpoints else None} for s in per[name]]})
    return {"sessions": [s.name for s in sessions],
            "carried": "vp" if vp else "percent" if matchpoints else "imps",
            "overall": overall}


def continued(doc: ResultsDoc, sessions: Sequence[Session], continues: str) -> ResultsDoc:
    """The results document `doc` of a session that continues tournament `continues` (the
    last of `sessions`), with its name and the totals carried over (`carried`)."""
    over = carried(sessions)
    return {**doc, "session": sessions[-1].name, "continues": continues,
            "sessions": over["sessions"], "carried": over["carried"], "overall": over["overall"]}

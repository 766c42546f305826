"""A teams event's results scored board-a-match or by aggregate (`shared.scores.team_forms`):
the rankings by points and each match's boards, in the results document beside the VPs'
shape (`teams: true`; `scoring` the form's word)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.scores.adjustments import Penalty
from shared.scores.corrections import Place
from shared.scores.movements import Round
from shared.scores.numbers import shown
from shared.scores.team_forms import FormMatch, form_match, form_rankings
from shared.scores.travellers import Result
from shared.scores.vocabulary import TeamScoring
from shared.tournament.director_scores import score_map
from shared.tournament.results_view import ResultsBase, ResultsDoc, Room
from shared.tournament.team_matches import each_match


def form_matches(form: TeamScoring, rounds: Sequence[Round], results: Sequence[Result],
                 penalties: Sequence[Penalty]) -> list[FormMatch]:
    """Each match of each round scored in `form`, given its own results only."""
    return [form_match(match, mine, form, off)
            for match, mine, off in each_match(rounds, results, penalties)]


def form_results(doc: ResultsBase, form: TeamScoring, rounds: Sequence[Round],
                 results: Sequence[Result], penalties: Sequence[Penalty], visible: set[int],
                 reasons: Mapping[Place, str]) -> ResultsDoc:
    """The document `doc` with its scoring, rankings and matches for a board-a-match or
    aggregate event."""
    matches = form_matches(form, rounds, results, penalties)

    def room(r: Result) -> Room:
        out: Room = {"ns": r.ns, "ew": r.ew, **score_map(r.score)}  # type: ignore[typeddict-item]
        if (r.board, r.ns, r.ew) in reasons:
            out["reason"] = reasons[r.board, r.ns, r.ew]
        return out
    # the keys a form has not are not in `doc` (strict mypy cannot know a TypedDict unpacked
    # has no more than its own)
    return {
        **doc, "scoring": str(form), "teams": True,  # type: ignore[typeddict-item]
        "rankings": [{"entrant": s.team, "rank": s.rank, "matches": s.matches,
                      "points": s.points} for s in form_rankings(matches)],
        "matches": [{"home": m.home, "away": m.away, "home_points": shown(m.home_points, 4),
                     "away_points": shown(m.away_points, 4),
                     "boards": [{"board": b.board, "open": room(b.open_room),
                                 "closed": room(b.closed_room),
                                 "home_points": shown(b.home_points, 4),
                                 "away_points": shown(b.away_points, 4)}
                                for b in m.boards if b.board in visible]}
                    for m in matches]}

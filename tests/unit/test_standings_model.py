"""The overview's standings as its response model declares them (services/gateway/http/
state_models.py): every line `shared.tournament.results.standings` writes is one the model
takes, a pairs' tie for first split by the EBU White Book §143.7.1 included (a line the model
refused was a 500 for the Director's overview)."""

from __future__ import annotations

import pytest

from services.gateway.http.state_models import Standings
from shared.scores.tie_breaks import TieBreak
from shared.tournament.results import standings


@pytest.mark.parametrize("rule", list(TieBreak))
def test_a_tie_for_first_split_is_a_line_the_overview_model_takes(rule: TieBreak) -> None:
    line = {"entrant": 1, "rank": 1, "direction": "NS", "boards": 3, "points": 4.0,
            "top": 6.0, "percent": 66.67, "tie_break": str(rule)}
    doc = {"scoring": "matchpoints", "complete": [1, 2, 3],
           "entrants": [{"number": 1, "name": "pair 1"}, {"number": 2, "name": "pair 2"}],
           "rankings": [line, {**line, "entrant": 2, "rank": 2}]}
    model = Standings.model_validate(standings(doc))
    assert [(s.entrant, s.tie_break) for s in model.fields[0].top] == [(1, rule), (2, rule)]

"""The overview's standings as the core declares them (`shared.tournament.standings_view`,
the schema's): every line `shared.tournament.results.standings` writes is one the model
takes, a pairs' tie for first split by the EBU White Book §143.7.1 included (a line the model
refused was a 500 for the Director's overview)."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from services.gateway.http.state_models import DECLARED
from shared.scores.tie_breaks import TieBreak
from shared.tournament.results import standings
from shared.tournament.standings_view import Standings


@pytest.mark.parametrize("rule", list(TieBreak))
def test_a_tie_for_first_split_is_a_line_the_overview_model_takes(rule: TieBreak) -> None:
    line = {"entrant": 1, "rank": 1, "direction": "NS", "boards": 3, "points": 4.0,
            "top": 6.0, "percent": 66.67, "tie_break": str(rule)}
    doc = {"scoring": "matchpoints", "complete": [1, 2, 3],
           "entrants": [{"number": 1, "name": "pair 1"}, {"number": 2, "name": "pair 2"}],
           "rankings": [line, {**line, "entrant": 2, "rank": 2}]}
    shown = standings(doc)
    assert Standings.__pydantic_config__ == DECLARED  # no key but those declared
    TypeAdapter(Standings).validate_python(shown)
    assert [(s["entrant"], s.get("tie_break")) for s in shown["fields"][0]["top"]] == [
        (1, rule), (2, rule)]

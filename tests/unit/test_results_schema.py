"""The results document, typed once: `shared.tournament.results.results` returns the core's
`shared.tournament.results_view.ResultsDoc`, and the results route's OpenAPI schema is that
very TypedDict (`services.gateway.http.state_models`), no key but those declared. So a key the
results gain and no declaration names fails here: real documents of every form of event the
project scores (Law 78A matchpoints in a Mitchell, a Howell, an arrow switch, sections; Law 78B
cross-IMPs, Butler, pairs and teams by VPs, Swiss teams and Swiss pairs; Law 78C board-a-match
and aggregate), with the Director's scores of each kind (Law 12C1(b), 12C1(c), 12C2, 79C, 90),
a fouled board (Law 87B) and a session that continues another, validate strictly against the
schema, and every key declared is seen in one of them (a declaration nothing fills is a key the
schema promises and no reader gets)."""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import orjson
import pydantic
import pytest
import typing_extensions
from pydantic import TypeAdapter

from services.gateway.app import create_app
from services.gateway.http.state_models import DECLARED, ResultsDoc, declarations
from shared.scores.swiss_pairs import swiss_pairs_round
from shared.scores.vocabulary import Scoring, TeamScoring
from shared.tournament import results_view, standings_view
from shared.tournament.carry_over import Session, continued
from shared.tournament.entrants import Entrant, MovementKind, movement_of, plan, seating_map
from shared.tournament.results import results
from shared.tournament.session import Tournament
from tests.fakes import gateway_adapters
from tests.unit.test_arrow_switch import TABLES as ARROW_TABLES
from tests.unit.test_fouled_boards import MITCHELL_BOARD_1, _mitchell as fouled_mitchell
from tests.unit.test_individuals import _made as individual
from tests.unit.test_overview_schema import _howell_by_vps, _team_form, _teams_by_vps
from tests.unit.test_sections import TABLES as SECTION_TABLES, _tables as section_results
from tests.unit.test_swiss_pairs import ROUND_1, ROUND_2
from tests.unit.test_tournament_results import DIRECTOR, MITCHELL_TABLES, _made
from tests.unit.tournament_fixtures import entrants, round_records

RESULTS = TypeAdapter(ResultsDoc)
MODULES = (results_view, standings_view)


def check(doc: Any) -> None:
    """`doc` validates against the results' declaration, no key but those declared, each of
    the type declared (and as the JSON the route writes, strictly)."""
    RESULTS.validate_python(doc)
    RESULTS.validate_json(orjson.dumps(doc), strict=True)


# --- a document of every form -------------------------------------------------------------

PLAYED = {"t-1": {2: {"contract": "1NTX", "declarer": "N", "lead": "HK", "tricks": 6,
                      "substitutes": "W"}},
          "t-2": {4: {"contract": "PASS"}}}


def _mitchell(everything: bool = True) -> results_view.ResultsDoc:
    """A Mitchell by matchpoints (Law 78A), timed, its players with IDs, a Director's score
    of each kind (Laws 12C1(b), 12C1(c), 12C2, 79C, 90) and the play of two boards."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    assert made.movement is not None
    ids = tuple(replace(e, player_ids=(f"{e.name}1@x", "")) for e in made.entrants)
    made = replace(made, entrants=ids, movement=replace(made.movement, minutes_per_board=7.5))
    return results(made, round_records(made), MITCHELL_TABLES, DIRECTOR, everything,
                   table_lines=PLAYED)


def _split() -> results_view.ResultsDoc:
    """A Mitchell with a split score: NS's assigned, EW's weighted (Law 12C1(b), (c))."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    split = {"kind": "split", "board": 3, "ns": 2, "ew": 5, "reason": "hesitation (Law 16B)",
             "ns_score": {"score_ns": 110},
             "ew_score": {"parts": [{"percent": 50, "score_ns": 110},
                                    {"percent": 50, "score_ns": -100}]}}
    return results(made, round_records(made), MITCHELL_TABLES, [split])


def _howell(scoring: Scoring) -> results_view.ResultsDoc:
    """A Howell in one field by cross-IMPs or Butler (Law 78B)."""
    deals = {n: {"board": n} for n in range(1, 13)}
    movement = movement_of(MovementKind.HOWELL, 2, 1, scoring, 4, 2, list(deals))
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), deals, entrants=entrants(4),
                      movement=movement)
    tables = {"t-1": {1: 620, 2: 100}, "t-2": {1: 170, 2: 100}}
    return results(made, round_records(made), tables, [])


def _arrow_switch() -> results_view.ResultsDoc:
    deals = {n: {"board": n} for n in range(1, 4)}
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 6, 3,
                           list(deals), arrow_switch=True)
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2", "t-3"), deals,
                      entrants=entrants(6), movement=movement)
    return results(made, round_records(made), ARROW_TABLES, [])


def _sections() -> results_view.ResultsDoc:
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 12, 6,
                           [1, 2, 3], sections=2)
    deals = {n: {"board": n} for n in (1, 2, 3)}
    made = Tournament("s", "s", "duplicate", SECTION_TABLES, deals, entrants=entrants(12),
                      movement=movement)
    return results(made, round_records(made), section_results(), [])


def _fouled() -> results_view.ResultsDoc:
    """A board fouled at two tables (Law 87B), scored in its groups."""
    made = fouled_mitchell()
    rounds = round_records(made)
    ew_at = {t: s["ew"] for r in rounds for t, s in r["seatings"].items() if 1 in s["boards"]}
    marked = {"type": "board_fouled", "board": 1, "reason": "the E and W hands swapped",
              "groups": [[{"ns": 4, "ew": ew_at["t-4"]}, {"ns": 5, "ew": ew_at["t-5"]}]]}
    tables = {t: {1: score} for t, score in MITCHELL_BOARD_1.items()}
    return results(made, rounds, tables, [marked])


def _swiss_teams() -> results_view.ResultsDoc:
    deals = {n: {"board": n} for n in range(1, 13)}
    movement = movement_of(MovementKind.SWISS, 4, 3, Scoring.MATCHPOINTS, 4, 4, list(deals))
    made = Tournament("t", "t", "duplicate", tuple(f"t-{n}" for n in range(1, 5)), deals,
                      entrants=entrants(4), movement=movement)
    first = plan(movement, 4)[0]
    tables = {made.tables[s.table - 1]: dict.fromkeys(s.boards, 100 * s.table)
              for s in first.tables}
    return results(made, round_records(made), tables, [])


def _swiss_pairs() -> results_view.ResultsDoc:
    """A Swiss pairs by cross-IMPs to VPs, its first two rounds (tests/unit/test_swiss_pairs)."""
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.SWISS_PAIRS, 2, 3, Scoring.CROSS_IMPS, 4, 2,
                           list(deals))
    made = Tournament("sp", "sp", "duplicate", ("sp-1", "sp-2"), deals, entrants=entrants(4),
                      movement=movement)
    one = swiss_pairs_round(1, 4, 2, {})
    two = swiss_pairs_round(2, 4, 2, {1: 10.86, 4: 10.86, 2: 9.14, 3: 9.14},
                            {frozenset((1, 2)), frozenset((3, 4))}, [])
    records = [{"type": "round_started", "round": r.number,
                "seatings": {made.tables[s.table - 1]: seating_map(s) for s in r.tables},
                "sit_out": list(r.sit_out)} for r in (one, two)]
    return results(made, records, {t: ROUND_1[t] | ROUND_2[t] for t in ROUND_1}, [])


def _individual() -> results_view.ResultsDoc:
    """An individual's two rounds (tests/unit/test_individuals): the players ranked."""
    made = individual(2)
    return results(made, round_records(made), {"i-1": {1: 420, 2: -100}, "i-2": {1: 170}}, [])


def _continued() -> results_view.ResultsDoc:
    """A second session that continues the first (docs/scoring.md), a pair missing from it."""
    first = _mitchell()
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    renamed = (*made.entrants[:-1], Entrant(6, "Z", ("Z1", "Z2")))
    second = replace(made, tournament="t2", entrants=renamed)
    doc = results(second, round_records(second), MITCHELL_TABLES, [])
    return continued(doc, [Session("Monday", first), Session("Tuesday", doc)], "t")


FORMS: dict[str, Callable[[], results_view.ResultsDoc]] = {
    "Mitchell by matchpoints": _mitchell, "the public's Mitchell": lambda: _mitchell(False),
    "a split score": _split, "Howell by cross-IMPs": lambda: _howell(Scoring.CROSS_IMPS),
    "Howell by Butler": lambda: _howell(Scoring.BUTLER), "arrow switch": _arrow_switch,
    "sections": _sections, "a fouled board": _fouled, "pairs by VPs": _howell_by_vps,
    "teams by VPs": _teams_by_vps, "Swiss teams": _swiss_teams, "Swiss pairs": _swiss_pairs,
    "board-a-match": lambda: _team_form(TeamScoring.BOARD_A_MATCH),
    "aggregate": lambda: _team_form(TeamScoring.AGGREGATE),
    "a session continued": _continued, "an individual": _individual}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_results_of_every_form_validate_strictly(form: str) -> None:
    """Each form's document (Law 78A, 78B, 78C) is one the schema declares, no key but those
    declared, each of its type."""
    check(FORMS[form]())


def _owner(view: Any, key: str) -> Any:
    """The TypedDict that declares `key` of `view`: `view`, or the one it extends that does."""
    for base in getattr(view, "__orig_bases__", ()):
        if typing_extensions.is_typeddict(base) and key in typing.get_type_hints(base):
            return _owner(base, key)
    return view


def _keys(value: Any, annotation: Any) -> Iterator[tuple[str, str]]:
    """Each (TypedDict, key) `value` fills, reading it as `annotation` declares it (a key
    inherited: the TypedDict that declares it)."""
    while typing.get_origin(annotation) in (typing.Annotated, typing.NotRequired,
                                            typing_extensions.NotRequired):
        annotation = typing.get_args(annotation)[0]
    if typing_extensions.is_typeddict(annotation):
        hints = typing.get_type_hints(annotation, include_extras=True)
        for key, found in value.items():
            yield _owner(annotation, key).__name__, key
            yield from _keys(found, hints[key])
    elif typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        for found in value:
            yield from _keys(found, item)
    elif typing.get_origin(annotation) is dict:
        for found in value.values():
            yield from _keys(found, typing.get_args(annotation)[1])
    elif value is not None:
        for option in typing.get_args(annotation):
            if typing_extensions.is_typeddict(option):
                yield from _keys(value, option)


def test_every_key_declared_is_one_some_form_fills() -> None:
    """Across the forms, every key of every TypedDict of the results is filled at least once:
    the declaration says what the documents hold, no more."""
    seen = {pair for make in FORMS.values() for pair in _keys(make(), ResultsDoc)}
    declared = {(_owner(view, key).__name__, key) for view in declarations(ResultsDoc)
                for key in typing.get_type_hints(view)}
    assert declared - seen == set()


def test_every_declaration_of_the_results_is_read_as_the_schema_reads_it() -> None:
    """Every TypedDict of `results_view` is one of `ResultsDoc`'s, read with no key but its
    own and its key strings as descriptions; the route's schema is generated from it."""
    ours = {v for v in vars(results_view).values()
            if typing_extensions.is_typeddict(v) and v.__module__ == results_view.__name__}
    # `Carried` is what `carry_over.carried` returns: its keys are the document's own
    assert ours - {results_view.Carried} <= declarations(ResultsDoc)
    assert set(typing.get_type_hints(results_view.Carried)) <= set(
        typing.get_type_hints(ResultsDoc))
    for view in declarations(ResultsDoc):
        assert view.__pydantic_config__ == DECLARED, view.__name__
    schema = create_app(adapters=gateway_adapters()).app.openapi()  # type: ignore[attr-defined]
    answer = schema["paths"]["/api/tournaments/{tournament}/results"]["get"]["responses"]
    ref = answer["200"]["content"]["application/json"]["schema"]["$ref"]
    doc = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert doc["additionalProperties"] is False
    assert set(doc["properties"]) == set(typing.get_type_hints(ResultsDoc))
    assert "matchpoint percentages" in doc["properties"]["carried"]["description"]


def test_a_key_the_results_gain_undeclared_fails() -> None:
    """The guard itself: a document, a ranking's line, a traveller's line or a match's room
    with a key no declaration names is refused."""
    doc = _mitchell()
    check(doc)
    line = doc["travellers"][0]["lines"][0]
    for bad in ({**doc, "new": 1},
                {**doc, "rankings": [{**doc["rankings"][0], "new": 1}]},
                {**doc, "travellers": [{**doc["travellers"][0], "lines": [{**line, "new": 1}]}]},
                {**doc, "entrants": [{**doc["entrants"][0], "new": 1}]}):
        with pytest.raises(pydantic.ValidationError, match="new"):
            RESULTS.validate_python(bad)
    teams = _teams_by_vps()
    matches = teams["matches"]
    board = matches[0]["boards"][0]
    with pytest.raises(pydantic.ValidationError, match="new"):
        RESULTS.validate_python({**teams, "matches": [
            {**matches[0], "boards": [{**board, "open": {**board["open"], "new": 1}}]}]})

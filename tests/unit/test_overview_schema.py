"""A tournament's overview, typed once: its lines are the core's `TableSummary` as the
processor stores it (`shared.table.table_summary`) with what the gateway adds
(`services.gateway.tournaments.overview_view`), its standings the core's
(`shared.tournament.standings_view`), and /openapi.json shows those very TypedDicts
(`services.gateway.http.state_models`), no key but those declared. So a key the core or the
gateway adds to the overview and no declaration names fails here: on real overviews, from a
tournament played on the fakes and over HTTP, and on the standings of every kind of event (a
pairs' VP event's `rounds` was missing from the pydantic mirror these replace, as `tie_break`
had been: the Director's overview was a 500)."""

from __future__ import annotations

import json
import time
import typing
from pathlib import Path
from typing import Any

import orjson
import pydantic
import pytest
import typing_extensions
from pydantic import TypeAdapter

from services.common.names import table_topic
from services.common.store import StateWrite
from services.gateway.http.state_models import DECLARED, Overview, declarations
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import overview_view
from shared.scores.vocabulary import Scoring, TeamScoring
from shared.table import table_summary
from shared.table.table_run import TableRun
from shared.tournament import standings_view
from shared.tournament.entrants import MovementKind, movement_of
from shared.tournament.results import results, standings
from shared.tournament.session import Tournament
from tests.fakes import MemoryKafka, MemoryStore, director_client, director_gateway
from tests.helpers import DEALS
from tests.unit.test_pair_vps import howell as howell_by_vps
from tests.unit.test_team_forms import STAFFORD
from tests.unit.test_tournament_results import (
    DIRECTOR,
    MITCHELL_TABLES,
    TEAM_DIRECTOR,
    TEAM_TABLES,
    _made,
)
from tests.unit.tournament_fixtures import entrants, round_records

OVERVIEW = TypeAdapter(Overview)
STANDINGS = TypeAdapter(standings_view.Standings)
MODULES = (overview_view, standings_view, table_summary)


def check(view: Any) -> None:
    """`view` validates against the overview's declaration, no key but those declared, each
    of the type declared (and as the JSON the route writes, strictly)."""
    OVERVIEW.validate_python(view)
    OVERVIEW.validate_json(orjson.dumps(view), strict=True)


def test_every_declaration_of_the_overview_is_read_as_the_schema_reads_it() -> None:
    """Every TypedDict the overview is made of is one of `Overview`'s, read with no key but
    its own and its key strings as descriptions."""
    declared = {v for module in MODULES for v in vars(module).values()
                if typing_extensions.is_typeddict(v) and v.__module__ == module.__name__}
    assert declared == declarations(Overview)
    for view in declarations(Overview):
        assert view.__pydantic_config__ == DECLARED, view.__name__


def test_a_line_is_the_core_summary_and_what_the_gateway_adds() -> None:
    """The gateway's line extends the processor's, which extends the core's summary: a key
    the summary gains is the line's at once (no mirror to keep)."""
    line = list(typing.get_type_hints(overview_view.TableLine))
    summary = list(typing.get_type_hints(table_summary.TableSummary))
    assert line == [*summary, "last_ts", "table", "idle_s", "robots", "vugraph_match", "behind"]
    assert set(overview_view.TableLine.__required_keys__) == set(line)


# --- a tournament played on the fakes ------------------------------------------------------

PAIRS = [{"name": f"pair {n}", "players": [f"P{n}a", f"P{n}b"]} for n in range(1, 5)]
T = "ov"


async def _play(gw: Gateway, kafka: MemoryKafka, table: str, calls: list[dict[str, Any]]
                ) -> None:
    """Calls at the table, each by the seat whose turn it is (as the table's line says)."""
    for call in calls:
        summary = table_summary.table_summary(_run(kafka, table).state)
        await gw.append(table, {"type": "call", "seat": summary["turn"], **call})


def _run(kafka: MemoryKafka, table: str) -> TableRun:
    run = TableRun(table, meta={"tournament": T})
    for offset, (_, value) in enumerate(kafka.records(table_topic(table))):
        run.apply(offset, value)
    return run


async def _processed(kafka: MemoryKafka, store: MemoryStore, tables: list[str]) -> None:
    """What the processor does (the fakes have none): each table's log folded, its state and
    its overview line written."""
    for table in tables:
        run = _run(kafka, table)
        await store.write_batch([StateWrite(table, run.offset, run.view(),
                                            run.overview_line())])


async def test_a_played_tournaments_overview_validates_and_is_answered_as_built(
        tmp_path: Path) -> None:
    """A Mitchell's round started, a board passed out at one table, an insufficient bid at
    the other (a Director's alert, Law 27), a robot asked for, the round timed or not: the
    overview (GET, on the core's lines as the processor stores them) validates against its
    schema, every key of its lines there, and the route writes it as built (not validated
    on the read)."""
    kafka, store = MemoryKafka(shards=8), MemoryStore()
    gw = director_gateway(tmp_path, kafka, store)
    async with director_client(gw) as http:
        made = await http.post("/api/tournaments", json={
            "tournament": T, "tables": 2, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "mitchell", "boards_per_round": 2, "rounds": 1,
                         "minutes_per_board": 7}})
        assert made.status_code == 201, made.text
        assert (await http.post(f"/api/tournaments/{T}/rounds", json={"round": 1})
                ).status_code == 202
        await _play(gw, kafka, "ov-1", [{"call": "P"}] * 4)
        await _play(gw, kafka, "ov-2", [{"call": "1C", "alert": True, "explanation": "short"},
                                        {"call": "1C"}])  # insufficient (Law 27)
        await _processed(kafka, store, ["ov-1", "ov-2"])
        gw.adapters.alerts.robots["ov-2"] = ["W"]
        await store.drop_clock(T)  # the round's clock, held or over
        untimed = await http.get(f"/api/tournaments/{T}")
        await store.set_clock(T, int(time.time() * 1000) + 60_000)
        timed = await http.get(f"/api/tournaments/{T}")
    for answer in (untimed, timed):
        assert answer.status_code == 200, answer.text
        check(answer.json())
    view = timed.json()
    lines = {line["table"]: line for line in view["tables"]}
    assert lines["ov-1"]["boards_finished"] == 1 and lines["ov-2"]["alerts"] == 1
    assert lines["ov-2"]["robots"] == {"W": "waiting"}
    assert lines["ov-2"]["behind"] is True and untimed.json()["tables"][1]["behind"] is None
    assert untimed.json()["clock"] is None
    assert view["clock"] is not None and view["standings"]["scoring"] == "matchpoints"
    named = [line["name"] for f in view["standings"]["fields"] for line in f["top"]]
    assert named and all(name.startswith("pair ") for name in named)
    every = set(typing.get_type_hints(overview_view.TableLine))
    assert all(set(line) == every for line in view["tables"])
    assert timed.content == orjson.dumps(view)  # written as built, compact
    assert json.loads(timed.content) == view


def test_a_key_the_overview_gains_undeclared_fails() -> None:
    """The guard itself: a line, the totals or a standing with a key no declaration names is
    refused (the class of the `tie_break` bug, caught by the schema's tests, not a reader)."""
    line = {"table": "t", "board": None, "status": "waiting", "turn": None, "round": None,
            "boards_left": 0, "held": False, "boards_finished": 0, "alerts": 0,
            "open_alerts": 0, "acting": None, "substitutes": [], "last_ts": None,
            "idle_s": None, "robots": {}, "vugraph_match": None, "behind": None}
    totals = {"tables": 1, "playing": 0, "boards_finished": 0, "alerts_raised": 0,
              "alerts_open": 0}
    mark = {"entrant": 1, "rank": 1, "name": "A", "direction": "NS", "boards": 2,
            "points": 3.0, "top": 4.0, "percent": 75.0}
    view = {"tournament": "t", "name": "T", "now": 1, "clock": None, "totals": totals,
            "tables": [line], "standings": {"scoring": "matchpoints", "complete": 2,
                                            "fields": [{"direction": "NS", "top": [mark]}]}}
    check(view)
    for bad in ({**view, "tables": [{**line, "new": 1}]},
                {**view, "totals": {**totals, "new": 1}},
                {**view, "standings": {"scoring": "matchpoints", "complete": 2, "fields": [
                    {"direction": "NS", "top": [{**mark, "new": 1}]}]}}):
        with pytest.raises(pydantic.ValidationError, match="new"):
            OVERVIEW.validate_python(bad)


# --- the standings of every kind of event ---------------------------------------------------


def _howell_by_vps() -> dict[str, Any]:
    doc: dict[str, Any] = howell_by_vps()[1]
    return doc


def _team_form(form: TeamScoring) -> dict[str, Any]:
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.TEAMS, 6, None, Scoring.MATCHPOINTS, 2, 2,
                           list(deals), team_scoring=form)
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), deals, entrants=entrants(2),
                      movement=movement)
    tables = {"t-1": {b: ours for b, (ours, _, _) in enumerate(STAFFORD, 1)},
              "t-2": {b: theirs for b, (_, theirs, _) in enumerate(STAFFORD, 1)}}
    return results(made, round_records(made), tables, [])


def _mitchell() -> dict[str, Any]:
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    return results(made, round_records(made), MITCHELL_TABLES, DIRECTOR)


def _teams_by_vps() -> dict[str, Any]:
    made = _made(MovementKind.TEAMS, 2, 4, 1)
    return results(made, round_records(made), TEAM_TABLES, TEAM_DIRECTOR)


EVENTS = {"pairs by matchpoints": _mitchell, "pairs by VPs": _howell_by_vps,
          "teams by VPs": _teams_by_vps,
          "board-a-match": lambda: _team_form(TeamScoring.BOARD_A_MATCH),
          "aggregate": lambda: _team_form(TeamScoring.AGGREGATE)}


@pytest.mark.parametrize("event", sorted(EVENTS))
def test_the_standings_of_every_kind_of_event_validate(event: str) -> None:
    """Every line of the ranking (Law 78) of each kind of event, as the overview's standings
    carry it, is one the schema declares, each of its keys included."""
    doc = EVENTS[event]()
    shown = standings(doc, top=len(doc["rankings"]))
    STANDINGS.validate_python(shown)
    STANDINGS.validate_json(orjson.dumps(shown), strict=True)
    lines = [line for field in shown["fields"] for line in field["top"]]
    assert {line["entrant"] for line in lines} == {r["entrant"] for r in doc["rankings"]}
    declared = set(typing.get_type_hints(standings_view.StandingLine))
    assert all(set(line) <= declared for line in lines)

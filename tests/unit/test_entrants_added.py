"""Entrants added after a tournament's creation, before its first round (docs/scoring.md: "given at
creation or added before a round"; `shared.tournament.entrants_added`)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import MovementKind, movement_of, plan
from shared.tournament.entrants_added import EntrantConflict, entrant_added, with_added
from shared.tournament.session import Tournament, TournamentError
from tests.unit.tournament_fixtures import entrants


def _made(kind: MovementKind, count: int, tables: int, rounds: int | None = None
          ) -> Tournament:
    deals = {n: {"board": n} for n in range(1, 13)}
    movement = movement_of(kind, 1, rounds, Scoring.MATCHPOINTS, count, tables, list(deals))
    return Tournament("t", "t", "duplicate", tuple(f"t-{n}" for n in range(1, tables + 1)),
                      deals, entrants=entrants(count), movement=movement)


FIFTH: dict[str, Any] = {"name": "E", "players": ["E1", "E2"]}


def test_a_pair_added_to_a_howell_before_round_1_is_planned_with_the_others() -> None:
    """Four pairs at two tables, three rounds; a fifth fits the same two tables (the circle
    method with one pair sitting out each round) and is seated by the plan."""
    made = _made(MovementKind.HOWELL, 4, 2, 3)
    event = entrant_added(made, FIFTH, rounds_started=0)
    assert event == {"type": "entrant_added", "number": 5, "name": "E",
                     "players": ["E1", "E2"]}
    now = with_added(made, [{"type": "score_given"}, event])
    assert [e.number for e in now.entrants] == [1, 2, 3, 4, 5]
    assert now.entrants[4].players == ("E1", "E2")
    assert now.movement is not None
    seated = {p for r in plan(now.movement, len(now.entrants))
              for s in r.tables for p in (s.ns, s.ew)}
    assert 5 in seated
    assert with_added(made, []) is made


def test_an_entrant_sent_again_with_its_number_is_found_not_added_twice() -> None:
    made = _made(MovementKind.HOWELL, 4, 2, 3)
    now = with_added(made, [entrant_added(made, FIFTH, 0) or {}])
    assert entrant_added(now, {**FIFTH, "number": 5}, 0) is None
    with pytest.raises(EntrantConflict) as caught:
        entrant_added(now, {**FIFTH, "number": 5, "name": "other"}, 0)
    assert caught.value.field == "number"


@pytest.mark.parametrize(("kind", "count", "tables", "given", "field"), [
    (MovementKind.HOWELL, 4, 2, {**FIFTH, "number": 7}, "number"),  # not the next number
    (MovementKind.HOWELL, 5, 2, FIFTH, "tables"),  # six pairs need three tables
    (MovementKind.MITCHELL, 6, 3, FIFTH, "tables"),  # seven pairs: four tables
])
def test_an_entrant_the_movement_cannot_take_names_the_field(
        kind: MovementKind, count: int, tables: int, given: dict[str, Any], field: str) -> None:
    made = _made(kind, count, tables)
    with pytest.raises(TournamentError) as caught:
        entrant_added(made, given, 0)
    assert caught.value.field == field and not isinstance(caught.value, EntrantConflict)


def test_a_mitchell_with_a_sit_out_takes_a_pair_at_the_same_tables() -> None:
    made = _made(MovementKind.MITCHELL, 5, 3)
    assert entrant_added(made, FIFTH, 0) is not None


def test_an_entrant_once_a_round_has_started_is_a_conflict_naming_entrants() -> None:
    with pytest.raises(EntrantConflict) as caught:
        entrant_added(_made(MovementKind.HOWELL, 4, 2, 3), FIFTH, rounds_started=1)
    assert caught.value.field == "entrants"


def test_a_tournament_without_a_movement_takes_no_entrant() -> None:
    made = Tournament("t", "t", "duplicate", ("t-1",), {1: {"board": 1}})
    with pytest.raises(TournamentError) as caught:
        entrant_added(made, FIFTH, 0)
    assert caught.value.field == "movement"


def test_only_entrants_recorded_before_round_1_and_numbered_next_count() -> None:
    """Two sent at once with the same number: the first stands; one appended after round 1
    started (racing it) does not change the movement's meetings."""
    made = _made(MovementKind.HOWELL, 4, 2, 3)
    fifth = entrant_added(made, FIFTH, 0) or {}
    other = {**fifth, "name": "F"}
    assert [e.name for e in with_added(made, [fifth, other]).entrants][-2:] == ["D", "E"]
    assert with_added(made, [{"type": "round_started"}, fifth]) is made

"""The importer's ids are its own (docs/cli.md, import): the gateway refuses an `import:` id from
anyone, and an import counts an event as there only when the same event carries its id; what
it leaves out it reports, board by board."""

from __future__ import annotations

from typing import Any

import pytest

from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.replay.importer import Found, boards_of, plan, with_ids
from shared.codec import encode, from_map
from tests.script import log

EVENTS = log("N 1S, E P, S 2S, W P, N P, E P") + log("E 1H, S P, W P, N P", board=2)


def _records(maps: list[dict[str, Any]]) -> list[tuple[int, bytes | None]]:
    return [(offset, encode(from_map({**m, "ts": 5_000 + offset})))
            for offset, m in enumerate(maps)]


def _stamped(event: dict[str, Any]) -> dict[str, Any]:
    return {**event, "ruleset": "duplicate"} if event["type"] == "board_started" else event


@pytest.mark.parametrize("event_id", ["import:0123456789abcdef0123:0:1", "import:x",
                                      "IMPORT:x", "Import:abc:0:0"])
def test_the_gateway_refuses_an_importers_id_from_anyone(event_id: str) -> None:
    for event in ({"type": "call", "seat": "N", "call": "P", "id": event_id},
                  {"type": "board_started", "board": 1, "id": event_id}):
        with pytest.raises(Refused) as refused:
            Gateway.encoded(event)
        assert refused.value.kind == Kind.BAD_INPUT and refused.value.field == "id"
        assert "import" in refused.value.reason
    assert Gateway.encoded({"type": "call", "seat": "N", "call": "P", "id": "imported.1"})


def test_ids_on_other_events_do_not_make_an_import_leave_them_out() -> None:
    """Six of board 1's ids on the table on a seat's events (posted before the gateway
    refused them): the board is imported whole all the same, and the ids are reported."""
    boards = with_ids(boards_of(EVENTS))
    taken = [e["id"] for e in boards[0][:6]]
    squatted = _records([{"type": "call", "seat": "S", "call": "P", "id": i} for i in taken])
    planned = plan(boards, squatted, "duplicate")
    assert planned.todo == boards and planned.found == [] and planned.taken == taken


def test_what_is_there_is_left_out_and_reported_board_by_board() -> None:
    """An import cut short: board 2 whole and board 1's first three events on the table (as
    the importer appended them, at another time): only board 1's rest is appended."""
    boards = with_ids(boards_of(EVENTS))
    there = [_stamped(e) for e in boards[1]] + [_stamped(e) for e in boards[0][:3]]
    planned = plan(boards, _records(there), "duplicate")
    assert planned.todo == [boards[0][3:]] and planned.taken == []
    assert planned.found == [Found(1, tuple(e["id"] for e in boards[0][:3]), 7),
                             Found(2, tuple(e["id"] for e in boards[1]), 5)]
    assert [f.whole for f in planned.found] == [False, True]
    again = plan(boards, _records(there + [_stamped(e) for e in boards[0][3:]]), "duplicate")
    assert again.todo == [] and all(f.whole for f in again.found)

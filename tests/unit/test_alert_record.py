"""The alerts topic's records are the core's declaration (`shared.table.alert_record`): every
record a fold raises, an alert (here Law 27's insufficient bid, at a tournament's table) or a
poison record (an undecodable record, skipped), validates strictly against `AlertRecord |
PoisonRecord` with no key beyond those declared; a key added to one but not declared fails."""

from __future__ import annotations

from typing import Any

import orjson
import pydantic
import pytest
from pydantic import TypeAdapter

from services.gateway.http.state_models import DECLARED, declarations
from shared import from_map
from shared.codec import encode
from shared.table.alert_record import AlertRecord, PoisonRecord
from shared.table.table_run import TableRun
from tests.helpers import DEAL

for _declared in declarations(AlertRecord, PoisonRecord):
    _declared.__pydantic_config__ = DECLARED
RECORDS = TypeAdapter(list[AlertRecord | PoisonRecord])


def raised() -> list[Any]:
    """A tournament's table: its round, North's 1H, East's insufficient 1D (Law 27), then a
    record that is no event."""
    run = TableRun("eve-1", meta={"tournament": "eve"})
    events = [{"type": "round_started", "round": 1, "ts": 1, "boards": [{"board": 1,
                                                                         "deal": DEAL}]},
              {"type": "call", "seat": "N", "call": "1H", "ts": 2},
              {"type": "call", "seat": "E", "call": "1D", "ts": 3}]
    for offset, m in enumerate(events):
        run.apply(offset, encode(from_map(m)))
    run.apply(len(events), b"not an event")
    return [record for _, record in run.raised]


def test_every_record_a_fold_raises_is_declared() -> None:
    records = raised()
    kinds = [r["kind"] for r in records]
    assert "insufficient_bid" in kinds and kinds[-1] == "poison"
    alert = records[kinds.index("insufficient_bid")]
    assert (alert["law"], alert["table"], alert["board"], alert["offset"], alert["ts"],
            alert["tournament"]) == ("27", "eve-1", 1, 2, 3, "eve")
    RECORDS.validate_python(records)
    RECORDS.validate_json(orjson.dumps(records), strict=True)


@pytest.mark.parametrize("which", ["alert", "poison"])
def test_a_key_not_declared_is_refused(which: str) -> None:
    records = raised()
    record = records[0] if which == "alert" else records[-1]
    with pytest.raises(pydantic.ValidationError):
        RECORDS.validate_python([{**record, "surprise": 1}])

"""The alerts topic's records are the core's declaration (`shared.table.alert_record`): every
record a fold raises, an alert (here Law 27's insufficient bid, at a tournament's table) or a
poison record (an undecodable record, skipped), validates strictly against `AlertRecord |
PoisonRecord` with no key beyond those declared; a key added to one but not declared fails.
So does the Director's list of them, as the gateway answers it (`feeds.alerts_view`)."""

from __future__ import annotations

from typing import Any

import orjson
import pydantic
import pytest
from pydantic import TypeAdapter

from services.gateway.feeds.alert_feed import AlertFeed, published
from services.gateway.http.state_models import DECLARED, AlertsList, declarations
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
    return [record for _, record in raised_with_ids()]


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


# --- the Director's list of them (GET /api/alerts) -------------------------------------------

LISTED = TypeAdapter(AlertsList)


async def test_the_directors_list_is_the_topics_records_with_their_offsets_and_marks() -> None:
    """The records as the shard log publishes them (`{"id", **record}`), read by the gateway's
    alerts feed: its list validates strictly against `AlertsList`, each with the alerts
    topic's offset in place of its table's and the Director's mark on the one he dealt with
    (null on the others)."""
    run_raised = raised_with_ids()
    feed = AlertFeed("127.0.0.1:1")  # never started: only its list is read
    for offset, (alert_id, record) in enumerate(run_raised, start=40):
        feed._dispatch(offset, published(orjson.dumps({"id": alert_id, **record})))
    first_id = run_raised[0][0]
    feed.handled[first_id] = {"alert": first_id, "handled": True, "note": "ruled", "ts": 9}
    listed: AlertsList = {"alerts": feed.latest(100)}
    LISTED.validate_json(orjson.dumps(listed), strict=True)
    assert [a["offset"] for a in listed["alerts"]] == list(range(40, 40 + len(run_raised)))
    assert [a["id"] for a in listed["alerts"]] == [i for i, _ in run_raised]
    assert listed["alerts"][0]["handled"] == feed.handled[first_id]
    assert all(a["handled"] is None for a in listed["alerts"][1:])
    with pytest.raises(pydantic.ValidationError):
        LISTED.validate_python({"alerts": [{**listed["alerts"][0], "surprise": 1}]})
    await feed.stop()


@pytest.mark.parametrize("value", [b"[1, 2]", b'{"kind": "poison"}', b"not json"])
def test_a_record_of_the_alerts_topic_with_no_id_is_passed_over(value: bytes) -> None:
    """The feed's reader passes over (and logs) a record it cannot list: not an alert with
    its id (`alert_feed.published`)."""
    with pytest.raises(ValueError):
        published(value)


def raised_with_ids() -> list[tuple[str, Any]]:
    """`raised()`'s records with the ids the fold gave them (`shared.ids`)."""
    run = TableRun("eve-1", meta={"tournament": "eve"})
    events = [{"type": "round_started", "round": 1, "ts": 1, "boards": [{"board": 1,
                                                                         "deal": DEAL}]},
              {"type": "call", "seat": "N", "call": "1H", "ts": 2},
              {"type": "call", "seat": "E", "call": "1D", "ts": 3}]
    for offset, m in enumerate(events):
        run.apply(offset, encode(from_map(m)))
    run.apply(len(events), b"not an event")
    return list(run.raised)

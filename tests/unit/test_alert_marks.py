"""The director's marks on alerts (docs/api.md): `handled` true or false only, a note fit
to be shown, and only for an alert its table raised (found among the alerts the gateway keeps,
else by folding the table up to the event that would have raised it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from services.common.settings import Settings
from services.gateway.http.models import MarkAlert
from services.gateway.http.routes import alerts
from services.gateway.tables.service import Gateway
from shared.codec import encode, from_map
from tests.fakes import MemoryKafka, MemoryReads, MemoryStore, gateway_adapters
from tests.script import log


@pytest.mark.parametrize("body", [{"handled": "yes"}, {"handled": "true"}, {"handled": 1},
                                  {"handled": None}, {"note": "done\x1b[2J"},
                                  {"note": "\x00"}, {"note": "a\x85b"}, {"note": "x" * 501}])
def test_a_mark_is_true_or_false_and_its_note_fit_to_show(body: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        MarkAlert(**body)


def test_a_note_may_have_line_breaks_and_any_script() -> None:
    assert MarkAlert(handled=False, note="ruled:\n2H\tsubstituted — 强").handled is False


async def test_an_alert_not_kept_is_found_by_folding_its_table(tmp_path: Path) -> None:
    """N 1S, E 1H: the insufficient bid at offset 2 raised t:1:2:0, nothing else was."""
    kafka = MemoryKafka(shards=8)
    kafka.register("t")
    for event in log("N 1S, E 1H"):
        kafka.call("t", encode(from_map(event)))
    reads, store = MemoryReads(kafka), MemoryStore()
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate", "created": 1}})
    gw = Gateway(Settings(TABLESERVER_DATA=tmp_path),
                 gateway_adapters(kafka, reads=reads, store=store))
    assert await alerts._raised(gw, "t:1:2:0")
    for never in ("t:1:1:0", "t:1:2:1", "t:2:2:0", "t:1:7:0", "t:poison:1"):
        assert not await alerts._raised(gw, never), never
    assert reads.tables_read[0] == ("t", 2)  # read up to the event that raised it, no further

"""The director's marks on alerts (issue 23, item 10): `handled` true or false only, a note fit
to be shown, and only for an alert its table raised (found among the alerts the gateway keeps,
else by folding the table up to the event that would have raised it)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

from services.gateway.models import MarkAlert
from services.gateway.routes import alerts
from shared.codec import encode, from_map
from tests.script import log


@pytest.mark.parametrize("body", [{"handled": "yes"}, {"handled": "true"}, {"handled": 1},
                                  {"handled": None}, {"note": "done\x1b[2J"},
                                  {"note": "\x00"}, {"note": "a\x85b"}, {"note": "x" * 501}])
def test_a_mark_is_true_or_false_and_its_note_fit_to_show(body: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        MarkAlert(**body)


def test_a_note_may_have_line_breaks_and_any_script() -> None:
    assert MarkAlert(handled=False, note="ruled:\n2H\tsubstituted — 强").handled is False


class Gateway(SimpleNamespace):
    async def table_meta(self, table: str) -> dict[str, Any]:
        return {"table": table}


async def test_an_alert_not_kept_is_found_by_folding_its_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """N 1S, E 1H: the insufficient bid at offset 2 raised t:1:2:0, nothing else was."""
    records = [(offset, encode(from_map(m))) for offset, m in enumerate(log("N 1S, E 1H"))]
    asked: list[int | None] = []

    async def read_table(bootstrap: str, table: str, until: int | None = None
                         ) -> list[tuple[int, bytes | None]]:
        asked.append(until)
        return [r for r in records if until is None or r[0] <= until]

    monkeypatch.setattr(alerts, "read_table", read_table)
    gw = Gateway(clients=SimpleNamespace(alerts=SimpleNamespace(knows=lambda _: False)),
                 settings=SimpleNamespace(kafka_bootstrap="nowhere"))
    assert await alerts._raised(gw, "t:1:2:0")  # type: ignore[arg-type]
    for never in ("t:1:1:0", "t:1:2:1", "t:2:2:0", "t:1:7:0", "t:poison:1"):
        assert not await alerts._raised(gw, never), never  # type: ignore[arg-type]
    assert asked[0] == 2  # read up to the event that raised it, no further

"""A tournament's creation record and its size (docs/api.md, 413): the gateway refuses, before
anything is made, a tournament larger than its topic takes, naming the field at fault."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from services.common.kafka.admin import TOURNAMENT, TOURNAMENT_RECORD_BYTES
from services.common.settings import Settings
from services.gateway.http.models import TournamentCreate
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import service as tournaments

DEALS = re.findall(r'\[Deal "[^"]+"\]',
                   (Path(__file__).parent.parent / "data" / "deals-32.pbn").read_text())


def deals_file(boards: int) -> str:
    return "\n".join(f'[Board "{n}"]\n{DEALS[n % len(DEALS)]}\n' for n in range(1, boards + 1))


def test_a_tournaments_topic_takes_what_the_upload_limit_admits() -> None:
    """The largest body the gateway reads (4 MiB by default) makes a record of about its
    size (the deals as the file gives them, the names as sent; JSON escapes aside): the
    topic takes twice that."""
    assert int(TOURNAMENT["max.message.bytes"]) == TOURNAMENT_RECORD_BYTES
    assert 2 * Settings().max_upload_bytes <= TOURNAMENT_RECORD_BYTES
    assert TOURNAMENT["retention.ms"] == "-1"  # kept forever, as before


@pytest.mark.parametrize(("boards", "players", "field"), [
    (200, {}, "deals"),
    (2, {f"t-{n}": {"N": "é" * 64, "S": "ü" * 64} for n in range(1, 21)}, "players"),
])
async def test_a_tournament_larger_than_its_topic_takes_is_refused_before_anything_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boards: int,
        players: dict[str, dict[str, str]], field: str) -> None:
    monkeypatch.setattr(tournaments, "TOURNAMENT_RECORD_BYTES", 10_000)
    gw = Gateway(Settings(data=tmp_path))  # no clients: Kafka and Redis are never asked
    request = TournamentCreate.model_validate({"tournament": "t", "tables": 20,
                                               "deals": deals_file(boards),
                                               "players": players})
    with pytest.raises(Refused) as refused:
        await tournaments.create(gw, request)
    assert (refused.value.kind, refused.value.field) == (Kind.TOO_LARGE, field)
    assert refused.value.reason.startswith(f"{field}: ") and "10000 bytes" in \
        refused.value.reason

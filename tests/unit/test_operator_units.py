"""A table's operator (a vugraph operator, a physical table's recorder), without Kafka: his
token, what he sees, and the events the gateway takes from him (`Gateway.accept_event`) with
the state store in memory and the append recorded."""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.common.settings import Settings
from services.gateway.errors import status_of
from services.gateway.refusals import Kind, Refused
from services.gateway.service import Accepted, Gateway
from services.gateway.tokens import Grant, sign, verify
from services.gateway.views import board_for, entry_for
from tests.fakes import MemoryStore
from tests.helpers import DEAL
from tests.script import play

KEY = b"k" * 32
OPERATOR = Grant("t", None, "operator")


class Limit:
    """The rate limit, counting the keys it is asked about; `open` False refuses them all."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.open = True

    async def allow(self, key: str, now: float) -> bool:
        self.keys.append(key)
        return self.open


class Clients:
    def __init__(self) -> None:
        self.store = MemoryStore()
        self.seat_limit = Limit()


class RecordingGateway(Gateway):
    """The gateway with its appends recorded instead of produced to Kafka."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.appended: list[dict[str, Any]] = []
        self.fakes = Clients()
        self.clients = self.fakes  # type: ignore[assignment]

    async def append(self, table: str, event_map: dict[str, Any]) -> int:
        self.encoded(event_map)  # the schema's check, as the real append
        self.appended.append({k: v for k, v in event_map.items() if k != "ts"})
        return len(self.appended) - 1


@pytest.fixture
async def gw(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> RecordingGateway:
    """A gateway that knows table `t`, whose board stands after N 1C! E P."""
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))
    gateway = RecordingGateway(Settings())
    store = gateway.fakes.store
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate", "created": 1}})
    store.states["t"] = (3, play("N 1C!, E P"))
    return gateway


def body(**fields: Any) -> dict[str, Any]:
    return json.loads(json.dumps(fields))  # as a door reads it


def test_an_operator_token_reads_its_own_table_only() -> None:
    token = sign(KEY, "t", None, "operator", expires=1000)
    grant = verify(KEY, token, now=0)
    assert grant == OPERATOR
    assert Gateway.reads(grant, "t")
    assert not Gateway.reads(grant, "u") and not Gateway.reads(grant, "t-2")


def test_the_operator_sees_the_whole_board_as_the_director() -> None:
    """He sits at the physical table and sees every hand and every explanation: no hand is
    hidden, no delay, and a self-alert is not withheld from anyone (Law 16 is the players');
    only the round's boards to come are not shown before they start."""
    board = {**play("N 1C!, E asks 0, N explains 0 16+"), "deal": DEAL, "started_ts": 10**12}
    assert board_for(OPERATOR, board, 600, 10**12) == board
    call = {"offset": 1, "alerts": [], "event": {"type": "call", "seat": "N", "call": "1C",
                                                 "alert": True, "explanation": "Precision",
                                                 "client_seq": 4}}
    started = {"offset": 0, "alerts": [], "event": {"type": "round_started", "round": 1,
                                                    "boards": [{"board": 1, "deal": DEAL}]}}
    assert entry_for(OPERATOR, call, 600, 0) == call
    # a round's boards to come: their cards reach the table, and him, when each starts
    assert entry_for(OPERATOR, started, 600, 0)["event"]["boards"] == [{"board": 1}]


async def test_the_operator_sends_any_seats_events_the_seat_in_the_body(
        gw: RecordingGateway) -> None:
    """A call out of rotation (Law 31: W at South's turn) is appended as sent: the gateway
    judges syntax and authority only; the rate limit counts the table's operator."""
    assert await gw.accept_event("t", OPERATOR, body(type="call", seat="W", call="1S")) == \
        Accepted(0)
    await gw.accept_event("t", OPERATOR, body(type="card_exposed", seat="E", card="HK"))
    await gw.accept_event("t", OPERATOR, body(type="option", seat="N", accept=False))
    assert gw.appended == [{"type": "call", "seat": "W", "call": "1S"},
                           {"type": "card_exposed", "seat": "E", "card": "HK"},
                           {"type": "option", "seat": "N", "accept": False}]
    assert gw.fakes.seat_limit.keys == ["t/operator/W", "t/operator/E", "t/operator/N"]


async def test_an_operators_explanation_is_not_own(gw: RecordingGateway) -> None:
    """Law 20F1: at a physical table the caller's partner explains aloud, to all. South's
    explanation of North's 1C is recorded as given (no `own`, no own-call check); from South's
    own seat it is refused, as online it would pass free text to North."""
    await gw.accept_event("t", OPERATOR, body(type="explanation", seat="S", index=0,
                                              explanation="strong"))
    assert gw.appended == [{"type": "explanation", "seat": "S", "index": 0,
                            "explanation": "strong"}]
    with pytest.raises(Refused) as refused:
        await gw.accept_event("t", Grant("t", "S", "seat"), body(
            type="explanation", index=0, explanation="strong"))
    assert (refused.value.kind, refused.value.field) == (Kind.FORBIDDEN, "index")


@pytest.mark.parametrize(("grant", "sent", "status", "field"), [
    (OPERATOR, {"type": "call", "call": "1H"}, 400, "seat"),  # whose call?
    (OPERATOR, {"type": "ruling", "action": "cancel_call", "index": 0}, 403, "type"),
    (OPERATOR, {"type": "board_started", "board": 2, "seat": "N"}, 400, "type"),
    (OPERATOR, {"type": "call", "seat": "Q", "call": "1H"}, 400, "seat"),
    (OPERATOR, {"type": "call", "seat": "N", "call": "1Z"}, 400, "call"),
    (Grant("u", None, "operator"), {"type": "call", "seat": "N", "call": "1H"}, 403, None),
    (Grant("t", "N", "seat"), {"type": "call", "seat": "E", "call": "1H"}, 400, "seat"),
])
async def test_what_an_operator_may_not_send_is_refused_and_nothing_appended(
        gw: RecordingGateway, grant: Grant, sent: dict[str, Any], status: int,
        field: str | None) -> None:
    with pytest.raises(Refused) as refused:
        await gw.accept_event("t", grant, body(**sent))
    assert (status_of(refused.value), refused.value.field) == (status, field)
    assert gw.appended == []


async def test_the_operators_rate_limit(gw: RecordingGateway) -> None:
    gw.fakes.seat_limit.open = False
    with pytest.raises(Refused) as refused:
        await gw.accept_event("t", OPERATOR, body(type="call", seat="S", call="P"))
    assert refused.value.kind == Kind.TOO_MANY and "operator" in refused.value.reason
    assert refused.value.retry_after == 1
    assert gw.appended == []

"""A table's operator (a vugraph operator, a physical table's recorder), without Kafka: his
token, what he sees, and the events the gateway takes from him (`Gateway.accept_event`) with
the gateway's adapters in memory (tests/fakes.py): the state store, and the appends
recorded."""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.common.names import table_topic
from services.common.settings import Settings
from services.gateway.http.errors import status_of
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Accepted, Gateway
from services.gateway.tables.views import board_for, entry_for
from services.gateway.tokens import Grant, sign, verify
from shared.codec import decode, from_map, to_map
from tests.fakes import MemoryAppender, MemoryStore, Switch, gateway_adapters
from tests.helpers import DEAL
from tests.script import play

KEY = b"k" * 32
OPERATOR = Grant("t", None, "operator")



@pytest.fixture
async def gw(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, producer: MemoryAppender,
             limit: Switch) -> Gateway:
    """A gateway that knows table `t`, whose board stands after N 1C! E P; its adapters in
    memory (the producer and the seats' limit those given)."""
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))
    store = MemoryStore()
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate", "created": 1}})
    store.states["t"] = (3, play("N 1C!, E P"))
    return Gateway(Settings(), gateway_adapters(store=store, producer=producer,
                                                seat_limit=limit))


def appended(producer: MemoryAppender) -> list[dict[str, Any]]:
    """The events appended to table t's topic (their time stamp left out)."""
    return [{k: v for k, v in to_map(decode(value)).items() if k != "ts"}
            for topic, _, value, _ in producer.sent if topic == table_topic("t")]


def kept(*events: dict[str, Any]) -> list[dict[str, Any]]:
    """`events` as the topic keeps them (the codec's defaults filled in)."""
    return [to_map(from_map(event)) for event in events]


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
        gw: Gateway, producer: MemoryAppender, limit: Switch) -> None:
    """A call out of rotation (Law 31: W at South's turn) is appended as sent: the gateway
    judges syntax and authority only; the rate limit counts the table's operator."""
    assert await gw.accept_event("t", OPERATOR, body(type="call", seat="W", call="1S")) == \
        Accepted(0)
    await gw.accept_event("t", OPERATOR, body(type="card_exposed", seat="E", card="HK"))
    await gw.accept_event("t", OPERATOR, body(type="option", seat="N", accept=False))
    assert appended(producer) == kept({"type": "call", "seat": "W", "call": "1S"},
                                      {"type": "card_exposed", "seat": "E", "card": "HK"},
                                      {"type": "option", "seat": "N", "accept": False})
    assert limit.keys == ["t/operator/W", "t/operator/E", "t/operator/N"]


async def test_an_operators_explanation_is_not_own(gw: Gateway,
                                                   producer: MemoryAppender) -> None:
    """Law 20F1: at a physical table the caller's partner explains aloud, to all. South's
    explanation of North's 1C is recorded as given (no `own`, no own-call check); from South's
    own seat it is refused, as online it would pass free text to North."""
    await gw.accept_event("t", OPERATOR, body(type="explanation", seat="S", index=0,
                                              explanation="strong"))
    assert appended(producer) == kept({"type": "explanation", "seat": "S", "index": 0,
                                       "explanation": "strong"})
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
        gw: Gateway, producer: MemoryAppender, grant: Grant, sent: dict[str, Any],
        status: int, field: str | None) -> None:
    with pytest.raises(Refused) as refused:
        await gw.accept_event("t", grant, body(**sent))
    assert (status_of(refused.value), refused.value.field) == (status, field)
    assert appended(producer) == []


async def test_the_operators_rate_limit(gw: Gateway, producer: MemoryAppender,
                                        limit: Switch) -> None:
    limit.open = False
    with pytest.raises(Refused) as refused:
        await gw.accept_event("t", OPERATOR, body(type="call", seat="S", call="P"))
    assert refused.value.kind == Kind.TOO_MANY and "operator" in refused.value.reason
    assert refused.value.retry_after == 1
    assert appended(producer) == []


async def test_law_50d2_only_declarer_sends_a_lead_option(gw: Gateway,
                                                          producer: MemoryAppender) -> None:
    """Law 50D2: "declarer may choose": a `lead_option` from declarer's seat (N) is appended,
    from another seat it is refused (403, nothing appended); the operator records it for the
    seat he names (the fold ignores any but declarer's)."""
    store = gw.adapters.store
    assert isinstance(store, MemoryStore)
    store.states["t"] = (9, play("N 1S, E P, S P, W P"))
    for seat in ("E", "S"):
        with pytest.raises(Refused) as refused:
            await gw.accept_event("t", Grant("t", seat, "seat"),
                                  body(type="lead_option", choice="free"))
        assert (status_of(refused.value), refused.value.field) == (403, "type")
    assert appended(producer) == []
    await gw.accept_event("t", Grant("t", "N", "seat"), body(type="lead_option", choice="require",
                                                             suit="h"))
    await gw.accept_event("t", OPERATOR, body(type="lead_option", seat="N", choice="prohibit"))
    assert appended(producer) == kept(
        {"type": "lead_option", "seat": "N", "choice": "require", "suit": "H"},
        {"type": "lead_option", "seat": "N", "choice": "prohibit"})

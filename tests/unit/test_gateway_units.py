"""The gateway's pieces that need no Kafka: tokens, views of a board, the rate limiter."""

from __future__ import annotations

from typing import Any

import pytest

from services.gateway.http.asgi import Guard, send_json
from services.gateway.http.limits import LocalBucket
from services.gateway.tables.views import board_for, entry_for
from services.gateway.tokens import Grant, TokenError, expiry_of, sign, verify
from tests.helpers import DEAL

KEY = b"k" * 32


def test_tokens_round_trip_and_refuse_forgery_and_expiry() -> None:
    token = sign(KEY, "t1", "N", "seat", expires=1000)
    assert verify(KEY, token, now=999) == Grant("t1", "N", "seat")
    assert expiry_of(token) == 1000
    with pytest.raises(TokenError, match="expired"):
        verify(KEY, token, now=1001)
    with pytest.raises(TokenError, match="bad signature"):
        verify(b"other key" * 4, token, now=0)
    payload_of_e = sign(KEY, "t1", "E", "seat", 1000).split(".")[1]
    with pytest.raises(TokenError, match="bad signature"):  # E's claims under N's signature
        verify(KEY, f"v1.{payload_of_e}.{token.split('.')[2]}", now=0)
    for bad in ("", "v2.a.b", "v1.!!.??", "v1.a"):
        with pytest.raises(TokenError):
            verify(KEY, bad, now=0)


def test_a_seat_sees_its_own_hand_only() -> None:
    board = {"deal": DEAL, "started_ts": 0}
    assert board_for(Grant("t", "E", "seat"), board, 0, 0)["deal"] == \
        "N:- JT987.Q876.AK5.2 - -"
    assert board_for(Grant(None, None, "director"), board, 600, 0)["deal"] == DEAL


def test_spectators_see_the_hands_after_the_delay() -> None:
    board = {"deal": DEAL, "started_ts": 1_000_000}
    spectator = Grant("t", None, "spectator")
    assert board_for(spectator, board, 0, 1_000_000)["deal"] == DEAL
    assert board_for(spectator, board, 60, 1_000_000 + 59_999)["deal"] is None
    assert board_for(spectator, board, 60, 1_000_000 + 60_000)["deal"] == DEAL


def test_the_local_bucket_allows_the_rate_and_refuses_a_flood() -> None:
    """The per-process limit a seat gets while Redis cannot be reached."""
    limiter = LocalBucket(rate=10)
    assert [limiter.allow("N", 0.0) for _ in range(12)].count(True) == 10
    assert limiter.allow("N", 0.05) is False  # half a token back
    assert limiter.allow("N", 0.2) is True
    assert limiter.allow("E", 0.2) is True  # another seat has its own bucket


def test_law_20f_self_alerts_are_hidden_from_the_callers_partner_only() -> None:
    """Law 20F with online self-alerting: N's alert and explanation of his own call reach the
    opponents and spectators, not his partner S (Law 16); S's explanation of N's call, given
    at the table, is heard by all."""
    from tests.script import play

    board = play("N 1C!, E asks 0, N explains 0 16+ any shape, S explains 0 strong",
                 extra=[{"type": "call", "seat": "E", "call": "1H", "alert": True,
                         "explanation": "natural"}])
    board["calls"][0]["explanation"] = "Precision"  # as if N had explained it when calling
    partner = board_for(Grant("t", "S", "seat"), board, 0, 0)
    assert partner["calls"][0] == {"seat": "N", "call": "1C"}
    assert partner["calls"][1]["explanation"] == "natural"  # the opponents' explanation
    assert [c["seat"] for c in partner["alerted_calls"]] == ["E"]
    assert [e["seat"] for e in partner["explanations"]] == ["S"]
    for reader in (Grant("t", "E", "seat"), Grant("t", "W", "seat"), Grant("t", None,
                                                                           "spectator")):
        seen = board_for(reader, board, 0, 0)
        assert seen["calls"][0]["explanation"] == "Precision" and seen["calls"][0]["alert"]
        assert [e["seat"] for e in seen["explanations"]] == ["N", "S"]
    assert board_for(Grant("t", "N", "seat"), board, 0, 0)["calls"][0]["alert"] is True


def test_law_20f_history_entries_hide_self_alerts_from_partner() -> None:
    """Law 20F: the same rule for each event of a history: N's self-alert and his own answer
    are hidden from S; the question and the opponents' events are not."""

    call = {"offset": 1, "event": {"type": "call", "seat": "N", "call": "1C", "alert": True,
                                   "explanation": "Precision"}, "alerts": []}
    answer = {"offset": 3, "event": {"type": "explanation", "seat": "N", "index": 0,
                                     "explanation": "16+"}, "alerts": [], "caller": "N"}
    south, west = Grant("t", "S", "seat"), Grant("t", "W", "seat")
    assert entry_for(south, call, 0, 0)["event"] == {"type": "call", "seat": "N", "call": "1C"}
    assert "explanation" not in entry_for(south, answer, 0, 0)["event"]
    assert entry_for(west, call, 0, 0) == call and entry_for(west, answer, 0, 0) == answer
    started = {"offset": 0, "event": {"type": "board_started", "board": 1, "deal": DEAL,
                                      "ts": 0}, "alerts": []}
    assert entry_for(west, started, 0, 0)["event"]["deal"] == "N:- - - Q6.A954.Q973.KJ6"
    assert entry_for(Grant("t", None, "spectator"), started, 60, 59_000)["event"]["deal"] \
        is None


def test_a_rounds_boards_to_come_show_their_deals_to_the_director_only() -> None:
    """The hands of a round's boards are seen as each board starts (board_for), never in the
    round's event: a seat would otherwise see the hands of boards to come, its opponents'
    and its partner's included."""
    started = {"offset": 0, "alerts": [], "event": {
        "type": "round_started", "round": 1, "ts": 0,
        "boards": [{"board": 1, "deal": DEAL}, {"board": 2, "deal": DEAL}]}}
    for reader in (Grant("t", "S", "seat"), Grant("t", None, "spectator")):
        seen = entry_for(reader, started, 0, 10**9)["event"]
        assert [b for b in seen["boards"]] == [{"board": 1}, {"board": 2}]
    assert entry_for(Grant("t", None, "director"), started, 0, 0) == started


def test_another_seats_stamps_do_not_reach_a_reader() -> None:
    """An event's `id` and `client_seq` are chosen by its sender: another seat's are taken out
    of the history a seat or a spectator reads (a channel to partner otherwise); one's own
    stay."""
    call = {"offset": 2, "alerts": [], "event": {"type": "call", "seat": "N", "call": "1C",
                                                 "id": "lead.a.spade", "client_seq": 71}}
    for reader in (Grant("t", "S", "seat"), Grant("t", None, "spectator")):
        seen = entry_for(reader, call, 0, 0)["event"]
        assert "id" not in seen and "client_seq" not in seen and seen["call"] == "1C"
    own = entry_for(Grant("t", "N", "seat"), call, 0, 0)["event"]
    assert own["id"] == "lead.a.spade" and own["client_seq"] == 71


def test_law_20f_an_ignored_explanation_is_hidden_from_partner() -> None:
    """Law 20F/16: an explanation the fold ignored (no `caller`) is not shown to the
    sender's partner: the text would reach him without any call to explain."""
    ignored = {"offset": 5, "alerts": [], "event": {"type": "explanation", "seat": "S",
                                                    "index": 2, "explanation": "lead a spade"}}
    assert "explanation" not in entry_for(Grant("t", "N", "seat"), ignored, 0, 0)["event"]


@pytest.mark.parametrize(("text", "depth"), [
    (b'{"type": "call"}', 1), (b'{"a": [[{"b": 1}]]}', 4),
    (b'{"explanation": "[[[[[[[[[[ not nesting ]]]]]]]]]]"}', 1),
    (b'{"explanation": "a \\" [[[[ quoted"}', 1), (b"[" * 1500 + b"]" * 1500, 1500)])
def test_nesting_is_counted_outside_strings(text: bytes, depth: int) -> None:
    from services.gateway.http.doors import nesting

    assert nesting(text) == depth


@pytest.mark.parametrize(("path", "size", "status"), [
    ("/api/tables", 10_000, 413),  # a table's creation: the small limit
    ("/api/tournaments", 10_000, 200),  # a tournament's deals file: the upload limit
    ("/api/tournaments/spring/rounds", 10_000, 200),
    ("/api/tournaments", 100_001, 413),
    ("/api/tournaments/spring", 10_000, 413),  # reads take no upload
])
async def test_only_a_tournaments_creation_and_rounds_take_large_bodies(
        path: str, size: int, status: int) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send_json(send, 200, {})

    guard = Guard(app, max_body=4096, origins=set(), max_upload=100_000)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"x" * size, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await guard({"type": "http", "method": "POST", "path": path,
                 "headers": [(b"content-length", str(size).encode())]}, receive, send)
    assert sent[0]["status"] == status


def test_the_gateways_own_origin_is_allowed_for_its_pages() -> None:
    """The seat page (served by the gateway) opens its socket from the gateway's own origin:
    allowed whatever TABLESERVER_ORIGINS lists; another origin still is not."""
    from services.gateway.http.asgi import origin_allowed
    listed = {"https://club.example"}
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", listed)
    assert origin_allowed("https://club.example", "127.0.0.1:8000", listed)
    assert not origin_allowed("https://evil.example", "127.0.0.1:8000", listed)
    assert not origin_allowed("http://127.0.0.1:8000", "", listed)
    assert origin_allowed("", "127.0.0.1:8000", listed)  # not a browser
    assert origin_allowed("https://evil.example", "x", set())  # no list: any


def test_a_tournaments_vugraph_token_reads_no_table() -> None:
    """A vugraph token lists its tournament's tables (their spectator links); it reads no
    table itself, not even one named like the tournament, and is shown no hand."""
    from services.gateway.tables.service import Gateway
    from services.gateway.tokens import vugraph_scope

    token = sign(KEY, vugraph_scope("spring"), None, "vugraph", expires=1000)
    grant = verify(KEY, token, now=0)
    assert grant == Grant("tournament:spring", None, "vugraph")
    for table in ("spring", "spring-1", "tournament:spring"):
        assert not Gateway.reads(grant, table)
    assert Gateway.reads(Grant("t", None, "spectator"), "t")
    assert not Gateway.reads(Grant("t", None, "spectator"), "u")
    assert Gateway.reads(Grant(None, None, "director"), "u")
    assert board_for(grant, {"deal": DEAL, "started_ts": 0}, 0, 10**9)["deal"] is None
    forged = sign(KEY, "t", None, "director", expires=1000)  # a role no token may carry
    with pytest.raises(TokenError):
        verify(KEY, forged, now=0)

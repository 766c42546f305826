"""The state of a board, typed once: `shared.table.board_view`'s TypedDicts are what
`Board.to_dict()` is declared to return, what the store gives back, and what /openapi.json
shows (pydantic builds the schema from them: `services.gateway.http.state_models`). The
declaration forbids any key it does not name, so a key added to the state and not declared
fails here: on the records of tests/data, on random logs of every event, as each reader sees
them, over HTTP and in the schema."""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typing_extensions
from fastapi import FastAPI
from hypothesis import given, settings, strategies as st
from pydantic import TypeAdapter

from services.common.settings import Settings
from services.gateway.app import create_app
from services.gateway.http.state_models import DECLARED, HistoryView, declarations
from services.gateway.tables.views import board_for, entry_for
from services.gateway.tokens import Grant, Role, sign
from services.replay.history import build_history
from shared import fold, from_map
from shared.codec import encode
from shared.notation import lin_boards, pbn_boards
from shared.table import board_view, history_view
from shared.table.board import Board
from shared.table.table_run import TableRun
from shared.vocabulary import BoardStatus, TableStatus
from tests.fakes import MemoryStore, gateway_adapters
from tests.helpers import DEAL
from tests.script import log as scripted
from tests.strategies import play_events

DATA = Path(__file__).parent.parent / "data"
VIEWS = declarations(board_view.BoardView)
BOARD = TypeAdapter(board_view.BoardView)


def test_every_declaration_of_the_module_is_read_as_the_schema_reads_it() -> None:
    """Every TypedDict of `shared.table.board_view` and `shared.table.history_view` is a part of
    what a reader gets (a board's view, the public's withheld one, a history), and pydantic reads
    each with no key but its own, its key strings as descriptions."""
    declared = {v for module in (board_view, history_view) for v in vars(module).values()
                if typing_extensions.is_typeddict(v)}
    assert declared == declarations(history_view.HistoryView, board_view.WithheldView)
    assert declared > VIEWS
    for view in declared:
        assert view.__pydantic_config__ == DECLARED, view.__name__


# --- real states ----------------------------------------------------------------------------


def record_logs() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Every record of tests/data as a table's log: the PBN and LIN files (what can be read)
    and the demo's JSON Lines."""
    for path in sorted(DATA.glob("*.pbn")) + sorted(DATA.glob("*.lin")) \
            + sorted(DATA.glob("lin-quirks/*.lin")):
        text = path.read_bytes().decode("utf-8", errors="replace")
        read = pbn_boards(text) if path.suffix == ".pbn" else lin_boards(text)
        if read.events:
            yield path.name, read.events
    demo = DATA / "demo-board.jsonl"
    yield demo.name, [json.loads(line) for line in demo.read_text().splitlines() if line]


def boards_of(log: list[dict[str, Any]]) -> tuple[Board, ...]:
    return fold(from_map(m) for m in log).boards


def wire(state: Any) -> str:
    """A state as JSON, as the processor writes it to Redis."""
    return json.dumps(state, separators=(",", ":"))


def answered(state: Any) -> str:
    """A state as JSON, as the gateway answers it (its `dict` as given, compact, UTF-8
    unescaped)."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def check(state: Any) -> None:
    """`state` validates against its declaration, no key but those declared, each of the
    type declared (and as JSON, as the gateway reads it back from Redis)."""
    BOARD.validate_python(state)
    BOARD.validate_json(wire(state), strict=True)


def test_every_board_of_the_records_validates() -> None:
    count = 0
    for _, log in record_logs():
        for board in boards_of(log):
            check(board.to_dict())
            count += 1
    assert count > 300  # 279 RealBridge boards, the PBN 2.1 fixtures, 38 LIN boards, the demo


SEATS = "NESW"
CALLS = ["P", "X", "XX", "8C", "1C", "1H", "2NT", "3S", "7NT"]
seats = st.sampled_from(SEATS)
rulings = st.one_of(
    st.builds(lambda s: {"type": "ruling", "action": "cancel_call", "seat": s}, seats),
    st.builds(lambda i: {"type": "ruling", "action": "cancel_call", "index": i, "law": "17D"},
              st.integers(0, 5)),
    st.builds(lambda s: {"type": "ruling", "action": "allow_change", "seat": s}, seats),
    st.builds(lambda s, o: {"type": "ruling", "action": "set_pass_obligation", "seat": s,
                            "obligation": o}, seats, st.sampled_from(["next_turn", "every_turn"])),
    st.builds(lambda s: {"type": "ruling", "action": "lift_pass_obligation", "seat": s}, seats),
    st.builds(lambda s, r: {"type": "ruling", "action": "lead_restriction", "seat": s,
                            "suit": "H", "restriction": r, "note": "Law 26"}, seats,
              st.sampled_from(["require", "prohibit"])),
    st.just({"type": "ruling", "action": "adjusted_score", "score": "NS 420"}),
)
events = st.one_of(
    st.builds(lambda s, c, a: {"type": "call", "seat": s, "call": c, "alert": a,
                               **({"explanation": "natural"} if a else {})},
              seats, st.sampled_from(CALLS), st.booleans()),
    st.builds(lambda s, c: {"type": "call", "seat": s, "call": c}, seats,
              st.sampled_from(["P", "1C", "1H"])),
    st.builds(lambda s, a: {"type": "option", "seat": s, "accept": a}, seats, st.booleans()),
    st.builds(lambda s, c, led: {"type": "card_exposed", "seat": s, "card": c, "led": led},
              seats, st.sampled_from(["S2", "HK"]), st.booleans()),
    st.builds(lambda s, c, i: {"type": "call_changed", "seat": s, "call": c, "inadvertent": i},
              seats, st.sampled_from(CALLS), st.booleans()),
    *play_events(["SA", "S4", "HA", "HT", "D2", "DA", "C2", "CK", "S2", "HQ"]),
    st.builds(lambda s, i: {"type": "question", "seat": s, "index": i}, seats,
              st.one_of(st.none(), st.integers(0, 5))),
    st.builds(lambda s, i, own: {"type": "explanation", "seat": s, "index": i, "own": own,
                                 "explanation": "natural"}, seats, st.integers(0, 5),
              st.booleans()),
    st.builds(lambda s: {"type": "players_named", "players": {s: "Ann"}}, seats),
    rulings,
)
logs = st.builds(
    lambda first, rest: [first, *rest],
    st.builds(lambda b, r, deal, ts: {"type": "board_started", "board": b, "ruleset": r,
                                      **({"deal": DEAL} if deal else {}),
                                      **({"ts": ts} if ts else {})},
              st.integers(1, 32), st.sampled_from(["duplicate", "rubber"]), st.booleans(),
              st.sampled_from([None, 1_700_000_000_000])),
    st.lists(events, max_size=40),
)
READERS = [Grant(None, None, Role.DIRECTOR), Grant("t", None, Role.OPERATOR),
           Grant("t", None, Role.SPECTATOR), *(Grant("t", s, Role.SEAT) for s in SEATS)]


@settings(max_examples=300, deadline=None)
@given(logs)
def test_any_log_gives_states_as_declared_as_every_reader_sees_them(log: list[Any]) -> None:
    """Whatever the players and the Director do: every board's state validates against its
    declaration; so does each reader's view of it (a seat's, with its partner's self-alerts
    and the other hands taken out)."""
    for board in boards_of(log):
        state = json.loads(wire(board.to_dict()))  # as the gateway reads it from Redis
        check(state)
        for grant in READERS:
            check(board_for(grant, state, 600, 0))


PLAYED = ("N 1S, E P, S P, W P, E plays DA, S plays D6, W plays D3, N plays D2, "
          "E plays HQ, S plays HT, W plays H4, N plays HK, N plays C3, E plays C2, S plays C5, "
          "W plays CK, W plays D9, N plays D4, E plays S7, S plays DJ, "  # E revokes (Law 61)
          "E plays H8, S plays S2, W plays H5, N plays H2, S plays C9, W plays C6")
"""A board's play with DEAL: five tricks, E's revoke on the fourth established by his lead to
the fifth (Law 63A1), the sixth in progress."""

SCENARIOS = [  # (script of tests/script.py, ruleset, events after it): together, every key
    ("N 1C!, E asks 0, S 1S, W 2H, N decline, E P, S shows HK", "duplicate", []),
    ("N 1S, E 1H, S decline, E 2H, S P, W P, N P, E leads SA", "duplicate", []),
    ("N 1C, E 1S, S explains 0 short, W 2S, N P, E P, S X, W XX, N P, E P, S P, W leads HK",
     "duplicate", []),
    ("N P, E P, S P, W P", "rubber", []),  # next_dealer (rubber Law 22(a))
    ("N 1C, E P, S 1H, W changes 2H, N P, E P, S P", "duplicate", []),
    ("N 1NT, E 2C, S P, W P, N P, E leads SA", "duplicate", [
        {"type": "ruling", "action": "lead_restriction", "seat": "S", "suit": "H",
         "restriction": "prohibit", "note": "Law 26", "law": "26"},
        {"type": "ruling", "action": "set_pass_obligation", "seat": "N",
         "obligation": "every_turn"},
        {"type": "ruling", "action": "cancel_call", "index": 0},
        {"type": "ruling", "action": "adjusted_score", "score": "NS 420"},
        {"type": "option", "seat": "N", "accept": True},  # ignored: nothing awaits an option
        {"type": "players_named", "players": {"N": "Ann"}}]),
    ("N 1C, S P, W decline, E 1H, W 2H", "duplicate", []),  # a pass deemed made (Law 28A)
    ("N 1C, E P, N 2D, E decline, S P, W P", "duplicate", []),  # a lead penalty (Law 31B)
    ("N 1C", "duplicate", [{"type": "call", "seat": "E", "call": "1H", "explanation": "5+"}]),
    ("N 1C, N changes 1D", "duplicate", []),  # a change of call awaiting LHO (Law 25B)
    (f"{PLAYED}, N claims 5 rest, E agrees", "duplicate", []),  # a revoke, a trick in progress
    (f"{PLAYED}, N claims 5 rest, E agrees", "duplicate", [  # board 2's `previous`, named
        {"type": "players_named", "players": {"N": "Ann", "E": "Bob"}},  # while it lasted
        {"type": "claim_response", "seat": "W", "accept": True},
        {"type": "board_started", "board": 2, "deal": DEAL}]),
    ("N 1S, E P, S P, W P, W plays HA", "duplicate", []),  # a lead out of turn (Law 54)
    ("N 1S, E P, S P, W P, W plays HA", "duplicate", [  # Laws 50D2, 50B
        {"type": "option", "seat": "N", "accept": False},
        {"type": "lead_option", "seat": "N", "choice": "prohibit"},
        {"type": "card_exposed", "seat": "W", "card": "C6"}]),
    ("N 1S, E P, S P, W P, E plays C2, S plays C5, W plays C6, N plays CA, N plays H2",
     "duplicate", [  # Law 57A: W plays before his partner E
        {"type": "card_played", "seat": "W", "card": "H4"},
        {"type": "play_option", "seat": "N", "choice": "require", "suit": "C"}]),
    ("N 1S, E P, S P, W P, E plays DA", "rubber", [
        {"type": "ruling", "action": "tricks", "tricks": 8}]),  # the result (Law 70)
    ("N 1S, E P, S P, W P, E plays DA, S plays D6, W plays D3, N plays D2, E plays HQ, "
     "S plays HT, W plays H4, N plays HK, S plays C5, E accept", "duplicate", []),  # Law 55A
    ("N 1C", "duplicate", [  # a timed round whose time is up (the tournament's clock)
        {"type": "round_started", "round": 1, "ends_at": 1_700_000_900_000,
         "boards": [{"board": 2, "deal": DEAL}]},
        {"type": "round_ended", "round": 1}]),
]


def test_the_scenarios_fill_in_every_key_of_the_view() -> None:
    """Every key of the view and of its parts, optional ones included, appears in the
    scenarios' states, and each state validates: so the declaration is tried on every key."""
    found: set[str] = set()
    for script, ruleset, extra in SCENARIOS:
        log = scripted(script, ruleset=ruleset) + extra
        log[0] |= {"deal": DEAL, "ts": 1_700_000_000_000}
        for board in boards_of(log):
            state = board.to_dict()
            check(state)
            found |= keys_of(state)
        run = TableRun("t")
        for offset, m in enumerate(log):
            run.apply(offset, encode(from_map(m)))
        table = run.view()  # the board in progress as Redis keeps it (`previous`)
        check(table)
        found |= keys_of(table)
    every = {f"{view.__name__}.{key}" for view in VIEWS for key in typing.get_type_hints(view)}
    assert every - found == set()


def keys_of(state: Any) -> set[str]:
    """`View.key` for every key of a state and of its parts."""
    parts = {"calls": "CallView", "alerted_calls": "CallView", "contract": "ContractView",
             "pending": "PendingView", "alerts": "AlertView",
             "rectifications": "RectificationView", "cancelled": "CancelledCallView",
             "rulings": "RulingView", "exposed_cards": "ExposedCardView",
             "penalty_cards": "ExposedCardView", "opening_lead": "OpeningLeadView",
             "questions": "QuestionView", "explanations": "ExplanationView",
             "ignored": "IgnoredView"}
    found = {f"BoardView.{key}" for key in state}
    found |= {f"BoardEndView.{key}" for key in state.get("previous", {})}
    found |= {f"PlayableView.{key}" for key in state.get("playable", {})}
    found |= {f"ClockView.{key}" for key in state.get("clock", {})}
    for key, name in parts.items():
        value = state[key]
        for item in value if isinstance(value, list) else [value] if value else []:
            found.update(f"{name}.{k}" for k in item)
    for item in state["lead_restrictions"]:
        name = "RulingView" if "action" in item else "LeadPenaltyView"
        found.update(f"{name}.{k}" for k in item)
    play, result = state["play"], state["result"]
    found |= {f"ResultView.{k}" for k in result or {}}
    if play is not None:
        found |= {f"PlayView.{k}" for k in play}
        for key, name in {"claim": "ClaimView", "lead_out_of_turn": "LeadOutOfTurnView",
                          "lead_options": "LeadOptionsView",
                          "partner_option": "PartnerOptionView"}.items():
            found |= {f"{name}.{k}" for k in play[key] or {}}
        found |= {f"HeldAnswerView.{k}" for k in (play["lead_out_of_turn"] or {}).get("held", {})}
        for trick in play["tricks"]:
            found |= {f"TrickView.{k}" for k in trick}
            for card in trick["cards"]:
                found |= {f"PlayedCardView.{k}" for k in card}
        for revoke in play["revokes"]:
            found |= {f"RevokeView.{k}" for k in revoke}
    return found


# --- the routes -----------------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    guard = create_app(Settings(TABLESERVER_DATA=tmp_path))
    assert isinstance(guard.app, FastAPI)
    return guard.app


def test_the_schema_shows_the_state_a_reader_gets(app: FastAPI) -> None:
    schema = app.openapi()
    components = schema["components"]["schemas"]
    board = components["BoardView"]
    assert list(board["properties"]) == list(typing.get_type_hints(board_view.BoardView))
    assert set(board["required"]) == set(board_view.BoardView.__required_keys__)
    assert board["additionalProperties"] is False
    assert board["properties"]["dealer"]["enum"] == ["N", "E", "S", "W"]
    assert board["properties"]["deal"]["description"].startswith("PBN")
    contract = components["ContractView"]["properties"]
    assert (contract["level"]["minimum"], contract["level"]["maximum"]) == (1, 7)
    assert components["WithheldView"]["additionalProperties"] is False
    assert components["BoardStatus"]["enum"] == [s.value for s in BoardStatus]
    assert "insufficient_bid" in components["Irregularity"]["enum"]
    assert components["CallView"]["properties"]["alert"] == {
        "type": "boolean", "title": "Alert",
        "description": "the caller's self-alert (always true when there)"}

    def answer(path: str) -> dict[str, Any]:
        content = schema["paths"][path]["get"]["responses"]["200"]["content"]
        ref: dict[str, Any] = content["application/json"]["schema"]
        return components[ref["$ref"].rsplit("/", 1)[1]]

    state = answer("/api/tables/{table}/state")
    assert {"$ref": "#/components/schemas/BoardView"} in state["properties"]["board"]["anyOf"]
    history = answer("/api/tables/{table}/history")
    assert set(history["properties"]) >= {"history", "state", "boards"}
    assert answer("/api/tournaments/{tournament}")["properties"]["tables"]["items"] == {
        "$ref": "#/components/schemas/TableLine"}
    assert components["TableLine"]["properties"]["status"] == {
        "$ref": "#/components/schemas/TableStatus"}
    assert components["TableStatus"]["enum"] == [s.value for s in TableStatus]


async def test_the_state_route_answers_the_state_as_stored(tmp_path: Path) -> None:
    """GET /api/tables/{table}/state, not validated again: the director gets the stored state
    byte for byte, a key the board leaves out stays out, a seat gets its view."""
    store = MemoryStore()
    guard = create_app(Settings(TABLESERVER_DATA=tmp_path), gateway_adapters(store=store))
    app = guard.app
    assert isinstance(app, FastAPI)
    gateway = app.state.gateway
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate",
                                               "created": 1}})
    log = [{"type": "board_started", "board": 1, "deal": DEAL},
           {"type": "call", "seat": "N", "call": "1C", "alert": True, "explanation": "short"},
           {"type": "call", "seat": "E", "call": "P"}, {"type": "call", "seat": "S", "call": "1C"}]
    state = json.loads(wire(boards_of(log)[-1].to_dict()))
    store.states["t"] = (7, state)
    seat = sign(gateway.signing_key, "t", "S", Role.SEAT, 2**40)
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        director = await client.get("/api/tables/t/state",
                                    headers={"Authorization": f"Bearer {gateway.director_token}"})
        south = await client.get("/api/tables/t/state", headers={"Authorization": f"Bearer {seat}"})
    assert director.status_code == 200
    assert director.content == answered({"table": "t", "version": 7, "board": state}).encode()
    assert "players" not in director.json()["board"]  # left out, not null
    assert south.status_code == 200
    seen = south.json()["board"]
    assert seen == board_for(Grant("t", "S", Role.SEAT), state, 0, 0)
    assert "alert" not in seen["calls"][0] and seen["pending"]["kind"] == "insufficient_bid"
    check(seen)


async def test_the_state_route_answers_each_view_as_its_compact_json(tmp_path: Path) -> None:
    """Every scenario's state (its boards and the table's, `previous` included), as each
    reader reads it: the body is the reader's view as compact UTF-8 JSON, key for key in the
    view's order (as it was when a pydantic mirror validated and wrote it; now written as the
    store typed it, with no validation on the read)."""
    store = MemoryStore()
    guard = create_app(Settings(TABLESERVER_DATA=tmp_path, TABLESERVER_SPECTATOR_DELAY=0),
                       gateway_adapters(store=store))
    app = guard.app
    assert isinstance(app, FastAPI)
    gateway = app.state.gateway
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate", "created": 1}})
    tokens = {grant: sign(gateway.signing_key, "t", grant.seat, grant.role, 2**40)
              for grant in READERS if grant.role != Role.DIRECTOR}
    tokens[READERS[0]] = gateway.director_token
    states = []
    for script, ruleset, extra in SCENARIOS:
        log = scripted(script, ruleset=ruleset) + extra
        log[0] |= {"deal": DEAL, "ts": 1_700_000_000_000}
        run = TableRun("t")
        for offset, m in enumerate(log):
            run.apply(offset, encode(from_map(m)))
        states += [*(b.to_dict() for b in boards_of(log)), run.view()]
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        for version, board in enumerate(states):
            state = json.loads(wire(board))
            store.states["t"] = (version, state)
            for grant, token in tokens.items():
                got = await client.get("/api/tables/t/state",
                                       headers={"Authorization": f"Bearer {token}"})
                assert got.status_code == 200
                seen = board_for(grant, state, 0, 0)
                assert got.content == answered({"table": "t", "version": version,
                                                "board": seen}).encode(), grant


def test_a_history_validates_step_by_step() -> None:
    """The history's document (format=json, `states`): every state after every event."""
    log = [{"type": "board_started", "board": 1, "deal": DEAL},
           {"type": "call", "seat": "N", "call": "1C"}, {"type": "call", "seat": "S", "call": "1H"},
           {"type": "option", "seat": "E", "accept": False},
           {"type": "explanation", "seat": "S", "index": 0, "explanation": "short"},
           *({"type": "call", "seat": s, "call": c} for s, c in zip("NESW", ["1D", "P", "P", "P"],
                                                                     strict=True)),
           {"type": "opening_lead", "seat": "E", "card": "SA"}]
    records = [(offset, encode(from_map(m))) for offset, m in enumerate(log)]
    document = build_history("t", records, board=1, states=True)
    history = TypeAdapter(HistoryView)
    assert history.validate_json(wire(document), strict=True) == json.loads(wire(document))
    assert ["state" in e for e in document["history"]] == [True] * len(log)
    assert document["history"][4].get("caller") == "N"
    for grant in READERS:  # each reader's part of it too
        seen = [entry_for(grant, e, 600, 0) for e in document["history"]]
        history.validate_python({**document, "history": seen})


def test_a_record_that_is_not_an_event_is_read_by_every_reader() -> None:
    """A record of the log no event decodes from (`event` null in the history): each reader
    gets the entry as it is, nothing in it to keep from anyone (typing the history's entry
    found that `entry_for` took every record for an event: an error, a 500, for any reader)."""
    records = [(0, encode(from_map({"type": "board_started", "board": 1, "deal": DEAL}))),
               (1, b"not an event")]
    document = build_history("t", records)
    assert document["history"][1]["event"] is None
    for grant in READERS:
        assert entry_for(grant, document["history"][1], 600, 0) == document["history"][1]


def test_unions_of_the_view_are_its_own() -> None:
    """`lead_restrictions` holds Law 26's penalties and the Director's restrictions: each
    validates as its own kind (the schema tells them apart by their keys)."""
    hint = typing.get_type_hints(board_view.BoardView)["lead_restrictions"]
    (union,) = typing.get_args(hint)
    assert isinstance(union, types.UnionType)
    assert set(typing.get_args(union)) == {board_view.LeadPenaltyView, board_view.RulingView}

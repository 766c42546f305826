"""A table feed's frames (`services/gateway/feeds/feed_frames.py`): each view's frame is the frame
the feed rendered before it shared the parse and the encoding between views (the entry parsed,
seen through `board_for`, `json.dumps`'d whole), key for key and in the same order, for every
reader, on the states of the records, of the scenarios and of random logs."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings, strategies as st

from services.gateway.feeds.feed_frames import BoardFrames, split_object
from services.gateway.tables.views import board_for
from services.gateway.tokens import Grant
from shared import from_map
from shared.table.engine import TableState, evolve
from tests.helpers import DEAL
from tests.script import log as scripted
from tests.unit.test_board_state_model import (
    READERS,
    SCENARIOS,
    boards_of,
    logs,
    record_logs,
    wire,
)

STARTED = 1_700_000_000_000
DELAYS = ((0, 0), (600, STARTED + 1000), (600, STARTED + 601_000))  # (delay s, now ms)


def rendered_before(grant: Grant, entry_id: str, fields: dict[bytes, bytes],
                    board: dict[str, Any], delay: int, now: int) -> str:
    """The frame as the feed rendered it before `feed_frames` (routes/feeds.py), from `board`:
    the entry's board as parsed (once for all views: `board_for` leaves it as it is, which
    `assert_frames_as_before` checks)."""
    return json.dumps({"id": entry_id, "version": int(fields[b"version"]),
                       "board": board_for(grant, board, delay, now)})


def states_of(log: list[dict[str, Any]]) -> list[str]:
    """The board in progress after each event of `log`, as the processor writes it."""
    state, out = TableState(), []
    for m in log:
        state = evolve(state, from_map(m))
        if state.board is not None:
            out.append(wire(state.board.to_dict()))
    return out


def assert_frames_as_before(states: list[str]) -> int:
    """Every reader's frame of every state, for each delay, is the one rendered before; the
    count of frames compared."""
    frames, count = BoardFrames(), 0
    for version, text in enumerate(states):
        fields = {b"board": text.encode(), b"version": str(version).encode()}
        board = json.loads(text)
        for delay, now in DELAYS:
            for grant in READERS:
                frame = frames.frame(f"{STARTED}-{version}", fields,
                                     lambda b, g=grant, d=delay, n=now: board_for(g, b, d, n))
                old = rendered_before(grant, f"{STARTED}-{version}", fields, board, delay, now)
                assert json.dumps(json.loads(frame)) == old, (grant, text)
                count += 1
        # the views share the parsed board: none of them changed it
        before = json.loads(text)
        assert frames.entry(fields[b"board"]).board == before and board == before
    return count


def test_the_records_frames_are_as_before() -> None:
    states: list[str] = []
    for _, log in record_logs():
        states += states_of(log)[::17]  # every 17th state: auctions, play, claims, results
    assert len(states) > 900
    assert assert_frames_as_before(states) == len(states) * len(DELAYS) * len(READERS)


def test_the_scenarios_frames_are_as_before() -> None:
    """Self-alerts and explanations, revokes, lead restrictions, claims: what a seat's view
    takes out."""
    states: list[str] = []
    for script, ruleset, extra in SCENARIOS:
        log = scripted(script, ruleset=ruleset) + extra
        log[0] |= {"deal": DEAL, "ts": STARTED}
        states += states_of(log)
    assert assert_frames_as_before(states) > 0


@settings(max_examples=150, deadline=None)
@given(logs)
def test_any_logs_frames_are_as_before(log: list[Any]) -> None:
    states = [wire(board.to_dict()) for board in boards_of(log)]
    assert assert_frames_as_before(states) == len(states) * len(DELAYS) * len(READERS)


def test_a_state_not_written_compactly_is_parsed_whole_with_the_same_frames() -> None:
    log = scripted("N 1C!, E asks 0, S 1S, W 2H", ruleset="duplicate")
    log[0] |= {"deal": DEAL, "ts": STARTED}
    spaced = [json.dumps(json.loads(text), indent=1) for text in states_of(log)]
    assert all(split_object(text) is None for text in spaced)
    assert assert_frames_as_before(spaced) > 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=20)


@settings(max_examples=50)
@given(st.dictionaries(st.text(), json_values))
def test_an_object_is_cut_at_its_keys(value: dict[str, Any]) -> None:
    text = wire(value)
    split = split_object(text)
    assert split is not None
    parsed, parts = split
    assert parsed == json.loads(text)
    assert "{" + ",".join(parts.values()) + "}" == text


def test_what_is_no_compact_object_is_not_cut() -> None:
    for text in ("[1]", '{"a":1', '{"a":1}x', '{"a" :1}', '{"a":1,}', "{", '"a"'):
        assert split_object(text) is None, text


def test_the_views_of_one_entry_share_its_parse_and_another_entry_is_parsed_anew() -> None:
    frames = BoardFrames()
    raw = wire({"deal": DEAL, "calls": []}).encode()
    first = frames.entry(raw)
    assert frames.entry(raw) is first
    assert frames.entry(bytes(bytearray(raw))) is not first  # equal bytes of another entry

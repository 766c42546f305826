"""Law 16 and Law 20F (online self-alerting): no free text a seat sends ever reaches his
partner, whatever the fold made of it (docs/api.md, what each reader sees).

The race the adversary found, replayed deterministically: with a round of boards 3 and 5, S, W
and N pass; E passes board 3 out and board 5 starts (N deals); N opens 1NT; S's explanation of
"his" call at index 0 was checked by the gateway against a state that still showed board 3 (S's
pass at index 0), so it is appended as S's own. The fold ignores it (the call at 0 is now N's),
and the history used to label it with N as its caller and show its text to N."""

from __future__ import annotations

import json
from typing import Any

from services.gateway.tables.views import board_for, entry_for
from services.gateway.tokens import Grant
from services.replay.history import build_history, events_of
from shared.codec import encode, from_map
from shared.notation.export import to_lin, to_pbn
from tests.helpers import DEAL

SECRET = "S says: partner, I hold the spade ace"


def _race() -> list[dict[str, Any]]:
    return [
        {"type": "round_started", "round": 1, "boards": [{"board": 3, "deal": DEAL},
                                                         {"board": 5, "deal": DEAL}]},
        {"type": "call", "seat": "S", "call": "P"},  # board 3: S deals
        {"type": "call", "seat": "W", "call": "P"},
        {"type": "call", "seat": "N", "call": "P"},
        {"type": "call", "seat": "E", "call": "P"},  # passed out: board 5 starts, N deals
        {"type": "call", "seat": "N", "call": "1NT"},
        # as the gateway appends it for S's token (`own`), checked against board 3's state
        {"type": "explanation", "seat": "S", "index": 0, "explanation": SECRET, "own": True},
    ]


def _records(maps: list[dict[str, Any]]) -> list[tuple[int, bytes | None]]:
    return [(offset, encode(from_map({**m, "ts": 1_000 + offset})))
            for offset, m in enumerate(maps)]


def _as_read_by(grant: Grant, board: int | None = None, states: bool = False
                ) -> dict[str, Any]:
    """The history document as the gateway serves it to `grant` (routes/reading.py)."""
    document = build_history("t", _records(_race()), board, None, states)
    document["history"] = [entry_for(grant, e, 0, 10**13) for e in document["history"]]
    document["state"] = board_for(grant, document["state"], 0, 10**13)
    return document


def test_the_race_is_what_the_issue_describes() -> None:
    document = build_history("t", _records(_race()), None, None)
    last = document["history"][-1]
    assert document["boards"] == [3, 5] and document["state"]["calls"][0]["seat"] == "N"
    assert last["event"]["explanation"] == SECRET and last["caller"] == "N"
    assert document["state"]["explanations"] == []  # the fold ignored it …
    assert "explains his own calls only" in document["state"]["ignored"][-1]["reason"]


def test_a_partners_own_explanation_never_reaches_him_in_the_history() -> None:
    """… and N, S's partner, gets no trace of its text: not in the history (whole, the board,
    step by step), not in its PBN or LIN."""
    north = Grant("t", "N", "seat")
    for board, states in ((None, False), (5, False), (5, True)):
        assert SECRET not in json.dumps(_as_read_by(north, board, states)), (board, states)
    whole = _as_read_by(north)
    assert SECRET not in to_pbn(events_of(whole)) and SECRET not in to_lin(events_of(whole))
    told = whole["history"][-1]
    assert told["event"]["type"] == "explanation" and "explanation" not in told["event"]


def test_the_opponents_and_the_director_still_hear_it() -> None:
    """Online, what S says is said to the opponents: E, W and the director read it (the
    fold's record of it being ignored stands beside it)."""
    for reader in (Grant("t", "E", "seat"), Grant("t", "W", "seat"),
                   Grant(None, None, "director")):
        assert _as_read_by(reader)["history"][-1]["event"]["explanation"] == SECRET


def test_an_explanation_said_aloud_at_the_table_is_still_heard_by_all() -> None:
    """The table's operator records S's explanation of N's call, given at a physical table
    (no `own`): N heard it there, so the history shows it to him, as before."""
    maps = [*_race()[:-1], {"type": "explanation", "seat": "S", "index": 0,
                            "explanation": "15 to 17"}]
    document = build_history("t", _records(maps), None, None)
    told = entry_for(Grant("t", "N", "seat"), document["history"][-1], 0, 0)
    assert told["event"]["explanation"] == "15 to 17"

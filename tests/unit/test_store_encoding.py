"""What the Redis store writes is what its readers parse back: compact UTF-8 JSON, keys that are
not strings written as strings (as the stdlib's `json.dumps` did before orjson took its place)."""

from __future__ import annotations

import json

from services.common.store import _json, board_of


def test_a_state_with_accents_and_number_keys_reads_back_as_json_dumps_wrote_it() -> None:
    value = {"players": {"N": "Zoë Ødegård"}, "scores": {1: 420, 2: -50}, "done": None}
    stored = _json(value)
    assert json.loads(stored) == json.loads(json.dumps(value))
    assert board_of(stored) == json.loads(json.dumps(value))


def test_the_encoding_is_compact_utf8() -> None:
    stored = _json({"name": "Zoë", "calls": [1, 2]})
    assert stored == '{"name":"Zoë","calls":[1,2]}'.encode()

"""A tournament's records decoded once a gateway (services/gateway/tournaments/record_maps.py):
the players' moment reads the whole topic every quarter second, and decoding it all each time
(the creation's deals among it) took more of the gateway than the rest of the read
(docs/performance.md, "The evening")."""

from __future__ import annotations

import json

from services.gateway.tournaments import record_maps


class Owner:
    """A gateway as the maps key it (weakly)."""


def test_the_records_decoded_before_are_the_same_maps_and_the_new_ones_are_added() -> None:
    owner = Owner()
    records = [(0, json.dumps({"type": "tournament_created"}).encode()),
               (1, json.dumps({"type": "round_started", "round": 1}).encode())]
    first = record_maps.kept_maps(owner, "eve", records)
    records.append((2, json.dumps({"type": "round_ended", "round": 1}).encode()))
    again = record_maps.kept_maps(owner, "eve", records)
    assert [m["type"] for m in again] == ["tournament_created", "round_started", "round_ended"]
    assert again[0] is first[0] and again[1] is first[1]  # not decoded again
    assert record_maps.kept_maps(owner, "eve", records) is again  # nothing added: the same tuple


def test_a_topic_read_anew_with_other_offsets_is_decoded_whole() -> None:
    owner = Owner()
    record_maps.kept_maps(owner, "eve", [(0, b'{"type": "a"}'), (1, b'{"type": "b"}')])
    archived = [(10, b'{"type": "c"}'), (11, b'{"type": "d"}'), (12, None)]
    assert record_maps.kept_maps(owner, "eve", archived) == ({"type": "c"}, {"type": "d"}, {})
    assert record_maps.kept_maps(owner, "other", archived[:1]) == ({"type": "c"},)

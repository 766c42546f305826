"""A tournament's records as maps, each decoded once a gateway: the players' moment reads the
tournament's topic every `players.FRESH_S`, and decoding its whole topic each time (the
creation's deals and entrants among it) took more of the gateway than the rest of the read
(docs/performance.md, "The evening"). Only the records after those decoded last are decoded;
a topic read anew otherwise (an archive's offsets) is decoded whole. The maps are shared by
every reader: none changes them.
"""

from __future__ import annotations

import json
from typing import Any
from weakref import WeakKeyDictionary

from services.common.kafka.reader import Record

Decoded = tuple[tuple[int, ...], tuple[dict[str, Any], ...]]
_kept: WeakKeyDictionary[object, dict[str, Decoded]] = WeakKeyDictionary()


def kept_maps(owner: object, tournament: str, records: list[Record]
              ) -> tuple[dict[str, Any], ...]:
    """Each record's map (a record with no value: `{}`), those decoded already for this
    `owner` (a gateway) and tournament taken as they were: the same tuple while no record
    was added (what is computed from it may be kept by its identity)."""
    kept = _kept.setdefault(owner, {})
    offsets, maps = kept.get(tournament, ((), ()))
    known = len(offsets)
    if not (known <= len(records) and all(
            records[i][0] == offsets[i] for i in (0, known - 1) if known)):
        offsets, maps, known = (), (), 0  # another topic, or read from its start anew
    new = records[known:]
    if new:
        offsets += tuple(offset for offset, _ in new)
        maps += tuple(json.loads(value or b"{}") for _, value in new)
        kept[tournament] = (offsets, maps)
    return maps

"""Benchmark of a table feed's rendering: the gateway's CPU per feed entry, calls against cards.

Folds the RealBridge qualifier's whole boards (tests/data) into the states the processor
writes, then renders each state's feed entry as the hub does, for one view (a seat's: North)
and for the six views of a table (director, spectator, each seat), two ways:
- parse, view, dump: the entry parsed and its view encoded whole, for each view (the feed's
  rendering before `services/gateway/feeds/feed_frames.py`);
- frames: `BoardFrames.frame`, the feed's rendering now (one parse for all views; each view
  built from the stored text's pieces, only what the view changes encoded again).
CPU time (process time), the best of `--repeat` rounds, so that other processes on the
machine weigh less. A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/feed_render_bench.py [--states 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository
from bench.stack_args import machine
from services.gateway.feeds.feed_frames import BoardFrames
from services.gateway.tables.views import board_for
from services.gateway.tokens import Grant, Role
from shared.codec import from_map
from shared.notation import pbn_events
from shared.table.engine import TableState, evolve

RECORD = Path(__file__).resolve().parent.parent / "tests/data/realbridge-2021-online-qualifier.pbn"
PLAYED = ("board_started", "call", "card_played", "claim", "claim_response")
SIX = [Grant("t", None, Role.DIRECTOR), Grant("t", None, Role.SPECTATOR),
       *(Grant("t", seat, Role.SEAT) for seat in "NESW")]
Fields = dict[bytes, bytes]


def states() -> dict[str, list[Fields]]:
    """The feed entries of the record's whole boards, by the kind of event that made them."""
    state, out = TableState(), {"calls": [], "cards": []}
    for m in pbn_events(RECORD.read_text()):
        if m["type"] not in PLAYED:
            continue
        state = evolve(state, from_map(m))
        if state.board is not None:
            text = json.dumps(state.board.to_dict(), separators=(",", ":"))
            kind = "cards" if m["type"] == "card_played" else "calls"
            out[kind].append({b"board": text.encode(), b"version": b"1000"})
    return out


def parse_view_dump(grant: Grant, entry_id: str, fields: Fields) -> str:
    board = json.loads(fields[b"board"])
    return json.dumps({"id": entry_id, "version": int(fields[b"version"]),
                       "board": board_for(grant, board, 0, 10**13)})


def frames() -> Callable[[Grant, str, Fields], str]:
    rendering = BoardFrames()
    return lambda grant, entry_id, fields: rendering.frame(
        entry_id, fields, lambda board: board_for(grant, board, 0, 10**13))


def best(render: Callable[[Grant, str, Fields], str], entries: list[Fields],
         views: list[Grant], repeat: int) -> float:
    """The least CPU time per entry over `repeat` rounds, in µs."""
    times = []
    for _ in range(repeat):
        entries = [dict(f) for f in entries]  # each round's entries new, as the reader's are
        started = time.process_time()
        for fields in entries:
            for grant in views:
                render(grant, "1700000000000-0", fields)
        times.append(time.process_time() - started)
    return 1e6 * min(times) / len(entries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    entries = states()
    for kind, fields in entries.items():
        size = sum(len(f[b"board"]) for f in fields) / len(fields)
        print(f"{kind}: {len(fields)} states, {size:.0f} bytes on average")
    for views, name in ((SIX[2:3], "one view (North)"), (SIX, "six views")):
        for kind in ("calls", "cards"):
            sample = entries[kind][:args.states]
            before = best(parse_view_dump, sample, views, args.repeat)
            now = best(frames(), sample, views, args.repeat)
            print(f"{name:17} {kind}: parse, view, dump {before:6.1f} µs an entry; "
                  f"frames {now:6.1f} µs ({now / before:.2f}×)")


if __name__ == "__main__":
    main()

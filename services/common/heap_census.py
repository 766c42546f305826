"""What a process keeps for its cycle collector to walk, on demand: `kill -USR2 <pid>` writes
to standard error (the service's log) how many objects each generation holds, how many are
frozen out of collections (`gc_settle`), and the types most numerous in the oldest
generation, the one every full collection walks.

A full collection's time goes with the objects it walks: a gateway whose full collections
held its loop 1.6 s on a busy evening held 456,000 of them. The census names them, as
the stacks (`stack_dump`) name what a process waits for. It holds the process while it counts
(a second for millions of objects): an operator's question, not a metric.
"""

from __future__ import annotations

import gc
import signal
import sys
from collections import Counter
from types import FrameType

SIGNAL = signal.SIGUSR2
SHOWN = 15  # the types named
END = "--- end of the census ---"


def census() -> str:
    """The census in words: the generations' sizes, the frozen count, the oldest's types."""
    sizes = [len(gc.get_objects(generation)) for generation in range(3)]
    oldest = Counter(type(o).__qualname__ for o in gc.get_objects(2))
    lines = [f"--- the heap: generations {sizes[0]:,} / {sizes[1]:,} / {sizes[2]:,} objects, "
             f"{gc.get_freeze_count():,} frozen ---"]
    lines += [f"  {count:>10,}  {name}" for name, count in oldest.most_common(SHOWN)]
    lines.append(END)
    return "\n".join(lines)


def install() -> None:
    """On `SIGNAL`, the census written to stderr (the handler runs on the main thread)."""

    def write(signum: int, frame: FrameType | None) -> None:
        print(census(), file=sys.stderr, flush=True)

    signal.signal(SIGNAL, write)

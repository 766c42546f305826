"""A held event loop told with what held it (`TABLESERVER_LOOP_HELD_MS`; off by default).

A coroutine beats every `BEAT_S`; a thread of its own looks at the beat every `LOOK_S`. When the
beat is `held_ms` late, the loop is running one callback that long (or the process is starved
of CPU): the thread samples the loop thread's stack at each look until the beat comes again,
then logs how long the loop was held and the lines it was seen on most, ours first. A clock
taken two seconds late, a round's move a second slow: the log says which code held the loop,
where a profile of the whole run would bury the moment in the evening's average.

The thread reads the loop thread's frame (`sys._current_frames`), as a sampling profiler
does: the loop is not stopped, and the watch costs a look every `LOOK_S` while nothing is held.
A hold by the cycle collector shows no stack of its own (the sample lands on whatever
allocation set it off), so the watch also times the collector's runs (`gc.callbacks`) and a
report says how much of the hold was theirs.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from types import FrameType

log = logging.getLogger("tableserver.loop")
BEAT_S = 0.02
LOOK_S = 0.01
DEPTH = 12  # the frames kept of each sample, from the innermost
CONTEXT = 4  # the frames kept at least, once our own code is reached
SHOWN = 6  # the stacks a report names
OURS = ("/services/", "/shared/")


def _line(frame: FrameType) -> str:
    name = frame.f_code.co_filename
    short = name.split("/site-packages/")[-1] if "/site-packages/" in name else \
        "/".join(name.rsplit("/", 3)[-3:])
    return f"{short}:{frame.f_lineno} {frame.f_code.co_name}"


def _where(frame: FrameType | None) -> tuple[str, ...]:
    """The sample's stack, innermost first, as "file:line function": `DEPTH` frames, and
    beyond them the innermost of our own code's (a library's frames alone say little), with
    `CONTEXT` frames at least once ours is reached."""
    lines: list[str] = []
    while frame is not None:
        ours = any(part in frame.f_code.co_filename for part in OURS)
        if ours or len(lines) < DEPTH:
            lines.append(_line(frame))
        if ours and len(lines) >= CONTEXT:
            break
        frame = frame.f_back
    return tuple(lines)


class Collections:
    """The cycle collector's last runs, timed: (start, end, generation, objects freed), as
    `gc.callbacks` tells them (from whichever thread set the run off: the collector holds
    every thread)."""

    def __init__(self) -> None:
        self.runs: deque[tuple[float, float, int, int]] = deque(maxlen=256)
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.monotonic()
        else:
            self.runs.append((self._start, time.monotonic(), info["generation"],
                              info["collected"]))

    def within(self, since: float, until: float) -> str:
        """The runs overlapping [since, until] in words ("" for none): their time in all,
        how many of each generation, the unreachable objects they freed."""
        runs = [run for run in list(self.runs) if run[1] >= since and run[0] <= until]
        if not runs:
            return ""
        ms = 1000 * sum(min(end, until) - max(start, since) for start, end, _, _ in runs)
        counts = Counter(gen for _, _, gen, _ in runs)
        gens = ", ".join(f"generation {gen} ×{n}" for gen, n in sorted(counts.items()))
        freed = sum(run[3] for run in runs)
        return f"; the cycle collector ran {ms:.0f} ms of it ({gens}; {freed:,} objects freed)"


@dataclass
class Held:
    """One time the loop was held: since when, and the stacks seen meanwhile."""

    since: float
    samples: Counter[tuple[str, ...]] = field(default_factory=Counter)

    def report(self, until: float, collector: str = "") -> str:
        """In words: how long, how many samples, the collector's share (`Collections.within`),
        then the stacks seen most."""
        seen = sum(self.samples.values())
        parts = [f"the loop held {1000 * (until - self.since):.0f} ms ({seen} samples)"
                 f"{collector}"]
        for stack, count in self.samples.most_common(SHOWN):
            parts.append(f"  {count}× " + " ← ".join(stack))
        return "\n".join(parts)


class LoopWatch:
    """The watch over one loop: `run` beats in the loop, the thread looks."""

    def __init__(self, held_ms: int) -> None:
        self.held_s = held_ms / 1000
        self.beat = time.monotonic()
        self.reports: list[str] = []  # the last reports (tests read them; the log has all)
        self._stop = threading.Event()
        self._loop_thread = threading.get_ident()
        self.collections = Collections()

    def look(self, now: float) -> Held | None:
        """One look of the thread: a sample of the loop thread while held."""
        if now - self.beat < self.held_s + BEAT_S:
            return None
        frame = sys._current_frames().get(self._loop_thread)
        held = Held(self.beat)
        held.samples[_where(frame)] += 1
        return held

    def _watch(self) -> None:
        held: Held | None = None
        while not self._stop.wait(LOOK_S):
            now = time.monotonic()
            seen = self.look(now)
            if seen is not None and held is not None and seen.since == held.since:
                held.samples.update(seen.samples)
            elif held is not None:  # the beat came again (or a new hold began)
                self._told(held, self.beat if seen is None else seen.since)
                held = seen
            else:
                held = seen

    def _told(self, held: Held, until: float) -> None:
        text = held.report(until, self.collections.within(held.since, until))
        self.reports = [*self.reports[-9:], text]
        log.warning("%s", text)

    async def run(self) -> None:
        """The beat, for as long as the loop runs, and the thread beside it."""
        self._loop_thread = threading.get_ident()
        thread = threading.Thread(target=self._watch, name="loop watch", daemon=True)
        thread.start()
        gc.callbacks.append(self.collections)
        try:
            while True:
                self.beat = time.monotonic()
                await asyncio.sleep(BEAT_S)
        finally:
            gc.callbacks.remove(self.collections)
            self._stop.set()
            await asyncio.to_thread(thread.join)

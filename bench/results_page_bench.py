"""Benchmark of the public results page's liveness (docs/scoring.md): from the Director's score
POSTed to the gateway until the results page (`/results#<t>`, headless Chromium, no token)
shows it in the board's traveller. A Mitchell of six pairs at three tables is played on a
stack of its own (tests/stack.py: Kafka, Redis, one processor worker, the gateway), then
`--samples` assigned scores (Law 12C1(b)), each a new score on board 1 between pairs 1 and 4,
are posted one at a time; each waits until the page shows it.

Time: the POST's start in this process's wall clock, the page's `Date.now()` when a
MutationObserver sees the new score in the traveller (one machine, one clock). The page polls
the results every 250 ms; the gateway computes the public's results at most every 200 ms.
A benchmark, not a test: it prints numbers, asserts nothing. Target: under a second.

    python bench/results_page_bench.py [--samples 40] [--ports 26092 26379 26000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from tests.browser.browser import launch
from tests.browser.results_play import create_mitchell, play_round
from tests.stack import running_stack

WATCH = """(expected) => {
  window.__seen = null;
  const resolve = (t) => { window.__seen = t; };
  const cell = () => document.querySelector(
    "#travellers .traveller[data-board='1'] tr[data-ns='1'] td[data-score]");
  const seen = () => cell() && cell().textContent === expected;
  if (seen()) { resolve(Date.now()); return; }
  const observer = new MutationObserver(() => {
    if (seen()) { observer.disconnect(); resolve(Date.now()); }
  });
  observer.observe(document.getElementById("travellers"),
                   { childList: true, subtree: true, characterData: true });
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--ports", type=int, nargs=3, default=(26092, 26379, 26000))
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="results-page-bench-"))
    rng = random.Random(28)
    delays = []
    with running_stack(data, *args.ports, workers=1) as stack, sync_playwright() as playwright, \
            stack.client(stack.director) as http:
        seats = create_mitchell(http, "bench")
        for rnd in (1, 2):
            play_round(http, "bench", seats, rnd)
        browser = launch(playwright)
        page = browser.new_context().new_page()
        page.goto(f"{stack.url}/results#bench")
        expect(page.locator("#travellers .traveller")).to_have_count(6, timeout=30_000)
        for i in range(args.samples + 1):  # the first: a warm-up
            score = 100 + 10 * i
            page.evaluate(WATCH, str(score))
            time.sleep(rng.uniform(0, 0.3))  # at any point of the page's polling
            started = time.time() * 1000
            response = http.post("/api/tournaments/bench/scores", json={
                "kind": "assigned", "board": 1, "ns": 1, "ew": 4, "score_ns": score,
                "reason": f"sample {i}"})
            response.raise_for_status()
            page.wait_for_function("() => window.__seen !== null", timeout=30_000)
            shown = page.evaluate("() => window.__seen")
            if i:
                delays.append(shown - started)
        browser.close()
    ordered = sorted(delays)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"results page: {len(delays)} Director's scores, from the POST until the page shows "
          "it in the traveller")
    print(f"  p50 {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms  "
          f"max {ordered[-1]:6.1f} ms  (target: under 1,000 ms)")


if __name__ == "__main__":
    main()

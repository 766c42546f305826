"""Benchmark of calls made from the seat pages (docs/pages.md): four seat pages in headless Chromium
(tests/browser/browser.py) play `--boards` boards of 12 calls each, clicking the bidding
box as players do, on a stack of its own (tests/stack.py: Kafka, Redis, one processor worker,
the gateway).

For each call it measures, in the pages' own clock (`performance.timeOrigin + now()`, one
clock for every tab of the browser):
- **caller**: from the click until the caller's page shows the call in its auction: the call
  sent on the page's socket, checked and appended by the gateway once Kafka acknowledged it,
  folded by the processor, written to Redis, pushed back on the feed and drawn;
- **all four**: until the last of the four pages shows it.
And the CPU each part spent over the boards (utime + stime from /proc, its child processes
included), per call: the gateway, the processor, Kafka, Redis, and Chromium (its renderers,
the four pages' JavaScript, and Playwright's polling of the four pages between calls), and
what each spent over the same time idle.

Then the same four pages play `--play-boards` whole boards, card by card (docs/pages.md): the
auction clicked as above (2NT by South, West leads), then each of the 52 cards clicked on the
page of the hand due to play (declarer's for dummy's cards), the first card enabled there: from
the click until all four pages show it in the trick in the middle, and the CPU per card of each
part over the cards alone.

Then an operator's capture page records `--boards` auctions, each typed as one line
(`1c p 1h p …`, Enter): the page sends each call once the one before is folded, so the line's
time over its 12 calls is a call's round trip; and the CPU per call as above. A benchmark,
not a test: it prints numbers, asserts nothing.

With `--against COMMIT` it measures the calls only, on two tables of the same stack: four seat
pages as this checkout serves them and four as they were at COMMIT (bench/old_look.py: the
pages' files of that commit, this run's API), a slice of `--slice` boards on each in turn
(which goes first alternating), so that both looks meet the same load; each look's caller and
all-four times, p50 and p95, and the CPU per call of each part over its slices.

    python bench/pages_bench.py [--boards 20] [--play-boards 5] [--ports 26092 26379 26000]
        [--keep DIR] [--against COMMIT [--slice 2]]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.old_look import files_at, launch_for_both, serve_old
from bench.pipeline_bench import print_service_errors
from tests.browser.browser import launch
from tests.stack import Stack, running_stack

SEATS = "NESW"
# dealer N: 12 calls, the auction ends
AUCTION = ["1C", "P", "1H", "P", "1S", "P", "2NT", "P", "3NT", "P", "P", "P"]
DEAL = "N:AK32.K4.QJ2.AK54 QJ5.Q872.K93.T93 T9.AJ96.A865.Q82 8764.T53.T74.J76"
WATCH = """() => {
  window.__seen = [];
  const count = () => document.querySelectorAll(
    ".auction tbody td:not(.next) > [aria-label]").length;
  new MutationObserver(() => {
    window.__seen.push([count(), performance.timeOrigin + performance.now()]);
  }).observe(document.getElementById("auction"), { childList: true, subtree: true });
}"""
CLICK = """call => {
  const at = performance.timeOrigin + performance.now();
  document.querySelector(`#bidding-box button[data-call='${call}']`).click();
  return at;
}"""
CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(root: int, named: str = "") -> float:
    """utime + stime of `root` and every process under it, now (only those whose name has
    `named` in it, if given)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        try:
            name, rest = Path(f"/proc/{pid}/stat").read_text().split("(", 1)[1].rsplit(")", 1)
            fields = rest.split()
            if named in name:
                total += (int(fields[11]) + int(fields[12])) / CLK_TCK
        except (OSError, IndexError, ValueError):
            pass
        todo.extend(children.get(pid, []))
    return total


def redis_pid(port: int) -> int:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if "redis-server" in cmdline and f":{port}" in cmdline:
                return int(entry.name)
    return -1


def parts(stack: Stack) -> dict[str, tuple[int, str]]:
    """The processes whose CPU is counted: part → (pid, a name its processes have); the
    browser's are under this process (Playwright's driver starts it)."""
    assert stack.gateway is not None
    return {"gateway": (stack.gateway.pid, ""), "processor": (stack.workers["w1"].pid, ""),
            "kafka": (int(stack.kafka_pidfile().read_text()), ""),
            "redis": (redis_pid(stack.redis_port), ""),
            "chromium": (os.getpid(), "chrom")}


@contextmanager
def measured(pids: dict[str, tuple[int, str]]) -> Iterator[dict[str, float]]:
    spent: dict[str, float] = {}
    before = {part: cpu_seconds(*found) for part, found in pids.items()}
    yield spent
    spent.update({part: cpu_seconds(*found) - before[part] for part, found in pids.items()})


def seat_pages(browser: Any, stack: Stack, table: str = "bench-pages",
               old: dict[str, bytes] | None = None) -> dict[str, Page]:
    """The four seat pages of a new `table`, each in a browser context of its own (with the
    `old` look's files, bench/old_look.py, if given)."""
    with stack.client(stack.director) as http:
        made = http.post("/api/tables", json={"table": table}).json()
    pages = {}
    for seat in SEATS:
        context = browser.new_context()
        if old is not None:
            serve_old(context, old)
        page = context.new_page()
        page.goto(f"{stack.url}{made['links'][seat]}")
        expect(page.locator("#connection")).to_have_text("Connected")
        pages[seat] = page
    return pages


def play_board(http: httpx.Client, pages: dict[str, Page], board: int,
               table: str = "bench-pages") -> list[tuple[float, list[float]]]:
    """One board: started by the director, its 12 calls clicked on the pages in turn; each
    call's click time and, per page, when it showed it."""
    assert http.post(f"/api/tables/{table}/boards", json={
        "board": board, "deal": DEAL, "dealer": "N", "vulnerability": "None"}
                     ).status_code == 202
    for page in pages.values():
        expect(page.locator("#board-info")).to_contain_text(f"Board {board} ")
        page.evaluate(WATCH)
    clicks = []
    for index, call in enumerate(AUCTION):
        page = pages[SEATS[index % 4]]
        expect(page.locator(f"#bidding-box button[data-call='{call}']")).to_be_enabled()
        clicks.append(page.evaluate(CLICK, call))
        for other in pages.values():  # every page has drawn it before the next click
            expect(other.locator(".auction tbody td:not(.next) > [aria-label]")
                   ).to_have_count(index + 1)
    seen = {seat: page.evaluate("window.__seen") for seat, page in pages.items()}
    return [(at, [next(t for n, t in seen[seat] if n >= i + 1) - at for seat in SEATS])
            for i, at in enumerate(clicks)]


WATCH_CARDS = """() => {
  window.__cards = {};
  new MutationObserver(() => {
    const at = performance.timeOrigin + performance.now();
    for (const slot of document.querySelectorAll("#middle .trick-slot[data-card]")) {
      if (!(slot.dataset.card in window.__cards)) window.__cards[slot.dataset.card] = at;
    }
  }).observe(document.getElementById("play-table"), { childList: true, subtree: true });
}"""
CLICK_CARD = """() => {
  const button = document.querySelector("#play-table button[data-card]:not(:disabled)");
  if (!button) return null;
  const at = performance.timeOrigin + performance.now();
  button.click();
  return [button.dataset.card, at];
}"""


def play_cards(http: httpx.Client, pages: dict[str, Page], board: int,
               spent: dict[str, float], pids: dict[str, tuple[int, str]]) -> list[float]:
    """One board: its auction clicked, then its 52 cards, each on the page whose hand is due
    (the one page with a card enabled); per card, the time until all four pages show it.
    The CPU spent over the cards is added to `spent`."""
    play_board(http, pages, board)
    for page in pages.values():
        page.evaluate(WATCH_CARDS)
    clicks: list[tuple[str, float]] = []
    with measured(pids) as cpu:
        for _ in range(52):
            clicked = None
            deadline = time.monotonic() + 10
            while clicked is None:  # the page due to play: the next state has reached it
                for page in pages.values():
                    clicked = page.evaluate(CLICK_CARD)
                    if clicked:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("no page has a card to play")
            clicks.append((clicked[0], clicked[1]))
            for page in pages.values():
                expect(page.locator(f"#middle .trick-slot[data-card='{clicked[0]}']")
                       ).to_have_count(1)
    for part, seconds in cpu.items():
        spent[part] = spent.get(part, 0.0) + seconds
    seen = [page.evaluate("window.__cards") for page in pages.values()]
    return [max(s[card] for s in seen) - at for card, at in clicks]


TYPE_LINE = """line => new Promise(resolve => {
  const count = () => document.querySelectorAll(
    ".auction tbody td:not(.next) > [aria-label]").length;
  const want = line.split(" ").length;
  const at = performance.now();
  new MutationObserver((_, observer) => {
    if (count() >= want) { observer.disconnect(); resolve(performance.now() - at); }
  }).observe(document.getElementById("auction"), { childList: true, subtree: true });
  window.setTimeout(() => resolve(-1), 30000);
  document.getElementById("entry-line").value = line;
  document.getElementById("entry").requestSubmit();
})"""


def capture_board(http: httpx.Client, page: Page, board: int) -> float:
    """One board recorded on the capture page: its auction typed as one line; the time
    until the page shows its last call (each call is sent once the one before is folded)."""
    assert http.post("/api/tables/bench-capture/boards", json={
        "board": board, "deal": DEAL, "dealer": "N", "vulnerability": "None"}
                     ).status_code == 202
    expect(page.locator("#board-info")).to_contain_text(f"Board {board} ")
    expect(page.locator(".auction tbody td:not(.next) > [aria-label]")).to_have_count(0)
    took: float = page.evaluate(TYPE_LINE, " ".join(AUCTION).lower())
    if took < 0:
        raise RuntimeError("the capture page did not record the line: "
                           f"{page.locator('#entry-error').inner_text()!r}")
    return took


def capture_page(browser: Any, http: httpx.Client, stack: Stack) -> Page:
    http.post("/api/tables", json={"table": "bench-capture"}).raise_for_status()
    link = http.post("/api/tables/bench-capture/operator", json={}).json()["link"]
    page = browser.new_context().new_page()
    page.goto(f"{stack.url}{link}")
    expect(page.locator("#connection")).to_have_text("Connected")
    return page


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"p50 {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms  "
            f"max {ordered[-1]:6.1f} ms")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


RENDERER_METRICS = ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration",
                    "RecalcStyleCount", "LayoutCount", "Nodes")


class RendererMetrics:
    """Chromium's own counters of each page (CDP `Performance.getMetrics`): the time its
    renderer spent in script, style recalculation and layout, and how often, summed over
    the four pages of a look between `start` and `stop`."""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.sessions = [page.context.new_cdp_session(page) for page in pages.values()]
        for session in self.sessions:
            session.send("Performance.enable")
        self.spent = dict.fromkeys(RENDERER_METRICS, 0.0)
        self.nodes = 0.0
        self.before: list[dict[str, float]] = []

    def read(self) -> list[dict[str, float]]:
        return [{m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}
                for session in self.sessions]

    def start(self) -> None:
        self.before = self.read()

    def stop(self) -> None:
        after = self.read()
        for old, new in zip(self.before, after, strict=True):
            for name in RENDERER_METRICS:
                self.spent[name] += new.get(name, 0.0) - old.get(name, 0.0)
        self.nodes = sum(new.get("Nodes", 0.0) for new in after) / len(after)

    def live_nodes(self) -> float:
        """The DOM nodes a page still holds once its garbage is collected (`Nodes` counts the
        nodes drawn over and not yet collected too: it grows with the redraws between
        collections). Read after the last slice: a collection within the slices would move
        its cost out of their times."""
        for session in self.sessions:
            session.send("HeapProfiler.collectGarbage")
        return sum(values.get("Nodes", 0.0) for values in self.read()) / len(self.sessions)

    def per_call(self, calls: int) -> str:
        times = ", ".join(f"{name.removesuffix('Duration')} {1000 * self.spent[name] / calls:.2f}"
                          for name in RENDERER_METRICS if name.endswith("Duration"))
        counts = ", ".join(f"{name.removesuffix('Count')} {self.spent[name] / calls:.1f}"
                           for name in RENDERER_METRICS if name.endswith("Count"))
        return (f"{times} ms; {counts} times; {self.nodes:.0f} DOM nodes a page, "
                f"{self.live_nodes():.0f} once its garbage is collected")


def compare_looks(browser: Any, stack: Stack, http: httpx.Client, commit: str, boards: int,
                  size: int) -> None:
    """The calls' times on the seat pages of this checkout and of `commit`, a slice of `size`
    boards on each in turn, the first of each pair alternating; printed per look."""
    looks = {"new": seat_pages(browser, stack, "bench-look-new"),
             "old": seat_pages(browser, stack, "bench-look-old", files_at(commit))}
    times: dict[str, list[tuple[float, list[float]]]] = {"new": [], "old": []}
    spent: dict[str, dict[str, float]] = {"new": {}, "old": {}}
    for name, pages in looks.items():  # a warm-up board each
        play_board(http, pages, 1, f"bench-look-{name}")
    loads = [load_average()]
    pids = parts(stack)
    metrics = {name: RendererMetrics(pages) for name, pages in looks.items()}
    for start in range(2, boards + 2, size):
        order = ["new", "old"] if (start // size) % 2 else ["old", "new"]
        for name in order:
            metrics[name].start()
            with measured(pids) as cpu:
                for board in range(start, min(start + size, boards + 2)):
                    times[name] += play_board(http, looks[name], board, f"bench-look-{name}")
            metrics[name].stop()
            for part, seconds in cpu.items():
                spent[name][part] = spent[name].get(part, 0.0) + seconds
        loads.append(load_average())
    print(f"  the look of {commit} against this checkout's, {boards} boards × {len(AUCTION)} "
          f"calls each, in slices of {size} boards turn about; load average "
          f"(1, 5, 15 min) at the start and each slice's end: {' | '.join(loads)}")
    for name in ("new", "old"):
        calls = times[name]
        print(f"  {name} look ({'this checkout' if name == 'new' else commit}), "
              f"{len(calls)} calls:")
        print(f"    caller's page shows it  "
              f"{percentiles([d[i % 4] for i, (_, d) in enumerate(calls)])}")
        print(f"    all four pages show it  {percentiles([max(d) for _, d in calls])}")
        print("    CPU per call (ms) over its slices: " + ", ".join(
            f"{part} {1000 * seconds / len(calls):.2f}" for part, seconds in spent[name].items()))
        print("    the four renderers per call (CDP Performance.getMetrics): "
              + metrics[name].per_call(len(calls)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--play-boards", type=int, default=5)
    parser.add_argument("--ports", type=int, nargs=3, default=(26092, 26379, 26000))
    parser.add_argument("--keep", type=Path, help="keep the stack's data and logs here")
    parser.add_argument("--against", metavar="COMMIT",
                        help="the calls alone, this checkout's seat page against COMMIT's")
    parser.add_argument("--slice", type=int, default=2, help="boards a look plays in turn")
    args = parser.parse_args()
    data = args.keep or Path(tempfile.mkdtemp(prefix="pages-bench-"))
    data.mkdir(parents=True, exist_ok=True)
    print(f"pages bench: {args.boards} boards × {len(AUCTION)} calls from four seat pages "
          "in headless Chromium")
    with running_stack(data, *args.ports, workers=1,
                       extra_env={"TABLESERVER_CALLS_PER_SECOND": "50"}) as stack, \
            sync_playwright() as playwright, stack.client(stack.director) as http:
        browser = launch_for_both(playwright) if args.against else launch(playwright)
        if args.against:
            compare_looks(browser, stack, http, args.against, args.boards, args.slice)
            browser.close()
            print_service_errors(data)
            return
        pages = seat_pages(browser, stack)
        play_board(http, pages, 1)  # a warm-up board: connections, caches, JIT
        started = time.monotonic()
        with measured(parts(stack)) as spent:
            calls = [c for board in range(2, args.boards + 2)
                     for c in play_board(http, pages, board)]
        wall = time.monotonic() - started
        with measured(parts(stack)) as idle:  # the same time with no call: the baseline
            time.sleep(wall)
        card_cpu: dict[str, float] = {}
        first = args.boards + 2
        cards = [d for board in range(first, first + args.play_boards)
                 for d in play_cards(http, pages, board, card_cpu, parts(stack))]
        capture = capture_page(browser, http, stack)
        capture_board(http, capture, 1)  # warm-up
        with measured(parts(stack)) as captured:
            lines = [capture_board(http, capture, board) for board in range(2, args.boards + 2)]
        browser.close()
    count = len(calls)
    print(f"  {count} calls in {wall:.1f} s (one at a time: each waits for the one before "
          "to show on all four pages)")
    callers = [delays[i % 4] for i, (_, delays) in enumerate(calls)]  # N calls first
    print(f"  caller's page shows it   {percentiles(callers)}")
    print(f"  all four pages show it   {percentiles([max(d) for _, d in calls])}")
    print("  CPU per call (ms) over the boards, and what the same time idle cost:")
    for name, seconds in spent.items():
        print(f"    {name:<20} {1000 * seconds / count:6.2f}   ({seconds:.2f} s in all; "
              f"idle {idle[name]:.2f} s)")
    print(f"  {len(cards)} cards played from the pages ({args.play_boards} boards of 52), "
          "one at a time: from the click until all four pages show it in the trick")
    print(f"    {percentiles(cards)}")
    print("    CPU per card (ms): " + ", ".join(
        f"{name} {1000 * seconds / len(cards):.2f}" for name, seconds in card_cpu.items()))
    typed = [took / len(AUCTION) for took in lines]
    print(f"  capture page: {len(lines)} auctions of {len(AUCTION)} calls typed as one line "
          "each; per call (the line's time / 12: sent, folded, shown, then the next)")
    print(f"    {percentiles(typed)}")
    print("    CPU per call (ms): " + ", ".join(
        f"{name} {1000 * seconds / (len(lines) * len(AUCTION)):.2f}"
        for name, seconds in captured.items()))
    print_service_errors(data)


if __name__ == "__main__":
    main()

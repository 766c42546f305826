"""Where the seat pages' script time goes at a call: the four seat pages of
bench/pages_bench.py play `--boards` boards of 12 calls each (after a warm-up board) under
Chromium's sampling profiler (CDP `Profiler`, every `--interval` µs), and the functions of the
pages' own scripts are printed by their time per call over the four pages: self (in the
function's own code) and total (with what it calls), and the renderer's own parts
("(garbage collector)", "(program)"). With `--against COMMIT`, the seat page as it was at
COMMIT (bench/old_look.py) is profiled the same way after it. A profile, not a test: it
prints, asserts nothing.

    python bench/pages_profile.py [--boards 4] [--top 25] [--interval 100]
        [--ports 26092 26379 26000] [--against COMMIT]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.old_look import files_at, launch_for_both
from bench.pages_bench import AUCTION, load_average, play_board, seat_pages
from tests.stack import running_stack

Frame = tuple[str, str, int]  # function, script, line


def frame_of(node: dict[str, Any]) -> Frame:
    call = node["callFrame"]
    url = call.get("url", "").rsplit("/", 1)[-1]
    return (call.get("functionName") or "(anonymous)", url, call.get("lineNumber", -1) + 1)


def times(profile: dict[str, Any]) -> tuple[dict[Frame, float], dict[Frame, float]]:
    """Self and total milliseconds of each function in a CDP profile (total counted once a
    sample however often the function is on its stack)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"]
              for child in node.get("children", [])}
    own: dict[Frame, float] = defaultdict(float)
    total: dict[Frame, float] = defaultdict(float)
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        ms = delta / 1000
        own[frame_of(nodes[sample])] += ms
        seen: set[Frame] = set()
        at: int | None = sample
        while at is not None:
            frame = frame_of(nodes[at])
            if frame not in seen:
                total[frame] += ms
                seen.add(frame)
            at = parent.get(at)
    return own, total


def profiled(pages: dict[str, Page], http: Any, table: str, first: int, boards: int,
             interval: int) -> tuple[dict[Frame, float], dict[Frame, float]]:
    sessions = [page.context.new_cdp_session(page) for page in pages.values()]
    for session in sessions:
        session.send("Profiler.enable")
        session.send("Profiler.setSamplingInterval", {"interval": interval})
        session.send("Profiler.start")
    for board in range(first, first + boards):
        play_board(http, pages, board, table)
    own: dict[Frame, float] = defaultdict(float)
    total: dict[Frame, float] = defaultdict(float)
    for session in sessions:
        mine, all_of = times(session.send("Profiler.stop")["profile"])
        for frame, ms in mine.items():
            own[frame] += ms
        for frame, ms in all_of.items():
            total[frame] += ms
    return own, total


def report(name: str, own: dict[Frame, float], total: dict[Frame, float], calls: int,
           top: int) -> None:
    def scripts(frame: Frame) -> bool:
        return frame[1].endswith(".js") or (frame[0].startswith("(") and frame[0] not in (
            "(root)", "(idle)"))

    busy = sum(ms for frame, ms in own.items() if frame[0] != "(idle)")
    print(f"  {name}: {calls} calls, the four pages busy {busy / calls:.2f} ms a call "
          "(sampled, the profiler's own cost in it)")
    print("    self ms/call   total ms/call   function (script:line)")
    shown = sorted((f for f in own if scripts(f)), key=lambda f: -own[f])[:top]
    for frame in shown:
        print(f"    {own[frame] / calls:12.3f}   {total[frame] / calls:13.3f}   "
              f"{frame[0]} ({frame[1]}:{frame[2]})")
    print("    by total (the pages' own functions):")
    for frame in sorted((f for f in total if f[1].endswith(".js")),
                        key=lambda f: -total[f])[:top]:
        print(f"    {own[frame] / calls:12.3f}   {total[frame] / calls:13.3f}   "
              f"{frame[0]} ({frame[1]}:{frame[2]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--interval", type=int, default=100, help="sampling, µs")
    parser.add_argument("--ports", type=int, nargs=3, default=(26092, 26379, 26000))
    parser.add_argument("--against", metavar="COMMIT", help="profile COMMIT's seat page too")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="pages-profile-"))
    with running_stack(data, *args.ports, workers=1,
                       extra_env={"TABLESERVER_CALLS_PER_SECOND": "50"}) as stack, \
            sync_playwright() as playwright, stack.client(stack.director) as http:
        browser = launch_for_both(playwright)
        looks = {"this checkout": None} | ({args.against: files_at(args.against)}
                                           if args.against else {})
        print(f"pages profile: {args.boards} boards × {len(AUCTION)} calls a look, "
              f"load average {load_average()}")
        for number, (name, old) in enumerate(looks.items()):
            table = f"profile-{number}"
            pages = seat_pages(browser, stack, table, old)
            play_board(http, pages, 1, table)  # a warm-up board: caches, JIT
            own, total = profiled(pages, http, table, 2, args.boards, args.interval)
            report(name, own, total, args.boards * len(AUCTION), args.top)
        browser.close()


if __name__ == "__main__":
    main()

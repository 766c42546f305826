"""Benchmark of the gateway under overload (docs/operations.md, "Overload").

Starts its own stack (tests/stack.py), creates `--tables` tables, then:
- a large deals file (`--deals-mib`, with auctions and play sections, as the issue's 1.9 MiB
  one) creates a tournament while `/livez` and seats' calls are sent one after the other: how
  long the creation took, and how those were answered meanwhile (before item 9 the loop
  parsed the file and answered nothing until it was done);
- for each bound in `--bounds`, `N` or `N:W` (a gateway started for it with
  `TABLESERVER_EVENTS_IN_FLIGHT` N, and `TABLESERVER_EVENT_WAIT_MS` W, else its default; N 0:
  no bound, every event taken, as before item 10), every table keeps
  one call in flight (a closed loop with no pause: the tables' real auctions, the next board
  started by the director at each auction's end), more than the gateway serves in time; a
  503 or 429 is sent again after its Retry-After, as the clients do. Over `--seconds`
  (after `--warmup`): the answers a second, the share refused (503), p50/p99/max of the 202s
  and of the 503s, and of each call from its first send to its 202, its waits included.

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/overload_bench.py [--tables 600] [--bounds 0,128,128:0] [--seconds 30]
                                   [--warmup 10] [--deals-mib 1.9] [--keep DIR]
                                   [--ports 31092 31379 31000]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.pipeline_bench import Pipeline, print_service_errors
from bench.pipeline_clients import HttpConnection
from bench.pipeline_report import pct
from bench.stack_args import add_stack_options, bench_stack, machine
from tests.helpers import played_deals_file
from tests.stack import Stack, gateway_process

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 31092, 31379, 31000
NO_BOUND = 10**9  # `--bounds 0`: every event taken


@dataclass
class Overload:
    """What the load generator saw of one bound's window."""

    answers: list[tuple[int, float]] = field(default_factory=list)  # (status, seconds)
    to_success: list[float] = field(default_factory=list)  # first send → 202, waits included
    failed: list[str] = field(default_factory=list)  # neither taken nor to be sent again


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"p50 {pct(values, 0.5):,.0f} ms, p99 {pct(values, 0.99):,.0f} ms, "
            f"max {max(values) * 1000:,.0f} ms")


async def send_until_taken(connection: HttpConnection, path: str, body: bytes, token: str,
                           end: float, measured: Overload | None) -> int:
    """POST until answered other than 503 or 429 (each sent again after its Retry-After,
    the same body), or until `end`: the last status."""
    while True:
        began = time.monotonic()
        status, answer = await connection.post(path, body, token)
        if measured is not None:
            measured.answers.append((status, time.monotonic() - began))
        after = connection.header(b"retry-after")
        if status not in (429, 503) or after is None or time.monotonic() >= end:
            if status not in (202, 429, 503) and measured is not None:
                measured.failed.append(f"{status} {answer[:120]!r}")
            return status
        await asyncio.sleep(float(after))


async def table_loop(pipeline: Pipeline, table: str, port: int, start: float, end: float,
                     window: Overload) -> None:
    """One table's calls, one in flight at a time, until `end`; measured from `start`."""
    connection = HttpConnection(port)
    while time.monotonic() < end:
        board, step = pipeline.next_step(table)
        measured = window if time.monotonic() >= start else None
        if board is not None:
            await send_until_taken(connection, f"/api/tables/{table}/boards",
                                   json.dumps(board).encode(), pipeline.director, end, None)
        first = time.monotonic()
        status = await send_until_taken(connection, f"/api/tables/{table}/events", step.body,
                                        pipeline.seats[table][step.seat], end, measured)
        if measured is not None and status == 202:
            measured.to_success.append(time.monotonic() - first)
    if connection.writer is not None:
        connection.writer.close()


async def overload(pipeline: Pipeline, port: int, warmup: float, seconds: float) -> Overload:
    window = Overload()
    start = time.monotonic() + warmup
    await asyncio.gather(*(table_loop(pipeline, table, port, start, start + seconds, window)
                           for table in pipeline.tables))
    return window


def print_window(bound: str, window: Overload, seconds: float) -> None:
    counts = Counter(status for status, _ in window.answers)
    total = len(window.answers)
    took = {s: [t for status, t in window.answers if status == s] for s in (202, 503)}
    print(f"bound {bound}: {total:,} answers in {seconds:g} s "
          f"({total / seconds:,.0f}/s): 202 {counts[202]:,} ({counts[202] / seconds:,.0f}/s), "
          f"503 {counts[503]:,} ({100 * counts[503] / max(total, 1):.1f} % refused), "
          f"429 {counts[429]:,}, other {total - counts[202] - counts[503] - counts[429]:,}; "
          f"{machine()}", flush=True)
    print(f"  202: {ms(took[202])}", flush=True)
    print(f"  503: {ms(took[503])}", flush=True)
    print(f"  a call from its first send to its 202 (Retry-After waits included): "
          f"{ms(window.to_success)}", flush=True)
    if window.failed:
        print(f"  {len(window.failed)} refused otherwise, the first: {window.failed[0]}")


async def large_deals(url: str, director: str, pipeline: Pipeline, mib: float) -> None:
    """A tournament created from a `mib` MiB deals file while `/livez` and calls (the
    bench's first tables', in their auctions) are sent one after the other."""
    deals = played_deals_file(int(mib * 2**20))
    probes: list[float] = []
    calls: list[tuple[int, float]] = []
    connection = HttpConnection(int(url.rsplit(":", 1)[1]))
    async with httpx.AsyncClient(base_url=url, timeout=600) as http:
        began = time.monotonic()
        creation = asyncio.create_task(http.post(
            "/api/tournaments", headers={"Authorization": f"Bearer {director}"},
            json={"tournament": "large", "tables": 4, "deals": deals}))
        table = 0
        while not creation.done():
            sent = time.monotonic()
            live = await http.get("/livez")
            if not creation.done() and live.status_code == 200:
                probes.append(time.monotonic() - sent)
            name = pipeline.tables[table % 10]
            table += 1
            board, step = pipeline.next_step(name)
            if board is not None:
                await connection.post(f"/api/tables/{name}/boards", json.dumps(board).encode(),
                                      director)
            sent = time.monotonic()
            status, _ = await connection.post(f"/api/tables/{name}/events", step.body,
                                              pipeline.seats[name][step.seat])
            if not creation.done():
                calls.append((status, time.monotonic() - sent))
        created = await creation
        took = time.monotonic() - began
    boards = deals.count("[Board ")
    print(f"a {len(deals) / 2**20:.1f} MiB deals file ({boards:,} boards, "
          f"{deals.count('[Play ')} with their play): {created.status_code} in {took:.1f} s; "
          f"meanwhile /livez answered {len(probes)} times ({ms(probes)}), "
          f"{len(calls)} calls answered ({sum(1 for s, _ in calls if s == 202)} 202; "
          f"{ms([t for _, t in calls])}); {machine()}", flush=True)
    if connection.writer is not None:
        connection.writer.close()


async def run(args: argparse.Namespace, stack: Stack) -> None:
    pipeline = Pipeline(stack.url, stack.director, args.tables)
    print(f"creating {args.tables} tables …", flush=True)
    await pipeline.setup()
    await pipeline.http.aclose()
    if args.deals_mib:
        await large_deals(stack.url, stack.director, pipeline, args.deals_mib)
    for n, given in enumerate(args.bounds):
        bound, _, wait = given.partition(":")
        env = {"TABLESERVER_EVENTS_IN_FLIGHT": str(int(bound) or NO_BOUND),
               **({"TABLESERVER_EVENT_WAIT_MS": wait} if wait else {})}
        named = "none" if not int(bound) else \
            f"{bound} in flight, a wait for a turn of {wait or 'the default'} ms"
        port = stack.gateway_port + 1 + n
        with gateway_process(dataclasses.replace(stack, env={**stack.env, **env}), port,
                             f"gateway-bound-{n}.log"):
            print(f"{args.tables} tables, each with one call in flight, on a gateway whose "
                  f"bound is {named}: {args.warmup:g} s, then {args.seconds:g} s measured …",
                  flush=True)
            window = await overload(pipeline, port, args.warmup, args.seconds)
            print_window(named, window, args.seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=600)
    parser.add_argument("--bounds", type=lambda s: [b for b in s.split(",") if b],
                        default=["0", "128", "128:0"],
                        help="N or N:W, events in flight a gateway takes (0: no bound) and "
                        "the ms one more waits for a turn")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--deals-mib", type=float, default=1.9,
                        help="the large deals file's size; 0: not measured")
    add_stack_options(parser, [KAFKA_PORT, REDIS_PORT, GATEWAY_PORT])
    args = parser.parse_args()
    with bench_stack(args, 1, 8) as stack:
        time.sleep(8)  # the worker joins the group and takes its shards
        uvloop.run(run(args, stack))
        print(f"machine after: {machine()}")
        print_service_errors(stack.data)


if __name__ == "__main__":
    main()

"""One policy for a long-lived task that dies, in both services (docs/operations.md, "Supervision";
services/common/supervision.py): it is logged with its name, and the process stops and exits
non-zero (`DIED`) for its supervisor to start it again. A gateway's feeds' reader that dies no
longer leaves a gateway that says it is ready while its feeds are quiet."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from aiokafka.structs import TopicPartition

from services.common.supervision import DIED, Supervisor
from services.processor.ports import Record
from services.processor.worker_loop import WorkerLoop
from tests.fakes import FlakyStore, MemoryFetcher, MemoryKafka, MemoryShardLog

ROOT = Path(__file__).resolve().parents[2]

# The gateway as `python -m services.gateway` serves it (`__main__.serve`), on a port of the
# system's choosing, its adapters in memory but for the reader named in argv[2], which dies.
GATEWAY = """
import sys
from services.common.settings import Settings
from services.gateway.__main__ import serve
from tests.fakes import QuietFeeds, gateway_adapters
dying = {sys.argv[2]: QuietFeeds(dies=RuntimeError("a bug, raised by the test"))}
sys.exit(serve(Settings(TABLESERVER_DATA=sys.argv[1]), "127.0.0.1", 0,
               gateway_adapters(**dying)))
"""


def test_a_gateway_whose_reader_dies_exits_non_zero_naming_it(tmp_path: Path) -> None:
    """The process smoke test (the others below in process: a process's start is 1.5 s of
    CPU)."""
    done = subprocess.run([sys.executable, "-c", GATEWAY, str(tmp_path), "hub"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == DIED, done.stderr
    assert "background task \"feeds' reader\" died" in done.stderr
    assert "RuntimeError: a bug, raised by the test" in done.stderr  # with its traceback


@pytest.mark.parametrize(("reader", "name"), [("hub", "feeds' reader"),
                                              ("alerts", "alerts' reader"),
                                              ("public", "the public's feeds")])
async def test_a_gateways_reader_that_dies_stops_it_named_and_non_zero(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, reader: str, name: str) -> None:
    """The same in process: the app `serve` runs (`create_app`) under its supervisor, whose
    stop is what stops uvicorn."""
    from services.common.settings import Settings
    from services.gateway.app import create_app
    from tests.fakes import QuietFeeds, gateway_adapters

    stopped = asyncio.Event()
    watch = Supervisor(stopped.set)
    dying = {reader: QuietFeeds(dies=RuntimeError("a bug, raised by the test"))}
    app = create_app(Settings(TABLESERVER_DATA=tmp_path), gateway_adapters(**dying), watch)
    async with app.app.router.lifespan_context(app.app):  # type: ignore[attr-defined]
        await asyncio.wait_for(stopped.wait(), 30)
    assert (watch.died, watch.exit_code()) == ([name], DIED)
    assert f"background task \"{name}\" died" in caplog.text
    assert "RuntimeError: a bug, raised by the test" in caplog.text  # with its traceback


# A worker as `python -m services.processor` runs it (`__main__.run`: a faust worker is a mode
# worker, which stops on SIGTERM), its fetch loop on fakes, whose fetcher has a bug.
WORKER = """
from mode import Service, Worker
from services.common.supervision import Supervisor
from services.processor.__main__ import run
from services.processor.worker_loop import WorkerLoop
from tests.fakes import FlakyStore, MemoryKafka, MemoryShardLog
from tests.unit.test_task_deaths import BuggyFetcher

supervisor, kafka = Supervisor(), MemoryKafka(2)
loop = WorkerLoop(FlakyStore(), BuggyFetcher(kafka), lambda shard: MemoryShardLog(kafka, shard),
                  2, "w1", supervisor)

class Folding(Service):
    async def on_started(self) -> None:
        await loop.start()

    async def on_stop(self) -> None:
        await loop.stop()

run(Worker(Folding(), loglevel="info", quiet=True), supervisor)
"""


def test_a_worker_whose_fetch_loop_dies_exits_non_zero_naming_it() -> None:
    done = subprocess.run([sys.executable, "-c", WORKER], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == DIED, done.stderr
    assert "background task 'fetch loop' died" in done.stderr
    assert "ValueError: a bug, raised by the test" in done.stderr


class BuggyFetcher(MemoryFetcher):
    """A fetcher that fails as no outage does (a bug), once the loop runs."""

    async def fetch(self, timeout: float) -> dict[TopicPartition, list[Record]]:
        raise ValueError("a bug, raised by the test")


async def test_a_workers_fetch_loop_that_dies_stops_the_worker_once() -> None:
    stops: list[str] = []
    supervisor = Supervisor(stop=lambda: stops.append("stopped"))
    kafka = MemoryKafka(2)
    loop = WorkerLoop(FlakyStore(), BuggyFetcher(kafka),
                      lambda shard: MemoryShardLog(kafka, shard), 2, "w1", supervisor)
    await loop.start()
    try:
        assert loop.task is not None
        await asyncio.wait([loop.task], timeout=5)
    finally:
        await loop.stop()
    assert supervisor.died == ["fetch loop"] and stops == ["stopped"]
    assert supervisor.exit_code() == DIED


async def test_a_task_cancelled_or_ended_is_no_death_and_a_second_death_no_second_stop(
        caplog: pytest.LogCaptureFixture) -> None:
    stops: list[str] = []
    supervisor = Supervisor(stop=lambda: stops.append("stopped"))

    async def dies(what: str) -> None:
        raise RuntimeError(what)

    ends = supervisor.supervised(asyncio.create_task(asyncio.sleep(0)), "ends")
    waits = supervisor.supervised(asyncio.create_task(asyncio.Event().wait()), "waits")
    await ends
    waits.cancel()
    await asyncio.gather(waits, return_exceptions=True)
    assert supervisor.died == [] and stops == [] and supervisor.exit_code() == 0
    first = supervisor.supervised(asyncio.create_task(dies("first")), "first")
    second = supervisor.supervised(asyncio.create_task(dies("second")), "second")
    await asyncio.gather(first, second, return_exceptions=True)  # after the supervisor's
    assert supervisor.died == ["first", "second"] and stops == ["stopped"]
    assert "background task 'second' died" in caplog.text

"""`python -m services.robots.pool`: the robot pool, our robots at the seats the director
asked for (`POST /api/tables/{t}/robots`), under supervisord beside the Table Manager host.

It reads `tableserver.robots` (compacted: each table's last request) from its start, then
follows it: for each seat asked for, one of our robots (`player.OurRobot`) sits through the
Table Manager host with the seat's token, which the pool asks the gateway for with the
director's token (`GET /api/tables/{t}/links`), and plays there until the seat is taken away.
A robot that loses its connection, or is refused, sits again after a pause. A pool that is
killed and started again reads the requests again: its robots sit again, each told its board
from the start (it plays the same cards again: its decisions are seeded by the position).

Its robots' cards are solved on one DDS thread, or in processes (`solving.ProcessSolving`,
`TABLESERVER_ROBOT_PROCESSES`),
and pools side by side (here or on other machines) hold each seat once: a robot sits only
while its pool holds the seat's lease in Redis (`leases.RedisLeases`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import signal
import zlib

import httpx
from aiokafka import AIOKafkaConsumer, TopicPartition

from services.common.backoff import Backoff
from services.common.errors import LogUnavailable, StoreUnavailable
from services.common.kafka.reader import read_partition
from services.common.kafka_faults import log_faults
from services.common.names import ROBOTS
from services.common.redis_connect import AnyRedis, redis_client
from services.common.redis_faults import store_faults
from services.common.settings import Settings
from services.common.stack_dump import install as install_stack_dump
from services.robots.leases import RedisLeases, SeatLeases
from services.robots.player import HostRefused, OurRobot
from services.robots.solving import Solving, solving_for
from shared.robot.seats import POOL_LABEL, SeatError, parse_seats
from shared.seats import Seat

log = logging.getLogger("tableserver.robots.pool")
REQUESTS = TopicPartition(ROBOTS, 0)
Requests = dict[str, tuple[str, ...]]  # table → seats
SPREAD_S = 0.5  # a seat's first ask for its lease after up to this long, at random,
HELD_S = 0.02  # and this much longer a seat the pool holds: the seats spread over the pools


def read_request(value: bytes | None) -> tuple[str, tuple[str, ...]] | None:
    """A record of `tableserver.robots` as (table, seats); None for one that is not."""
    try:
        request = json.loads(value or b"")
        return str(request["table"]), parse_seats(request["seats"])
    except (ValueError, KeyError, TypeError, SeatError):
        return None


class Pool:
    def __init__(self, settings: Settings, host: str = "127.0.0.1", samples: int = 20,
                 leases: SeatLeases | None = None):
        self.settings, self.host, self.samples = settings, host, samples
        self.redis: AnyRedis | None = None
        if leases is None:  # a seat held by one pool only, of all that follow the requests
            self.redis = redis_client(settings, socket_connect_timeout=2, socket_timeout=2,
                                      client_name="tableserver-robot-pool")
            leases = RedisLeases(self.redis, settings.robot_lease_s)
        self.leases = leases
        self.held: set[tuple[str, str]] = set()
        self.http = httpx.AsyncClient(base_url=settings.gateway_url, timeout=15, headers={
            "Authorization": f"Bearer {settings.director_token()}"})
        self.robots: dict[tuple[str, str], asyncio.Task[None]] = {}
        # the robots' cards solved on the DDS thread, or in processes if the setting says so
        self.solving: Solving = solving_for(settings.robot_processes)

    async def close(self) -> None:
        for task in self.robots.values():
            task.cancel()
        await asyncio.gather(*self.robots.values(), return_exceptions=True)
        await self.http.aclose()
        if self.redis is not None:
            await self.redis.aclose()
        self.solving.close()

    def apply(self, table: str, seats: tuple[str, ...]) -> None:
        """Robots at exactly `seats` of `table`: the others stand up."""
        for (t, seat), task in list(self.robots.items()):
            if t == table and seat not in seats:
                task.cancel()
                del self.robots[(t, seat)]
                log.info("robot at %s %s taken away", table, seat)
        for seat in seats:
            if (table, seat) not in self.robots:
                self.robots[(table, seat)] = asyncio.create_task(
                    self.sit(table, Seat.parse(seat)), name=f"robot {table} {seat}")

    async def token(self, table: str, seat: Seat) -> str:
        response = await self.http.get(f"/api/tables/{table}/links")
        if response.status_code != 200:
            raise HostRefused(f"the gateway gave no token for {table} "
                              f"(status {response.status_code}: {response.text[:200]})")
        return str(response.json()["seats"][seat.name])

    async def sit(self, table: str, seat: Seat) -> None:
        """The seat's lease taken (waiting while another pool holds it), then its robot
        seated for as long as the lease is kept; the lease lost, its robot stands up and the
        pool asks for the lease again. The seat taken away (cancelled): the lease given up."""
        try:
            while True:
                await self._take(table, seat)
                robot = asyncio.create_task(self._robot(table, seat))
                keeping = asyncio.create_task(self._keep(table, seat))
                try:
                    done, _ = await asyncio.wait({robot, keeping},
                                                 return_when=asyncio.FIRST_COMPLETED)
                finally:
                    robot.cancel()
                    keeping.cancel()
                    await asyncio.gather(robot, keeping, return_exceptions=True)
                    self.held.discard((table, seat.name))
                if robot in done and robot.exception() is not None:  # a fault of ours
                    log.error("robot at %s %s stopped: %r; sits again", table, seat.name,
                              robot.exception())  # (not the host's, nor the network's)
                    await asyncio.sleep(1)
                else:  # `_keep` or `_robot` found the lease another pool's
                    log.warning("robot at %s %s: its seat's lease lost (another pool's, or "
                                "Redis away for a lease): it stands up", table, seat.name)
        finally:
            self.held.discard((table, seat.name))
            with contextlib.suppress(StoreUnavailable), store_faults():
                await self.leases.give_up(table, seat.name)

    async def _take(self, table: str, seat: Seat) -> None:
        """Waits until the seat's lease is this pool's."""
        await asyncio.sleep(random.uniform(0, SPREAD_S) + HELD_S * len(self.held))
        while True:
            try:
                with store_faults():
                    if await self.leases.take(table, seat.name):
                        self.held.add((table, seat.name))
                        log.info("robot at %s %s: the seat's lease taken", table, seat.name)
                        return
            except StoreUnavailable as error:
                log.warning("robot at %s %s: no lease (%r): again", table, seat.name,
                            error.__cause__)
            await asyncio.sleep(self.leases.lease_s / 3)

    async def _keep(self, table: str, seat: Seat) -> None:
        """Renews the lease every third of it; returns once it is lost, or could not be
        renewed for two thirds of it (it may lapse before the next try)."""
        loop = asyncio.get_running_loop()
        renewed = loop.time()
        while True:
            await asyncio.sleep(self.leases.lease_s / 3)
            try:
                with store_faults():
                    if not await self.leases.renew(table, seat.name):
                        return
                renewed = loop.time()
            except StoreUnavailable as error:
                log.warning("robot at %s %s: the lease not renewed (%r)", table, seat.name,
                            error.__cause__)
                if loop.time() - renewed >= self.leases.lease_s * 2 / 3:
                    return

    async def _robot(self, table: str, seat: Seat) -> None:
        """One robot at the seat, for as long as it is held: again after any fault, once
        the lease is renewed; returns when it is another pool's. (A robot the host
        `replaced`, another pool's robot seated once this pool's lease lapsed, would
        otherwise sit again before `_keep`'s next renewal, and replace the other's.)"""
        pause = Backoff.doubling(1, 10)
        seed = zlib.crc32(table.encode()) + seat.index
        while True:
            if not pause.fresh and not await self._still_held(table, seat):
                return
            try:
                robot = OurRobot(seat, await self.token(table, seat), self.settings.tm_port,
                                 self.host, label=POOL_LABEL, seed=seed, samples=self.samples,
                                 solving=self.solving)
                log.info("robot at %s %s sits", table, seat.name)
                await robot.play(None)
            except (HostRefused, ConnectionError, OSError, httpx.HTTPError) as error:
                log.info("robot at %s %s: %s; sits again", table, seat.name, error)
            if pause.fresh:
                pause.next()  # the first pause at once, then longer
                await asyncio.sleep(0.5)
            else:
                await pause.wait()

    async def _still_held(self, table: str, seat: Seat) -> bool:
        """The lease renewed before the robot sits again: False once another pool's. Redis
        away: True (`_keep` stands the robot up after two thirds of a lease unrenewed)."""
        try:
            with store_faults():
                return await self.leases.renew(table, seat.name)
        except StoreUnavailable as error:
            log.warning("robot at %s %s: the lease not renewed (%r)", table, seat.name,
                        error.__cause__)
            return True

    async def follow(self) -> None:
        """Read the requests from the start, seat them, then each new one (for ever). Kafka
        away at the start (or the topic not made yet by the gateway): tried again."""
        pause = Backoff.doubling(1, 10)
        while True:
            consumer = AIOKafkaConsumer(bootstrap_servers=self.settings.kafka_bootstrap,
                                        enable_auto_commit=False, request_timeout_ms=10_000)
            try:
                with log_faults():
                    await consumer.start()
                    requests = await asyncio.wait_for(self._read(consumer), 30)
                break
            except (LogUnavailable, TimeoutError) as error:
                await consumer.stop()
                log.warning("the robots' requests cannot be read yet (%r): again",
                            error.__cause__ if isinstance(error, LogUnavailable) else error)
                await pause.wait()
        try:
            for table, seats in requests.items():
                self.apply(table, seats)
            log.info("%d robot(s) asked for at %d table(s)", len(self.robots),
                     sum(1 for seats in requests.values() if seats))
            while True:
                try:
                    with log_faults():
                        batch = await consumer.getmany(REQUESTS, timeout_ms=1000)
                except LogUnavailable as error:  # the consumer reconnects by itself
                    log.warning("the requests' consumer: %r", error.__cause__)
                    await asyncio.sleep(1)
                    continue
                for record in batch.get(REQUESTS, []):
                    found = read_request(record.value)
                    if found is not None:
                        self.apply(*found)
        finally:
            await consumer.stop()

    @staticmethod
    async def _read(consumer: AIOKafkaConsumer) -> Requests:
        """Every table's last request, from the topic's start to its end now."""
        requests: Requests = {}
        for record in await read_partition(consumer, REQUESTS, None, None):
            found = read_request(record.value)
            if found is not None:
                requests[found[0]] = found[1]
        return requests


async def run(settings: Settings) -> None:
    pool = Pool(settings, os.environ.get("TABLESERVER_TM_HOST", "127.0.0.1"))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    follower = asyncio.create_task(pool.follow(), name="robot requests")
    stopped = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({follower, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if follower.done():
            follower.result()  # a fault stops the process: supervisord starts it again
    finally:
        follower.cancel()
        stopped.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await follower
        await pool.close()


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    install_stack_dump()  # kill -USR1: what the process waits for, in its log
    asyncio.run(run(Settings()))


if __name__ == "__main__":
    main()

"""The clients `bench/pipeline_bench.py` loads and measures with: a bare aiokafka round trip
beside the pipeline, and a light HTTP/1.1 client for the gateway."""

from __future__ import annotations

import asyncio
import time

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic


class RoundTrip:
    """A bare aiokafka round trip: produce with acks=all (idempotent) → consume. Its clients
    are started before it is timed, so that their start-up (metadata, positions) does not
    hold up the load generator's loop in the pipeline's measured window."""

    def __init__(self, bootstrap: str) -> None:
        self.consumer = AIOKafkaConsumer("bench.roundtrip", bootstrap_servers=bootstrap,
                                         auto_offset_reset="latest", enable_auto_commit=False)
        self.producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all",
                                         enable_idempotence=True, linger_ms=0)
        self.bootstrap = bootstrap

    async def start(self) -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=self.bootstrap)
        await admin.start()
        if "bench.roundtrip" not in await admin.list_topics():
            await admin.create_topics([NewTopic("bench.roundtrip", 1, 1)])
        await admin.close()
        await self.consumer.start()
        await self.consumer.getmany(timeout_ms=1000)  # fetch positions first
        await self.producer.start()

    async def run(self, count: int, rate: float) -> list[float]:
        """`count` round trips at `rate` per second; the clients are stopped after."""
        sent: dict[int, float] = {}
        latencies: list[float] = []

        async def consume() -> None:
            while len(latencies) < count:
                batch = await self.consumer.getmany(timeout_ms=1000)
                now = time.perf_counter()
                for records in batch.values():
                    for record in records:
                        latencies.append(now - sent[int(record.value)])

        reader = asyncio.create_task(consume())
        for i in range(count):
            sent[i] = time.perf_counter()
            await self.producer.send("bench.roundtrip", str(i).encode())
            await asyncio.sleep(1 / rate)
        await asyncio.wait_for(reader, 30)
        await self.producer.stop()
        await self.consumer.stop()
        return latencies


class HttpConnection:
    """A minimal HTTP/1.1 keep-alive client: a load generator must cost less CPU than the
    server it loads, and on a 2-core machine httpx costs about as much as the gateway."""

    IDLE_S = 20  # reopened after this long unused: the gateway closes idle ones after 30 s

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0
        self.head = b""  # the last answer's status line and headers

    async def post(self, path: str, body: bytes, token: str) -> tuple[int, bytes]:
        if self.writer is not None and time.monotonic() - self.used > self.IDLE_S:
            self.writer.close()
            self.writer = None
        self.used = time.monotonic()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
            + body)
        head = self.head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return status, await self.reader.readexactly(length)

    def header(self, name: bytes) -> bytes | None:
        """A header of the last answer (`name` in lower case), or None."""
        for line in self.head.split(b"\r\n")[1:]:
            key, _, value = line.partition(b":")
            if key.strip().lower() == name:
                return value.strip()
        return None


class IdleConnections:
    """The HTTP connections free for a request, the last one given back taken first: a sender
    waits for one, not polling (3,750 tables' senders each asking every millisecond while the
    gateway was behind took half a core of the bench's own, beside the stack it measures)."""

    def __init__(self, connections: list[HttpConnection]) -> None:
        self.free: asyncio.LifoQueue[HttpConnection] = asyncio.LifoQueue()
        for connection in connections:
            self.free.put_nowait(connection)

    async def take(self) -> HttpConnection:
        return await self.free.get()

    def give(self, connection: HttpConnection) -> None:
        self.free.put_nowait(connection)

"""The matched floor: the pipeline's I/O per event, exactly, with none of our Python logic.

Beside `floor_bench.py`'s bare floor (an append, a copy, a plain Redis write), this floor does
what the real pipeline must do for each event, so that the pipeline's ratio to it measures our
code, not the I/O:
- the gateway (uvicorn, httptools, uvloop): the seat's rate limit, one round trip to Redis
  running the gateway's own GCRA script (`services/gateway/http/limits.py`), with the table's
  state read (`HMGET` of its version and board) in the same write, as a card's (a call asks
  the limit alone: this floor reads for every event, a card's I/O, a little above a call's); the
  append to the table's topic, awaited (acks=all, idempotent, linger 0); the live copy to the
  shard's partition, not awaited;
- two workers, each with half of the 8 shards' partitions (as the stack's two processors): each
  fetch's states written on one pipelined connection by the processor's own version-checked
  script (`services/common/store.py`), a state the size of a real one (`--state`, read from the
  pipeline's Redis by `paired_bench.py`); offsets committed every second; the end offsets asked
  every 2 s; a fetch after one that brought records waits 5 ms.
Left out: faust's group thread and heartbeats (its cost is ours to carry, not the I/O's).

Run by `bench/paired_bench.py`:
    python bench/matched_floor.py --gateway PORT BOOTSTRAP REDIS_PORT
    python bench/matched_floor.py --worker INDEX BOOTSTRAP REDIS_PORT STATE_FILE
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import msgpack
import uvloop
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository

from bench.floor_bench import LINGER_S, SHARDS, topic
from services.common.names import feed_key, state_key
from services.common.redis_lines import RedisLines
from services.common.store import _WRITE_STATE, _WRITE_STATE_SHA, FEED_LENGTH
from services.gateway.http.limits import SharedLimit

LIVE = "matched.live"
WORKERS = 2
COMMIT_EVERY_S = 1.0
END_OFFSETS_EVERY_S = 2.0


def table_name(table: int) -> str:
    return f"floor{table}"


def gateway_app(bootstrap: str, redis_port: int) -> Any:
    producer: AIOKafkaProducer | None = None
    lines = RedisLines(f"redis://127.0.0.1:{redis_port}/0")
    limit = SharedLimit(lines, "floor:limit:", 20, 10)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal producer
        if scope["type"] == "lifespan":
            await receive()
            producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all",
                                        enable_idempotence=True, linger_ms=0)
            await producer.start()
            await send({"type": "lifespan.startup.complete"})
            await receive()
            await producer.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return
        assert producer is not None
        body = (await receive())["body"]
        table = int(scope["path"].rpartition("/")[2])
        name = table_name(table)
        # the state asked with the limit, in the same write to Redis, as the gateway asks
        # for a card's (`services/gateway/tables/service.py`; a call's asks the limit only)
        allowed, _state = await asyncio.gather(limit.allow(f"{name}:N", time.monotonic()),
                                               lines.hmget(state_key(name), "version", "board"))
        status = 202 if allowed else 429
        offset = -1
        if status == 202:
            key = str(table).encode()
            offset = (await producer.send_and_wait(topic(table), body, key=key)).offset
            await producer.send(LIVE, msgpack.packb([offset, body]), key=key,
                                partition=table % SHARDS)
        data = b'{"offset": %d}' % offset
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})

    return app


def run_gateway(port: int, bootstrap: str, redis_port: int) -> None:
    import uvicorn

    uvicorn.run(gateway_app(bootstrap, redis_port), host="127.0.0.1", port=port,
                loop="uvloop", http="httptools", lifespan="on", log_level="warning",
                access_log=False, timeout_keep_alive=30)


async def run_worker(index: int, bootstrap: str, redis_port: int, state: bytes) -> None:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                auto_offset_reset="latest", group_id="matched-floor")
    await consumer.start()
    partitions = [TopicPartition(LIVE, p) for p in range(SHARDS) if p % WORKERS == index]
    consumer.assign(partitions)
    redis = RedisLines(f"redis://127.0.0.1:{redis_port}/0")
    await redis.execute("SCRIPT", "LOAD", _WRITE_STATE)
    committed = swept = time.monotonic()
    while True:
        fetched = await consumer.getmany(timeout_ms=1000)
        writes: list[tuple[Any, ...]] = []
        for records in fetched.values():
            for record in records:
                offset, _event = msgpack.unpackb(record.value)
                name = table_name(int((record.key or b"0").decode()))
                writes.append(("EVALSHA", _WRITE_STATE_SHA, 2, state_key(name), feed_key(name),
                               offset, state, FEED_LENGTH))
        now = time.monotonic()
        if now - committed >= COMMIT_EVERY_S:
            await consumer.commit()
            committed = now
        if now - swept >= END_OFFSETS_EVERY_S:
            await consumer.end_offsets(partitions)
            swept = now
        if writes:
            await redis.execute_many(writes)
            await asyncio.sleep(LINGER_S)


def main() -> None:
    if sys.argv[1:2] == ["--gateway"]:
        run_gateway(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1:2] == ["--worker"]:
        uvloop.run(run_worker(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]),
                              Path(sys.argv[5]).read_bytes()))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

"""`python -m services.cli.kafka_ready BOOTSTRAP COUNT SECONDS`: wait until the Kafka cluster at
BOOTSTRAP has COUNT brokers registered; exit 1, saying which are missing, after SECONDS.

`deploy/kafka/start.sh` returns through this: a node that listens is not yet a broker the
cluster uses (it registers with the controllers' quorum, which must have a leader, and is
unfenced), and a topic with replication 3 cannot be created until three are. Metadata lists
only the registered, unfenced brokers.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time

from aiokafka.admin import AIOKafkaAdminClient

from services.common.errors import LogUnavailable
from services.common.kafka_faults import log_faults


async def registered(bootstrap: str) -> set[int]:
    """The ids of the brokers the cluster lists now (none if no node answers)."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=3000)
    try:
        with log_faults():
            await admin.start()
            cluster = await admin.describe_cluster()
        return {int(broker["node_id"]) for broker in cluster["brokers"]}
    except (LogUnavailable, OSError):
        return set()
    finally:
        await admin.close()


async def wait_for_brokers(bootstrap: str, count: int, seconds: float) -> set[int]:
    """The registered brokers once there are `count` of them, or those there are at the
    deadline."""
    deadline = time.monotonic() + seconds
    while True:
        found = await registered(bootstrap)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.3)


def main() -> None:
    bootstrap, count, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    logging.getLogger("aiokafka").setLevel(logging.CRITICAL)  # a node not up yet is expected
    found = asyncio.run(wait_for_brokers(bootstrap, count, seconds))
    if len(found) < count:
        print(f"Kafka at {bootstrap}: {len(found)} of {count} brokers registered within "
              f"{seconds:g} s (registered: {sorted(found) or 'none'})", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

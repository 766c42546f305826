"""`python -m services.cli.health [--verbose]`: exit 0 when the gateway answers and the processor
workers together own every shard (what `make up` waits for)."""

from __future__ import annotations

import json
import sys
import urllib.request

from redis import Redis
from redis.cluster import RedisCluster

from services.common.names import WORKER_KEYS
from services.common.settings import Settings


def check(settings: Settings) -> tuple[bool, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{settings.gateway_port}/healthz",
                                    timeout=2) as response:
            if response.status != 200:
                return False, "the gateway is not healthy"
        redis = (RedisCluster if settings.redis_cluster else Redis).from_url(settings.redis_url)
        owned: dict[str, list[int]] = {}
        for key in redis.scan_iter(WORKER_KEYS):
            value = redis.get(key)
            if value:
                owned[key.decode().split(":", 2)[2]] = json.loads(value)
    except OSError as exc:
        return False, f"not reachable yet: {exc}"
    shards = sorted(s for v in owned.values() for s in v)
    if shards != list(range(settings.shards)):
        return False, f"shards owned so far: {owned}"
    return True, "processor shards: " + ", ".join(f"{w} {v}" for w, v in sorted(owned.items()))


def main() -> None:
    healthy, detail = check(Settings())
    if "--verbose" in sys.argv:
        print(("healthy: " if healthy else "not healthy: ") + detail)
    sys.exit(0 if healthy else 1)


if __name__ == "__main__":
    main()

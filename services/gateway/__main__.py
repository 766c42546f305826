"""`python -m services.gateway`: serve the gateway on TABLESERVER_GATEWAY_PORT (uvicorn)."""

from __future__ import annotations

import os
import resource
import socket
import sys

import uvicorn

from services.gateway.app import create_app
from services.log_repeats import quiet_repeats
from services.settings import Settings


def main() -> None:
    settings = Settings()
    # a socket a file descriptor: thousands of feeds need more than the usual soft limit
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", settings.gateway_port)) == 0:
            sys.exit(f"port {settings.gateway_port} is already taken: stop what uses it or set "
                     "TABLESERVER_GATEWAY_PORT")
    app = create_app(settings)
    quiet_repeats()
    host = os.environ.get("TABLESERVER_HOST", "127.0.0.1")  # 0.0.0.0 in a container
    uvicorn.run(app, host=host, port=settings.gateway_port,
                log_level="warning", ws_max_size=4096, timeout_keep_alive=30,
                # no per-message deflate: it compresses each update once per socket, which
                # cost a hot table's fan-out more CPU than all the rest (bench/feed_bench.py)
                ws_per_message_deflate=False)


if __name__ == "__main__":
    main()

"""`python -m services.gateway`: serve the gateway on TABLESERVER_GATEWAY_PORT (uvicorn)."""

from __future__ import annotations

import os
import resource
import socket
import sys

import uvicorn

from services.common.heap_census import install as install_heap_census
from services.common.log_repeats import quiet_repeats
from services.common.settings import Settings
from services.common.stack_dump import install as install_stack_dump
from services.common.supervision import Supervisor
from services.gateway.app import create_app
from services.gateway.bootstrap import Adapters
from services.gateway.feeds.ws_frames import protocol_class

# Each connection's send buffer in the kernel (Linux doubles it, and copies the listening
# socket's to every connection it accepts). Left to grow by itself it holds megabytes for a
# slow reader, out of the feeds' sight: their queue never filled, and uvicorn's keepalive
# dropped the reader (1011, its ping answered too late behind the backlog) instead of the
# feed closing it with 1013 and where to resume. Bounded, a reader's lag shows in the feed's
# own queue within a few hundred kB; 128 kB in flight is still 1 MB/s at 100 ms per round trip.
SEND_BUFFER = 64 * 1024


def listening_socket(host: str, port: int) -> socket.socket:
    """The gateway's socket: its connections get `SEND_BUFFER`."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    sock.bind((host, port))
    return sock


def main() -> None:
    settings = Settings()
    # a socket a file descriptor: thousands of feeds need more than the usual soft limit
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", settings.gateway_port)) == 0:
            sys.exit(f"port {settings.gateway_port} is already taken: stop what uses it or set "
                     "TABLESERVER_GATEWAY_PORT")
    host = os.environ.get("TABLESERVER_HOST", "127.0.0.1")  # 0.0.0.0 in a container
    sys.exit(serve(settings, host, settings.gateway_port))


GRACEFUL_STOP_S = 5  # the open connections' time to end at a stop (SIGTERM)


def serve(settings: Settings, host: str, port: int, adapters: Adapters | None = None) -> int:
    """Serve the gateway (its real adapters, unless given) until SIGTERM, or until one of its
    long-lived readers dies (`Supervisor`: uvicorn then shuts down as on SIGTERM); the
    process's exit code."""

    def stop() -> None:
        server.should_exit = True

    supervisor = Supervisor(stop)
    app = create_app(settings, adapters, supervisor)
    quiet_repeats()
    config = uvicorn.Config(app, host=host, port=port,
                            log_level="warning", ws_max_size=4096, timeout_keep_alive=30,
                            # no per-message deflate: it compresses each update once per
                            # socket, which cost a hot table's fan-out more CPU than all the
                            # rest (bench/feed_bench.py)
                            ws_per_message_deflate=False,
                            # the feeds' frames written straight to each connection
                            ws=protocol_class() or "auto",
                            # a handler still waiting on Kafka or Redis (both gone) after the
                            # stop's close frames is cancelled then: the process always ends
                            timeout_graceful_shutdown=GRACEFUL_STOP_S)
    server = uvicorn.Server(config)
    install_stack_dump()  # kill -USR1: what the process waits for, in its log
    install_heap_census()  # kill -USR2: what its cycle collector walks, in its log
    server.run(sockets=[listening_socket(host, port)])
    return supervisor.exit_code()


if __name__ == "__main__":
    main()

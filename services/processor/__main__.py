"""`python -m services.processor [NAME]`: run one processor worker (faust), until SIGTERM.

NAME names the worker in logs and in Redis; by default the host name and process id."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from typing import TYPE_CHECKING, NoReturn

from aiokafka.admin import AIOKafkaAdminClient

from services.common.kafka.admin import ensure_core_topics
from services.common.log_repeats import quiet_repeats
from services.common.settings import Settings
from services.common.supervision import Supervisor
from services.processor.app import create_app

if TYPE_CHECKING:
    from mode import Worker  # imported at run time after the loop's choice (`main`)


async def _prepare(settings: Settings) -> None:
    admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap)
    await admin.start()
    try:
        await ensure_core_topics(admin, settings.shards, settings.replication)
    finally:
        await admin.close()


def main() -> None:
    import mode.loop

    mode.loop.use("uvloop")  # faust's loop, as uvicorn's is the gateway's: less CPU per event
    import faust

    name = sys.argv[1] if len(sys.argv) > 1 else f"{socket.gethostname()}-{os.getpid()}"
    settings = Settings()
    logging.basicConfig(level=logging.INFO, format="[%(asctime)s] %(name)s %(message)s")
    asyncio.run(_prepare(settings))
    supervisor = Supervisor()  # a task that dies: SIGTERM, faust stops cleanly, exit non-zero
    app = create_app(settings, name, supervisor=supervisor)
    quiet_repeats()  # after create_app: every module that logs is imported
    run(faust.Worker(app, loglevel="info", quiet=True), supervisor)


def run(worker: Worker, supervisor: Supervisor) -> NoReturn:
    """Run `worker` until SIGTERM, or until one of its long-lived tasks dies (`supervisor`
    then sends SIGTERM: faust stops as usual); exit non-zero after a death."""
    try:
        worker.execute_from_commandline()
    except SystemExit as done:
        sys.exit(supervisor.exit_code() or done.code)


if __name__ == "__main__":
    main()

"""A message logged again and again is logged once every few seconds.

With the broker or Redis away, aiokafka logs each failed connection, metadata update and fetch
(measured: about 100 lines a second per worker during a broker restart), and so did the
fetcher's own warnings: a log that grows by megabytes a minute and hides the lines that
matter. A filter on those loggers lets each warning or error through at most once per
`EVERY_S`: the same text from the same logger (one shard's failure is never held back by
another's). Information (a shard started or stopped, an assignment) always goes through.
(Python's logging has no such filter of its own.)"""

from __future__ import annotations

import logging

from services.common.names import TABLE_PREFIX

EVERY_S = 10.0
GONE = "Topic %s not found in cluster metadata"  # aiokafka.cluster's words


class Repeats(logging.Filter):
    def __init__(self, every_s: float = EVERY_S) -> None:
        super().__init__()
        self.every_s = every_s
        self.last: dict[tuple[str, str], float] = {}  # (logger, text) → last let through

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True  # a shard's start or stop, an assignment: always told
        key = (record.name, record.getMessage())
        last = self.last.get(key)
        if last is not None and record.created - last < self.every_s:
            return False
        self.last[key] = record.created
        return True


class GoneTables(logging.Filter):
    """aiokafka logs an ERROR when a topic it follows is not in the cluster any more; a table's
    topic goes when the director closes the table (`services.gateway.tables.closing`), before a
    worker hears of it: told as information."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.ERROR and record.msg == GONE and record.args \
                and str(record.args[0] if isinstance(record.args, tuple)
                        else "").startswith(TABLE_PREFIX):
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def quiet_repeats(prefixes: tuple[str, ...] = ("aiokafka", "tableserver")) -> None:
    """Filter the repeats of every logger whose name starts with one of `prefixes` (those of
    modules imported by now); a closed table's topic gone is told as information."""
    logging.getLogger("aiokafka.cluster").addFilter(GoneTables())
    repeats = Repeats()
    for name in list(logging.root.manager.loggerDict):
        if name.startswith(prefixes):
            logging.getLogger(name).addFilter(repeats)

"""A message logged again and again is let through once every few seconds
(services/common/log_repeats.py)."""

from __future__ import annotations

import logging

from services.common.log_repeats import Repeats


def _record(msg: str, created: float, name: str = "aiokafka.conn") -> logging.LogRecord:
    record = logging.LogRecord(name, logging.ERROR, __file__, 1, msg, ("x",), None)
    record.created = created
    return record


def test_a_repeat_is_held_back_until_its_interval_has_passed() -> None:
    repeats = Repeats(every_s=10)
    assert repeats.filter(_record("Unable connect to node %s", 100.0))
    assert not repeats.filter(_record("Unable connect to node %s", 105.0))
    assert repeats.filter(_record("Unable connect to node %s", 110.0))


def test_other_messages_and_loggers_are_let_through() -> None:
    repeats = Repeats(every_s=10)
    assert repeats.filter(_record("Unable connect to node %s", 100.0))
    other = _record("Unable connect to node %s", 100.2)
    other.args = ("y",)  # another node: another message
    assert repeats.filter(other)
    assert repeats.filter(_record("Unable to update metadata from %s", 100.5))
    assert repeats.filter(_record("Unable connect to node %s", 101.0, name="aiokafka.client"))


def test_information_is_never_held_back() -> None:
    """A shard stopped and started again within seconds is told both times (a CI failure's
    log once hid the second start)."""
    repeats = Repeats(every_s=10)
    first = _record("shard %s: stopped", 100.0)
    first.levelno = logging.INFO
    again = _record("shard %s: stopped", 102.0)
    again.levelno = logging.INFO
    assert repeats.filter(first)
    assert repeats.filter(again)

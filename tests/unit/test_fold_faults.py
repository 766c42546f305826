"""A fault of ours in the fold or in a table's view (a bug, not a bad record) costs one event
or one state write, never the shard: the event is skipped as a poison record (the Director's
`poison` alert says why), the table goes on from its state before it, and a replay skips the
same event (the same state, the same alerts); a view that cannot be made leaves that table's
state in Redis as it was and every other table's is written."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from aiokafka.structs import TopicPartition

from services.common.names import table_topic
from services.processor.ports import Record
from services.processor.shard import Folded, ShardRunner
from shared.codec import encode, from_map
from shared.events import CallMade
from shared.table import engine
from shared.table.table_run import TableRun
from tests.fakes import MemoryFetcher, MemoryKafka, MemoryShardLog
from tests.script import log

SCRIPT = "N 1S, E 2H, S 2S, W P"


def _records() -> list[bytes]:
    return [encode(from_map(event)) for event in log(SCRIPT)]


@pytest.fixture
def faulty_2h(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fold's handler of a call raises on East's 2H (a bug of ours, say)."""
    on_call = engine._HANDLERS[CallMade]

    def failing(board: Any, event: CallMade) -> None:
        if str(event.call) == "2H":
            raise KeyError("a bug")
        on_call(board, event)

    monkeypatch.setitem(engine._HANDLERS, CallMade, failing)


def _folded(records: list[bytes]) -> tuple[TableRun, list[Any]]:
    run = TableRun("t1", {"table": "t1"})
    raised = [run.apply(offset, value) for offset, value in enumerate(records)]
    return run, raised


@pytest.mark.usefixtures("faulty_2h")
def test_an_event_the_fold_fails_on_is_skipped_and_the_table_goes_on() -> None:
    run, raised = _folded(_records())
    ((poison_id, poison),) = raised[2]  # the records: the board started, 1S, 2H, 2S, P
    assert poison_id == "t1:poison:2" and poison["kind"] == "poison"
    assert "skipped: the fold failed on it (KeyError" in poison["message"]
    assert isinstance(run.failure, KeyError)
    board = run.state.board
    assert board is not None
    assert [str(c.call) for c in board.calls] == ["1S", "2S", "P"]
    replayed, raised_again = _folded(_records())
    assert replayed.state == run.state and raised_again == raised


def test_without_the_fault_the_same_records_fold_whole() -> None:
    """The control: the same script folds every call (so the test above sees the fault's
    skip, not the script's)."""
    run, raised = _folded(_records())
    board = run.state.board
    assert board is not None and run.failure is None
    assert [str(c.call) for c in board.calls] == ["1S", "2H", "2S", "P"]
    assert not [r for rs in raised for _, r in rs if r["kind"] == "poison"]


def test_a_view_that_cannot_be_made_costs_its_table_only(monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture
                                                          ) -> None:
    good, bad = _folded(_records())[0], _folded(_records())[0]
    bad.table = "t2"

    def broken() -> None:
        raise KeyError("deal")

    monkeypatch.setattr(bad, "view", broken)
    with caplog.at_level(logging.ERROR, "tableserver.processor"):
        writes = Folded(touched={"t2": bad, "t1": good}).states()
    assert [w.table for w in writes] == ["t1"]
    assert "table t2: its state at offset 4 could not be made" in caplog.text


@pytest.mark.usefixtures("faulty_2h")
def test_the_shard_logs_the_faults_traceback_and_folds_on(
        caplog: pytest.LogCaptureFixture) -> None:
    kafka = MemoryKafka(4)
    runner = ShardRunner(0, MemoryFetcher(kafka), MemoryShardLog(kafka, 0))
    run = runner.tables["t1"] = TableRun("t1", {"table": "t1"})
    with caplog.at_level(logging.ERROR, "tableserver.processor"):
        for offset, value in enumerate(_records()):
            _fold_one(runner, offset, value)
    assert "table t1: the event at offset 2 skipped" in caplog.text
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)
    assert run.failure is None and run.offset == 4


def _fold_one(runner: ShardRunner, offset: int, value: bytes) -> None:
    runner.fold({TopicPartition(table_topic("t1"), 0): [Record(offset, None, value)]})

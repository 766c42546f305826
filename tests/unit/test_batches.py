"""The one Kafka record-batch decoder (`services/common/kafka/batches.py`), which the
processor's session fetcher and the history reader share."""

from __future__ import annotations

from aiokafka.record.default_records import DefaultRecordBatchBuilder

from services.common.kafka.batches import Record, decode

CONTROL = 0x20  # the control bit of a batch's attributes (a transaction marker's batch)


def batch(base: int, count: int, control: bool = False) -> bytes:
    builder = DefaultRecordBatchBuilder(magic=2, compression_type=0, is_transactional=0,
                                        producer_id=-1, producer_epoch=-1, base_sequence=-1,
                                        batch_size=1 << 20)
    for i in range(count):
        builder.append(i, timestamp=None, key=f"k{base + i}".encode(),
                       value=f"v{base + i}".encode(), headers=[])
    data = bytearray(builder.build())
    data[0:8] = base.to_bytes(8, "big")  # the batch's first offset
    if control:  # attributes: 2 bytes after offset, length, epoch, magic and crc (17 + 4)
        data[22] |= CONTROL
    return bytes(data)


def offsets(records: list[Record]) -> list[int]:
    return [r.offset for r in records]


def test_every_record_from_the_offset_asked_with_its_key_and_value() -> None:
    records, following = decode(batch(0, 3) + batch(3, 2), 0)
    assert records == [Record(i, f"k{i}".encode(), f"v{i}".encode()) for i in range(5)]
    assert following == 5


def test_a_batch_may_begin_before_the_offset_asked() -> None:
    records, following = decode(batch(0, 4) + batch(4, 4), 2)
    assert offsets(records) == [2, 3, 4, 5, 6, 7] and following == 8


def test_records_at_or_past_the_end_are_left_and_fetched_from_the_end() -> None:
    records, following = decode(batch(0, 4) + batch(4, 4), 2, 7)
    assert offsets(records) == [2, 3, 4, 5, 6] and following == 7


def test_a_batch_cut_short_is_fetched_again_from_its_start() -> None:
    data = batch(0, 4) + batch(4, 4)
    records, following = decode(data[:-5], 0)
    assert offsets(records) == [0, 1, 2, 3] and following == 4
    assert decode(data[:10], 0) == ([], 0)  # not even one whole batch


def test_control_batches_are_left_out_and_passed() -> None:
    data = batch(0, 2) + batch(2, 1, control=True) + batch(3, 2)
    records, following = decode(data, 0)
    assert offsets(records) == [0, 1, 3, 4] and following == 5
    assert decode(batch(0, 1, control=True), 0) == ([], 1)


def test_nothing_fetched_stays_where_it_was() -> None:
    assert decode(None, 8, 8) == ([], 8)
    assert decode(b"", 3) == ([], 3)
    assert decode(batch(0, 4), 9) == ([], 9)  # a position past every batch: never back


def test_each_record_made_as_the_caller_keeps_it() -> None:
    pairs, following = decode(batch(0, 4), 1, 3, lambda offset, _key, value: (offset, value))
    assert pairs == [(1, b"v1"), (2, b"v2")] and following == 3

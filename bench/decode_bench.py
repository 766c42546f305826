"""Benchmark of the one Kafka record-batch decoder (`services/common/kafka/batches.py`), which
the processor's session fetcher runs on every fetch's answer and the history reader on every
read: records decoded a second, over batches as the live copies and the table topics hold
them (a copy's key and a ~70-byte value), for a few batch sizes.

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    make bench                          # 20,000 batches of 1, 10 and 100 records
    python bench/decode_bench.py --batches 5000 --sizes 1,10
"""

from __future__ import annotations

import argparse
import time

from aiokafka.record.default_records import DefaultRecordBatchBuilder

from services.common.kafka.batches import decode

VALUE = bytes(range(70))  # about a live copy: msgpack [offset, event bytes]


def batch(base: int, count: int) -> bytes:
    builder = DefaultRecordBatchBuilder(magic=2, compression_type=0, is_transactional=0,
                                        producer_id=-1, producer_epoch=-1, base_sequence=-1,
                                        batch_size=1 << 20)
    for i in range(count):
        builder.append(i, timestamp=None, key=b"tournament-12", value=VALUE, headers=[])
    data = bytearray(builder.build())
    data[0:8] = base.to_bytes(8, "big")  # the batch's first offset
    return bytes(data)


def answers(batches: int, size: int, per_answer: int) -> list[bytes]:
    """`batches` batches of `size` records, `per_answer` batches to a fetch's answer."""
    built = [batch(i * size, size) for i in range(batches)]
    return [b"".join(built[i:i + per_answer]) for i in range(0, batches, per_answer)]


def best_of(runs: int, data: list[bytes], start_in_first: int) -> float:
    """The best time, in seconds, to decode every answer (from `start_in_first` records into
    the first batch of each: the per-record test's path)."""
    best = float("inf")
    for _ in range(runs):
        began = time.perf_counter()
        offset = 0
        for answer in data:
            records, offset = decode(answer, offset + start_in_first)
        best = min(best, time.perf_counter() - began)
        assert records
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, default=20_000)
    parser.add_argument("--sizes", default="1,10,100", help="records a batch")
    parser.add_argument("--per-answer", type=int, default=20, help="batches a fetch's answer")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"decoding {args.batches:,} batches, {args.per_answer} to an answer, best of "
          f"{args.runs}")
    for size in (int(s) for s in args.sizes.split(",")):
        data = answers(args.batches, size, args.per_answer)
        records = args.batches * size
        whole = best_of(args.runs, data, 0)
        print(f"  {size:>4} records a batch: {records / whole:>12,.0f} records/s "
              f"({whole / args.batches * 1e6:.2f} µs a batch)")
        if size > 1:
            cut = best_of(args.runs, data, 1)
            print(f"  {'':>4}   (each answer from its first batch's second record: "
                  f"{records / cut:,.0f} records/s)")


if __name__ == "__main__":
    main()

"""A retry known by the table's log: an event its sender sends again with its `client_seq`
after it was appended (its 202 lost: a 503 while Kafka was away, a socket that dropped) is
answered as it was the first time, 202 and its offset, whatever the table's state has become.

The gateway judges a card (and the few events that need the board) against the table's state
in Redis. The sender's event, once appended and folded, has changed that state: judged again,
its retry would be refused ("played already", the board over, another board's dummy). So a
refusal against the state (`RefusedOnState`) of an event with a `client_seq` is given only once
the table's log has been looked at: the same event there, from the last `board_started` on
(the board, or the round of boards, within which the fold folds a sender's `client_seq` once:
`shared.table.engine.fold`), is the answer, and nothing is appended. The same event: the same
fields, the sender's among them (a seat's token gives its event's `seat`, or a card's `by`), all but
`ts`. Only a refusal pays the read (the table's records, as cached for the histories:
`services.replay.topic_cache`); an event the checks let through is appended as ever, and the
fold folds it once.
"""

from __future__ import annotations

from dataclasses import replace

import msgpack

from services.common.kafka.reader import Record
from shared.codec import DecodeError, decode
from shared.events import BoardStarted, Event

# What a record's bytes hold when it may be the event looked for, or a board's start: msgpack
# as `shared.codec.encode` writes it (a needle that is not there only costs a decode).
_SEQ_KEY = msgpack.packb("client_seq")
_BOARD_STARTED = msgpack.packb("type") + msgpack.packb("board_started")


def appended_at(records: list[Record], event: Event) -> int | None:
    """The offset of `event` (its `client_seq` not None) among a table's `records`, after the
    last `board_started`; None when it is not there. Read from the end: a retry's event is
    among the last."""
    needle = _SEQ_KEY + msgpack.packb(event.client_seq)
    wanted = replace(event, ts=None)
    for offset, value in reversed(records):
        if not value:
            continue
        if needle in value and (found := _event(value)) is not None \
                and replace(found, ts=None) == wanted:
            return offset
        if _BOARD_STARTED in value and isinstance(_event(value), BoardStarted):
            return None
    return None


def _event(value: bytes) -> Event | None:
    try:
        return decode(value)
    except DecodeError:
        return None

"""Each event type declared once: its class in `shared.events` carries its type and who sends
it, the codec reads and writes its fields from the class, the engine's handlers are a table by
class, and the gateway's request schema is checked against the classes. The wire format is
the one the hand-written codec wrote, byte for byte (tests/data/event-wire.jsonl: the maps of
every type and of tests/data/demo-board.jsonl, their JSON line and msgpack bytes as that codec
wrote them)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from services.gateway.http.models import SENT_TYPES, EventIn
from shared.calls import Call
from shared.cards import Card
from shared.codec import decode, encode, from_map, to_json_line, to_map
from shared.codec_derive import derived_reader, derived_writer
from shared.codec_fields import EventError
from shared.events import EVENT_CLASSES, EventType, Sender, Stamped, wire
from shared.seats import Seat
from shared.table.engine import on_a_board
from shared.table.option_checks import DECLARERS_OPTIONS
from shared.vocabulary import PlayOption

WIRE = [json.loads(line) for line in
        (Path(__file__).parents[1] / "data" / "event-wire.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("row", WIRE, ids=lambda row: row["map"]["type"])
def test_every_type_is_written_byte_for_byte_as_before(row: dict[str, Any]) -> None:
    event = from_map(row["map"])
    assert to_json_line(event) == row["json"]
    assert encode(event).hex() == row["msgpack"]
    assert decode(bytes.fromhex(row["msgpack"])) == event
    assert from_map(to_map(event)) == event


def test_the_wire_file_covers_every_type() -> None:
    assert {row["map"]["type"] for row in WIRE} == set(EventType)


def test_each_type_has_one_class_carrying_its_type_and_sender() -> None:
    assert set(EVENT_CLASSES) == set(EventType)
    for kind, cls in EVENT_CLASSES.items():
        assert cls.__dict__["TYPE"] is kind  # its own, not inherited
        assert isinstance(cls.__dict__["SENDER"], Sender)


def test_declarer_alone_sends_his_options_in_the_play() -> None:
    """Laws 50D2, 51A, 57A: the gateway's declarer-only types are the classes' `SENDER`."""
    assert {"lead_option", "penalty_card_named", "play_option"} == DECLARERS_OPTIONS


@pytest.mark.parametrize("cls", EVENT_CLASSES.values(), ids=lambda cls: cls.__name__)
def test_the_engine_folds_every_event_not_the_tables_into_the_board(cls: type) -> None:
    """The engine's table of handlers by class holds every event a seat, declarer or the
    director sends; the table's own (boards, rounds, holds, names) are the engine's."""
    event = from_map(next(row["map"] for row in WIRE if row["map"]["type"] == cls.TYPE))
    assert on_a_board(event) == (cls.SENDER is not Sender.TABLE)


SET_BY_THE_GATEWAY = {"ts", "own"}  # the time it is appended; a seat's own explanation


def test_the_gateways_event_schema_has_every_field_a_sender_may_send() -> None:
    """`EventIn` (the OpenAPI schema of `POST /api/tables/{t}/events`) names each field of
    each type sent there, the types themselves, and nothing else."""
    sent = [cls for cls in EVENT_CLASSES.values() if cls.SENDER is not Sender.TABLE]
    assert set(SENT_TYPES) == {cls.TYPE for cls in sent}
    fields = {f.name for cls in sent for f in dataclasses.fields(cls)} - SET_BY_THE_GATEWAY
    assert set(EventIn.model_fields) - {"type"} == fields


@dataclass(frozen=True, slots=True)
class _Scratch(Stamped):
    """An event a Law might add tomorrow: its codec comes from its fields."""

    TYPE = EventType.PLAY_OPTION  # borrowed: this class is never registered
    SENDER = Sender.DECLARER

    seat: Seat
    card: Card
    call: Call
    choice: PlayOption
    tricks: int = field(metadata=wire(maximum=13))
    suit: str | None = field(default=None, metadata=wire(suit=True))
    hint: bool = field(default=False, metadata=wire(if_true=True))
    note: str = ""
    by: Seat | None = None


def test_a_new_event_is_read_and_written_from_its_fields_alone() -> None:
    read, write = derived_reader(_Scratch), derived_writer(_Scratch)
    m = {"type": "play_option", "seat": "n", "card": "hk", "call": "1nt", "choice": "lowest",
         "tricks": 3, "suit": "d", "client_seq": 4}
    event = read(m)
    assert event == _Scratch(Seat.N, Card.parse("HK"), Call.parse("1NT"), PlayOption.LOWEST, 3,
                             "D", client_seq=4)
    assert write(event) == {"type": "play_option", "seat": "N", "card": "HK", "call": "1NT",
                            "choice": "lowest", "tricks": 3, "suit": "D", "note": "",
                            "client_seq": 4}
    assert read(write(event)) == event
    for bad, at in [({"tricks": 14}, "tricks"), ({"suit": "X"}, "suit"),
                    ({"choice": "best"}, "choice"), ({"by": "Q"}, "by"),
                    ({"hint": "yes"}, "hint"), ({"card": None}, "card")]:
        with pytest.raises(EventError) as refused:
            read({**m, **bad})
        assert refused.value.field == at

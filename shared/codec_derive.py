"""An event class's reader (map to event) and writer (event to map), derived from its fields
(`shared.events`): each field's type says how it is checked and spelled, its `wire` metadata
its bounds, and its default whether it may be left out.

Each field's reader is a closure made once per class; a class's reader calls them one by one
(no list, up to four fields), so the decoding of a log costs no more than it did when each
reader was written by hand (bench/fold_bench.py's "decode maps to events"). No code is
generated: `exec` has no place in the pure core (tests/unit/test_purity.py).

The spelling on the wire: a seat, call, card or word as its text; a field left out of a map
when it is None (or, flagged `if_true`, when false); the stamps (`id`, `ts`, `client_seq`)
last. A field of another type has no derived reader: its class needs its own
(`shared.codec`'s table events).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any

from shared.calls import Call
from shared.cards import SUITS, Card
from shared.codec_fields import (
    EventError,
    bool_field,
    call_field,
    id_field,
    int_field,
    parsed_field,
    seat_field,
    text_field,
)
from shared.events import Event
from shared.seats import NotationError, Seat

Reader = Callable[[Mapping[str, Any]], Event]
Writer = Callable[[Event], dict[str, Any]]
_STAMPS = ("id", "ts", "client_seq")


# Each field's reader is a closure over its key and settings, called with the map alone (a
# Python function called from Python: the interpreter's cheapest call); the usual case (a
# field left out, a seat, call, card or flag as written) returns at once, anything else goes
# to `shared.codec_fields`, which checks it and names the field at fault.

FieldReader = Callable[[Mapping[str, Any]], Any]
_SEATS: dict[Any, Seat] = {s.name: s for s in Seat}


def _seat(key: str, optional: bool) -> FieldReader:
    def seat(m: Mapping[str, Any]) -> Seat | None:
        text = m.get(key)
        found = _SEATS.get(text) if type(text) is str else None
        if found is None and not (optional and text is None):
            return seat_field(m, key)
        return found
    return seat


def _call(key: str) -> FieldReader:
    def call(m: Mapping[str, Any]) -> Call:
        text = m.get(key)
        if type(text) is str and len(text) <= 16:
            try:
                return Call.parse(text)
            except NotationError as exc:
                raise EventError(f"field {key!r}: {exc}", key) from None
        return call_field(m, key)
    return call


def _card(key: str) -> FieldReader:
    def card(m: Mapping[str, Any]) -> Card:
        text = m.get(key)
        if type(text) is str and len(text) <= 3 and text.isalnum():
            try:
                return Card.parse(text)
            except NotationError as exc:
                raise EventError(f"field {key!r}: {exc}", key) from None
        parsed: Card = parsed_field(m, key, Card.parse)
        return parsed
    return card


def _flag(key: str, default: bool | None) -> FieldReader:
    def flag(m: Mapping[str, Any]) -> bool:
        value = m.get(key, default)
        return value if value is True or value is False else bool_field(m, key, default)
    return flag


def _number(key: str, minimum: int, maximum: int | None, required: bool) -> FieldReader:
    """A whole number from `minimum` to `maximum`; None if left out and not `required`."""
    def number(m: Mapping[str, Any]) -> int | None:
        value = int_field(m, key, minimum)
        if value is None:
            if required:
                raise EventError(f"missing field {key!r}", key)
            return None
        if maximum is not None and value > maximum:
            raise EventError(f"field {key!r} must be at most {maximum}", key)
        return value
    return number


def _text(key: str, required: bool, default: str | None) -> FieldReader:
    def text(m: Mapping[str, Any]) -> str | None:
        if m.get(key) is None and not required:
            return default
        return text_field(m, key, required)
    return text


def _suit(key: str) -> FieldReader:
    """A suit's letter, upper case, if given."""
    def suit(m: Mapping[str, Any]) -> str | None:
        letter = text_field(m, key)
        if letter is not None and (len(letter) != 1 or letter.upper() not in SUITS):
            raise EventError(f"field {key!r} must be one of S, H, D, C", key)
        return letter.upper() if letter else None
    return suit


def _word(key: str, words: type[enum.StrEnum], required: bool) -> FieldReader:
    """A word of `words`."""
    def word(m: Mapping[str, Any]) -> enum.StrEnum | None:
        text = text_field(m, key)
        if text is None:
            if required:
                raise EventError(f"missing field {key!r} (one of {', '.join(words)})", key)
            return None
        try:
            return words(text)
        except ValueError:
            raise EventError(f"field {key!r}: {text!r} is not one of {', '.join(words)}",
                             key) from None
    return word


def _stamps(m: Mapping[str, Any]) -> tuple[str | None, int | None, int | None]:
    """The producer's stamps: `id`, `ts`, `client_seq` (no id, plain numbers: at once)."""
    ts, seq = m.get("ts"), m.get("client_seq")
    if m.get("id") is None and (ts is None or (type(ts) is int and 0 <= ts < 2**63)) \
            and (seq is None or (type(seq) is int and 0 <= seq < 2**63)):
        return None, ts, seq
    return id_field(m), int_field(m, "ts"), int_field(m, "client_seq")


def _base(hint: Any) -> tuple[Any, bool]:
    """A field's type without None, and whether None is allowed."""
    if isinstance(hint, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], len(args) < len(typing.get_args(hint))
    return hint, False


def _reader(f: dataclasses.Field[Any], hint: Any) -> FieldReader:
    """The function that reads field `f` from a map, by its type and `wire` rules."""
    kind, optional = _base(hint)
    key, rules = f.name, {"minimum": 0, "maximum": None, "suit": False, **f.metadata}
    required = f.default is dataclasses.MISSING
    default: Any = None if required else f.default
    if kind is Seat:
        return _seat(key, optional)
    if kind is Call:
        return _call(key)
    if kind is Card:
        return _card(key)
    if kind is bool:
        return _flag(key, default)
    if kind is int:
        return _number(key, rules["minimum"], rules["maximum"], required)
    if kind is str:
        return _suit(key) if rules["suit"] else _text(key, required, default)
    if isinstance(kind, type) and issubclass(kind, enum.StrEnum):
        return _word(key, kind, not optional)
    raise TypeError(f"{f.name}: {hint} has no derived reader; give the class its own")


def _own_fields(cls: type[Event]) -> list[tuple[dataclasses.Field[Any], Any]]:
    hints = typing.get_type_hints(cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(cls) if f.name not in _STAMPS]


def derived_reader(cls: type[Event]) -> Reader:
    """The function that reads a map into a `cls` event, each field checked and named: its
    fields read one by one, straight (up to four: the calls' and the cards'), no list."""
    readers = tuple(_reader(f, hint) for f, hint in _own_fields(cls))
    new: Callable[..., Event] = cls
    if len(readers) == 1:
        (a,) = readers

        def read1(m: Mapping[str, Any]) -> Event:
            i, t, s = _stamps(m)
            return new(a(m), id=i, ts=t, client_seq=s)
        return read1
    if len(readers) == 2:
        a, b = readers

        def read2(m: Mapping[str, Any]) -> Event:
            i, t, s = _stamps(m)
            return new(a(m), b(m), id=i, ts=t, client_seq=s)
        return read2
    if len(readers) == 3:
        a, b, c = readers

        def read3(m: Mapping[str, Any]) -> Event:
            i, t, s = _stamps(m)
            return new(a(m), b(m), c(m), id=i, ts=t, client_seq=s)
        return read3
    if len(readers) == 4:
        a, b, c, d = readers

        def read4(m: Mapping[str, Any]) -> Event:
            i, t, s = _stamps(m)
            return new(a(m), b(m), c(m), d(m), id=i, ts=t, client_seq=s)
        return read4

    def read(m: Mapping[str, Any]) -> Event:
        i, t, s = _stamps(m)
        return new(*[field(m) for field in readers], id=i, ts=t, client_seq=s)
    return read


_AS_IS = frozenset({bool, int, str})  # written as they are; a seat, call, card or word: its text


def derived_writer(cls: type[Event]) -> Writer:
    """The function that writes a `cls` event as its map, stamps included: a field left out
    when None (flagged `if_true`: when false), a seat, call, card or word as its text."""
    kind = str(cls.TYPE)
    fields = _own_fields(cls)
    names = (*(f.name for f, _ in fields), *_STAMPS)
    flags = frozenset(f.name for f, _ in fields if f.metadata.get("if_true"))
    values = attrgetter(*names)

    def write(event: Event) -> dict[str, Any]:
        m: dict[str, Any] = {"type": kind}
        for name, value in zip(names, values(event), strict=True):
            if value is None or (value is False and name in flags):
                continue  # an optional field not given, a flag not raised
            m[name] = value if value.__class__ in _AS_IS else str(value)
        return m
    return write

"""Reading an event map's fields for the codec (`shared.codec`): each reader checks one
field's type and bounds and raises an `EventError` naming it."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from shared.calls import Call
from shared.seats import NotationError, Seat

MAX_TEXT = 2000  # explanations and notes longer than this are not table talk
EVENT_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_UNFIT = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")  # a line break or tab is fine


class EventError(ValueError):
    """An event that is not valid under the schema. `field` names the part at fault."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class DecodeError(EventError):
    """Bytes that are not an encoded event."""



def text_field(m: Mapping[str, Any], key: str, required: bool = False) -> str | None:
    value = m.get(key)
    if value is None:
        if required:
            raise EventError(f"missing field {key!r}", key)
        return None
    if not isinstance(value, str):
        raise EventError(f"field {key!r} must be text, not {type(value).__name__}", key)
    if len(value) > MAX_TEXT:
        raise EventError(f"field {key!r} is longer than {MAX_TEXT} characters", key)
    if unfit_text(value):
        raise EventError(f"field {key!r} holds a control character or a lone surrogate", key)
    return value


def unfit_text(value: str) -> bool:
    """Whether a text holds a control character (a line break or a tab is fine) or a lone
    surrogate: not fit to be shown to a person."""
    return not value.isprintable() and _UNFIT.search(value) is not None


def id_field(m: Mapping[str, Any]) -> str | None:
    """An event's id: a short token, never free text (it reaches every reader of the table,
    a seat's partner included)."""
    value = m.get("id")
    if value is None:
        return None
    if not isinstance(value, str) or not EVENT_ID.fullmatch(value):
        raise EventError("field 'id': 1–64 letters, digits or . _ : -", "id")
    return value


def int_field(m: Mapping[str, Any], key: str, minimum: int = 0) -> int | None:
    value = m.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(f"field {key!r} must be a whole number", key)
    if value < minimum:
        raise EventError(f"field {key!r} must be at least {minimum}", key)
    if value >= 2**63:
        raise EventError(f"field {key!r} must be less than 2**63", key)
    return value


def bool_field(m: Mapping[str, Any], key: str, default: bool | None = None) -> bool:
    value = m.get(key, default)
    if not isinstance(value, bool):
        what = "missing field" if value is None else "field must be true or false:"
        raise EventError(f"{what} {key!r}", key)
    return value


def parsed_field(m: Mapping[str, Any], key: str, parse: Callable[[str], Any]) -> Any:
    text = text_field(m, key, required=True)
    assert text is not None
    try:
        return parse(text)
    except NotationError as exc:
        raise EventError(f"field {key!r}: {exc}", key) from None


def meta_fields(m: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": id_field(m), "ts": int_field(m, "ts"), "client_seq": int_field(m, "client_seq")}


_SEAT_TEXT = {s.name: s for s in Seat} | {s.name.lower(): s for s in Seat}


def seat_field(m: Mapping[str, Any], key: str = "seat") -> Seat:
    text = m.get(key)
    seat = _SEAT_TEXT.get(text) if isinstance(text, str) else None
    if seat is None:
        seat = parsed_field(m, key, Seat.parse)
    return seat


def call_field(m: Mapping[str, Any], key: str = "call") -> Call:
    text = m.get(key)
    if type(text) is str and len(text) <= 16:  # the usual case, without `parsed_field`'s checks
        try:
            return Call.parse(text)
        except NotationError as exc:
            raise EventError(f"field {key!r}: {exc}", key) from None
    parsed: Call = parsed_field(m, key, Call.parse)
    return parsed


Word = TypeVar("Word", bound=enum.StrEnum)


def one_of(m: Mapping[str, Any], key: str, words: type[Word]) -> Word | None:
    """The word of `words` a field spells, if given."""
    value = text_field(m, key)
    if value is None:
        return None
    try:
        return words(value)
    except ValueError:
        raise EventError(f"field {key!r} must be one of {', '.join(words)}", key) from None

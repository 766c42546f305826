"""The one place that turns events into maps and back, and maps into bytes.

The same maps travel as msgpack on Kafka and as JSON Lines in files. A map is
`{"type": ..., ...}` (see docs/api.md for the schema); `v` is the schema version
(absent means 1). Every failure is an `EventError` naming the field at fault.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import msgpack

from shared.codec_derive import Reader, Writer, derived_reader, derived_writer
from shared.codec_fields import (
    EVENT_ID as EVENT_ID,
    MAX_TEXT as MAX_TEXT,
    DecodeError as DecodeError,
    EventError as EventError,
    int_field,
    meta_fields,
    parsed_field,
    text_field,
    unfit_text as unfit_text,
)
from shared.deal import parse_deal
from shared.events import (
    EVENT_CLASSES,
    BoardStarted,
    Event,
    EventType,
    PlayersNamed,
    PlayOptionChosen,
    RoundStarted,
    Ruleset,
    RulingAction,
    RulingGiven,
    Sender as Sender,
)
from shared.seats import NotationError, Seat, Vulnerability, board_dealer, board_vulnerability
from shared.vocabulary import PlayOption

SCHEMA_VERSION = 1
EventMap = dict[str, Any]


# --- the table's events: their own readers and writers ----------------------------------------


def _board_started(m: Mapping[str, Any]) -> BoardStarted:
    """A board: its dealer and vulnerability from its number when left out (Law 2)."""
    board = int_field(m, "board", minimum=1)
    if board is None:
        raise EventError("missing field 'board'", "board")
    dealer = parsed_field(m, "dealer", Seat.parse) if m.get("dealer") is not None else None
    vul = (parsed_field(m, "vulnerability", Vulnerability.parse)
           if m.get("vulnerability") is not None else None)
    ruleset_text = text_field(m, "ruleset") or "duplicate"
    try:
        ruleset = Ruleset(ruleset_text.lower())
    except ValueError:
        raise EventError(f"field 'ruleset': {ruleset_text!r} is not duplicate or rubber",
                         "ruleset") from None
    deal = text_field(m, "deal")
    if deal is not None:
        parsed_field(m, "deal", parse_deal)
    return BoardStarted(board, dealer or board_dealer(board), vul or board_vulnerability(board),
                        ruleset, deal, **meta_fields(m))


MAX_ROUND_BOARDS = 36


def _round_started(m: Mapping[str, Any]) -> RoundStarted:
    number = int_field(m, "round", minimum=1)
    if number is None:
        raise EventError("missing field 'round'", "round")
    boards = m.get("boards")
    if not isinstance(boards, list) or not 1 <= len(boards) <= MAX_ROUND_BOARDS:
        raise EventError(f"field 'boards': a list of 1 to {MAX_ROUND_BOARDS} boards, each "
                         "{\"board\": n, \"deal\": …}", "boards")
    started = []
    for i, board in enumerate(boards):
        if not isinstance(board, Mapping):
            raise EventError(f"field 'boards[{i}]': a board is a map", f"boards[{i}]")
        try:
            started.append(_board_started({"ruleset": m.get("ruleset"), **board}))
        except EventError as exc:
            raise EventError(f"boards[{i}]: {exc}", f"boards[{i}].{exc.field}") from None
    ends_at = int_field(m, "ends_at", minimum=0)
    return RoundStarted(number, tuple(started), ends_at, **meta_fields(m))


MAX_NAME = 64


def _players_named(m: Mapping[str, Any]) -> PlayersNamed:
    players = m.get("players")
    if not isinstance(players, Mapping) or not players:
        raise EventError("field 'players': a map of seats to names, e.g. {\"N\": \"Ann\"}",
                         "players")
    named: dict[Seat, str] = {}
    for key in players:
        try:
            seat = Seat.parse(key)
        except (NotationError, ValueError):
            raise EventError(f"field 'players': {key!r} is not a seat", f"players.{key}") \
                from None
        try:
            name = text_field(players, key, required=True) or ""
        except EventError as exc:
            raise EventError(f"players: {exc}", f"players.{key}") from None
        if len(name) > MAX_NAME:
            raise EventError(f"field 'players.{key}' is longer than {MAX_NAME} characters",
                             f"players.{key}")
        named[seat] = name
    return PlayersNamed(tuple(sorted(named.items(), key=lambda item: item[0].value)),
                        **meta_fields(m))


def _board_map(event: BoardStarted) -> EventMap:
    m: EventMap = {"board": event.board, "dealer": str(event.dealer),
                   "vulnerability": str(event.vulnerability), "ruleset": event.ruleset.value}
    if event.deal is not None:
        m["deal"] = event.deal
    return m


def _stamped(event: Event, m: EventMap) -> EventMap:
    for key in ("id", "ts", "client_seq"):
        value = getattr(event, key)
        if value is not None:
            m[key] = value
    return m


def _board_started_map(event: Event) -> EventMap:
    assert isinstance(event, BoardStarted)
    return _stamped(event, {"type": "board_started", **_board_map(event)})


def _round_started_map(event: Event) -> EventMap:
    assert isinstance(event, RoundStarted)
    m: EventMap = {"type": "round_started", "round": event.round,
                   "boards": [_board_map(board) for board in event.boards]}
    if event.ends_at is not None:
        m["ends_at"] = event.ends_at
    return _stamped(event, m)


def _players_named_map(event: Event) -> EventMap:
    assert isinstance(event, PlayersNamed)
    return _stamped(event, {"type": "players_named",
                            "players": {seat.name: name for seat, name in event.players}})


_OWN: dict[type[Event], tuple[Reader, Writer]] = {
    BoardStarted: (_board_started, _board_started_map),
    RoundStarted: (_round_started, _round_started_map),
    PlayersNamed: (_players_named, _players_named_map),
}
"""The events whose fields the derived codec does not spell: boards, rounds, names."""


# --- checks across fields, after an event's fields are read ------------------------------------


def _play_option(m: Mapping[str, Any], event: Event) -> None:
    """Law 57A: a suit with a card of another suit required or prohibited, and only then."""
    assert isinstance(event, PlayOptionChosen)
    if (event.suit is None) != (event.choice in (PlayOption.HIGHEST, PlayOption.LOWEST)):
        raise EventError("field 'suit': the suit required or prohibited, and only then", "suit")


_RULING_NEEDS: dict[RulingAction, tuple[str, ...]] = {
    RulingAction.CANCEL_CALL: (),
    RulingAction.ALLOW_CHANGE: ("seat",),
    RulingAction.SET_PASS_OBLIGATION: ("seat", "obligation"),
    RulingAction.LIFT_PASS_OBLIGATION: ("seat",),
    RulingAction.LEAD_RESTRICTION: ("seat", "suit", "restriction"),
    RulingAction.ADJUSTED_SCORE: ("score",),
    RulingAction.TRICKS: ("tricks",),
}


def _ruling(m: Mapping[str, Any], event: Event) -> None:
    """The fields each action of a ruling needs."""
    assert isinstance(event, RulingGiven)
    for key in _RULING_NEEDS[event.action]:
        if m.get(key) is None or m.get(key) == "":
            raise EventError(f"a {event.action.value} ruling needs field {key!r}", key)
    if event.action is RulingAction.CANCEL_CALL and event.seat is None and event.index is None:
        raise EventError("a cancel_call ruling needs field 'seat' or 'index'", "seat")


_CHECKS: dict[type[Event], Callable[[Mapping[str, Any], Event], None]] = {
    PlayOptionChosen: _play_option,
    RulingGiven: _ruling,
}


# --- the one list of types ------------------------------------------------------------------


def _checked(read: Reader, check: Callable[[Mapping[str, Any], Event], None]) -> Reader:
    def checked(m: Mapping[str, Any]) -> Event:
        event = read(m)
        check(m, event)
        return event
    return checked


def _codec(cls: type[Event]) -> tuple[Reader, Writer]:
    reader, writer = _OWN.get(cls) or (derived_reader(cls), derived_writer(cls))
    check = _CHECKS.get(cls)
    return (reader if check is None else _checked(reader, check)), writer


_CODECS = {cls: _codec(cls) for cls in EVENT_CLASSES.values()}
_READERS: dict[str, Reader] = {str(kind): _CODECS[cls][0] for kind, cls in EVENT_CLASSES.items()}
_WRITERS: dict[type, Writer] = {cls: codec[1] for cls, codec in _CODECS.items()}
EVENT_TYPES = tuple(str(kind) for kind in EventType)


def sent_by(*senders: Sender) -> frozenset[str]:
    """The event types any of `senders` sends."""
    return frozenset(str(kind) for kind, cls in EVENT_CLASSES.items() if cls.SENDER in senders)

# Upcasters turn a map of schema version v into version v + 1. There is one version so far.
_UPCASTERS: dict[int, Callable[[EventMap], EventMap]] = {}


def from_map(m: Any) -> Event:
    """The event a map stands for; raises `EventError` naming the field at fault."""
    if type(m) is not dict and not isinstance(m, Mapping):
        raise EventError(f"an event must be a map, not {type(m).__name__}")
    if "v" in m:
        version = int_field(m, "v", minimum=1) or 1
        if version > SCHEMA_VERSION:
            raise EventError(f"schema version {version} is newer than this reader's "
                             f"({SCHEMA_VERSION})", "v")
        while version < SCHEMA_VERSION:
            m = _UPCASTERS[version](dict(m))
            version += 1
    kind = m.get("type")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        if kind is None:
            raise EventError("missing field 'type'", "type")
        raise EventError(f"field 'type': {kind!r} is not one of {', '.join(EVENT_TYPES)}", "type")
    return reader(m)


def to_map(event: Event) -> EventMap:
    """The map of an event; `from_map(to_map(e)) == e`."""
    return _WRITERS[type(event)](event)


# --- bytes and lines ------------------------------------------------------------------------


def encode(event: Event) -> bytes:
    """msgpack bytes of the event's map, stamped with the schema version."""
    data: bytes = msgpack.packb({**to_map(event), "v": SCHEMA_VERSION}, use_bin_type=True)
    return data


def unpack(data: bytes) -> EventMap:
    """The map in msgpack bytes, as written (not yet checked against the schema)."""
    try:
        m = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception as exc:  # msgpack raises a zoo of types on garbage
        raise DecodeError(f"not a msgpack event: {exc.__class__.__name__}") from None
    if not isinstance(m, dict):
        raise DecodeError(f"an event must be a map, not {type(m).__name__}")
    return m


def decode_map(m: EventMap) -> Event:
    """The event of an unpacked map; raises `DecodeError`, never another error."""
    try:
        return from_map(m)
    except EventError as exc:
        raise DecodeError(str(exc), exc.field) from None


def decode(data: bytes) -> Event:
    """The event in msgpack bytes; anything else raises `DecodeError`, never another error."""
    return decode_map(unpack(data))


def from_json_line(line: str) -> Event:
    """The event in one line of JSON; raises `EventError` on bad JSON or a bad map."""
    try:
        m = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise EventError(f"not JSON: {exc}") from None
    return from_map(m)


def to_json_line(event: Event) -> str:
    return json.dumps(to_map(event), separators=(",", ":"))

"""The one place that turns events into maps and back, and maps into bytes.

The same maps travel as msgpack on Kafka and as JSON Lines in files. A map is
`{"type": ..., ...}` (see docs/api.md for the schema); `v` is the schema version
(absent means 1). Every failure is an `EventError` naming the field at fault.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from typing import Any

import msgpack

from shared.calls import Call
from shared.cards import SUITS
from shared.codec_fields import (
    EVENT_ID as EVENT_ID,
    MAX_TEXT as MAX_TEXT,
    DecodeError as DecodeError,
    EventError as EventError,
    bool_field,
    call_field,
    id_field,
    int_field,
    meta_fields,
    one_of,
    parsed_field,
    seat_field,
    text_field,
    unfit_text as unfit_text,
)
from shared.codec_play import (
    card_exposed,
    card_played,
    claim,
    claim_response,
    hand_faced,
    lead_option,
    opening_lead,
    penalty_card_named,
    play_map,
    play_option,
    result_recorded,
    ruling_tricks,
)
from shared.deal import parse_deal
from shared.events import (
    BoardStarted,
    CallChanged,
    CallExplained,
    CallMade,
    CardExposed,
    CardPlayed,
    ClaimMade,
    ClaimResponded,
    Event,
    ExplanationRequested,
    HandFaced,
    LeadOptionChosen,
    OpeningLeadFaced,
    OptionExercised,
    PenaltyCardNamed,
    PlayersNamed,
    PlayOptionChosen,
    ResultRecorded,
    RoundStarted,
    Ruleset,
    RulingAction,
    RulingGiven,
    TableHeld,
)
from shared.seats import NotationError, Seat, Vulnerability, board_dealer, board_vulnerability
from shared.vocabulary import LeadRestriction, PassObligation

SCHEMA_VERSION = 1
EventMap = dict[str, Any]


# --- maps to events -------------------------------------------------------------------------


def _board_started(m: Mapping[str, Any]) -> BoardStarted:
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
    return RoundStarted(number, tuple(started), **meta_fields(m))


def _table_held(m: Mapping[str, Any]) -> TableHeld:
    if not isinstance(m.get("held"), bool):
        raise EventError("field 'held': true (the next board waits) or false", "held")
    return TableHeld(m["held"], **meta_fields(m))


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


def _call(m: Mapping[str, Any]) -> CallMade:
    return CallMade(seat_field(m), call_field(m), bool_field(m, "alert", False),
                    text_field(m, "explanation"), id=id_field(m), ts=int_field(m, "ts"),
                    client_seq=int_field(m, "client_seq"))


def _option(m: Mapping[str, Any]) -> OptionExercised:
    return OptionExercised(seat_field(m), bool_field(m, "accept"), **meta_fields(m))


def _call_changed(m: Mapping[str, Any]) -> CallChanged:
    return CallChanged(parsed_field(m, "seat", Seat.parse), parsed_field(m, "call", Call.parse),
                       bool_field(m, "inadvertent", False), **meta_fields(m))


def _question(m: Mapping[str, Any]) -> ExplanationRequested:
    return ExplanationRequested(parsed_field(m, "seat", Seat.parse), int_field(m, "index"),
                                **meta_fields(m))


def _explanation(m: Mapping[str, Any]) -> CallExplained:
    index = int_field(m, "index")
    if index is None:
        raise EventError("missing field 'index' (of the call explained)", "index")
    text = text_field(m, "explanation", required=True)
    assert text is not None
    return CallExplained(parsed_field(m, "seat", Seat.parse), index, text,
                         bool_field(m, "own", False), **meta_fields(m))


_RULING_NEEDS: dict[RulingAction, tuple[str, ...]] = {
    RulingAction.CANCEL_CALL: (),
    RulingAction.ALLOW_CHANGE: ("seat",),
    RulingAction.SET_PASS_OBLIGATION: ("seat", "obligation"),
    RulingAction.LIFT_PASS_OBLIGATION: ("seat",),
    RulingAction.LEAD_RESTRICTION: ("seat", "suit", "restriction"),
    RulingAction.ADJUSTED_SCORE: ("score",),
    RulingAction.TRICKS: ("tricks",),
}


def _ruling(m: Mapping[str, Any]) -> RulingGiven:
    action_text = text_field(m, "action", required=True)
    assert action_text is not None
    try:
        action = RulingAction(action_text)
    except ValueError:
        names = ", ".join(a.value for a in RulingAction)
        raise EventError(f"field 'action': {action_text!r} is not one of {names}",
                         "action") from None
    for key in _RULING_NEEDS[action]:
        if m.get(key) is None or m.get(key) == "":
            raise EventError(f"a {action.value} ruling needs field {key!r}", key)
    seat = parsed_field(m, "seat", Seat.parse) if m.get("seat") is not None else None
    index = int_field(m, "index")
    if action is RulingAction.CANCEL_CALL and seat is None and index is None:
        raise EventError("a cancel_call ruling needs field 'seat' or 'index'", "seat")
    suit = text_field(m, "suit")
    if suit is not None and (len(suit) != 1 or suit.upper() not in SUITS):
        raise EventError("field 'suit' must be one of S, H, D, C", "suit")
    return RulingGiven(
        action,
        law=text_field(m, "law"),
        seat=seat,
        index=index,
        obligation=one_of(m, "obligation", PassObligation),
        suit=suit.upper() if suit else None,
        restriction=one_of(m, "restriction", LeadRestriction),
        score=text_field(m, "score"),
        tricks=ruling_tricks(m),
        note=text_field(m, "note"),
        **meta_fields(m),
    )


class Sender(enum.StrEnum):
    """Who sends an event of a type to a table (the gateway's check of authority)."""

    TABLE = "table"  # the table's course: boards, rounds, players (the director's routes)
    SEAT = "seat"  # a player, from his seat (or the table's operator, for any seat)
    DIRECTOR = "director"  # the director's rulings


# The one list of event types: each type's reader and who sends it.
_TYPES: dict[str, tuple[Callable[[Mapping[str, Any]], Event], Sender]] = {
    "board_started": (_board_started, Sender.TABLE),
    "round_started": (_round_started, Sender.TABLE),
    "table_held": (_table_held, Sender.TABLE),
    "players_named": (_players_named, Sender.TABLE),
    "call": (_call, Sender.SEAT),
    "option": (_option, Sender.SEAT),
    "card_exposed": (card_exposed, Sender.SEAT),
    "call_changed": (_call_changed, Sender.SEAT),
    "opening_lead": (opening_lead, Sender.SEAT),
    "card_played": (card_played, Sender.SEAT),
    "claim": (claim, Sender.SEAT),
    "claim_response": (claim_response, Sender.SEAT),
    "lead_option": (lead_option, Sender.SEAT),
    "hand_faced": (hand_faced, Sender.SEAT),
    "penalty_card_named": (penalty_card_named, Sender.SEAT),
    "play_option": (play_option, Sender.SEAT),
    "result_recorded": (result_recorded, Sender.SEAT),
    "question": (_question, Sender.SEAT),
    "explanation": (_explanation, Sender.SEAT),
    "ruling": (_ruling, Sender.DIRECTOR),
}
_READERS = {kind: reader for kind, (reader, _) in _TYPES.items()}
EVENT_TYPES = tuple(_TYPES)


def sent_by(*senders: Sender) -> frozenset[str]:
    """The event types any of `senders` sends."""
    return frozenset(kind for kind, (_, sender) in _TYPES.items() if sender in senders)

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


# --- events to maps -------------------------------------------------------------------------


def _board_map(event: BoardStarted) -> EventMap:
    m: EventMap = {"board": event.board, "dealer": str(event.dealer),
                   "vulnerability": str(event.vulnerability), "ruleset": event.ruleset.value}
    if event.deal is not None:
        m["deal"] = event.deal
    return m


def to_map(event: Event) -> EventMap:
    """The map of an event; `from_map(to_map(e)) == e`."""
    m: EventMap
    match event:
        case BoardStarted():
            m = {"type": "board_started", **_board_map(event)}
        case RoundStarted():
            m = {"type": "round_started", "round": event.round,
                 "boards": [_board_map(board) for board in event.boards]}
        case TableHeld():
            m = {"type": "table_held", "held": event.held}
        case PlayersNamed():
            m = {"type": "players_named",
                 "players": {seat.name: name for seat, name in event.players}}
        case CallMade():
            m = {"type": "call", "seat": str(event.seat), "call": str(event.call)}
            if event.alert:
                m["alert"] = True
            if event.explanation is not None:
                m["explanation"] = event.explanation
        case OptionExercised():
            m = {"type": "option", "seat": str(event.seat), "accept": event.accept}
        case CardExposed():
            m = {"type": "card_exposed", "seat": str(event.seat), "card": str(event.card),
                 "led": event.led}
        case CallChanged():
            m = {"type": "call_changed", "seat": str(event.seat), "call": str(event.call),
                 "inadvertent": event.inadvertent}
        case OpeningLeadFaced():
            m = {"type": "opening_lead", "seat": str(event.seat), "card": str(event.card)}
        case CardPlayed() | ClaimMade() | ClaimResponded() | LeadOptionChosen() \
                | HandFaced() | PenaltyCardNamed() | PlayOptionChosen() \
                | ResultRecorded():
            m = play_map(event)
        case ExplanationRequested():
            m = {"type": "question", "seat": str(event.seat)}
            if event.index is not None:
                m["index"] = event.index
        case CallExplained():
            m = {"type": "explanation", "seat": str(event.seat), "index": event.index,
                 "explanation": event.explanation}
            if event.own:
                m["own"] = True
        case RulingGiven():
            m = {"type": "ruling", "action": event.action.value}
            for key in ("law", "index", "obligation", "suit", "restriction", "score", "tricks",
                        "note"):
                value = getattr(event, key)
                if value is not None:
                    m[key] = value
            if event.seat is not None:
                m["seat"] = str(event.seat)
    for key in ("id", "ts", "client_seq"):
        value = getattr(event, key)
        if value is not None:
            m[key] = value
    return m


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

"""The cards' events in the event schema (exposed, led, played) and the play's (claims,
declarer's lead option, a hand faced, a result recorded); `shared.codec` holds the one list
of types. Maps to events and back, each field checked, an `EventError` naming the field at
fault."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.cards import SUITS, Card
from shared.codec_fields import (
    EventError,
    bool_field,
    int_field,
    meta_fields,
    one_of,
    parsed_field,
    seat_field,
    text_field,
)
from shared.events import (
    CardExposed,
    CardPlayed,
    ClaimMade,
    ClaimResponded,
    HandFaced,
    LeadOptionChosen,
    OpeningLeadFaced,
    PenaltyCardNamed,
    PlayOptionChosen,
    ResultRecorded,
)
from shared.seats import Seat
from shared.vocabulary import LeadOption, PlayOption

TRICKS = 13
MAX_STATEMENT = 2000


def _tricks(m: Mapping[str, Any]) -> int:
    tricks = int_field(m, "tricks")
    if tricks is None:
        raise EventError("missing field 'tricks'", "tricks")
    if tricks > TRICKS:
        raise EventError(f"field 'tricks' must be at most {TRICKS}", "tricks")
    return tricks


def card_exposed(m: Mapping[str, Any]) -> CardExposed:
    return CardExposed(parsed_field(m, "seat", Seat.parse), parsed_field(m, "card", Card.parse),
                       bool_field(m, "led", False), **meta_fields(m))


def opening_lead(m: Mapping[str, Any]) -> OpeningLeadFaced:
    return OpeningLeadFaced(parsed_field(m, "seat", Seat.parse),
                            parsed_field(m, "card", Card.parse), **meta_fields(m))


def card_played(m: Mapping[str, Any]) -> CardPlayed:
    by = m.get("by")
    return CardPlayed(seat_field(m), parsed_field(m, "card", Card.parse),
                      None if by is None else parsed_field(m, "by", Seat.parse),
                      **meta_fields(m))


def claim(m: Mapping[str, Any]) -> ClaimMade:
    statement = text_field(m, "statement") or ""
    if len(statement) > MAX_STATEMENT:
        raise EventError(f"field 'statement' is longer than {MAX_STATEMENT} characters",
                         "statement")
    return ClaimMade(seat_field(m), _tricks(m), statement, **meta_fields(m))


def claim_response(m: Mapping[str, Any]) -> ClaimResponded:
    return ClaimResponded(seat_field(m), bool_field(m, "accept"), **meta_fields(m))


def lead_option(m: Mapping[str, Any]) -> LeadOptionChosen:
    choice = one_of(m, "choice", LeadOption)
    if choice is None:
        raise EventError(f"missing field 'choice' (one of {', '.join(LeadOption)})", "choice")
    suit = text_field(m, "suit")
    if suit is not None and (len(suit) != 1 or suit.upper() not in SUITS):
        raise EventError("field 'suit' must be one of S, H, D, C", "suit")
    return LeadOptionChosen(seat_field(m), choice, suit.upper() if suit else None,
                            **meta_fields(m))


def hand_faced(m: Mapping[str, Any]) -> HandFaced:
    return HandFaced(seat_field(m), **meta_fields(m))


def penalty_card_named(m: Mapping[str, Any]) -> PenaltyCardNamed:
    return PenaltyCardNamed(seat_field(m), parsed_field(m, "card", Card.parse), **meta_fields(m))


def play_option(m: Mapping[str, Any]) -> PlayOptionChosen:
    choice = one_of(m, "choice", PlayOption)
    if choice is None:
        raise EventError(f"missing field 'choice' (one of {', '.join(PlayOption)})", "choice")
    suit = text_field(m, "suit")
    if suit is not None and (len(suit) != 1 or suit.upper() not in SUITS):
        raise EventError("field 'suit' must be one of S, H, D, C", "suit")
    if (suit is None) != (choice in (PlayOption.HIGHEST, PlayOption.LOWEST)):
        raise EventError("field 'suit': the suit required or prohibited, and only then", "suit")
    return PlayOptionChosen(seat_field(m), choice, suit.upper() if suit else None,
                            **meta_fields(m))


def result_recorded(m: Mapping[str, Any]) -> ResultRecorded:
    """The tricks recorded (no `seat`: the operator's or the Director's), or a seat's
    proposal of them (Law 79A)."""
    seat = None if m.get("seat") is None else seat_field(m)
    return ResultRecorded(_tricks(m), seat, **meta_fields(m))


def ruling_tricks(m: Mapping[str, Any]) -> int | None:
    """A ruling's `tricks` (declarer's, 0 to 13), if given."""
    return None if m.get("tricks") is None else _tricks(m)


def play_map(event: CardPlayed | ClaimMade | ClaimResponded | LeadOptionChosen | HandFaced
             | PenaltyCardNamed | PlayOptionChosen | ResultRecorded) -> dict[str, Any]:
    """The map of a play event, without the stamps (`shared.codec.to_map` adds them)."""
    match event:
        case CardPlayed():
            if event.by is not None:
                return {"type": "card_played", "seat": str(event.seat), "card": str(event.card),
                        "by": str(event.by)}
            return {"type": "card_played", "seat": str(event.seat), "card": str(event.card)}
        case ClaimMade():
            return {"type": "claim", "seat": str(event.seat), "tricks": event.tricks,
                    "statement": event.statement}
        case ClaimResponded():
            return {"type": "claim_response", "seat": str(event.seat), "accept": event.accept}
        case LeadOptionChosen():
            m: dict[str, Any] = {"type": "lead_option", "seat": str(event.seat),
                                 "choice": event.choice.value}
            if event.suit is not None:
                m["suit"] = event.suit
            return m
        case PlayOptionChosen():
            m = {"type": "play_option", "seat": str(event.seat), "choice": event.choice.value}
            if event.suit is not None:
                m["suit"] = event.suit
            return m
        case PenaltyCardNamed():
            return {"type": "penalty_card_named", "seat": str(event.seat),
                    "card": str(event.card)}
        case HandFaced():
            return {"type": "hand_faced", "seat": str(event.seat)}
        case ResultRecorded():
            m = {"type": "result_recorded", "tricks": event.tricks}
            if event.seat is not None:
                m["seat"] = str(event.seat)
            return m

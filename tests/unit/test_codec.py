"""The event schema and its codec: maps, msgpack and JSON lines, and clear errors."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given, settings, strategies as st

from shared import DecodeError, EventError, decode, encode, from_map, to_map
from shared.codec import EVENT_ID, EVENT_TYPES, Sender, from_json_line, sent_by, to_json_line
from shared.events import BoardStarted, CallMade
from shared.seats import Seat, Vulnerability

seats = st.sampled_from(["N", "E", "S", "W"])
texts = st.text(st.characters(exclude_categories=("Cs", "Cc")) | st.sampled_from("\n\t"),
                max_size=30)
ids = st.from_regex(EVENT_ID, fullmatch=True)
meta = st.fixed_dictionaries({}, optional={"id": ids, "ts": st.integers(0, 2**62),
                                           "client_seq": st.integers(0, 2**40)})
maps = st.one_of(
    st.fixed_dictionaries({"type": st.just("board_started"), "board": st.integers(1, 10**6)},
                          optional={"dealer": seats, "ruleset": st.sampled_from(
                              ["duplicate", "rubber"]), "vulnerability": st.sampled_from(
                              ["None", "NS", "EW", "Both"]), "deal": st.just(
                              "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 "
                              "Q6.A954.Q973.KJ6")}),
    st.fixed_dictionaries({"type": st.just("call"), "seat": seats,
                           "call": st.sampled_from(["1C", "7NT", "P", "X", "XX", "8D"])},
                          optional={"alert": st.booleans(), "explanation": texts}),
    st.fixed_dictionaries({"type": st.just("option"), "seat": seats, "accept": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("card_exposed"), "seat": seats,
                           "card": st.sampled_from(["HK", "D10", "S5"]), "led": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("call_changed"), "seat": seats,
                           "call": st.sampled_from(["1C", "P"]), "inadvertent": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("opening_lead"), "seat": seats,
                           "card": st.sampled_from(["SA", "C2"])}),
    st.fixed_dictionaries({"type": st.just("card_played"), "seat": seats,
                           "card": st.sampled_from(["SA", "C2", "HT", "d10"])}),
    st.fixed_dictionaries({"type": st.just("claim"), "seat": seats,
                           "tricks": st.integers(0, 13), "statement": texts}),
    st.fixed_dictionaries({"type": st.just("claim_response"), "seat": seats,
                           "accept": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("result_recorded"), "tricks": st.integers(0, 13)},
                          optional={"seat": seats}),  # a seat's: a proposal (Law 79A)
    st.fixed_dictionaries({"type": st.just("hand_faced"), "seat": seats}),
    st.fixed_dictionaries({"type": st.just("play_option"), "seat": seats,
                           "choice": st.sampled_from(["highest", "lowest"])}),
    st.fixed_dictionaries({"type": st.just("play_option"), "seat": seats,
                           "choice": st.sampled_from(["require", "prohibit"]),
                           "suit": st.sampled_from("SHDCshdc")}),
    st.fixed_dictionaries({"type": st.just("penalty_card_named"), "seat": seats,
                           "card": st.sampled_from(["SA", "C2", "HT"])}),
    st.fixed_dictionaries({"type": st.just("lead_option"), "seat": seats,
                           "choice": st.sampled_from(["require", "prohibit", "free"])},
                          optional={"suit": st.sampled_from("SHDCshdc")}),
    st.fixed_dictionaries({"type": st.just("ruling"), "action": st.just("tricks"),
                           "tricks": st.integers(0, 13)}, optional={"law": texts}),
    st.fixed_dictionaries({"type": st.just("question"), "seat": seats},
                          optional={"index": st.integers(0, 40)}),
    st.fixed_dictionaries({"type": st.just("explanation"), "seat": seats,
                           "index": st.integers(0, 40), "explanation": texts}),
    st.fixed_dictionaries({"type": st.just("ruling"), "action": st.just("adjusted_score"),
                           "score": texts.filter(bool)}, optional={"law": texts, "note": texts}),
    st.fixed_dictionaries({"type": st.just("ruling"), "action": st.just("lead_restriction"),
                           "seat": seats, "suit": st.sampled_from("SHDC"),
                           "restriction": st.sampled_from(["require", "prohibit"])}),
).flatmap(lambda m: meta.map(lambda extra: {**m, **extra}))


@settings(max_examples=500, deadline=None)
@given(maps)
def test_codec_round_trips(m: dict[str, Any]) -> None:
    """map → event → map → event, msgpack bytes and JSON lines: the same event each way."""
    event = from_map(m)
    assert from_map(to_map(event)) == event
    assert decode(encode(event)) == event
    assert from_json_line(to_json_line(event)) == event


def test_board_started_defaults_from_the_board_number() -> None:
    event = from_map({"type": "board_started", "board": 7})
    assert event == BoardStarted(7, Seat.S, Vulnerability.BOTH)


def test_encoded_events_carry_the_schema_version() -> None:
    raw = msgpack.unpackb(encode(from_map({"type": "call", "seat": "N", "call": "1H"})))
    assert raw == {"type": "call", "seat": "N", "call": "1H", "v": 1}


@settings(max_examples=2000, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_never_crash_the_decoder(data: bytes) -> None:
    """Only a DecodeError, never another exception."""
    try:
        event = decode(data)
    except DecodeError:
        return
    assert decode(encode(event)) == event


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=10)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.sampled_from(["type", "seat", "call", "board", "accept", "card",
                                        "action", "v", "client_seq", "dealer", "deal"]),
                       json_values | st.sampled_from(["call", "board_started", "N", "1H",
                                                      "option", "ruling"]), max_size=6))
def test_random_maps_give_an_event_or_an_event_error(m: dict[str, Any]) -> None:
    try:
        from_map(m)
    except EventError as exc:
        assert str(exc)


@pytest.mark.parametrize(("m", "field", "words"), [
    ({"seat": "N", "call": "1H"}, "type", "missing field 'type'"),
    ({"type": "bid", "seat": "N"}, "type", "'bid' is not one of"),
    ({"type": "call", "seat": "Q", "call": "1H"}, "seat", "not a seat"),
    ({"type": "call", "seat": "N", "call": "1Z"}, "call", "not a call"),
    ({"type": "call", "seat": "N"}, "call", "missing field 'call'"),
    ({"type": "call", "seat": "N", "call": 1}, "call", "must be text"),
    ({"type": "call", "seat": "N", "call": "1H", "alert": "yes"}, "alert", "true or false"),
    ({"type": "call", "seat": "N", "call": "1H", "client_seq": -1}, "client_seq", "at least"),
    ({"type": "board_started", "board": 0}, "board", "at least 1"),
    ({"type": "board_started", "board": True}, "board", "whole number"),
    ({"type": "board_started", "board": 1, "ruleset": "chicago"}, "ruleset", "duplicate or"),
    ({"type": "board_started", "board": 1, "deal": "N:AK"}, "deal", "four hands"),
    ({"type": "option", "seat": "N"}, "accept", "missing field 'accept'"),
    ({"type": "ruling", "action": "smile"}, "action", "is not one of"),
    ({"type": "ruling", "action": "set_pass_obligation", "seat": "N"}, "obligation", "needs"),
    ({"type": "ruling", "action": "adjusted_score", "score": ""}, "score", "needs"),
    ({"type": "ruling", "action": "set_pass_obligation", "seat": "N", "obligation": "often"},
     "obligation", "one of"),
    ({"type": "call", "seat": "N", "call": "1H", "v": 9}, "v", "newer"),
])
def test_bad_maps_name_the_field_at_fault(m: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(EventError, match=words) as info:
        from_map(m)
    assert info.value.field == field


def test_bad_json_is_an_event_error() -> None:
    with pytest.raises(EventError, match="not JSON"):
        from_json_line('{"type": "call", ')
    assert from_json_line('{"type":"call","seat":"n","call":"pass"}') == CallMade(
        Seat.N, from_map({"type": "call", "seat": "N", "call": "P"}).call)  # type: ignore[union-attr]


@pytest.mark.parametrize(("m", "field"), [
    ({"type": "call", "seat": "N", "call": "P", "id": "x" * 65}, "id"),
    ({"type": "call", "seat": "N", "call": "P", "id": "partner: I have 20 points"}, "id"),
    ({"type": "call", "seat": "N", "call": "P", "explanation": "weak\ud800"}, "explanation"),
    ({"type": "call", "seat": "N", "call": "P", "explanation": "weak\x00two"}, "explanation"),
    ({"type": "explanation", "seat": "N", "index": 0, "explanation": "a\x1bb"}, "explanation"),
])
def test_ids_are_tokens_and_texts_carry_no_control_character(m: dict[str, Any],
                                                             field: str) -> None:
    """An event's id is a short token (no free text reaches a partner through it); a text
    with a lone surrogate or a control character is refused, naming the field."""
    with pytest.raises(EventError) as refused:
        from_map(m)
    assert refused.value.field == field


def test_a_text_may_hold_line_breaks_and_any_script() -> None:
    event = from_map({"type": "call", "seat": "N", "call": "2C", "id": "web:42.7",
                      "explanation": "artificial\n22+ — 强"})
    assert isinstance(event, CallMade) and event.explanation == "artificial\n22+ — 强"


def test_who_sends_each_type_comes_from_the_one_list_of_types() -> None:
    """The gateway's sets of what a seat (or the table's operator) and the director may send
    are the codec's: every type has its sender, these as they always were."""
    assert sent_by(*Sender) == set(EVENT_TYPES)
    assert sent_by(Sender.SEAT) == {"call", "option", "card_exposed", "call_changed",
                                    "opening_lead", "question", "explanation", "card_played",
                                    "claim", "claim_response", "result_recorded",
                                    "hand_faced"}
    assert sent_by(Sender.DECLARER) == {"lead_option", "penalty_card_named", "play_option"}
    assert sent_by(Sender.DIRECTOR) == {"ruling"}
    assert sent_by(Sender.TABLE) == {"board_started", "round_started", "round_extended",
                                     "round_ended", "table_held",
                                     "players_named", "substitute_seated",
                                     "substitute_left"}


@pytest.mark.parametrize(("m", "field"), [
    ({"type": "card_played", "seat": "N"}, "card"),
    ({"type": "card_played", "seat": "N", "card": "S1"}, "card"),
    ({"type": "card_played", "seat": "X", "card": "SA"}, "seat"),
    ({"type": "card_played", "card": "SA"}, "seat"),
    ({"type": "claim", "seat": "S", "tricks": 14}, "tricks"),
    ({"type": "claim", "seat": "S", "tricks": -1}, "tricks"),
    ({"type": "claim", "seat": "S"}, "tricks"),
    ({"type": "claim", "seat": "S", "tricks": 3, "statement": 7}, "statement"),
    ({"type": "claim_response", "seat": "E"}, "accept"),
    ({"type": "claim_response", "seat": "E", "accept": "yes"}, "accept"),
    ({"type": "result_recorded"}, "tricks"),
    ({"type": "result_recorded", "tricks": "9"}, "tricks"),
    ({"type": "ruling", "action": "tricks"}, "tricks"),
    ({"type": "ruling", "action": "tricks", "tricks": 20}, "tricks"),
    ({"type": "lead_option", "seat": "N"}, "choice"),
    ({"type": "lead_option", "seat": "N", "choice": "maybe"}, "choice"),
    ({"type": "lead_option", "seat": "N", "choice": "require", "suit": "X"}, "suit"),
    ({"type": "lead_option", "seat": "N", "choice": "require", "suit": "SH"}, "suit"),
    ({"type": "lead_option", "choice": "free"}, "seat"),
    ({"type": "play_option", "seat": "N", "choice": "require"}, "suit"),  # Law 57A3: a suit
    ({"type": "play_option", "seat": "N", "choice": "highest", "suit": "S"}, "suit"),
    ({"type": "play_option", "seat": "N", "choice": "best"}, "choice"),
])
def test_a_bad_play_event_names_the_field_at_fault(m: dict[str, Any], field: str) -> None:
    """The play's events (Laws 45, 50D2, 68, 69, 79A): a bad field raises `EventError` naming
    it."""
    with pytest.raises(EventError) as refused:
        from_map(m)
    assert refused.value.field == field


def test_an_old_logs_opening_lead_and_a_card_played_keep_their_own_types() -> None:
    """`opening_lead` still reads (older logs); the play writes `card_played` (Law 41A)."""
    old = from_map({"type": "opening_lead", "seat": "E", "card": "HK"})
    new = from_map({"type": "card_played", "seat": "E", "card": "HK"})
    assert to_map(old)["type"] == "opening_lead" and to_map(new)["type"] == "card_played"
    assert (old.seat, old.card) == (new.seat, new.card)

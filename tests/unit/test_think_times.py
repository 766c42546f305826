"""Think times from the log's times (`shared.table.think_times`): each call's and card's think
from the event before it at the table, per side per board and per round, and the tempo marks
before a call (Law 16B1: a break in tempo may be unauthorised information; the Director
decides); the Director's alone (`shared.table.visibility.think_times_for`)."""

from __future__ import annotations

from typing import Any

import pytest

from shared import from_map
from shared.events import Event
from shared.seats import Seat
from shared.table.think_times import TEMPO_MIN_MS, TEMPO_TIMES, ThinkKind, table_times
from shared.table.visibility import Reader, Role, think_times_for
from tests.helpers import DEAL

pytestmark = pytest.mark.unit

AUCTION = [("N", "1S"), ("E", "P"), ("S", "2S"), ("W", "P"), ("N", "4S"), ("E", "P"),
           ("S", "P"), ("W", "P")]  # N declares 4S, E leads, S is dummy


def _log(maps: list[dict[str, Any]]) -> list[tuple[int, Event]]:
    return [(offset, from_map(m)) for offset, m in enumerate(maps)]


def _board(board: int, start: int, thinks: list[int], names: bool = False
           ) -> list[dict[str, Any]]:
    """A board started at `start` (ms) and bid to 4S by N, each call `thinks[i]` ms after
    the event before it."""
    maps: list[dict[str, Any]] = [{"type": "board_started", "board": board, "deal": DEAL,
                                   "ts": start}]
    ts = start
    for (seat, call), think in zip(AUCTION, thinks, strict=True):
        ts += think
        maps.append({"type": "call", "seat": seat, "call": call, "ts": ts})
    return maps


def test_a_think_is_the_time_from_the_event_before_it_at_the_table() -> None:
    """Each call's think: from the event before it (the board's start for the first); each
    side's sum on the board; the opening lead and dummy's card (played by declarer, Law 45)
    are cards, declarer's for dummy's."""
    thinks = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000]
    maps = _board(1, 10_000, thinks)
    maps += [{"type": "opening_lead", "seat": "E", "card": "DA", "ts": 10_000 + 36_000 + 9000},
             {"type": "card_played", "seat": "S", "card": "D6", "by": "N",
              "ts": 10_000 + 36_000 + 9000 + 2500}]
    times = table_times(_log(maps))
    assert [t.ms for t in times.thinks] == [*thinks, 9000, 2500]
    assert [t.kind for t in times.thinks] == [ThinkKind.CALL] * 8 + [ThinkKind.CARD] * 2
    assert times.thinks[-1].seat is Seat.N  # dummy's card: declarer's think
    ns = sum(t for (s, _), t in zip(AUCTION, thinks, strict=True) if s in "NS") + 2500
    ew = sum(t for (s, _), t in zip(AUCTION, thinks, strict=True) if s in "EW") + 9000
    board = times.board(1)
    assert board is not None and (board.sides.ns_ms, board.sides.ew_ms) == (ns, ew)


def test_a_retry_the_fold_ignored_is_no_think() -> None:
    """A call sent again with the same `client_seq` (the fold ignores it) is not a think,
    nor the event the next think is timed from."""
    maps = _board(1, 0, [1000] * 8)
    maps[1]["client_seq"] = 7
    maps.insert(2, {**maps[1], "ts": maps[1]["ts"] + 500})  # the retry, half a second on
    times = table_times(_log(maps))
    assert [t.ms for t in times.thinks] == [1000] * 8


def test_law_16b1_a_think_far_beyond_the_players_usual_before_a_call_is_marked() -> None:
    """Law 16B1: a call after a think of at least 20 s and over 3 times the player's own
    median over his calls is marked for the Director; the same think by a player who always
    thinks that long is not (his usual), nor a short one far over a tiny median."""
    slow_e = TEMPO_TIMES * 2000 + TEMPO_MIN_MS  # E's second call: far over his 2 s usual
    maps = _board(1, 0, [2000, 2000, 2000, 2000, 2000, slow_e, 2000, 2000])
    maps += _board(2, maps[-1]["ts"] + 1000,
                   [2000, 2000, 2000, 25_000, 2000, 2000, 2000, 25_000])
    maps += _board(3, maps[-1]["ts"] + 1000,
                   [2000, 2000, 2000, 25_000, 2000, 2000, 2000, 25_000])
    times = table_times(_log(maps))
    marked = [(t.board, t.seat.letter, t.ms) for t in times.thinks if t.tempo]
    assert marked == [(1, "E", slow_e)]  # W's 25 s thinks are his usual: his median is 25 s
    quick = table_times(_log(_board(1, 0, [100, 100, 100, 100, 100, 900, 100, 100])))
    assert not any(t.tempo for t in quick.thinks)  # 9 times his median, but under 20 s


def test_per_round_times_sum_each_sides_thinks_over_the_rounds_boards() -> None:
    """A round's boards (started by `round_started`, one after the other) each get the round
    they started in; the round's times sum its boards'."""
    deal = {"board": 1, "deal": DEAL}
    maps: list[dict[str, Any]] = [{"type": "round_started", "round": 1, "ts": 0,
                                   "boards": [deal, {**deal, "board": 2}]}]
    ts = 0
    for _ in range(2):
        for seat, call in AUCTION:
            ts += 3000 if seat in "NS" else 1000
            maps.append({"type": "call", "seat": seat, "call": call, "ts": ts})
        maps += [{"type": "card_played", "seat": "E", "card": "DA", "ts": ts + 1000}]
        ts += 1000
        for seat, card in (("S", "D6"), ("W", "D3"), ("N", "D2")):
            ts += 1000
            maps.append({"type": "card_played", "seat": seat, "card": card,
                         **({"by": "N"} if seat == "S" else {}), "ts": ts})
        maps.append({"type": "result_recorded", "tricks": 10, "seat": "N", "ts": ts})
        maps += [{"type": "claim_response", "seat": s, "accept": True, "ts": ts}
                 for s in "EW"]
    times = table_times(_log(maps))
    assert [(b.board, b.round) for b in times.boards] == [(1, 1), (2, 1)]
    one = times.board(1)
    assert one is not None
    assert (one.sides.ns_ms, one.sides.ew_ms) == (4 * 3000 + 2000, 4 * 1000 + 2000)
    assert times.rounds[1].ns_ms == sum(b.sides.ns_ms for b in times.boards)
    assert times.rounds[1].ew_ms == sum(b.sides.ew_ms for b in times.boards)


@pytest.mark.parametrize("reader", [Reader(Role.SEAT, s) for s in Seat]
                         + [Reader(Role.SPECTATOR), Reader(Role.OPERATOR),
                            Reader(Role.VUGRAPH)])
def test_law_16b_the_think_times_reach_the_director_alone(reader: Reader) -> None:
    """Law 16B: a break in tempo is the Director's to judge; no player's (nor the public's,
    nor the operator's) history carries the think times or their marks."""
    document: Any = {"table": "t", "history": [], "state": None, "boards": [],
                     "think_times": table_times(_log(_board(1, 0, [1000] * 8))).to_map()}
    assert "think_times" not in think_times_for(reader, document)
    director = think_times_for(Reader(Role.DIRECTOR), document)
    assert director["think_times"]["thinks"][0]["think_ms"] == 1000


def test_the_directors_export_carries_the_think_times_json_and_pbn() -> None:
    """The tournament's export (the Director's): JSON's `think_times` per table, and PBN
    commentary after each board with each call's think and the tempo mark (Law 16B1)."""
    import json

    from shared.tournament.export import write_export
    from shared.tournament.session import Tournament

    slow = TEMPO_TIMES * 2000 + TEMPO_MIN_MS
    maps = _board(1, 0, [2000, 2000, 2000, 2000, 2000, slow, 2000, 2000])
    maps += _board(2, maps[-1]["ts"] + 2000, [2000] * 8)  # E's usual: 2 s
    made = Tournament("t", "t", "duplicate", ("t-1",),
                      {n: {"board": n, "deal": DEAL} for n in (1, 2)})
    doc = json.loads(write_export(made, {"t-1": maps}, "json"))
    thinks = doc["think_times"]["t-1"]["thinks"]
    assert [t["think_ms"] for t in thinks] == [2000] * 5 + [slow] + [2000] * 10
    assert [i for i, t in enumerate(thinks) if t["tempo"]] == [5]
    pbn = write_export(made, {"t-1": maps}, "pbn")
    assert f"E {slow // 1000}!" in pbn  # E's marked call in the board's commentary
    assert "break in tempo (Law 16B1" in pbn


def test_the_directors_pbn_of_a_table_carries_the_think_times_a_players_none() -> None:
    """A table's PBN (`GET …/history?format=pbn`): the Director's with each board's think
    times as commentary (one board's too), a player's without (Law 16B)."""
    from services.replay.history import build_history, record_of
    from shared.codec import encode

    maps = _board(1, 0, [2000] * 8) + _board(2, 30_000, [3000] * 8)
    records = [(i, encode(from_map(m))) for i, m in enumerate(maps)]
    document = build_history("t", records)
    director = record_of(document, "pbn", times=True)
    assert director.count("{Think times (s): calls") == 2
    only = record_of(document, "pbn", 2, times=True)
    assert "calls N 3, E 3" in only and "calls N 2" not in only
    assert "Think times" not in record_of(document, "pbn", players=True)

"""A round's unfinished boards scored by rule on the real stack (docs/scoring.md): a Mitchell's
round 1 left with a board finished, one in the play with 3 tricks left, one in the play with
12 left, one in the auction and two not started. `POST …/rounds/1/unfinished` gives the one
with 3 tricks left the double-dummy result from there (Law 12C1(b), checked against the
solver itself), the others artificial scores (Law 12C2(a)), the side that took most of the
time at fault; each a Director's score with its reason, in the results; sent again, nothing
twice. The think times are in the Director's history (Law 16B1), in no seat's."""

from __future__ import annotations

import time
from typing import Any

from services.robots.solver import solve
from shared import fold, from_map
from shared.calls import Strain
from shared.cards import Card
from shared.deal import parse_deal
from shared.notation.pbn import pbn_events
from shared.scoring import Contract, duplicate_score
from shared.seats import Seat
from shared.table.engine import TableState
from tests.helpers import DEALS, appended, wait_for, wait_for_auction
from tests.script import lowest_legal
from tests.stack import Stack

PAIRS = [{"name": f"pair {n}", "players": [f"P{n}a", f"P{n}b"]} for n in range(1, 7)]
T = "unfin"
TABLES = [f"{T}-t", f"{T}-u", f"{T}-v"]  # round 1: (1, 4) boards 1, 2; (2, 5) 3, 4; (3, 6) 5, 6
THINK_S = 4  # EW's think at the table in the auction: most of its round's time
SCORING_S = 90  # the client's patience with the scoring


def _post(http: Any, token: str, table: str, body: dict[str, Any]) -> None:
    appended(http, table, body, token)  # declarer's cards and dummy's: past 20 a second


def _deal(board: int) -> str:
    return next(e["deal"] for e in pbn_events(DEALS)
                if e["type"] == "board_started" and e["board"] == board)


def _one_notrump(http: Any, seats: dict[str, str], table: str, board: int, declarer: str,
                 cards: int) -> TableState:
    """`declarer` deals, bids 1NT, three passes; then `cards` cards, each the lowest legal
    one (dummy's from declarer's token, Law 45). The board as folded here."""
    order = "NESW"[("NESW".index(declarer)):] + "NESW"[:"NESW".index(declarer)]
    maps: list[dict[str, Any]] = [{"type": "board_started", "board": board,
                                   "deal": _deal(board), "dealer": declarer}]
    for seat, call in zip(order, ("1N", "P", "P", "P"), strict=True):
        _post(http, seats[seat], table, {"type": "call", "call": call})
        maps.append({"type": "call", "seat": seat, "call": call})
    state = fold(from_map(m) for m in maps)
    dummy = Seat.parse(declarer).partner.name
    for n in range(cards):
        if n == 1:  # dummy's cards are declarer's once the table's state shows the lead
            wait_for(lambda: (http.get(f"/api/tables/{table}/state").json()["board"]
                              or {}).get("opening_lead"), 30, "the opening lead folded")
        card = lowest_legal(state, _deal(board))
        body = {"type": "card_played", "card": card["card"]}
        if card["seat"] == dummy:
            body["seat"] = dummy
        _post(http, seats[declarer if card["seat"] == dummy else card["seat"]], table, body)
        state = fold([from_map(card)], state)
    return state


def _double_dummy_score(state: TableState, board: int) -> int:
    """NS's score of 1NT by E (board 2: NS vulnerable, EW not) with the tricks EW won and,
    from where the play stands, those the solver gives the side to play."""
    found = state.board
    assert found is not None and found.play is not None
    play = found.play
    trick = play.cards[4 * play.done:]
    gone = {c.index for c in play.cards[:4 * play.done]}
    held = {seat: [c for suit, ranks in zip("SHDC", hand.split("."), strict=True)
                   for rank in ranks if (c := Card(suit, rank)).index not in gone]
            for seat, hand in parse_deal(_deal(board)).items()}
    best = max(solve(held, Strain.NT, play.leader, trick).values())
    to_play = Seat((play.leader.index + len(trick)) % 4)
    ew_to_play = to_play.index % 2 == 1
    tricks = play.won_ew + (best if ew_to_play else play.remaining - best)
    return -duplicate_score(Contract(1, "NT"), False, tricks)


def test_a_rounds_unfinished_boards_are_scored_by_rule(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": TABLES, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "mitchell", "boards_per_round": 2, "rounds": 2}})
        assert made.status_code == 201, made.text
        seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
        assert http.post(f"/api/tournaments/{T}/rounds", json={"round": 1}).status_code == 202
        # table v, board 5 in the auction: N bids at once, E thinks, S passes at once
        wait_for_auction(http, TABLES[2], 5)
        _post(http, seats[TABLES[2]]["N"], TABLES[2], {"type": "call", "call": "1N"})
        time.sleep(THINK_S)  # E's think itself: the time the log then shows, not a wait
        _post(http, seats[TABLES[2]]["E"], TABLES[2], {"type": "call", "call": "P"})
        _post(http, seats[TABLES[2]]["S"], TABLES[2], {"type": "call", "call": "P"})
        # table t: board 1 finished (1NT by N, 13 tricks played); board 2, 1NT by E with
        # 10 tricks and a card played: 3 tricks left
        wait_for_auction(http, TABLES[0], 1)
        _one_notrump(http, seats[TABLES[0]], TABLES[0], 1, "N", 52)
        wait_for_auction(http, TABLES[0], 2)
        board_two = _one_notrump(http, seats[TABLES[0]], TABLES[0], 2, "E", 41)
        # table u: board 3 in the play with 12 tricks left; board 4 not started
        wait_for_auction(http, TABLES[1], 3)
        _one_notrump(http, seats[TABLES[1]], TABLES[1], 3, "S", 5)

        def folded() -> bool:  # every table's last event folded
            lines = http.get(f"/api/tournaments/{T}").json()["tables"]
            by = {line["table"]: line for line in lines}
            return by[TABLES[1]]["status"] == "play" and by[TABLES[0]]["board"] == 2
        wait_for(folded, 30, "the tables' events folded")

        # the Director's K out of range, a round not started: refused, naming the field
        bad = http.post(f"/api/tournaments/{T}/rounds/1/unfinished", json={"tricks_left": 14})
        assert bad.status_code == 400 and "tricks_left" in bad.text, bad.text
        bad = http.post(f"/api/tournaments/{T}/rounds/2/unfinished")
        assert bad.status_code == 400 and bad.json()["field"] == "round", bad.text
        with stack.client(seats[TABLES[0]]["N"]) as player:
            refused = player.post(f"/api/tournaments/{T}/rounds/1/unfinished")
            assert refused.status_code in (401, 403), refused.text

        # (the first work off the gateway's loop starts its worker process: on a loaded
        # machine, longer than the client's 10 s)
        scored = http.post(f"/api/tournaments/{T}/rounds/1/unfinished", timeout=SCORING_S)
        assert scored.status_code == 202, scored.text
        by_board = {s["board"]: s for s in scored.json()["scores"]}
        assert sorted(by_board) == [2, 3, 4, 5, 6]  # board 1 has its result
        assert by_board[2]["kind"] == "assigned"
        assert by_board[2]["score_ns"] == _double_dummy_score(board_two, 2)
        assert "3 tricks left" in by_board[2]["reason"]
        for board in (3, 4, 5, 6):
            assert by_board[board]["kind"] == "artificial", by_board[board]
        # table v: EW thought most of the round (E's think): EW average minus, NS plus
        for board in (5, 6):
            assert (by_board[board]["ns_fault"], by_board[board]["ew_fault"]) == (
                "not_at_fault", "directly_at_fault"), by_board[board]["reason"]
            assert "EW took" in by_board[board]["reason"]
        assert "board 5 in the auction" in by_board[5]["reason"]
        assert "board 6 not started" in by_board[6]["reason"]
        assert "12 tricks left (over 4)" in by_board[3]["reason"]

        again = http.post(f"/api/tournaments/{T}/rounds/1/unfinished", timeout=SCORING_S)
        assert again.status_code == 202 and again.json()["scores"] == [], again.text

        def adjusted() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{T}/results").json()
            return doc if len(doc["adjustments"]) == 5 else None
        doc = wait_for(adjusted, 30, "the scores by rule in the results")
        reasons = {a["board"]: a["reason"] for a in doc["adjustments"]}
        assert reasons == {b: s["reason"] for b, s in by_board.items()}

        # the think times: in the Director's history, in no seat's nor the public's
        history = http.get(f"/api/tables/{TABLES[2]}/history").json()
        thinks = history["think_times"]["thinks"]
        east = [t for t in thinks if t["seat"] == "E"]
        assert east and east[0]["think_ms"] >= THINK_S * 1000
        for token in (seats[TABLES[2]]["N"], seats[TABLES[2]]["E"]):
            with stack.client(token) as player:
                seen = player.get(f"/api/tables/{TABLES[2]}/history").json()
                assert "history" in seen and "think_times" not in seen

"""The play of the hand on the real stack: a whole board (auction, 52 cards, the result and its
score) sent by the seats' tokens, declarer playing dummy's cards (Law 45); bad cards refused
with nothing appended; dummy's hand shown once the lead is faced (Law 41D); a lead out of
turn and a claim agreed on a second table. The state in Redis equals a replay."""

from __future__ import annotations

from typing import Any

from shared import fold, from_map
from shared.table.board_end import table_view
from tests.helpers import DEAL, appended, new_table, play_script, run, state, state_at, wait_for
from tests.integration.kafka_reading import replay
from tests.script import log, lowest_legal
from tests.stack import Stack

AUCTION = "N 1S, E P, S 2S, W P, N 4S, E P, S P, W P"  # N declares 4S, S is dummy


def _post(stack: Stack, table: str, token: str, body: dict[str, Any]) -> Any:
    with stack.client(token) as http:
        return http.post(f"/api/tables/{table}/events", json=body)


def _accepted(stack: Stack, table: str, token: str, body: dict[str, Any]) -> int:
    """The event's offset once appended (a 429 sent again: `appended`)."""
    with stack.client(token) as http:
        return appended(http, table, body)


def _sender(seat: str, declarer: str = "N", dummy: str = "S") -> str:
    return declarer if seat == dummy else seat


def test_a_whole_board_is_played_through_the_live_pipeline(stack: Stack) -> None:
    """Law 45: each hand's cards come from its own seat's token, dummy's from declarer's
    (`seat` naming dummy); after the thirteenth trick the board's result and score (Law 77)
    are in the state, the same as a replay of the table's topic."""
    table = "play-whole"
    tokens = new_table(stack, table)
    seats = tokens["seats"]
    play_script(stack, table, tokens, AUCTION)
    local = fold(from_map(m) for m in [{"type": "board_started", "board": 1, "deal": DEAL},
                                       *log(AUCTION)[1:]])
    offset = -1
    for n in range(52):
        card = lowest_legal(local, DEAL)
        seat = card["seat"]
        body = {"type": "card_played", "card": card["card"], "client_seq": 100 + n}
        if seat == "S":
            body["seat"] = "S"  # declarer plays dummy's card
        offset = _accepted(stack, table, seats[_sender(seat)], body)
        local = fold([from_map(card)], local)
        if n == 0:  # the opening lead is faced: dummy's hand for all (Law 41D)
            found = wait_for(lambda o=offset: state_at(stack, table, o), 30, "the lead folded")
            assert found["board"]["opening_lead"] == {"seat": "E", "card": card["card"]}
            seen = state(stack, table, seats["W"])["board"]["deal"]
            assert seen == "N:- - AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
            refused = [
                _post(stack, table, seats["E"], {"type": "card_played", "card": card["card"]}),
                _post(stack, table, seats["W"], {"type": "card_played", "card": "SA"}),
                _post(stack, table, seats["S"], {"type": "card_played", "card": "D6"}),
                _post(stack, table, seats["W"], {"type": "card_played", "card": "D6",
                                                 "seat": "S"}),
            ]
            assert [(r.status_code, r.json()["field"]) for r in refused] == [
                (400, "card"), (400, "card"), (403, "seat"), (403, "seat")]
    found = wait_for(lambda: state_at(stack, table, offset), 30, "the 52nd card folded")
    board = found["board"]
    assert local.board is not None
    expected = local.board.to_dict()["result"]
    assert expected is not None and board["result"] == expected
    assert board["play"]["ended"] == "tricks" and len(board["play"]["tricks"]) == 13
    assert board["ignored"] == []  # nothing refused reached the log
    folded, last = run(replay(stack.bootstrap, table))
    assert last == offset and folded.board is not None and table_view(folded) == board


def test_a_lead_out_of_turn_and_a_claim_agreed_end_the_board(stack: Stack) -> None:
    """Law 54: W leads out of turn, declarer accepts (Law 53A); Laws 68–69: declarer claims,
    both defenders acquiesce: the play ends with declarer's tricks and the score."""
    table = "play-claim"
    tokens = new_table(stack, table)
    seats = tokens["seats"]
    play_script(stack, table, tokens, AUCTION)
    steps = [("W", {"type": "card_played", "card": "HA"}),
             ("N", {"type": "option", "accept": True}),
             ("N", {"type": "card_played", "card": "H2"}),
             ("E", {"type": "card_played", "card": "H6"}),
             ("N", {"type": "card_played", "card": "HT", "seat": "S"}),
             ("N", {"type": "claim", "tricks": 10, "statement": "trumps, then clubs"}),
             ("E", {"type": "claim_response", "accept": True}),
             ("W", {"type": "claim_response", "accept": True})]
    offset = -1
    for seat, body in steps:
        offset = _accepted(stack, table, seats[seat], body)
    board = wait_for(lambda: state_at(stack, table, offset), 30, "the claim folded")["board"]
    assert [a["kind"] for a in board["alerts"]] == ["opening_lead_out_of_turn"]
    assert board["play"]["tricks"][0]["winner"] == "W" and board["play"]["ended"] == "claim"
    assert board["result"] == {"declarer_tricks": 10, "score_ns": 420}


def test_law_54a_declarer_spreads_his_hand_and_his_partner_plays_it(stack: Stack) -> None:
    """Law 54A: W leads out of turn and N (declarer) spreads his hand (`hand_faced`): N is
    dummy and S declarer, so S's token plays N's cards (Law 45) and N's plays nothing nor
    states declarer's options (Law 51A's `penalty_card_named`: 403); the
    defenders see N's hand, never S's; S's claim agreed scores the same contract."""
    table = "play-spread"
    tokens = new_table(stack, table)
    seats = tokens["seats"]
    play_script(stack, table, tokens, AUCTION)
    for seat, body in [("W", {"type": "card_played", "card": "HA"}),
                       ("N", {"type": "hand_faced"})]:
        offset = _accepted(stack, table, seats[seat], body)
    found = wait_for(lambda: state_at(stack, table, offset), 30, "the spread folded")
    assert found["board"]["contract"]["declarer"] == "S"
    assert state(stack, table, seats["E"])["board"]["deal"] == \
        "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 - -"
    refused = _post(stack, table, seats["N"], {"type": "card_played", "card": "H2"})
    assert (refused.status_code, refused.json()["field"]) == (403, "seat")
    # Law 51A: declarer (now S) alone names a penalty card; N's token is refused
    refused = _post(stack, table, seats["N"], {"type": "penalty_card_named", "card": "C6"})
    assert (refused.status_code, refused.json()["field"]) == (403, "type")
    steps = [("S", {"type": "card_played", "card": "H2", "seat": "N"}),
             ("E", {"type": "card_played", "card": "H6"}),
             ("S", {"type": "card_played", "card": "HT"}),
             ("S", {"type": "claim", "tricks": 10, "statement": "trumps, then clubs"}),
             ("E", {"type": "claim_response", "accept": True}),
             ("W", {"type": "claim_response", "accept": True})]
    for seat, body in steps:
        offset = _accepted(stack, table, seats[seat], body)
    board = wait_for(lambda: state_at(stack, table, offset), 30, "the claim folded")["board"]
    assert (board["play"]["declarer"], board["play"]["faced"]) == ("S", ["N"])
    assert board["result"] == {"declarer_tricks": 10, "score_ns": 420}


def test_law_79a_a_seats_result_is_a_proposal_the_other_side_agrees_to(stack: Stack) -> None:
    """Law 79A: the tricks are agreed by all four players. Before the lead, W's token sends
    `result_recorded` 0: 202, but only as W's proposal (his claim of the 13 tricks, Law 68),
    the board not over; the Director's record (no seat) stands at once. Laws 41B, 45B:
    before the lead, declarer's card from dummy is refused the same, whatever it is. After a
    trick each, a result giving a side fewer tricks than it has won, or more than it can
    still win, is a 400 naming `tricks`; dummy proposes none (403, Law 43A); the operator's
    result names no seat (400). E's proposal of 10 ends the board once declarer agrees
    (Law 69A)."""
    table = "play-propose-early"
    tokens = new_table(stack, table)
    seats = tokens["seats"]
    offset = play_script(stack, table, tokens, AUCTION)
    wait_for(lambda: state_at(stack, table, offset), 30, "the auction folded")
    probes = [_post(stack, table, seats["N"], {"type": "card_played", "card": card,
                                               "seat": "S"}) for card in ("SA", "HA")]
    assert [(r.status_code, r.json()["field"]) for r in probes] == [(409, "seat")] * 2
    assert probes[0].json()["error"] == probes[1].json()["error"]
    offset = _accepted(stack, table, seats["W"], {"type": "result_recorded", "tricks": 0})
    board = wait_for(lambda: state_at(stack, table, offset), 30, "W's proposal")["board"]
    assert board["result"] is None and board["play"]["ended"] is None
    assert (board["play"]["claim"]["seat"], board["play"]["claim"]["tricks"]) == ("W", 13)
    offset = _accepted(stack, table, stack.director, {"type": "result_recorded", "tricks": 9})
    board = wait_for(lambda: state_at(stack, table, offset), 30, "the record")["board"]
    assert board["result"] == {"declarer_tricks": 9, "score_ns": -50}
    assert board["play"]["ended"] == "recorded"

    table = "play-propose"
    tokens = new_table(stack, table)
    seats = tokens["seats"]
    play_script(stack, table, tokens, AUCTION)
    tricks = [("E", {"type": "card_played", "card": "DA"}),  # E wins it
              ("N", {"type": "card_played", "card": "D6", "seat": "S"}),
              ("W", {"type": "card_played", "card": "D3"}),
              ("N", {"type": "card_played", "card": "D2"}),
              ("E", {"type": "card_played", "card": "C2"}),  # N wins it
              ("N", {"type": "card_played", "card": "C5", "seat": "S"}),
              ("W", {"type": "card_played", "card": "C6"}),
              ("N", {"type": "card_played", "card": "CA"})]
    for seat, body in tricks:
        offset = _accepted(stack, table, seats[seat], body)
    board = wait_for(lambda: state_at(stack, table, offset), 30, "two tricks")["board"]
    assert board["play"]["won"] == {"NS": 1, "EW": 1}
    with stack.client(stack.director) as http:
        operator = http.post(f"/api/tables/{table}/operator").json()["token"]
    refused = [_post(stack, table, seats["E"], {"type": "result_recorded", "tricks": 0}),
               _post(stack, table, seats["N"], {"type": "result_recorded", "tricks": 13}),
               _post(stack, table, operator, {"type": "result_recorded", "tricks": 0}),
               _post(stack, table, stack.director, {"type": "result_recorded", "tricks": 13}),
               _post(stack, table, seats["S"], {"type": "result_recorded", "tricks": 10}),
               _post(stack, table, operator, {"type": "result_recorded", "tricks": 10,
                                              "seat": "N"})]
    assert [(r.status_code, r.json()["field"]) for r in refused] == [
        (400, "tricks")] * 4 + [(403, "type"), (400, "seat")]
    assert "1 to 12" in refused[0].json()["error"]
    _accepted(stack, table, seats["E"], {"type": "result_recorded", "tricks": 10})
    offset = _accepted(stack, table, seats["N"], {"type": "claim_response", "accept": True})
    board = wait_for(lambda: state_at(stack, table, offset), 30, "the result agreed")["board"]
    assert board["result"] == {"declarer_tricks": 10, "score_ns": 420}
    assert board["play"]["ended"] == "claim"
    with stack.client(stack.director) as http:
        history = http.get(f"/api/tables/{table}/history").json()["history"]
    recorded = [(e["event"]["seat"], e["event"]["tricks"]) for e in history
                if e["event"]["type"] == "result_recorded"]
    assert recorded == [("E", 10)]  # nothing of the refused ones appended


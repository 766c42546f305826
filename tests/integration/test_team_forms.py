"""A board-a-match team match played through on the real stack (docs/scoring.md): two teams,
four boards in two rooms, each board 1, ½ or 0 to each team on the rooms' net score (the ACBL
Handbook, "Types of team events"; the aggregate, Law 78C, as the unit tests check it), worked
here from the raw table scores; another movement than a round robin of teams refused."""

from __future__ import annotations

from typing import Any

from tests.helpers import DEALS, wait_for
from tests.integration.test_tournament_results import SEATS, TEAMS, _deals, _one_notrump, _play
from tests.stack import Stack


def play_match(http: Any, t: str, team_scoring: str) -> tuple[dict[tuple[str, int], int],
                                                             dict[str, Any]]:
    """The match `t` (rooms `t`-open, `t`-closed) created with `team_scoring` and played:
    each room's NS score a board, and the results once both rooms have every board."""
    deals = _deals()
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": [f"{t}-open", f"{t}-closed"], "deals": DEALS,
        "entrants": TEAMS,
        "movement": {"kind": "teams", "boards_per_round": 4, "team_scoring": team_scoring}})
    assert made.status_code == 201, made.text
    seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
    assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202
    scores: dict[tuple[str, int], int] = {}
    for room, shift in (("open", 0), ("closed", 1)):
        table = f"{t}-{room}"
        for board in (1, 2, 3, 4):
            def on(table: str = table, board: int = board) -> bool:
                state = http.get(f"/api/tables/{table}/state").json()
                return bool(state.get("board") and state["board"]["board"] == board
                            and state["board"]["status"] == "auction")
            wait_for(on, 30, f"board {board} in the {table} room")
            tricks = 6 + (board * (shift + 1)) % 4  # board 4 tied, the others decided
            _play(http, seats[table], table, board, deals[board], tricks)
            scores[room, board] = _one_notrump(SEATS[(board - 1) % 4], board, tricks)

    def complete() -> dict[str, Any] | None:
        doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
        return doc if doc["complete"] == [1, 2, 3, 4] else None
    return scores, wait_for(complete, 30, "both rooms' results")


def bam_by_hand(scores: dict[tuple[str, int], int]) -> dict[int, float]:
    """The home team's point on each board: its NS score in the open room against the
    away team's NS score in the closed room, the better wins 1, equal ½ each."""
    out = {}
    for board in (1, 2, 3, 4):
        net = scores["open", board] - scores["closed", board]
        out[board] = 1.0 if net > 0 else 0.0 if net < 0 else 0.5
    return out


def test_a_board_a_match_team_match_is_played_and_scored(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": "bam-bad", "tables": 2, "deals": DEALS, "entrants": TEAMS,
            "movement": {"kind": "swiss", "boards_per_round": 4, "rounds": 1,
                         "team_scoring": "board_a_match"}})
        assert bad.status_code == 400, bad.text
        assert bad.json()["field"] == "movement.team_scoring", bad.text
        scores, doc = play_match(http, "bam", "board_a_match")
    by_hand = bam_by_hand(scores)
    assert 0.5 in by_hand.values() and set(by_hand.values()) - {0.5}  # a tie and a decision
    home = sum(by_hand.values())
    assert doc["scoring"] == "board_a_match" and doc["teams"] is True
    assert doc["movement"]["team_scoring"] == "board_a_match"
    [match] = doc["matches"]
    assert {b["board"]: b["home_points"] for b in match["boards"]} == by_hand
    assert {b["board"]: b["away_points"] for b in match["boards"]} == {
        b: 1 - p for b, p in by_hand.items()}
    assert (match["home_points"], match["away_points"]) == (home, 4 - home)
    assert {r["entrant"]: r["points"] for r in doc["rankings"]} == {1: home, 2: 4 - home}

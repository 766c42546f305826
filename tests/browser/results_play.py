"""A Mitchell played on the real stack for the results pages' tests: six pairs at three tables,
two rounds of two boards (tests/integration/test_tournament_results.py plays the same), and a
team match of four boards; each board bid to 1NT by its dealer, led, and its tricks recorded
(Law 79A)."""

from __future__ import annotations

from typing import Any

from tests.helpers import DEALS, wait_for_auction
from tests.integration.test_tournament_results import PAIRS, SEATED, TEAMS, _deals, _play


def create_mitchell(http: Any, t: str, deals: str = DEALS) -> dict[str, dict[str, str]]:
    """The tournament `t` created (with `deals`: a PBN file of at least its 6 boards); its
    tables' seat tokens."""
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": [f"{t}-{x}" for x in "tuv"], "deals": deals,
        "entrants": PAIRS, "movement": {"kind": "mitchell", "boards_per_round": 2,
                                        "rounds": 2}})
    assert made.status_code == 201, made.text
    return {line["table"]: line["seats"] for line in made.json()["tables"]}


def play_round(http: Any, t: str, seats: dict[str, dict[str, str]], rnd: int) -> None:
    """Round `rnd` started and every board of it played at its table."""
    started = http.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
    assert started.status_code == 202, started.text
    deals = _deals()
    for name, (ns, _, boards) in SEATED[rnd].items():
        table = f"{t}-{name[-1]}"
        for k, board in enumerate(boards):
            wait_for_auction(http, table, board)
            _play(http, seats[table], table, board, deals[board], 6 + (board + ns + k) % 3)


def play_match(http: Any, t: str) -> None:
    """A team match (tests/integration/test_tournament_results.py's Lions and Tigers): two
    rooms, four boards each, every board bid to 1NT by its dealer and led."""
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": [f"{t}-open", f"{t}-closed"], "deals": DEALS,
        "entrants": TEAMS, "movement": {"kind": "teams", "boards_per_round": 4}})
    assert made.status_code == 201, made.text
    seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
    assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202
    deals = _deals()
    for table, shift in ((f"{t}-open", 0), (f"{t}-closed", 1)):
        for board in (1, 2, 3, 4):
            wait_for_auction(http, table, board)
            _play(http, seats[table], table, board, deals[board], 6 + (board + shift) % 4)

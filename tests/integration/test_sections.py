"""Sections with a top across the field, played through on the real stack (docs/scoring.md):
two Mitchells, A (pairs 1–6 at tables -1 … -3) and B (pairs 7–12 at tables -4 … -6), three
rounds of two boards on the same boards; each board matchpointed over both sections' results
(Law 78A by hand in `pairs_by_hand`, from the raw table scores), the pairs ranked over the
field in their direction and within their section."""

from __future__ import annotations

from typing import Any

from tests.helpers import DEALS, wait_for, wait_for_auction
from tests.integration.pairs_by_hand import by_hand, ranks
from tests.integration.test_tournament_results import SEATS, _deals, _one_notrump, _play
from tests.stack import Stack

T = "sect"
PAIRS = [{"name": f"pair {n}", "players": [f"Q{n}a", f"Q{n}b"]} for n in range(1, 13)]


def seated(rnd: int) -> dict[int, tuple[int, int, tuple[int, int]]]:
    """A Mitchell of three tables written out (NS pair t stays at table t, the EW pairs move
    up a table, the boards down: at table t in round r the EW pair 4 + (t − r) mod 3 and board
    group (t − 2 + r) mod 3), section B the same six pairs and three tables on: table →
    (NS, EW, boards)."""
    out = {}
    for section in (0, 1):
        for t in (1, 2, 3):
            group = (t - 2 + rnd) % 3
            out[t + 3 * section] = (t + 6 * section, 4 + (t - rnd) % 3 + 6 * section,
                                    (2 * group + 1, 2 * group + 2))
    return out


def play_sections(http: Any, t: str) -> tuple[dict[tuple[int, int, int], int], dict[str, Any]]:
    """The two-section Mitchell `t` created and played: each place's NS score, and the
    results once every board is in."""
    deals = _deals()
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": 6, "deals": DEALS, "entrants": PAIRS,
        "movement": {"kind": "mitchell", "boards_per_round": 2, "sections": 2}})
    assert made.status_code == 201, made.text
    seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
    played: dict[tuple[int, int, int], int] = {}
    for rnd in (1, 2, 3):
        started = http.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
        assert started.status_code == 202, started.text
        for n, (ns, ew, boards) in seated(rnd).items():
            table = f"{t}-{n}"
            for k, board in enumerate(boards):
                wait_for_auction(http, table, board)
                if k == 0:  # the sections seat their pairs as written out
                    state = http.get(f"/api/tables/{table}/state").json()
                    assert state["board"]["players"] == {
                        "N": f"Q{ns}a", "S": f"Q{ns}b", "E": f"Q{ew}a", "W": f"Q{ew}b"}
                tricks = 5 + (board * ns + 2 * ew) % 5
                _play(http, seats[table], table, board, deals[board], tricks)
                played[board, ns, ew] = _one_notrump(SEATS[(board - 1) % 4], board, tricks)

    def complete() -> dict[str, Any] | None:
        doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
        return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
    return played, wait_for(complete, 30, "every board's results")


def test_two_sections_are_scored_across_the_field_and_ranked_in_each(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": f"{T}-bad", "tables": 6, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "teams", "boards_per_round": 2, "sections": 2}})
        assert bad.status_code == 400 and bad.json()["field"] == "movement.sections", bad.text
        played, doc = play_sections(http, T)
    assert {t["board"]: t["top"] for t in doc["travellers"]} == {b: 10 for b in range(1, 7)}
    percent = by_hand(played, {}, [])
    assert {r["entrant"]: r["percent"] for r in doc["rankings"]} == {
        p: round(v, 4) for p, v in percent.items()}
    direction = {p: "NS" if (p - 1) % 6 < 3 else "EW" for p in range(1, 13)}
    section = {p: "A" if p <= 6 else "B" for p in range(1, 13)}
    for field in ("NS", "EW"):
        mine = {p: v for p, v in percent.items() if direction[p] == field}
        overall = ranks(mine)
        for name in ("A", "B"):
            within = ranks({p: v for p, v in mine.items() if section[p] == name})
            for line in doc["rankings"]:
                if line["entrant"] in within:
                    assert (line["direction"], line["section"], line["section_rank"]) == (
                        field, name, within[line["entrant"]]), line
                    if overall[line["entrant"]] > 1:  # a tie for first may be split
                        assert line["rank"] == overall[line["entrant"]], line
    assert [s["tables"] for s in doc["sections"]] == [[f"{T}-1", f"{T}-2", f"{T}-3"],
                                                      [f"{T}-4", f"{T}-5", f"{T}-6"]]

"""The public's rankings on the real stack count the boards complete everywhere only, the
Director's every result as it comes (scoring.md, "What the public sees"): the tournament's
regulation (Law 80B) against Law 16C1, so that comparing two snapshots of the public results
never tells how a board went at another table before one plays it. A Mitchell of 3 tables and
3 rounds plays each board three times; its running ranking is Neuberg's (Law 78A, the EBU's
(m + 1) × N / n − 1 with N = 3, the times the movement plays each board)."""

from __future__ import annotations

from typing import Any

from tests.helpers import wait_for, wait_for_auction
from tests.integration.test_tournament_results import (
    DEALS,
    PAIRS,
    SEATS,
    _deals,
    _one_notrump,
    _play,
)
from tests.stack import Stack

T = "pubrank"
# NS pairs stay, EW pairs move up a table, boards down one (shared.scores.movements)
SEATED = {1: {"pubrank-t": (1, 4, (1, 2)), "pubrank-u": (2, 5, (3, 4)),
              "pubrank-v": (3, 6, (5, 6))},
          2: {"pubrank-t": (1, 6, (3, 4)), "pubrank-u": (2, 4, (5, 6)),
              "pubrank-v": (3, 5, (1, 2))},
          3: {"pubrank-t": (1, 5, (5, 6)), "pubrank-u": (2, 6, (1, 2)),
              "pubrank-v": (3, 4, (3, 4))}}


def _neuberg(m: float, n: int) -> float:
    return (m + 1) * 3 / n - 1


def test_public_rankings_wait_for_complete_boards_the_directors_do_not(stack: Stack) -> None:
    deals = _deals()
    scores: dict[int, dict[int, int]] = {}  # board → NS pair → NS score
    with stack.client(stack.director) as director, stack.client() as public:
        made = director.post("/api/tournaments", json={
            "tournament": T, "tables": list(SEATED[1]), "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "mitchell", "boards_per_round": 2, "rounds": 3}})
        assert made.status_code == 201, made.text
        seats = {line["table"]: line["seats"] for line in made.json()["tables"]}

        def play(rnd: int, table: str, only: tuple[int, ...] | None = None) -> None:
            ns, _, boards = SEATED[rnd][table]
            for k, board in enumerate(boards):
                if only is not None and board not in only:
                    continue
                wait_for_auction(director, table, board)
                tricks = 6 + (board + ns + k) % 3
                _play(director, seats[table], table, board, deals[board], tricks)
                scores.setdefault(board, {})[ns] = _one_notrump(SEATS[(board - 1) % 4],
                                                                board, tricks)

        def results(http: Any, lines: int) -> dict[str, Any]:
            """The director's results once they hold `lines` results in all."""
            def ready() -> dict[str, Any] | None:
                doc: dict[str, Any] = http.get(f"/api/tournaments/{T}/results").json()
                return doc if sum(len(t["lines"]) for t in doc["travellers"]) == lines \
                    else None
            found: dict[str, Any] = wait_for(ready, 30, f"{lines} results")
            return found

        assert director.post(f"/api/tournaments/{T}/rounds", json={"round": 1}).status_code \
            == 202
        for table in SEATED[1]:
            play(1, table)
        live = results(director, 6)
        before = public.get(f"/api/tournaments/{T}/results").json()
        assert before["complete"] == [] and before["rankings"] == []
        assert before["travellers"] == [] and before["counted"] == "complete"
        # each board once of three: (0 + 1) × 3 / 1 − 1 = 2 of a top of 4, 50 % to every pair
        assert {(r["points"], r["top"], r["percent"]) for r in live["rankings"]} == {
            (2 * _neuberg(0, 1), 8.0, 50.0)} and len(live["rankings"]) == 6
        # the overview's standings (the Director's console) are the Director's: live
        fields = director.get(f"/api/tournaments/{T}").json()["standings"]["fields"]
        assert {(f["direction"], x["entrant"], x["rank"], x["percent"]) for f in fields
                for x in f["top"]} == {(r["direction"], r["entrant"], 1, 50.0)
                                       for r in live["rankings"]}

        # round 2: board 1 at pubrank-v, its second result of three
        assert director.post(f"/api/tournaments/{T}/rounds", json={"round": 2}).status_code \
            == 202
        play(2, "pubrank-v", only=(1,))
        live = results(director, 7)
        pair1 = next(r for r in live["rankings"] if r["entrant"] == 1)
        won = 2 if scores[1][1] > scores[1][3] else 1 if scores[1][1] == scores[1][3] else 0
        assert pair1["points"] == _neuberg(won, 2) + _neuberg(0, 1)
        after = public.get(f"/api/tournaments/{T}/results").json()
        for key in ("rankings", "travellers", "scorecards", "complete"):
            assert after[key] == before[key], key

        # the rest of round 2, then round 3: every board complete, the same for all
        play(2, "pubrank-v", only=(2,))
        for table in ("pubrank-t", "pubrank-u"):
            play(2, table)
        results(director, 12)
        assert public.get(f"/api/tournaments/{T}/results").json()["rankings"] == []
        assert director.post(f"/api/tournaments/{T}/rounds", json={"round": 3}).status_code \
            == 202
        for table in SEATED[3]:
            play(3, table)
        final = results(director, 18)

        def all_complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = public.get(f"/api/tournaments/{T}/results").json()
            return doc if len(doc["complete"]) == 6 else None
        shown = wait_for(all_complete, 30, "every board complete for the public")
        assert shown["rankings"] == final["rankings"] and len(final["rankings"]) == 6
        # Law 78A by hand: three results a board, no Neuberg
        for ranking in final["rankings"]:
            pair = ranking["entrant"]
            points = 0.0
            for board, by_ns in scores.items():
                for ns, score in by_ns.items():
                    mp = sum(2 if score > o else 1 if score == o else 0
                             for n, o in by_ns.items() if n != ns)
                    ew = next(e for r in SEATED.values() for n, e, b in r.values()
                              if n == ns and board in b)
                    points += mp if pair == ns else 4 - mp if pair == ew else 0
            assert ranking["points"] == round(points, 4) and ranking["percent"] == round(
                100 * points / 24, 4)

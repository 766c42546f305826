"""Hand records on the real stack (docs/scoring.md): a Mitchell of six pairs at three tables,
two rounds of two boards (tests/integration/test_tournament_results.py's), each board's deal
solved double dummy from the tournament's creation and kept in Redis. The boards are the
RealBridge 2021 Online Qualifier's deals (tests/data/deals-32.pbn's first ten boards: that
file's ten deals as dealt; the other 22 turn them, and solving them too took 90 s of the
suite's), so each table must be RealBridge's published
`[OptimumResultTable]`; each par must score its contract under Law 77 at the board's
vulnerability, its contract making the tricks the table gives.

Fair play (Law 16C1, the tournament's regulation under Law 80B): the public sees a board's
deal, table and par only once every table of the movement has played it; after round 1 each
board has still to be played at another table, so none is shown; the Director sees all."""

from __future__ import annotations

from typing import Any

from shared.notation.double_dummy import (
    DoubleDummy,
    ParContract,
    par_score,
    read_optimum_result_table,
)
from shared.notation.pbn import pbn_events
from shared.seats import Vulnerability
from tests.browser.results_play import create_mitchell, play_round
from tests.helpers import DEALS, wait_for
from tests.stack import Stack
from tests.unit.test_hand_records import published

TEN_DEALS = "\n\n".join(DEALS.split("\n\n")[:11])  # the header, then boards 1 to 10


def test_hand_records_are_solved_kept_and_shown_when_every_table_has_played(
        stack: Stack) -> None:
    t = "hands"
    tables = {deal: given["lines"] for deal, given in published().items()}
    with stack.client(stack.director) as http, stack.client() as public:
        seats = create_mitchell(http, t, TEN_DEALS)

        def solved() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/hand-records").json()
            return doc if doc["ready"] == len(doc["boards"]) else None
        doc = wait_for(solved, 120, "every board's hand record (the Director's)")
        assert [b["board"] for b in doc["boards"]] == list(range(1, 11))  # the file's deals
        for record in doc["boards"]:
            assert DoubleDummy.from_map(record["double_dummy"]) == \
                read_optimum_result_table(tables[record["deal"]]), record["board"]
        for record in doc["boards"]:
            vulnerable = Vulnerability.parse(record["vulnerable"])
            table = DoubleDummy.from_map(record["double_dummy"])
            for given in record["par"]["contracts"]:
                contract = ParContract.from_map(given)
                assert par_score(contract, vulnerable) == record["par"]["score_ns"]
                assert all(table.of(seat, contract.strain) == 6 + contract.level
                           + contract.result for seat in contract.declarers)

        before = public.get(f"/api/tournaments/{t}/hand-records")
        assert before.status_code == 200, before.text
        assert before.json()["boards"] == [] and before.json()["withheld"] == 10
        play_round(http, t, seats, 1)
        # round 1 is over everywhere, and yet each of its boards moves on to another table
        wait_for(lambda: http.get(f"/api/tournaments/{t}/results").json()["rounds"] == 1, 10,
                 "round 1 recorded")
        assert public.get(f"/api/tournaments/{t}/hand-records").json()["boards"] == []
        pbn = public.get(f"/api/tournaments/{t}/hand-records", params={"format": "pbn"})
        assert pbn.status_code == 200 and "[Deal" not in pbn.text

        play_round(http, t, seats, 2)

        def shown() -> dict[str, Any] | None:
            doc: dict[str, Any] = public.get(f"/api/tournaments/{t}/hand-records").json()
            return doc if len(doc["boards"]) == 6 else None
        seen = wait_for(shown, 30, "the six boards played everywhere, shown to the public")
        assert [b["board"] for b in seen["boards"]] == [1, 2, 3, 4, 5, 6]
        assert seen["boards"] == doc["boards"][:6] and seen["withheld"] == 4
        text = public.get(f"/api/tournaments/{t}/hand-records", params={"format": "pbn"}).text
        games = text.split("\n\n")
        assert [e["board"] for e in pbn_events(text) if e["type"] == "board_started"] == [
            1, 2, 3, 4, 5, 6]
        rows = games[0].split("[OptimumResultTable")[1].splitlines()[1:]
        assert read_optimum_result_table(rows) == read_optimum_result_table(
            tables[seen["boards"][0]["deal"]])
        export = http.get(f"/api/tournaments/{t}/export", params={"format": "pbn"}).text
        played = [g for g in export.split("\n\n") if '[Board "1"]' in g]
        assert len(played) == 2  # board 1 at two tables, each game with its tags
        assert all(f'[OptimumScore "NS {doc["boards"][0]["par"]["score_ns"]}"]' in g
                   and "[ParContract" in g and "[OptimumResultTable" in g for g in played)

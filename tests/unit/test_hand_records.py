"""Hand records (docs/scoring.md): each board's double-dummy table and par, solved with the
robots' solver (endplay's DDS) and written as PBN 2.1 writes them, checked against a published
source: RealBridge's PBN of the 2021 Online Qualifier (tests/data/realbridge-2021-online-
qualifier.pbn), whose every game carries its deal's `[OptimumResultTable]` and
`[OptimumScore]`; and par contracts worked by hand under Law 77's scoring table. What the
public sees of them follows the results' rule (Laws 80B and 16C1): a board's deal and table
only once every table that plays it has finished it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from services.common.errors import Unavailable
from services.gateway.http.models import TournamentCreate
from services.gateway.tournaments import hand_records as solving, service as tournaments
from services.robots import hand_records as solver
from services.robots.solver import double_dummy, par_of
from shared.calls import Strain
from shared.notation.double_dummy import (
    DoubleDummy,
    DoubleDummyError,
    Par,
    ParContract,
    checked_par,
    optimum_result_table,
    par_tags,
    read_optimum_result_table,
)
from shared.notation.pbn import pbn_events
from shared.seats import Seat, Vulnerability
from shared.tournament.export import write_export
from shared.tournament.hand_records import PENDING, READY, document, pbn_document
from shared.tournament.session import Tournament, deals_of
from tests.fakes import FlakyStore, director_gateway
from tests.helpers import DEALS

PUBLISHED = Path(__file__).parents[1] / "data" / "realbridge-2021-online-qualifier.pbn"


def published() -> dict[str, dict[str, Any]]:
    """Each deal of the RealBridge file (once): its dealer, vulnerability, the table's lines
    as the file writes them, and the `OptimumScore` it gives (North–South's)."""
    out: dict[str, dict[str, Any]] = {}
    for game in re.split(r"\n\s*\n", PUBLISHED.read_text()):
        deal = re.search(r'\[Deal "([^"]+)"\]', game)
        if deal is None or deal.group(1) in out:
            continue
        table = re.search(r"\[OptimumResultTable [^\n]*\n((?:[NESW] [^\n]*\n)+)", game)
        score = re.search(r'\[OptimumScore "NS ([+-]?\d+)"\]', game)
        assert table is not None and score is not None, game[:80]
        out[deal.group(1)] = {
            "board": int(re.findall(r'\[Board "(\d+)"\]', game)[0]),
            "dealer": Seat.parse(re.findall(r'\[Dealer "(\w)"\]', game)[0]),
            "vulnerable": Vulnerability.parse(re.findall(r'\[Vulnerable "(\w+)"\]', game)[0]),
            "lines": table.group(1).splitlines(), "score": int(score.group(1))}
    return out


def test_the_published_source_holds_ten_deals() -> None:
    assert len(published()) == 10


@pytest.mark.parametrize("index", [0, 1, 7, 9])
def test_the_solvers_table_and_par_are_the_published_ones(index: int) -> None:
    """DDS's table of a deal equals RealBridge's `[OptimumResultTable]`, line for line as PBN
    2.1 writes it (section 5.7), and its par at the board's vulnerability and dealer scores
    RealBridge's `[OptimumScore]` (Law 77's table, checked by `checked_par`)."""
    deal, given = list(published().items())[index]
    table, solved = double_dummy(deal)
    assert optimum_result_table(table)[1:] == given["lines"]
    assert table == read_optimum_result_table(given["lines"])
    par = par_of(solved, given["vulnerable"], given["dealer"])
    assert par.score_ns == given["score"]
    for contract in par.contracts:  # the par contract makes its tricks double dummy
        for seat in contract.declarers:
            assert table.of(seat, contract.strain) == 6 + contract.level + contract.result


def test_the_table_is_written_as_pbn_2_1_writes_it() -> None:
    """Section 5.7's form: the tag naming the columns (Denomination and Result two wide,
    right-aligned), then declarers N, S, E, W and strains NT, S, H, D, C."""
    lines = next(iter(published().values()))["lines"]
    table = read_optimum_result_table(lines)
    written = optimum_result_table(table)
    assert written[0] == '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]'
    assert [line[:4] for line in written[1:6]] == ["N NT", "N  S", "N  H", "N  D", "N  C"]
    assert [line[0] for line in written[1::5]] == ["N", "S", "E", "W"]
    assert written[1:] == lines


def test_a_table_with_a_count_off_thirteen_is_refused() -> None:
    tricks = {(s, t): 7 for s in Seat for t in Strain}
    DoubleDummy(tricks)
    with pytest.raises(DoubleDummyError, match="NNT"):
        DoubleDummy({**tricks, (Seat.N, Strain.NT): 14})
    with pytest.raises(DoubleDummyError):
        DoubleDummy({k: v for k, v in tricks.items() if k != (Seat.W, Strain.C)})


def test_par_tags_by_hand_under_law_77() -> None:
    """Law 77 by hand: 4♠ by North–South making ten tricks, not vulnerable: 120 + 300 (a
    game) = 420. A sacrifice: North–South vulnerable bid 4♥ (620); East–West, not
    vulnerable, go two down in 5♦ doubled: 100 + 200 = 300 to North–South, the par. Passed
    out: 0."""
    game = Par(420, (ParContract(4, Strain.S, False, (Seat.N, Seat.S)),))
    assert checked_par(game, Vulnerability.NONE) is game
    assert par_tags(game) == ['[OptimumScore "NS 420"]', '[ParContract "NS 4S"]']
    sacrifice = Par(300, (ParContract(5, Strain.D, True, (Seat.E, Seat.W), -2),))
    assert checked_par(sacrifice, Vulnerability.NS) is sacrifice
    assert par_tags(sacrifice) == ['[OptimumScore "NS 300"]', '[ParContract "EW 5DX"]']
    one_seat = Par(-600, (ParContract(3, Strain.NT, False, (Seat.E,)),))
    assert checked_par(one_seat, Vulnerability.EW) is one_seat  # 100 + 500 vulnerable game
    assert par_tags(one_seat)[1] == '[ParContract "E 3NT"]'
    assert par_tags(Par(0, ())) == ['[OptimumScore "NS 0"]', '[ParContract "Pass"]']
    with pytest.raises(DoubleDummyError, match="Law 77"):  # the other side's sign
        checked_par(Par(-420, game.contracts), Vulnerability.NONE)
    with pytest.raises(DoubleDummyError, match="Law 77"):  # the game premium vulnerable
        checked_par(game, Vulnerability.NS)


def _made(deals: str = DEALS) -> Tournament:
    return Tournament("spring", "Spring Pairs", "duplicate", ("spring-1",), deals_of(deals),
                      site="Club", date="2026-11-29")


SOLVE = solver.hand_record  # the real one, whatever a test puts in its place


def _record(made: Tournament, board: int) -> dict[str, Any]:
    return SOLVE(board, made.deals[board])


def test_the_document_shows_the_boards_given_and_says_which_wait() -> None:
    """Law 16C1: a board not shown (withheld from the public) is neither listed nor
    counted; a board shown not yet solved is `pending`, with no deal."""
    made = _made()
    records = {1: _record(made, 1)}
    doc = document(made, records, shown=[1, 2])
    assert [(b["board"], b["status"]) for b in doc["boards"]] == [(1, READY), (2, PENDING)]
    assert doc["withheld"] == len(made.deals) - 2 and doc["ready"] == 1
    assert "deal" not in doc["boards"][1] and "double_dummy" not in doc["boards"][1]
    first = doc["boards"][0]
    assert first["deal"] == made.deals[1]["deal"]
    assert (first["dealer"], first["vulnerable"]) == ("N", "None")  # Law 2: board 1
    assert document(made, records, shown=[])["boards"] == []


def test_the_pbn_file_reads_back_with_its_tags() -> None:
    """The hand-records PBN: a game per ready board, each read back by the PBN reader with
    its deal, dealer and vulnerability, its table read back from its lines."""
    made = _made()
    records = {b: _record(made, b) for b in (2, 3)}
    text = pbn_document(made, document(made, records, shown=[1, 2, 3]))
    assert text.startswith("% PBN 2.1\n% EXPORT\n")
    started = [e for e in pbn_events(text) if e["type"] == "board_started"]
    assert [(e["board"], e["deal"]) for e in started] == [
        (2, made.deals[2]["deal"]), (3, made.deals[3]["deal"])]
    assert [str(e["dealer"]) for e in started] == ["E", "S"]  # Law 2
    game = text.split("\n\n")[0]
    rows = game.split("[OptimumResultTable")[1].splitlines()[1:]
    assert read_optimum_result_table(rows).to_map() == records[2]["double_dummy"]
    assert f'[OptimumScore "NS {records[2]["par"]["score_ns"]}"]' in game


def test_the_directors_export_carries_each_boards_tags_on_its_games() -> None:
    made = _made()
    logs = {f"spring-{b}": [{"type": "round_started", "round": 1, "ruleset": "duplicate",
                             "boards": [made.deals[b]], "ts": 1}] for b in (1, 2)}
    records = {1: _record(made, 1)}
    games = write_export(made, logs, "pbn", records).split("\n\n")
    assert '[Board "1"]' in games[0] and '[Board "2"]' in games[1]
    assert "[OptimumResultTable" in games[0] and "[ParContract" in games[0]
    assert games[0].endswith(optimum_result_table(
        DoubleDummy.from_map(records[1]["double_dummy"]))[-1])  # a section: last
    assert "[OptimumResultTable" not in games[1]  # not solved: no tags
    assert "[OptimumResultTable" not in write_export(made, logs, "pbn")


async def test_solving_keeps_each_board_once_and_a_failed_deal_is_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Off the request path: a read that finds boards missing sets them solving in the
    background, each kept as solved; read again, nothing is solved twice. A board the solver
    fails on (here board 3, made to fail) is `failed`, not solved again at every read."""
    gw = director_gateway(tmp_path)
    made = _made("\n\n".join(DEALS.split("\n\n")[:4]))  # boards 1 to 3
    assert sorted(made.deals) == [1, 2, 3]
    calls: list[int] = []

    def solve(board: int, fields: dict[str, Any]) -> dict[str, Any]:
        calls.append(board)
        if board == 3:
            raise RuntimeError("DDS error")
        return SOLVE(board, fields)
    monkeypatch.setattr(solver, "hand_record", solve)
    kept, failed = await solving.records_of(gw, made)
    assert kept == {} and failed == frozenset()
    await solving.until_solved(gw, "spring")
    kept, failed = await solving.records_of(gw, made)
    assert sorted(kept) == [1, 2] and failed == {3}
    assert kept[1] == _record(made, 1)
    await solving.until_solved(gw, "spring")
    assert calls == [1, 2, 3]  # each once
    doc = document(made, kept, made.deals, failed)
    assert [b["status"] for b in doc["boards"]] == [READY, READY, "failed"]


async def test_the_export_is_written_while_redis_is_away_and_the_records_say_503(
        tmp_path: Path) -> None:
    """The Director's export reads Kafka: with Redis away it is written all the same, without
    the hand records' tags; the hand records themselves answer a retryable 503."""
    store = FlakyStore()
    gw = director_gateway(tmp_path, store=store)
    made, _ = await tournaments.create(gw, TournamentCreate(
        tournament="spring", tables=1, deals="\n\n".join(DEALS.split("\n\n")[:2])))
    await solving.until_solved(gw, "spring")
    assert sorted((await solving.records_of(gw, made))[0]) == [1]  # solved from the creation
    store.down = True
    text = await tournaments.export(gw, "spring", "pbn")
    assert text.startswith("% PBN 2.1") and "[OptimumResultTable" not in text
    with pytest.raises(Unavailable):
        await solving.records_of(gw, made)

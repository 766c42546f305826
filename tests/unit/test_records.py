"""The engine against real records: every auction of the PBN files in tests/data folds to the
contract and declarer the file states, with no director alert (they are legal auctions)."""

import pytest

from shared import fold, from_map
from tests.records import DATA, expected_contract, lin_contract, read_lin, read_pbn

RECORDS = [r for f in sorted(DATA.glob("*.pbn")) for r in read_pbn(f)]


def test_the_records_are_there() -> None:
    assert len(RECORDS) == 280  # 279 RealBridge boards and the PBN 2.1 fixture's game 2


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"board{r.tags.get('Board')}")
def test_real_auction_folds_to_the_stated_contract(record) -> None:  # type: ignore[no-untyped-def]
    """Laws 17–22: rotation from the dealer, sufficiency, doubles, and the contract with its
    declarer (Law 22B) as the tournament recorded them."""
    board = fold(from_map(m) for m in record.log()).board
    assert board is not None
    state = board.to_dict()
    assert state["alerts"] == []
    assert state["status"] == ("passed_out" if expected_contract(record) is None else "closed")
    assert state["contract"] == expected_contract(record)


def test_real_explanations_travel_with_the_calls() -> None:
    """Law 40B: the explained calls of a record (PBN notes) carry their explanation."""
    explained = [r for r in RECORDS if r.notes]
    assert len(explained) > 100, "the RealBridge file explains calls with =n= notes"
    for record in explained:
        board = fold(from_map(m) for m in record.log()).board
        assert board is not None
        got = [c["explanation"] for c in board.to_dict()["alerted_calls"]]
        assert got == [record.notes[i] for i in sorted(record.notes)]


LIN_FILES = sorted(DATA.glob("*.lin"))


@pytest.mark.parametrize("path", LIN_FILES, ids=lambda p: p.stem)
def test_real_lin_auctions_are_legal_and_complete(path) -> None:  # type: ignore[no-untyped-def]
    """Laws 17–22 on BBO records: every auction folds with no director alert, closes, and
    keeps its alerts and explanations (Law 40B); where the file's `rs` list states the
    contract, the fold gives the same contract and declarer (Law 22B)."""
    boards, results = read_lin(path)
    assert len(boards) == {"usbf-2010-semifinal-vugraph": 30, "robot-match-with-alerts": 8}[
        path.stem]
    checked = 0
    for index, lin_board in enumerate(boards):
        state = fold(from_map(m) for m in lin_board.log()).board
        assert state is not None
        d = state.to_dict()
        assert d["alerts"] == [], (lin_board.board, d["alerts"])
        assert d["status"] in ("closed", "passed_out")
        assert len(d["alerted_calls"]) == sum(1 for _, a, t in lin_board.calls if a or t)
        if index < len(results) and lin_contract(results[index]) is not None:
            assert d["contract"] == lin_contract(results[index]), lin_board.board
            checked += 1
    assert checked == (30 if path.stem.startswith("usbf") else 0)

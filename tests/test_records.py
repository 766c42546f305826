"""The engine against real records: every auction of the PBN files in tests/data folds to the
contract and declarer the file states, with no director alert (they are legal auctions)."""

import pytest

from shared import fold, from_map
from tests.records import DATA, expected_contract, read_pbn

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

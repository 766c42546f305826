"""The hand records kept solved for the unit tests (tests/solved_records.py) are the solver's:
every deal of tests/data/deals-32.pbn is kept, with what the solver makes of it (two boards
solved again here: the solver's shape or tables changed, the kept file is written again with
`python -m tests.solved_records`)."""

from __future__ import annotations

import pytest

from services.robots.hand_records import hand_record
from shared.tournament.session import deals_of
from tests import fakes, solved_records

pytestmark = pytest.mark.unit


def test_every_deal_of_the_tests_deals_is_kept() -> None:
    deals = deals_of(solved_records.DEALS.read_text())
    assert set(solved_records.kept()) == {
        solved_records.key_of(board, fields) for board, fields in deals.items()}


@pytest.mark.parametrize("board", [1, 32])
def test_a_kept_record_is_the_solvers(board: int) -> None:
    fields = deals_of(solved_records.DEALS.read_text())[board]
    assert solved_records.kept()[solved_records.key_of(board, fields)] == \
        hand_record(board, fields)


async def test_the_in_process_off_loop_answers_a_copy_of_the_kept_record() -> None:
    fields = deals_of(solved_records.DEALS.read_text())[5]
    first = await fakes.InProcess().run(hand_record, 5, fields)
    first["par"] = "changed by its reader"
    assert await fakes.InProcess().run(hand_record, 5, fields) == \
        solved_records.kept()[solved_records.key_of(5, fields)]

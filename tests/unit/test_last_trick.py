"""Who may see the last trick (`shared.table.last_trick`, the state's `play.inspect_last`),
Law 66 cited. The board of `tests.helpers.DEAL`: N declares 4S, E leads, S is dummy."""

from __future__ import annotations

import pytest

from tests.helpers import DEAL
from tests.script import play

pytestmark = pytest.mark.unit

AUCTION = "N 1S, E P, S 2S, W P, N 4S, E P, S P, W P"
TRICK_1 = "E plays C2, S plays C5, W plays C6, N plays CA"  # N wins, on lead


def inspect_last(script: str) -> list[str]:
    seats: list[str] = play(f"{AUCTION}, {script}", deal=DEAL)["play"]["inspect_last"]
    return seats


def test_law_66_no_trick_completed_none_to_inspect() -> None:
    assert inspect_last("E plays C2, S plays C5") == []


def test_law_66a_declarer_and_defenders_until_their_side_plays_to_the_next_never_dummy() -> None:
    """Law 66A: declarer or either defender, so long as his side has not led or played to the
    next trick; dummy is not named (Law 42)."""
    assert inspect_last(TRICK_1) == ["N", "E", "W"]


def test_law_66c_a_side_that_has_played_to_the_next_trick_may_not_inspect() -> None:
    """Law 66C: thereafter, until play ceases, quitted tricks may not be inspected."""
    assert inspect_last(f"{TRICK_1}, N plays S4") == ["E", "W"]
    assert inspect_last(f"{TRICK_1}, N plays S4, E plays S7") == []


def test_law_66d_all_four_once_play_has_ceased() -> None:
    """Law 66D: after play ceases, the played and unplayed cards may be inspected."""
    assert inspect_last(f"{TRICK_1}, N claims 12 rest, E agrees, W agrees") == [
        "N", "E", "S", "W"]

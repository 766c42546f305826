"""Who answers a claim (`shared.table.claim_answers`, the state's `play.claim.awaited` and
`may_object`): the seats the fold takes an agreement or an objection from, the Law of each
cited. The board of `tests.helpers.DEAL`: N declares 4S, E leads, S is dummy."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import DEAL
from tests.script import play

pytestmark = pytest.mark.unit

AUCTION = "N 1S, E P, S 2S, W P, N 4S, E P, S P, W P"
TRICK_1 = "E plays C2, S plays C5, W plays C6, N plays CA"  # N wins, on lead


def claim_after(script: str) -> dict[str, Any] | None:
    claim: dict[str, Any] | None = play(f"{AUCTION}, {TRICK_1}, {script}", deal=DEAL)[
        "play"]["claim"]
    return claim


def test_law_69a_declarers_claim_awaits_both_defenders_never_dummy() -> None:
    """Law 69A: both defenders acquiesce in declarer's claim; dummy takes no part (43A)."""
    claim = claim_after("N claims 12 rest")
    assert claim is not None
    assert (claim["awaited"], claim["may_object"]) == (["E", "W"], None)


def test_law_69a_an_acquiescence_given_leaves_the_other_defender_awaited() -> None:
    claim = claim_after("N claims 12 rest, W agrees")
    assert claim is not None
    assert claim["awaited"] == ["E"]


def test_law_69a_a_defenders_claim_awaits_declarer_alone() -> None:
    """Law 69A: declarer acquiesces in a defender's claim; not the claimer's partner."""
    claim = claim_after("W claims 12 rest")  # every trick left: no concession
    assert claim is not None
    assert (claim["awaited"], claim["may_object"]) == (["N"], None)


def test_law_68b2_a_defenders_concession_his_partner_may_object_to() -> None:
    """Law 68B2: a defender concedes a trick; his partner, not yet acquiescing, may object."""
    claim = claim_after("W claims 3 rest")
    assert claim is not None
    assert (claim["awaited"], claim["may_object"]) == (["N"], "E")
    after = claim_after("W claims 3 rest, E agrees")
    assert after is not None
    assert after["may_object"] is None  # his acquiescence given: a "no" now disputes (68D)


def test_law_68b2_the_partners_objection_the_state_offers_is_the_one_the_fold_takes() -> None:
    """Law 68B2: the objection of `may_object` ends the concession: play continues."""
    state = play(f"{AUCTION}, {TRICK_1}, W claims 3 rest, E objects", deal=DEAL)
    assert state["play"]["claim"] is None
    assert state["play"]["ended"] is None


def test_law_68d_a_disputed_claim_awaits_no_one() -> None:
    """Law 68D: a claim disputed, play ceases and the Director rules (Law 70): no answers."""
    claim = claim_after("N claims 12 rest, E objects")
    assert claim is not None
    assert claim["disputed"]
    assert (claim["awaited"], claim["may_object"]) == ([], None)

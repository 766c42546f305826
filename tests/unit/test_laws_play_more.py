"""More Laws of play as the fold applies them: cards exposed after the auction (Laws 48–49),
simultaneous, impossible and subsequent plays (Laws 58–60), defective tricks (Law 67) and an
acquiescence in a claim withdrawn (Law 69B). The board of `tests.helpers.DEAL` (N declares 4S,
E leads, S is dummy), as in `test_laws_play`."""

from __future__ import annotations

import pytest

from shared import fold
from shared.engine import TableState
from tests.unit.test_laws_play import kinds, played, view
from tests.unit.test_play import events

pytestmark = pytest.mark.unit


def exposed(seat: str, card: str, state: TableState) -> TableState:
    return fold(events({"type": "card_exposed", "seat": seat, "card": card}), state)


def test_law_48a_declarers_exposed_card_is_no_penalty_card() -> None:
    """Law 48A: declarer exposing a card from his hand or dummy's is not rectified, and the
    card is no penalty card; it is played when he chooses."""
    state = exposed("N", "HK", played("E DA"))
    assert view(state)["penalty_cards"] == [] and kinds(state) == []
    assert view(state)["rectifications"][-1]["law"] == "48A"
    state = exposed("S", "SA", state)
    assert view(state)["penalty_cards"] == [] and kinds(state) == []
    state = played("S D6, W D3, N D2", state)  # N plays on; HK stays in his hand
    assert view(state)["play"]["turn"] == "E" and kinds(state) == []


def test_law_48a_before_the_opening_lead_declarer_exposes_without_penalty() -> None:
    """Law 48A: between the auction's close and the opening lead too; Law 49: a defender's
    card exposed then is a penalty card once the play begins."""
    state = exposed("W", "C6", exposed("N", "HK", played("")))
    state = played("E DA", state)
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "C6", "led": False}]


def test_law_49_a_defenders_card_exposed_in_the_play_is_a_penalty_card() -> None:
    """Law 49: a defender's card exposed other than in the normal course of play is a penalty
    card (Law 50), which he must play at the first legal opportunity (Law 50D1)."""
    state = exposed("W", "HA", played("E DA, S D6"))
    assert kinds(state) == ["exposed_card"] and view(state)["alerts"][0]["law"] == "49"
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    state = played("W D3, N D2, E H6, S HT", state)  # W must follow diamonds first
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert kinds(played("W H4", state))[-1] == "penalty_card_not_played"
    assert view(played("W HA", state))["penalty_cards"] == []

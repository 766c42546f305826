"""The gateway and the play: who may play a card (Law 45), a card refused as bad input (not
in that hand, or played already), and what each seat sees of the hands (Law 41D)."""

from __future__ import annotations

from typing import Any

import pytest

from services.gateway.tables.views import board_for
from services.gateway.tokens import Grant
from shared import fold, from_map
from shared.table.play_checks import card_refusal
from shared.table.result_checks import result_refusal
from tests.helpers import DEAL
from tests.script import lowest_legal

pytestmark = pytest.mark.unit

AUCTION = [("N", "1S"), ("E", "P"), ("S", "P"), ("W", "P")]  # N declares, S is dummy


def state(*cards: tuple[str, str], then: list[dict[str, Any]] | None = None
          ) -> dict[str, Any]:
    """The whole board (as the processor writes it) after the auction, `cards` and `then`."""
    log = [{"type": "board_started", "board": 1, "deal": DEAL},
           *({"type": "call", "seat": s, "call": c} for s, c in AUCTION),
           *({"type": "card_played", "seat": s, "card": c} for s, c in cards), *(then or [])]
    board = fold(from_map(m) for m in log).board
    assert board is not None
    return dict(board.to_dict())


@pytest.mark.parametrize(("sender", "seat", "card", "field", "forbidden"), [
    ("E", "E", "SA", "card", False),  # not in E's hand
    ("E", "E", "DA", "card", False),  # played already
    ("S", "S", "D6", "seat", True),  # dummy plays nothing (Law 45)
    ("W", "S", "D6", "seat", True),  # a defender plays his own hand only
    ("E", "W", "D3", "seat", True),
    ("N", "E", "HQ", "seat", True),  # declarer: his hand and dummy's, no other
    (None, "S", "HA", "card", False),  # the operator: any seat, a card of its hand
])
def test_law_45_a_card_refused_names_the_field(sender: str | None, seat: str, card: str,
                                               field: str, forbidden: bool) -> None:
    """Law 45: each player plays his own cards, declarer dummy's too; a card not dealt to the
    hand, or played already, is bad input (400 naming `card`)."""
    refused = card_refusal(state(("E", "DA")), sender, seat, card)
    assert refused is not None and (refused.field, refused.forbidden) == (field, forbidden)


@pytest.mark.parametrize(("sender", "seat", "card"), [
    ("N", "S", "D6"),  # declarer plays from dummy (Law 45B)
    ("W", "W", "H4"),  # out of turn, or a revoke: possible, so appended (the Laws rectify)
    (None, "S", "D6"),
    ("E", "E", "XX"),  # not a card: the event schema names it
])
def test_a_card_the_laws_judge_goes_on(sender: str | None, seat: str, card: str) -> None:
    assert card_refusal(state(("E", "DA")), sender, seat, card) is None


def test_law_41d_dummys_hand_is_shown_to_all_once_the_opening_lead_is_faced() -> None:
    """Law 41D: after the opening lead dummy's hand is faced; a defender never sees his
    partner's or declarer's hand, declarer never a defender's."""
    before, after = state(), state(("E", "DA"))
    def deal(board: dict[str, Any], seat: str) -> str:
        return str(board_for(Grant("t", seat, "seat"), board, 0, 0)["deal"])
    assert deal(before, "E") == "N:- JT987.Q876.AK5.2 - -"
    assert deal(after, "E") == "N:- JT987.Q876.AK5.2 AK532.T.JT6.T985 -"
    assert deal(after, "W") == "N:- - AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
    assert deal(after, "N") == "N:4.KJ32.842.AQ743 - AK532.T.JT6.T985 -"
    assert deal(after, "S") == "N:- - AK532.T.JT6.T985 -"


def test_law_61_a_revoke_the_fold_found_is_the_directors_until_the_play_ends() -> None:
    """Laws 61A–B, 62B, 64: W fails to follow a diamond holding four: the fold alerts the
    Director at once, but no seat learns from the state that W still holds diamonds (the
    alert, the play's revoke, the establishment) while the play lasts; once it ends (a claim
    agreed, Law 69A) every seat sees it."""
    revoke = (("E", "DA"), ("S", "D6"), ("W", "H4"), ("N", "D2"))
    claimed = [{"type": "claim", "seat": "N", "tricks": 7, "statement": "cross-ruff"},
               {"type": "claim_response", "seat": "E", "accept": True},
               {"type": "claim_response", "seat": "W", "accept": True}]
    during, ended = state(*revoke), state(*revoke, then=claimed)
    assert [r["seat"] for r in during["play"]["revokes"]] == ["W"]
    director = board_for(Grant("t", None, "director"), during, 0, 0)
    assert [a["kind"] for a in director["alerts"]] == ["revoke"]
    for seat in "NESW":
        seen = board_for(Grant("t", seat, "seat"), during, 0, 0)
        assert seen["play"]["revokes"] == [] and seen["alerts"] == [], seat
        after = board_for(Grant("t", seat, "seat"), ended, 0, 0)
        assert ended["result"] is not None
        assert [r["seat"] for r in after["play"]["revokes"]] == ["W"], seat
        assert [a["kind"] for a in after["alerts"]] == ["revoke"], seat


def test_law_45_dummys_card_before_the_auctions_end_is_folded_is_sent_again() -> None:
    """Law 45B: declarer plays dummy's cards; whether the sender is declarer is known from the
    state, which lags the log by the events not folded yet. Dummy's card sent before the
    auction's end is in the state is not refused as another's hand: the answer says to send
    it again (a 409 with Retry-After: the state is behind the log); once the contract is
    there, it goes on."""
    auction_only = [{"type": "board_started", "board": 1, "deal": DEAL},
                    *({"type": "call", "seat": s, "call": c} for s, c in AUCTION[:3])]
    lagging = fold(from_map(m) for m in auction_only).board
    assert lagging is not None
    for board in (dict(lagging.to_dict()), None):
        refused = card_refusal(board, "N", "S", "D6")
        assert refused is not None and refused.retry and refused.field == "seat"
        assert card_refusal(board, "N", "N", "D2") is None  # his own hand: no doubt
    assert card_refusal(state(("E", "DA")), "N", "S", "D6") is None
    refused = card_refusal(state(("E", "DA")), "W", "S", "D6")
    assert refused is not None and refused.forbidden and not refused.retry


def test_laws_41_45b_no_card_from_dummy_before_dummy_spreads_whatever_it_is() -> None:
    """Laws 41B, 41D, 45B: declarer plays dummy's cards once dummy has spread his hand, after
    the opening lead is faced. Before it (or while an opening lead out of turn awaits
    declarer's option, Law 54), every card declarer sends from dummy is refused with the same
    answer, a card dummy holds (SA) as one he does not (HA) or no card at all: judged against
    the deal, the answers would show declarer dummy's hand. The answer is a 409 with
    Retry-After: the opening lead may be in the log and not yet in the state. Once the lead
    is faced, dummy's card goes on and one he lacks is bad input."""
    for board in (state(), state(("W", "HA"))):
        answers = {card_refusal(board, "N", "S", card) for card in ("SA", "HA", "S2", "XX")}
        assert len(answers) == 1
        (refused,) = answers
        # a 409 with Retry-After: the lead may be appended and not yet folded
        assert refused is not None and refused.retry and refused.field == "seat"
        assert "opening lead" in refused.reason and "S's hand" not in refused.reason
        assert card_refusal(board, None, "S", "SA") is None  # the operator records any card
    led = state(("E", "DA"))
    assert card_refusal(led, "N", "S", "D6") is None
    refused = card_refusal(led, "N", "S", "HA")
    assert refused is not None and refused.reason == "field 'card': HA is not in S's hand"


def test_law_45_a_card_after_the_play_ended_is_sent_again_not_refused() -> None:
    """Law 45 (who plays which card) is judged on the board the card belongs to: once the
    state's board has its result (the play over, Law 68-69's claim agreed; or passed out,
    Law 22A), a card is for the next board, whose start is not folded yet. Judged against the
    finished board (its dummy, its cards played) a good card would be refused: it is a 409
    with Retry-After, nothing appended."""
    claimed = [{"type": "claim", "seat": "N", "tricks": 7, "statement": "cross-ruff"},
               {"type": "claim_response", "seat": "E", "accept": True},
               {"type": "claim_response", "seat": "W", "accept": True}]
    passed = fold(from_map(m) for m in [{"type": "board_started", "board": 1, "deal": DEAL},
                                        *({"type": "call", "seat": s, "call": "P"}
                                          for s in "NESW")]).board
    assert passed is not None
    for board in (state(("E", "DA"), then=claimed), dict(passed.to_dict())):
        assert board["result"] is not None
        for sender, seat, card in (("E", "E", "DA"), ("S", "S", "D6"), ("E", "E", "SA")):
            refused = card_refusal(board, sender, seat, card)
            assert refused is not None and refused.retry and not refused.forbidden
            assert refused.field == "card"
    assert card_refusal(state(("E", "DA")), "E", "E", "DA") is not None  # in play: a 400
    assert not card_refusal(state(("E", "DA")), "E", "E", "DA").retry  # type: ignore[union-attr]


def test_laws_26_50d2_a_lead_against_a_restriction_is_the_directors_until_the_play_ends() -> None:
    """Laws 26 and 50D2 with Law 59: the alert for a lead contrary to a restriction tells
    that the leader held the suit required: while the play lasts no seat sees it (the
    Director does); once the play ends every seat does."""
    ruled = [{"type": "ruling", "action": "lead_restriction", "seat": "E", "suit": "H",
              "restriction": "require"}]
    led = [{"type": "card_played", "seat": "E", "card": "DA"}]
    claimed = [{"type": "claim", "seat": "N", "tricks": 7, "statement": "cross-ruff"},
               {"type": "claim_response", "seat": "E", "accept": True},
               {"type": "claim_response", "seat": "W", "accept": True}]
    during, ended = state(then=ruled + led), state(then=ruled + led + claimed)
    director = board_for(Grant("t", None, "director"), during, 0, 0)
    assert [a["kind"] for a in director["alerts"]] == ["lead_restriction_not_followed"]
    for seat in "NESW":
        assert board_for(Grant("t", seat, "seat"), during, 0, 0)["alerts"] == [], seat
        after = board_for(Grant("t", seat, "seat"), ended, 0, 0)
        assert [a["kind"] for a in after["alerts"]] == ["lead_restriction_not_followed"], seat


def deal_seen(board: dict[str, Any], seat: str) -> str:
    return str(board_for(Grant("t", seat, "seat"), board, 0, 0)["deal"])


def test_law_54_dummy_is_not_spread_while_an_opening_lead_out_of_turn_awaits() -> None:
    """Law 54 (with 41D): W faces the opening lead out of turn; until declarer's option, or
    the right defender's lead after it is refused (54D), dummy has not spread his hand: no
    seat sees S's (which, after Law 54A, may become declarer's)."""
    waiting = state(("W", "HA"))
    assert deal_seen(waiting, "E") == "N:- JT987.Q876.AK5.2 - -"
    assert deal_seen(waiting, "N") == "N:4.KJ32.842.AQ743 - - -"
    refused = state(("W", "HA"), then=[{"type": "option", "seat": "N", "accept": False}])
    assert deal_seen(refused, "W") == "N:- - - Q6.A954.Q973.KJ6"
    led = state(("W", "HA"), then=[{"type": "option", "seat": "N", "accept": False},
                                   {"type": "card_played", "seat": "E", "card": "DA"}])
    assert deal_seen(led, "W") == "N:- - AK532.T.JT6.T985 Q6.A954.Q973.KJ6"  # E has led


def test_law_54a_the_spread_hand_is_dummys_for_all_the_new_declarers_for_none() -> None:
    """Law 54A: N spreads his hand after W's opening lead out of turn: N is dummy, seen by
    all four; S, now declarer, is never seen by a defender."""
    spread = state(("W", "HA"), then=[{"type": "hand_faced", "seat": "N"}])
    assert deal_seen(spread, "E") == "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 - -"
    assert deal_seen(spread, "W") == "N:4.KJ32.842.AQ743 - - Q6.A954.Q973.KJ6"
    assert deal_seen(spread, "S") == "N:4.KJ32.842.AQ743 - AK532.T.JT6.T985 -"
    assert deal_seen(spread, "N") == "N:4.KJ32.842.AQ743 - - -"


def test_law_68a_a_hand_faced_as_a_claim_is_seen_by_all() -> None:
    """Law 68A: E shows his hand (a claim); every seat sees it, and dummy's, and no more: W
    still never sees declarer's (N's) hand."""
    shown = state(("E", "DA"), then=[{"type": "hand_faced", "seat": "E"}])
    assert deal_seen(shown, "N") == "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 -"
    assert deal_seen(shown, "W") == "N:- JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
    declarer = state(("E", "DA"), then=[{"type": "hand_faced", "seat": "N"}])
    assert deal_seen(declarer, "W") == \
        "N:4.KJ32.842.AQ743 - AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
    assert deal_seen(declarer, "S") == "N:4.KJ32.842.AQ743 - AK532.T.JT6.T985 -"


def test_law_57a_a_play_against_declarers_option_is_the_directors_until_the_play_ends() -> None:
    """Law 57A: E, required to play his highest heart after W's premature H4, plays H6: the
    alert tells that E held a higher heart, so while the play lasts no seat sees it (the
    Director does)."""
    cards = (("E", "C2"), ("S", "C5"), ("W", "C6"), ("N", "CA"), ("N", "H2"), ("W", "H4"))
    during = state(*cards, then=[{"type": "play_option", "seat": "N", "choice": "highest"},
                                 {"type": "card_played", "seat": "E", "card": "H6"}])
    director = board_for(Grant("t", None, "director"), during, 0, 0)
    assert [a["kind"] for a in director["alerts"]] == ["play_out_of_turn",
                                                       "play_restriction_not_followed"]
    for seat in "NESW":
        seen = board_for(Grant("t", seat, "seat"), during, 0, 0)
        assert [a["kind"] for a in seen["alerts"]] == ["play_out_of_turn"], seat


def played_out(cards: int) -> dict[str, Any]:
    """The whole board after the auction and `cards` cards, each the lowest legal one."""
    log = [{"type": "board_started", "board": 1, "deal": DEAL},
           *({"type": "call", "seat": s, "call": c} for s, c in AUCTION)]
    table = fold(from_map(m) for m in log)
    for _ in range(cards):
        table = fold([from_map(lowest_legal(table, DEAL))], table)
    assert table.board is not None
    return dict(table.board.to_dict())


def test_law_79a_a_result_never_gives_a_side_fewer_tricks_than_it_has_won() -> None:
    """Law 79A: declarer's tricks in all, recorded by the operator or the Director (sender
    None) or proposed from a seat, are at least those his side has won and at most those the
    defenders leave him: else a 400 naming `tricks` that says the bounds. Before any trick
    is won, any number goes; dummy proposes none (Law 43A: 403); once the play is over,
    the result is for the next board (409, sent again)."""
    board = played_out(8)
    won = board["play"]["won"]
    ours, theirs = won["NS"], won["EW"]  # N declares
    assert ours >= 1 and theirs >= 1
    for sender in ("N", "E", "W", None):
        for tricks in (ours - 1, 14 - theirs):
            refused = result_refusal(board, sender, tricks)
            assert refused is not None and refused.field == "tricks", (sender, tricks)
            assert not refused.forbidden and not refused.retry
            assert f"{ours} to {13 - theirs}" in refused.reason and "Law 79A" in refused.reason
        for tricks in (ours, 13 - theirs):
            assert result_refusal(board, sender, tricks) is None, (sender, tricks)
    for before in (state(), state(("E", "DA"))):
        assert all(result_refusal(before, "W", tricks) is None for tricks in (0, 13))
    dummy = result_refusal(board, "S", ours)
    assert dummy is not None and dummy.forbidden and dummy.field == "type"
    over = result_refusal(played_out(52), None, 7)
    assert over is not None and over.retry


def test_law_64_a_recorded_result_after_a_revoke_may_leave_the_tricks_won() -> None:
    """Law 64: a revoke's transfer can give a side a trick the other won in play, so the
    operator's or the Director's record after a revoke is not bounded by the tricks won; a
    seat's proposal still is (Law 79A: its claim's agreement settles the revoke, Law 64)."""
    revoked = state(("E", "DA"), ("S", "D6"), ("W", "H4"), ("N", "D2"))
    assert revoked["play"]["won"] == {"NS": 0, "EW": 1} and revoked["play"]["revokes"]
    assert result_refusal(revoked, None, 13) is None
    refused = result_refusal(revoked, "N", 13)
    assert refused is not None and refused.field == "tricks"


"""The Laws of play as the fold applies them: leads and plays out of turn (Laws 53–57), the
revoke (Laws 61–64), claims and concessions (Laws 68–71). The board of `tests.helpers.DEAL`:
N declares 4S, E leads, S is dummy.

N  S 4        H KJ32  D 842   C AQ743
E  S JT987    H Q876  D AK5   C 2
S  S AK532    H T     D JT6   C T985
W  S Q6       H A954  D Q973  C KJ6
"""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold
from shared.cards import Card
from shared.deal import parse_deal
from shared.seats import Seat
from shared.table.engine import TableState
from tests.helpers import DEAL
from tests.unit.test_play import auction, events, play_out

pytestmark = pytest.mark.unit


def played(script: str, state: TableState | None = None) -> TableState:
    """`"E DA, S D6"`: cards played from those hands; `"N accept"`/`"N decline"`: an option;
    `"N claims 10"`, `"E agrees"`, `"W objects"`: a claim and its answers."""
    maps: list[dict[str, Any]] = []
    for step in filter(None, (s.strip() for s in script.split(","))):
        seat, what, *rest = step.split()
        if what in ("accept", "decline"):
            maps.append({"type": "option", "seat": seat, "accept": what == "accept"})
        elif what == "claims":
            maps.append({"type": "claim", "seat": seat, "tricks": int(rest[0])})
        elif what in ("agrees", "objects"):
            maps.append({"type": "claim_response", "seat": seat, "accept": what == "agrees"})
        else:
            maps.append({"type": "card_played", "seat": seat, "card": what})
    return fold(events(*maps), state if state is not None else auction())


def view(state: TableState) -> dict[str, Any]:
    assert state.board is not None
    return dict(state.board.to_dict())


def kinds(state: TableState) -> list[str]:
    return [a["kind"] for a in view(state)["alerts"]]


def cards_of(state: TableState) -> list[list[str]]:
    return [[f"{c['seat']} {c['card']}" for c in t["cards"]] for t in view(state)["play"]["tricks"]]


# --- leads and plays out of turn (Laws 53–57) ----------------------------------------------

# (N wins trick 2 with CA: N is on lead at trick 3)
_TO_TRICK_3 = "E DA, S D6, W D3, N D2, E C2, S C5, W CK, N CA"


def test_law_54_an_opening_lead_out_of_turn_waits_for_declarers_option() -> None:
    """Law 54: W, not E, faces the opening lead; declarer (N) may accept it."""
    state = played("W HA")
    assert kinds(state) == ["opening_lead_out_of_turn"]
    assert view(state)["alerts"][0]["law"] == "54"
    assert view(state)["play"]["lead_out_of_turn"] == {"seat": "W", "card": "HA", "law": "54",
                                                       "option_holders": ["N"]}
    assert view(state)["opening_lead"] == {"seat": "W", "card": "HA"}  # faced: 17D1
    accepted = played("N accept", state)
    assert cards_of(accepted) == [["W HA"]] and view(accepted)["play"]["turn"] == "N"
    assert view(accepted)["rectifications"][-1]["law"] == "53A"


def test_law_54_declined_the_card_is_a_major_penalty_card_and_the_right_defender_leads() -> None:
    """Laws 54D, 56, 50: the lead not accepted is withdrawn, a penalty card; E leads."""
    state = played("W HA, N decline")
    assert view(state)["play"]["lead_out_of_turn"] is None
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert view(state)["play"]["turn"] == "E" and view(state)["play"]["tricks"] == []
    state = played("E DA", state)
    assert view(state)["opening_lead"] == {"seat": "E", "card": "DA"}
    assert cards_of(state) == [["E DA"]]


def test_law_53a_the_next_player_playing_to_it_accepts_the_lead() -> None:
    """Law 53A: a lead out of turn becomes a correct lead if the player next in rotation plays
    to it; the correct leader leading instead withdraws it (here a penalty card, Law 56)."""
    assert cards_of(played("W HA, N H2")) == [["W HA", "N H2"]]
    instead = played("W HA, E DA")
    assert cards_of(instead) == [["E DA"]]
    assert view(instead)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]


def test_law_55a_declarer_leading_from_the_wrong_hand_either_defender_may_accept() -> None:
    """Law 55A: N wins trick 2 and leads from dummy (S): either defender may accept; W's
    answer, next in turn, settles it at once (E's waits for W's: see
    test_laws_opening_lead_readings)."""
    state = played("E DA, S D6, W D3, N D2, E HQ, S HT, W H4, N HK, S C5")
    lead = view(state)["play"]["lead_out_of_turn"]
    assert lead["law"] == "55A" and lead["option_holders"] == ["E", "W"]
    assert kinds(state) == ["lead_out_of_turn"]
    accepted = played("W accept", state)
    assert cards_of(accepted)[-1] == ["S C5"] and view(accepted)["play"]["turn"] == "W"
    declined = played("W decline", state)
    assert view(declined)["play"]["turn"] == "N" and view(declined)["penalty_cards"] == []


def test_law_56_a_defenders_later_lead_out_of_turn() -> None:
    """Law 56: after trick 1 (E won it), W leads: declarer's option."""
    state = played("E DA, S D6, W D3, N D2, W C6")
    assert view(state)["alerts"][-1]["law"] == "56"
    assert view(state)["play"]["lead_out_of_turn"]["option_holders"] == ["N"]


def test_law_57a_a_defenders_premature_play_is_a_penalty_card() -> None:
    """Law 57A: N leads D4 and W plays before his partner E: a penalty card; declarer's
    options on E. (W's card after E's lead, at dummy's turn, is 57D's: see
    test_laws_premature_readings.)"""
    state = played(f"{_TO_TRICK_3}, N D4, W D7")
    assert kinds(state) == ["play_out_of_turn"] and view(state)["alerts"][0]["law"] == "57A"
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "D7", "led": False}]
    assert view(state)["play"]["turn"] == "E" and cards_of(state)[-1] == ["N D4"]
    state = played("E D5, S DT, W D7", state)  # the penalty card played in turn leaves
    assert view(state)["penalty_cards"] == [] and cards_of(state)[-1] == ["N D4", "E D5",
                                                                         "S DT", "W D7"]


# --- the revoke (Laws 61–64) ---------------------------------------------------------------


def test_law_61_63_a_revoke_is_established_when_the_offending_side_plays_to_the_next() -> None:
    """Law 61A: W discards H4 on a diamond, holding diamonds: a revoke. Law 63A1: it is
    established once W or E plays to the next trick."""
    state = played("E DA, S D6, W H4, N D2")
    assert kinds(state) == ["revoke"] and view(state)["alerts"][0]["law"] == "61A"
    assert view(state)["play"]["revokes"][0]["established"] is False
    state = played("E DK", state)
    assert view(state)["play"]["revokes"][0]["established"] is True
    assert view(state)["rectifications"][-1]["law"] == "63A1"


def test_law_62_a_revoke_corrected_before_it_is_established() -> None:
    """Law 62A–B: W corrects his revoke with a diamond before it is established; the card he
    withdraws becomes a penalty card (62B1); the trick goes on."""
    state = played("E DA, S D6, W H4, W D3")
    assert cards_of(state) == [["E DA", "S D6", "W D3"]]
    assert view(state)["play"]["revokes"][0]["corrected"] is True
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "H4", "led": False}]
    assert view(state)["rectifications"][-1]["law"] == "62B1"
    assert view(state)["play"]["turn"] == "N"


def test_law_64a2_one_trick_when_the_offending_side_won_the_revoke_trick() -> None:
    """Law 64A2: W revoked, E won the trick: one trick goes to declarer at the end."""
    state = play_out(played("E DA, S D6, W H4, N D2"), 48)
    result, won = view(state)["result"], view(state)["play"]["won"]
    assert result["declarer_tricks"] == won["NS"] + 1
    assert view(state)["rectifications"][-1]["law"] == "64A2"


def test_law_64a1_the_revoke_trick_and_one_more_when_the_offender_won_it() -> None:
    """Law 64A1: declarer ruffs a heart holding hearts and wins the trick: that trick and one
    more his side won later go to the defenders."""
    state = play_out(played("E HQ, S HT, W H4, N S4"), 48)
    result, won = view(state)["result"], view(state)["play"]["won"]
    assert won["NS"] >= 2 and result["declarer_tricks"] == won["NS"] - 2
    assert view(state)["rectifications"][-1]["law"] == "64A1"


def test_law_64b3_no_trick_for_a_revoke_from_dummy() -> None:
    """Law 64B3: a revoke in failing to play a card of dummy's, faced on the table: no
    tricks are transferred (Law 64C leaves equity to the Director)."""
    state = play_out(played("E HQ, S S2, W H4, N HK"), 48)
    assert kinds(state) == ["revoke"]
    assert view(state)["result"]["declarer_tricks"] == view(state)["play"]["won"]["NS"]
    assert view(state)["rectifications"][-1]["law"] == "64B3"


def test_law_64a_two_revokes_never_transfer_the_same_trick() -> None:
    """Law 64A: the tricks transferred are tricks the offending side won; W's revoke on trick
    2 (he won it: 64A1) takes tricks 2 and 3, so E's on trick 3 (64A2) finds none left, and
    declarer never has more than 13 (the board a random round trip found with 14)."""
    deal = "N:AQT8.KQ87.J72.T3 65.T963.Q964.KJ2 J972.J42.A8.A864 K43.A5.KT53.Q975"
    script = "E C2, S C8, W C5, N CT, N D7, E D9, S D8, W SK, W C7, N C3, E D4, S C6"
    maps: list[dict[str, Any]] = [{"type": "board_started", "board": 1, "deal": deal}]
    maps += [{"type": "call", "seat": s, "call": c} for s, c in zip("NESW", ["1S", "P", "P", "P"],
                                                                    strict=True)]
    maps += [{"type": "card_played", "seat": s, "card": c}
             for s, c in (step.split() for step in script.split(", "))]
    maps += [{"type": "claim", "seat": "E", "tricks": 0},
             {"type": "claim_response", "seat": "N", "accept": True}]
    state = fold(events(*maps))
    won, laws = view(state)["play"]["won"], [r["law"] for r in view(state)["rectifications"]]
    assert laws[-2:] == ["64A1", "64A2"] and won["EW"] == 2
    assert view(state)["result"]["declarer_tricks"] == won["NS"] + 10 + 2 == 13
    assert "transferred for an earlier revoke" in view(state)["rectifications"][-1]["message"]


# --- claims and concessions (Laws 68–71) ---------------------------------------------------


def test_law_69a_a_claim_both_defenders_accept_ends_the_play() -> None:
    """Law 68A: declarer claims 10 of the 12 remaining; Law 69A: agreed once both defenders
    acquiesce; the play ends with declarer's tricks."""
    state = played("E DA, S D6, W D3, N D2, N claims 10, E agrees")
    assert view(state)["play"]["claim"]["answers"] == {"E": True}
    assert view(state)["result"] is None
    state = played("W agrees", state)
    assert view(state)["result"] == {"declarer_tricks": 10, "score_ns": 420}
    assert view(state)["play"]["ended"] == "claim"


def test_law_68d_70_a_disputed_claim_goes_to_the_director() -> None:
    """Law 68D: play ceases; disputed, the Director is called and rules the tricks (Law 70)."""
    state = played("E DA, S D6, W D3, N D2, N claims 10, W objects")
    assert kinds(state) == ["claim_disputed"] and view(state)["alerts"][0]["law"] == "68D"
    assert view(state)["play"]["claim"]["disputed"] is True
    state = played("E HQ", state)
    assert view(state)["ignored"][-1]["reason"] == "play ceases once a claim is made (Law 68D)"
    state = fold(events({"type": "ruling", "action": "tricks", "tricks": 9}), state)
    assert view(state)["result"] == {"declarer_tricks": 9, "score_ns": -50}


def test_law_68b_a_defenders_concession_and_his_partners_objection() -> None:
    """Law 68B1: a defender concedes (claims fewer tricks); declarer's acquiescence agrees it
    (Law 69A). Law 68B2: his partner's objection voids it and the Director is called."""
    conceded = played("E DA, S D6, W D3, N D2, E claims 1, N agrees")
    assert view(conceded)["result"]["declarer_tricks"] == 11
    objected = played("E DA, S D6, W D3, N D2, E claims 1, W objects")
    assert view(objected)["alerts"][-1]["law"] == "68B2" and view(objected)["result"] is None


def test_law_43a_dummy_does_not_claim() -> None:
    state = played("E DA, S claims 12")
    assert view(state)["play"]["claim"] is None
    assert view(state)["ignored"][-1]["reason"] == "dummy may not claim (Law 43A)"


# --- Law 26 at the opening lead -------------------------------------------------------------


@pytest.mark.parametrize(("restriction", "suit", "lead", "alerted"), [
    ("prohibit", "D", "DA", True),
    ("prohibit", "D", "HQ", False),
    ("require", "H", "DA", True),
    ("require", "H", "HQ", False),
])
def test_law_26_a_lead_restriction_not_followed_alerts_the_director(
        restriction: str, suit: str, lead: str, alerted: bool) -> None:
    """Law 26: the Director's lead restriction on E's first lead; a lead against it (E
    holding another suit, or the one required) alerts the Director; the lead stands."""
    ruled = fold(events({"type": "ruling", "action": "lead_restriction", "seat": "E",
                         "suit": suit, "restriction": restriction}), auction())
    state = played(f"E {lead}", ruled)
    assert kinds(state) == (["lead_restriction_not_followed"] if alerted else [])
    assert view(state)["opening_lead"] == {"seat": "E", "card": lead}


# --- penalty cards (Laws 50–52) -------------------------------------------------------------


def test_law_50d1_52_a_penalty_card_not_played_when_it_could_be() -> None:
    """Law 50D1: W's penalty card D7 (his premature play before his partner, Law 57A) must be
    played at the first legal opportunity; he follows with D9 instead: Law 52, declarer's
    options, the Director alerted; the card played stands and D7 stays a penalty card."""
    state = played(f"{_TO_TRICK_3}, N D4, W D7, E D5, S DT, W D9")
    assert kinds(state) == ["play_out_of_turn", "penalty_card_not_played"]
    assert view(state)["alerts"][-1]["law"] == "52"
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "D7", "led": False}]
    assert cards_of(state)[-1] == ["N D4", "E D5", "S DT", "W D9"]


def test_law_50d2_declarers_lead_options_when_partner_of_the_offender_leads() -> None:
    """Law 50D2: W's lead out of turn declined is a major penalty card; E, his partner, is on
    lead: declarer may require or forbid a heart lead."""
    state = played("W HA, N decline")
    assert view(state)["rectifications"][-1]["law"] == "50D2"
    assert "require or forbid a lead of H" in view(state)["rectifications"][-1]["message"]


def test_law_24_a_card_exposed_in_the_auction_is_a_penalty_card_in_the_play() -> None:
    """Law 24 (Law 50): W exposed HA during the auction; W becomes a defender: a penalty card
    once the play begins, declarer's lead options on E's opening lead (50D2); W playing it
    takes it off the table."""
    state = fold(events(
        {"type": "board_started", "board": 1, "deal": DEAL},
        *({"type": "call", "seat": s, "call": c} for s, c in [("N", "1S")]),
        {"type": "card_exposed", "seat": "W", "card": "HA"},
        *({"type": "call", "seat": s, "call": c} for s, c in [("E", "P"), ("S", "P"),
                                                              ("W", "P")])))
    state = played("E HQ", state)
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert "50D2" in [r["law"] for r in view(state)["rectifications"]]
    state = played("S HT, W HA", state)
    assert view(state)["penalty_cards"] == [] and "penalty_card_not_played" not in kinds(state)


def revoke_on_trick_twelve(state: TableState) -> TableState:
    """`state` (a board whose auction is over, of `DEAL`) after eleven legal tricks and a
    twelfth in which a hand that holds the suit led does not follow it (Law 61A)."""
    state = play_out(state, 44)  # eleven tricks, legally
    board = state.board
    assert board is not None and board.play is not None
    left = {seat: [c for c in hand_cards(seat) if c.index not in board.play.played]
            for seat in Seat}
    leader = board.play.turn
    assert leader is not None
    follower, lead, off = next(
        (s, c, o) for c in left[leader] for s in (leader.lho, leader.partner, leader.rho)
        for o in left[s] if o.suit != c.suit and any(x.suit == c.suit for x in left[s]))
    twelve = [(leader, lead)]
    for seat in (leader.lho, leader.partner, leader.rho):
        twelve.append((seat, off if seat is follower else next(
            (x for x in left[seat] if x.suit == lead.suit), left[seat][0])))
    return fold(events(*({"type": "card_played", "seat": s.name, "card": str(c)}
                         for s, c in twelve)), state)


def test_law_62d1_a_revoke_on_the_twelfth_trick_must_be_corrected() -> None:
    """Law 62D1: a revoke on the twelfth trick, established by the offending side's card to
    the thirteenth, must still be corrected: no trick is transferred (64B6), the Director is
    alerted at the end of play to sort out the last two tricks (62C1, 62D2) with a `tricks`
    ruling, the tricks as played standing until then."""
    state = revoke_on_trick_twelve(auction())
    assert view(state)["alerts"][-1]["law"] == "61A" and view(state)["result"] is None
    state = play_out(state, 4)
    assert [a["law"] for a in view(state)["alerts"]] == ["61A", "62D1"]
    assert "64B6" in [r["law"] for r in view(state)["rectifications"]]
    result, won = view(state)["result"], view(state)["play"]["won"]
    assert result["declarer_tricks"] == won["NS"]  # stands until the Director's ruling


def hand_cards(seat: Seat) -> list[Card]:
    """The cards of `seat`'s hand in `DEAL`."""
    spades, hearts, diamonds, clubs = parse_deal(DEAL)[seat].split(".")
    return [Card.parse(suit + rank) for suit, ranks in zip("SHDC", (spades, hearts, diamonds,
                                                                    clubs), strict=True)
            for rank in ranks]


def test_law_62c_cards_played_after_the_revoke_may_be_withdrawn() -> None:
    """Law 62C1–2: W corrects his revoke after declarer (N) has played to the trick: N may
    withdraw his card, then the offending side's player next in rotation his (the Director,
    named in the rectification); W's withdrawn H4 is a major penalty card, E wins the trick
    and is on lead: declarer's Law 50D2 option awaits."""
    state = played("E DA, S D6, W H4, N D2, W D3")
    assert cards_of(state) == [["E DA", "S D6", "W D3", "N D2"]]
    [rectification] = [r for r in view(state)["rectifications"] if r["law"] == "62B1"]
    assert "Law 62C1" in rectification["message"]
    assert view(state)["play"]["lead_options"] == {"seat": "E", "suits": ["H"],
                                                   "choice": None, "chosen": []}
    before = played("E DA, S D6, W H4, W D3")  # nobody played after the revoke: no 62C
    assert "62C1" not in view(before)["rectifications"][-1]["message"]

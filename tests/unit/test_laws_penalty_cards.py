"""Penalty cards as the fold applies them: major and minor (Law 50B), the minor card's
restriction (50C), and declarer's lead options stated with a `lead_option` event and enforced
at the lead (Laws 50D2, 51B; Law 26 for a withdrawn call). The board of `tests.helpers.DEAL`
(N declares 4S, E leads, S is dummy, unless an auction is given), as in `test_laws_play`:

N  S 4        H KJ32  D 842   C AQ743
E  S JT987    H Q876  D AK5   C 2
S  S AK532    H T     D JT6   C T985
W  S Q6       H A954  D Q973  C KJ6
"""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold
from shared.table.engine import TableState
from tests.helpers import DEAL
from tests.script import log as scripted
from tests.unit.test_laws_play import kinds, played, view
from tests.unit.test_play import events

pytestmark = pytest.mark.unit


def option(seat: str, choice: str, state: TableState, suit: str | None = None) -> TableState:
    m: dict[str, Any] = {"type": "lead_option", "seat": seat, "choice": choice}
    if suit is not None:
        m["suit"] = suit
    return fold(events(m), state)


def exposed(seat: str, card: str, state: TableState) -> TableState:
    return fold(events({"type": "card_exposed", "seat": seat, "card": card}), state)


def options(state: TableState) -> dict[str, Any] | None:
    found: dict[str, Any] | None = view(state)["play"]["lead_options"]
    return found


def alerts(state: TableState) -> list[tuple[str, str]]:
    return [(a["kind"], a["law"]) for a in view(state)["alerts"]]


_DECLINED = "W HA, N decline"  # W's opening lead out of turn declined: HA a major penalty card


# --- Law 50D2: declarer's options on the offender's partner's lead --------------------------


def test_law_50d2_the_partner_on_lead_waits_for_declarers_option() -> None:
    """Law 50D2: E is on lead while W has a major penalty card (HA): declarer's option awaits
    him, named in the rectification; the card stays a penalty card until he chooses."""
    state = played(_DECLINED)
    assert options(state) == {"seat": "E", "suits": ["H"], "choice": None, "chosen": []}
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert "`lead_option`" in view(state)["rectifications"][-1]["message"]


def test_law_50d2a_declarer_requires_the_suit_the_card_is_picked_up() -> None:
    """Law 50D2(a): declarer requires a heart lead: HA is picked up, no longer a penalty card;
    E's heart lead complies; a diamond lead while E holds hearts is an irregularity for the
    Director, the lead standing until he rules."""
    state = option("N", "require", played(_DECLINED))
    assert view(state)["penalty_cards"] == []
    assert options(state) == {"seat": "E", "suits": ["H"], "choice": "require", "chosen": ["H"]}
    assert view(state)["rectifications"][-1]["law"] == "50D2(a)"
    complied = played("E H6", state)
    assert alerts(complied) == [("opening_lead_out_of_turn", "54")]
    assert options(complied) is None  # a requirement holds for one lead
    broken = played("E DA", state)
    assert alerts(broken)[-1] == ("lead_restriction_not_followed", "50D2")
    assert view(broken)["opening_lead"] == {"seat": "E", "card": "DA"}


def test_law_50d2a_a_prohibition_holds_while_the_leader_retains_the_lead() -> None:
    """Law 50D2(a): declarer prohibits hearts "for as long as he retains the lead": E wins
    trick 1 with DA, and a heart lead at trick 2 is still prohibited; once N wins a trick and
    E has lost the lead, the prohibition lapses."""
    state = option("N", "prohibit", played(_DECLINED))
    assert view(state)["penalty_cards"] == [] and options(state)["chosen"] == ["H"]
    assert alerts(played("E H6", state))[-1] == ("lead_restriction_not_followed", "50D2")
    state = played("E DA, S D6, W D3, N D2", state)
    assert alerts(state) == [("opening_lead_out_of_turn", "54")]  # DA: no heart led
    assert options(state) is not None and options(state)["choice"] == "prohibit"
    assert alerts(played("E H6", state))[-1] == ("lead_restriction_not_followed", "50D2")
    state = played("E C2, S C5, W CK, N CA", state)  # N wins: E has lost the lead
    assert options(state) is None
    assert alerts(state) == [("opening_lead_out_of_turn", "54")]


def test_law_50d2b_a_free_lead_the_penalty_card_stays_and_50d_goes_on() -> None:
    """Law 50D2(b): declarer neither requires nor prohibits: E leads any card, HA stays a
    penalty card, and Law 50D applies while it remains: E on lead again, declarer's option
    awaits once more."""
    state = option("N", "free", played(_DECLINED))
    assert options(state) is None and view(state)["rectifications"][-1]["law"] == "50D2(b)"
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    state = played("E DA, S D6, W D3, N D2", state)  # W must follow diamonds (Law 59)
    assert alerts(state) == [("opening_lead_out_of_turn", "54")]
    assert options(state) == {"seat": "E", "suits": ["H"], "choice": None, "chosen": []}


def test_law_50d2_a_lead_before_declarer_has_stated_his_option_alerts_the_director() -> None:
    """Law 50D2: the partner "may not lead until declarer has stated" his option; E's lead
    before it is an irregularity (Law 49, the Director rules): the lead stands meanwhile and
    HA stays a penalty card."""
    state = played(f"{_DECLINED}, E DA")
    assert alerts(state)[-1] == ("lead_before_option", "50D2")
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert options(state) is None


def test_law_50d2_only_declarer_states_the_option_and_only_when_it_awaits() -> None:
    """Law 50D2: "declarer may choose": dummy's or a defender's choice, one naming a suit of
    no penalty card, or one with no option awaiting, is ignored and changes nothing."""
    state = played(_DECLINED)
    for seat, suit in (("S", None), ("E", None), ("N", "D")):
        after = option(seat, "require", state, suit)
        assert options(after) == options(state) and view(after)["penalty_cards"] == [
            {"seat": "W", "card": "HA", "led": False}]
        assert len(view(after)["ignored"]) == len(view(state)["ignored"]) + 1
    none_awaits = option("N", "prohibit", played("E DA"))
    assert view(none_awaits)["ignored"][-1]["reason"].startswith("no lead option awaits")


def test_law_50d2_with_the_auctions_exposed_card_declarer_chooses_before_the_lead() -> None:
    """Laws 24 and 50D2: W exposed HA during the auction and becomes a defender; declarer
    states his option before E's opening lead (the play taken up then): HA is picked up and E
    must lead a heart."""
    state = fold(events(
        {"type": "board_started", "board": 1, "deal": "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 "
                                                       "AK532.T.JT6.T985 Q6.A954.Q973.KJ6"},
        {"type": "call", "seat": "N", "call": "1S"},
        {"type": "card_exposed", "seat": "W", "card": "HA"},
        *({"type": "call", "seat": s, "call": "P"} for s in "ESW")))
    state = option("N", "require", state)
    assert view(state)["penalty_cards"] == [] and options(state)["chosen"] == ["H"]
    assert alerts(played("E SJ", state))[-1] == ("lead_restriction_not_followed", "50D2")
    assert alerts(played("E HQ", state)) == [("exposed_card", "24B")]


# --- Law 51B: two or more penalty cards ----------------------------------------------------

# E wins trick 1; W then exposes HA and C6: two penalty cards, both major (Law 50B)
_TWO = "E DA, S D6, W D3, N D2"


def two_penalty_cards() -> TableState:
    return exposed("W", "C6", exposed("W", "HA", played(_TWO)))


def test_law_50b_two_penalty_cards_are_both_major() -> None:
    """Law 50B: "when one defender has two or more penalty cards, all such cards become
    major": C6, below honour and dropped, is major beside HA; E's lead waits for declarer's
    option on both suits."""
    state = two_penalty_cards()
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False},
                                            {"seat": "W", "card": "C6", "led": False}]
    assert options(state) == {"seat": "E", "suits": ["H", "C"], "choice": None, "chosen": []}


def test_law_51b2_declarer_requires_one_of_the_suits_named() -> None:
    """Law 51B2: with penalty cards in more than one suit declarer requires a suit he names
    (without one, the choice is ignored); its cards are picked up (51B1(a)), the others stay;
    E must lead a club."""
    state = two_penalty_cards()
    assert options(option("N", "require", state)) == options(state)
    state = option("N", "require", state, "C")
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert view(state)["rectifications"][-1]["law"] == "51B"
    assert alerts(played("E D5", state))[-1] == ("lead_restriction_not_followed", "50D2")
    assert "lead_restriction_not_followed" not in kinds(played("E C2", state))


def test_law_51b2_declarer_prohibits_every_suit_of_the_penalty_cards() -> None:
    """Law 51B2: declarer prohibits the suits of the penalty cards: every penalty card of
    every suit prohibited is picked up, and E may lead neither hearts nor clubs."""
    state = option("N", "prohibit", two_penalty_cards())
    assert view(state)["penalty_cards"] == [] and options(state)["chosen"] == ["H", "C"]
    assert alerts(played("E C2", state))[-1] == ("lead_restriction_not_followed", "50D2")
    assert "lead_restriction_not_followed" not in kinds(played("E SJ", state))


# --- Laws 50B–C: the minor penalty card ----------------------------------------------------


def minor_d3() -> TableState:
    """W drops D3 before E's opening lead: a single card below honour rank exposed
    inadvertently, a minor penalty card once the play begins (Laws 49, 50B)."""
    return exposed("W", "D3", played(""))


def test_law_50c_the_partners_lead_is_free_of_a_minor_penalty_card() -> None:
    """Law 50C: "offender's partner is not subject to lead restriction": no option awaits
    declarer, E leads any card."""
    assert view(minor_d3())["alerts"][0]["message"].endswith("a minor penalty card (Laws "
                                                             "49, 50B).")
    state = played("E SJ", minor_d3())
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "D3", "led": False,
                                             "minor": True}]
    assert options(state) is None and alerts(state) == [("exposed_card", "49")]


def test_law_50c_no_other_low_card_of_its_suit_before_the_minor_penalty_card() -> None:
    """Law 50C: W may not play another diamond below honour rank (D9) before D3, an irregularity
    with Law 52's options; an honour (DQ) he may, D3 staying a penalty card; another suit is
    free (no obligation to play it at the first opportunity, unlike 50D1)."""
    state = played("E DA, S D6", minor_d3())
    assert alerts(played("W D9", state))[1:] == [("penalty_card_not_played", "50C")]
    honour = played("W DQ", state)
    assert alerts(honour)[1:] == [] and view(honour)["penalty_cards"][0]["card"] == "D3"
    assert alerts(played("W D3", state))[1:] == [] and view(played("W D3", state))[
        "penalty_cards"] == []
    spades = played("E SJ, S S2", minor_d3())
    assert alerts(played("W S6", spades))[1:] == []


def test_law_50b_a_card_exposed_as_a_lead_is_major() -> None:
    """Law 50B: a card exposed through deliberate play (W's lead out of turn of D3, declined)
    is a major penalty card, though below honour rank: 50D1 binds W, 50D2 his partner."""
    state = played("W D3, N decline")
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "D3", "led": False}]
    assert options(state) is not None and options(state)["suits"] == ["D"]


# --- Law 26: declarer's option for a withdrawn call, stated with `lead_option` -------------


def after_auction(script: str, ruleset: str = "duplicate") -> TableState:
    maps = scripted(script, ruleset=ruleset)
    maps[0]["deal"] = DEAL
    return fold(events(*maps))


# W's 1S out of rotation, not accepted (Law 31B): E, W's partner, leads first against N's 2H
_W_WITHDREW_1S = "N 1H, W 1S, N decline, E P, S 2H, W P, N P, E P"


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "26A2"), ("rubber", "26(a)")])
def test_law_26a2_declarer_requires_the_suit_of_the_withdrawn_call(ruleset: str,
                                                                   law: str) -> None:
    """Law 26A2 (rubber 26(a)): W's withdrawn 1S named spades, which he did not name in the
    legal auction: declarer requires E's opening lead in spades (`lead_option`); a diamond
    lead while E holds spades alerts the Director (the lead stands), a spade complies."""
    state = option("N", "require", after_auction(_W_WITHDREW_1S, ruleset))
    assert options(state) == {"seat": "E", "suits": ["S"], "choice": "require",
                              "chosen": ["S"]}
    assert view(state)["rectifications"][-1]["law"] == law
    assert alerts(played("E DA", state))[-1] == ("lead_restriction_not_followed", law)
    assert "lead_restriction_not_followed" not in kinds(played("E SJ", state))


def test_law_26_only_declarer_before_the_partners_first_lead() -> None:
    """Law 26: "declarer may" — dummy's or a defender's `lead_option` is ignored; so is one
    after E's first turn to lead has come (the option then lapsed), and a suit Law 26A2 does
    not give (hearts, for the spades of the withdrawn call)."""
    state = after_auction(_W_WITHDREW_1S)
    for seat, suit in (("S", None), ("W", None), ("N", "H")):
        after = option(seat, "require", state, suit)
        assert view(after)["play"] is None or options(after) is None
        assert len(view(after)["ignored"]) == len(view(state)["ignored"]) + 1
    led = option("N", "prohibit", played("E DA", state))
    assert view(led)["ignored"][-1]["reason"].startswith("no lead option awaits")


def test_law_26b_declarer_prohibits_one_suit_he_names() -> None:
    """Law 26B: W's withdrawn double: declarer may prohibit E's lead of any one suit he names
    (a requirement, or a prohibition without a suit, is ignored); a diamond lead against it
    alerts the Director."""
    state = after_auction("N 1S, W X, N decline, E P, S 2S, W P, N P, E P")
    assert len(view(option("N", "require", state, "D"))["ignored"]) == 1
    assert len(view(option("N", "prohibit", state))["ignored"]) == 1
    state = option("N", "prohibit", state, "D")
    assert options(state)["chosen"] == ["D"]
    assert alerts(played("E DA", state))[-1] == ("lead_restriction_not_followed", "26B")
    assert "lead_restriction_not_followed" not in kinds(played("E HQ", state))


def test_law_26a2_the_partners_first_turn_to_lead_may_come_later() -> None:
    """Law 26A2: E's withdrawn 1D (an insufficient bid, 27B2) restricts W, declarer's RHO, "at
    his first turn to lead", which comes when he wins a trick: declarer prohibits diamonds;
    E's leads do not lapse it; W, on lead after winning with HA, may not lead a diamond while
    he holds another suit, and the prohibition lasts while he retains the lead."""
    state = option("N", "prohibit", after_auction(
        "N 1H, E 1D, S decline, E 1S, S 2H, W P, N P, E P"))
    state = played("E DA, S D6, W D3, N D2", state)
    assert options(state) is not None and options(state)["seat"] == "W"
    state = played("E H6, S HT, W HA, N H2", state)  # W wins: his first turn to lead
    assert alerts(played("W D9", state))[-1] == ("lead_restriction_not_followed", "26A2")
    state = played("W S6, N S4, E S7, S SA", state)  # dummy wins: W lost the lead
    assert options(state) is None


# --- Law 51A: declarer names which penalty card is played -----------------------------------


def named(seat: str, card: str, state: TableState) -> TableState:
    return fold(events({"type": "penalty_card_named", "seat": seat, "card": card}), state)


def w_to_lead_with_two() -> TableState:
    """W holds HA and C6 as penalty cards (declarer let E's lead be free), wins trick 1 with
    DQ (he had to follow diamonds) and is on lead: both can be legally played."""
    state = played("E D5, S DJ, W DQ, N D4", option("N", "free", two_penalty_cards()))
    assert view(state)["play"]["turn"] == "W" and len(view(state)["penalty_cards"]) == 2
    return state


def test_law_51a_declarer_designates_which_penalty_card_is_played() -> None:
    """Law 51A: "declarer designates which is to be played at that turn": N names C6; W
    plays it, no irregularity; his HA instead is another penalty card than the one
    designated: the Director's alert with Law 52's options; the designation then lapses."""
    state = named("N", "C6", w_to_lead_with_two())
    assert view(state)["play"]["designated"] == {"seat": "W", "card": "C6"}
    assert view(state)["rectifications"][-1]["law"] == "51A"
    obeyed = played("W C6", state)
    assert "penalty_card_not_played" not in kinds(obeyed)
    assert view(obeyed)["play"]["designated"] is None
    other = played("W HA", state)
    assert alerts(other)[-1] == ("penalty_card_not_played", "51A")
    assert view(other)["play"]["designated"] is None
    assert view(other)["penalty_cards"] == [{"seat": "W", "card": "C6", "led": False}]


@pytest.mark.parametrize(("seat", "card", "script", "reason"), [
    ("E", "C6", "", "only declarer (N) names the penalty card (Law 51A)"),
    ("N", "HK", "", "HK is not one of two or more penalty cards W may legally play (Law 51A)"),
    ("N", "HA", "W C6", "no defender with penalty cards is to play"),  # N's turn
])
def test_law_51a_a_designation_the_law_does_not_give_is_ignored(seat: str, card: str,
                                                                 script: str, reason: str
                                                                 ) -> None:
    """Law 51A: declarer alone, of two or more penalty cards the defender in turn may
    legally play; anything else is noted as ignored and designates nothing."""
    state = named(seat, card, played(script, w_to_lead_with_two()))
    assert view(state)["play"]["designated"] is None
    assert view(state)["ignored"][-1]["reason"] == reason


def test_law_51a_only_cards_he_may_legally_play_at_that_turn() -> None:
    """Law 51A counts the penalty cards that "can legally be played": before W's turn, or
    when he must follow a suit of which only one of them is, there is nothing to name."""
    early = named("N", "C6", option("N", "free", two_penalty_cards()))  # E is on lead
    assert view(early)["play"]["designated"] is None
    following = played("E HQ, S HT", option("N", "free", two_penalty_cards()))
    assert view(following)["play"]["turn"] == "W"  # hearts led: of the two, HA only
    assert view(named("N", "C6", following))["play"]["designated"] is None
    assert view(named("N", "HA", following))["play"]["designated"] is None

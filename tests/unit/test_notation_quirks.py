"""Real archives as BBO shows them: the quirks of old vugraph LIN (1997–2015), read board by
board; a board that cannot be read (LIN or PBN) is skipped and named, not the file."""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold, from_map
from shared.notation import (
    RecordError,
    SkippedBoard,
    lin_boards,
    lin_events,
    pbn_boards,
    pbn_events,
)
from tests.records import DATA

# South AKQJ.AKQJ.AKQJ.2, West 5432.5432.5432.3, North 9876.9876.9876.4; East is the rest.
HANDS = "SAKQJHAKQJDAKQJC2,S5432H5432D5432C3,S9876H9876D9876C4,"
DEAL = "N:9876.9876.9876.4 T.T.T.AKQJT98765 AKQJ.AKQJ.AKQJ.2 5432.5432.5432.3"
QUIRKS = DATA / "lin-quirks" / "old-vugraph.lin"


def calls(events: list[dict[str, Any]]) -> list[str]:
    return [f"{e['seat']} {e['call']}" for e in events if e["type"] == "call"]


def starts(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "board_started"]


def board_of(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The state of the one board of `events`, folded; it must fold without an alert."""
    board = fold(from_map(e) for e in events).board
    assert board is not None
    state = board.to_dict()
    assert state["alerts"] == []
    return state


def test_tags_calls_cards_and_vulnerability_in_any_case() -> None:
    """`MB|1h|`, `Md|`, `mb|P|`, `SV|B|`, `pc|s5|`: read as their lower- or upper-case
    spellings."""
    events = lin_events(f"Md|3{HANDS}|SV|B|mb|P|MB|1h|Mb|p|mb|4H|mb|P|mb|p|mb|p|pc|sA|")
    assert starts(events) == [{"type": "board_started", "board": 1, "dealer": "N",
                               "deal": DEAL, "vulnerability": "Both"}]
    assert calls(events) == ["N P", "E 1H", "S P", "W 4H", "N P", "E P", "S P"]
    assert events[-1] == {"type": "card_played", "seat": "S", "card": "SA"}
    assert board_of(events)["contract"]["declarer"] == "E"


@pytest.mark.parametrize(("value", "call"), [("1C!", "1C"), ("!1C", "1C"), ("1c!!", "1C"),
                                            ("p!", "P"), ("d !", "X")])
def test_an_alert_mark_anywhere_in_a_call_alerts_it(value: str, call: str) -> None:
    events = lin_events(f"md|3{HANDS}|sv|o|mb|1S|mb|{value}|")
    assert events[2] == {"type": "call", "seat": "E", "call": call, "alert": True}


def test_a_dash_holds_a_seats_turn_as_a_pass_and_pads_after_the_auction() -> None:
    """`mb|-|` (and `mb||`) in the auction: BBO shows a dash in that seat's column and the next
    call in the next seat's; the turn went by, which the Laws allow only as a pass (Law 17C,
    rotation). After the final pass (Law 17E) a dash is padding and is left out."""
    events = lin_events(f"md|3{HANDS}|sv|o|mb|-|mb|p|mb|1H|mb||mb|4H|mb|-|mb|p|mb|p|"
                        "mb|-|mb|-|pc|S5|")
    assert calls(events) == ["N P", "E P", "S 1H", "W P", "N 4H", "E P", "S P", "W P"]
    state = board_of(events)
    assert state["contract"] == {"level": 4, "strain": "H", "risk": "", "declarer": "S"}
    assert state["opening_lead"] == {"seat": "W", "card": "S5"}
    passed_out = lin_events(f"md|3{HANDS}|mb|-|mb|-|mb|-|mb|-|mb|-|")
    assert calls(passed_out) == ["N P", "E P", "S P", "W P"]
    assert board_of(passed_out)["status"] == "passed_out"


def test_an_explanation_that_follows_no_call_is_left_out() -> None:
    """`an|` before any board, before the board's first call, after the opening lead, or
    empty: there is no call it explains (Law 20F), and no other call gets it."""
    events = lin_events(f"an|lost|md|3{HANDS}|an|before the auction|mb|1C!|an||mb|p|"
                        "an|shown|mb|p|mb|p|pc|DT|an|after the lead|")
    assert [e.get("explanation") for e in events if e["type"] == "call"] == \
        [None, "shown", None, None]
    assert events[1] == {"type": "call", "seat": "N", "call": "1C", "alert": True}
    assert events[-1] == {"type": "card_played", "seat": "E", "card": "DT"}


def test_a_second_rooms_board_without_md_has_the_other_rooms_deal() -> None:
    """Old vugraph files give the deal once, in the room played first: `qx|c1|` without `md`
    is board 1 again, with its deal, dealer and vulnerability, whichever room comes first."""
    auction = "mb|p|mb|p|mb|1H|mb|p|mb|4H|mb|p|mb|p|mb|p|"
    open_first = lin_events(f"qx|o1|md|3{HANDS}|sv|e|{auction}pc|S5|qx|c1|{auction}pc|C3|")
    closed_first = lin_events(f"qx|c1|{auction}pc|C3|qx|o1|md|3{HANDS}|sv|e|{auction}")
    for events in (open_first, closed_first):
        assert starts(events) == [{"type": "board_started", "board": 1, "dealer": "N",
                                   "deal": DEAL, "vulnerability": "EW"}] * 2
        assert calls(events)[:8] == calls(events)[8:] == \
            ["N P", "E P", "S 1H", "W P", "N 4H", "E P", "S P", "W P"]
    assert open_first[-1] == {"type": "card_played", "seat": "W", "card": "C3"}
    assert closed_first[9] == {"type": "card_played", "seat": "W", "card": "C3"}


def test_a_board_without_any_deal_has_the_dealer_of_its_number() -> None:
    """No `md` in either room: the deal is unknown, and the dealer and vulnerability are the
    board's own (the 16-board cycle: board 7 is dealt by South, both vulnerable)."""
    events = lin_events("qx|o7|mb|1D|mb|p|mb|p|mb|p|pc|HA|")
    assert starts(events) == [{"type": "board_started", "board": 7}]
    assert calls(events) == ["S 1D", "W P", "N P", "E P"]
    state = board_of(events)
    assert (state["dealer"], state["vulnerability"], state.get("deal")) == ("S", "Both", None)
    assert state["opening_lead"] == {"seat": "W", "card": "HA"}  # declarer's LHO


def test_a_second_rooms_board_without_qx_keeps_its_number() -> None:
    """An `md` on a board that already has its deal begins another board: with the same deal,
    the same board in the other room; with another deal, the next board."""
    auction = "mb|1C|mb|p|mb|p|mb|p|"
    same = lin_events(f"qx|o5|md|3{HANDS}|{auction}md|3{HANDS}|{auction}")
    assert [s["board"] for s in starts(same)] == [5, 5]
    assert len(calls(same)) == 8
    other = lin_events(f"qx|o5|md|3{HANDS}|{auction}md|4{HANDS}|{auction}")
    assert [(s["board"], s["dealer"]) for s in starts(other)] == [(5, "N"), (6, "E")]
    assert calls(other)[4:] == ["E 1C", "S P", "W P", "N P"]


@pytest.mark.parametrize(("md", "deal"), [
    ("3", "N:- - - -"), ("3,,,", "N:- - - -"), ("3SAKQ,S2,,", "N:- - - -"),
    ("3SAKQJHAKQJDAKQJC2,S5432,,", "N:- - AKQJ.AKQJ.AKQJ.2 -")])
def test_a_partial_deal_leaves_the_hands_it_does_not_hold_whole_unknown(md: str,
                                                                        deal: str) -> None:
    """`md|3|` (a dealer and no hands) and hands of fewer than 13 cards: the dealer is read,
    and a hand that is not whole is unknown ("-")."""
    events = lin_events(f"md|{md}|sv|o|mb|1S|mb|p|mb|p|mb|p|")
    assert starts(events)[0] == {"type": "board_started", "board": 1, "dealer": "N",
                                 "deal": deal, "vulnerability": "None"}
    assert board_of(events)["contract"]["declarer"] == "N"


def test_three_whole_hands_and_a_short_fourth_make_the_whole_deal() -> None:
    """BBO leaves the last hand out, or gives part of it: it is the 13 cards left."""
    events = lin_events(f"md|3{HANDS}ST|sv|o|mb|1S|mb|p|mb|p|mb|p|pc|CA|")
    assert starts(events)[0]["deal"] == DEAL
    assert events[-1] == {"type": "card_played", "seat": "E", "card": "CA"}


def test_a_short_hand_still_says_who_led_its_card() -> None:
    """A lead out of turn by a player whose hand is only partly given: the record says he held
    the card, and the engine judges the lead (Law 54)."""
    events = lin_events("md|3SAKQ,S2,,|sv|o|mb|1S|mb|p|mb|p|mb|p|pc|S2|")  # West held S2
    assert events[-1] == {"type": "card_played", "seat": "W", "card": "S2"}


@pytest.mark.parametrize(("value", "number"), [("o12", 12), ("c12", 12), ("O12,BOARD 12", 12),
                                               ("o12,board 12", 12), (" 12 ", 12)])
def test_the_board_number_of_qx_is_its_first_digits(value: str, number: int) -> None:
    assert starts(lin_events(f"qx|{value}|md|3{HANDS}|"))[0]["board"] == number


@pytest.mark.parametrize(("text", "numbers"), [
    (f"md|3{HANDS}|ah|Board 9|md|4{HANDS}|ah|10|", [9, 10]),  # BBO's files: ah after md
    (f"ah|Board 9|md|3{HANDS}|ah|bd 10|md|4{HANDS}|", [9, 10]),  # or before
    (f"qx|o3|md|3{HANDS}|ah|Board 3|mb|p|ah|Board 4|md|4{HANDS}|", [3, 4]),
    (f"qx|o3|md|3{HANDS}|ah|Board 5|", [5]),  # the number BBO shows is the ah's
])
def test_the_board_number_of_ah_names_the_board_it_belongs_to(text: str,
                                                               numbers: list[int]) -> None:
    assert [s["board"] for s in starts(lin_events(text))] == numbers


@pytest.mark.parametrize(("value", "vulnerability"), [
    ("o", "None"), ("0", "None"), ("-", "None"), ("", "None"), ("None", "None"),
    ("n", "NS"), ("NS", "NS"), ("e", "EW"), ("E-W", "EW"), ("b", "Both"), ("All", "Both"),
    ("BOTH", "Both")])
def test_vulnerability_in_letters_and_words(value: str, vulnerability: str) -> None:
    assert starts(lin_events(f"md|3{HANDS}|sv|{value}|"))[0]["vulnerability"] == vulnerability


@pytest.mark.parametrize(("bad", "why"), [
    ("mb|1Q|", "mb|1Q|: not a call: '1Q'"),
    ("pc|X9|", "pc|X9|: not a card: 'X9'"),
    ("sv|z|", "sv|z|: not a vulnerability: 'z'"),
])
def test_a_board_that_cannot_be_read_is_skipped_and_named(bad: str, why: str) -> None:
    """One unreadable board never loses a file: the others are read, and the skipped board is
    named with its line and the problem. `lin_events` reads all or nothing."""
    good = f"qx|o1|md|3{HANDS}|mb|1C|mb|p|mb|p|mb|p|\n"
    text = good + f"qx|o2|md|4{HANDS}|\nmb|1C|{bad}\n" + good.replace("o1", "o3")
    result = lin_boards(text)
    assert [s["board"] for s in starts(result.events)] == [1, 3] and result.boards == 2
    assert len(result.skipped) == 1
    skipped = result.skipped[0]
    assert (skipped.board, skipped.line) == (2, 3) and skipped.reason.startswith(why)
    assert str(skipped).startswith(f"board 2 (line 3): skipped: {why}")
    with pytest.raises(RecordError, match=rf"^line 3: {why}".replace("|", r"\|")):
        lin_events(text)


@pytest.mark.parametrize(("md", "why"), [
    (f"3{HANDS.replace('S9876', 'S98765')}", "a hand of 14 cards"),
    ("3SAKQJHAKQJDAKQJC2,SAKQJHAKQJDAKQJC2,,", "dealt twice"),
    ("9" + HANDS, "dealer digit"),
])
def test_a_deal_that_is_none_skips_its_board(md: str, why: str) -> None:
    result = lin_boards(f"qx|o1|md|{md}|mb|1C|qx|o2|md|3{HANDS}|mb|1C|")
    assert [s["board"] for s in starts(result.events)] == [2]
    assert [(s.board, s.line) for s in result.skipped] == [(1, 1)]
    assert why in result.skipped[0].reason


def test_the_quirks_fixture_folds_board_by_board() -> None:
    """tests/data/lin-quirks/old-vugraph.lin, an old vugraph segment with every quirk above:
    every board read folds with no director alert to the contract of its `rs` list, and the
    broken one (board 4, open room) is skipped and named."""
    result = lin_boards(QUIRKS.read_text())
    assert result.skipped == [SkippedBoard(4, 20, "mb|1Q|: not a call: '1Q' (expected a bid "
                                                  "such as 1C or 3NT, P, X or XX)")]
    state = fold(from_map(e) for e in result.events)
    boards = [b.to_dict() for b in state.boards]
    assert [b["board"] for b in boards] == [1, 1, 2, 2, 3, 3, 4]
    assert all(b["alerts"] == [] for b in boards)
    contracts = [b["contract"] and (b["contract"]["level"], b["contract"]["strain"],
                                    b["contract"]["declarer"]) for b in boards]
    assert contracts == [(4, "H", "S"), (4, "H", "S"), (3, "NT", "S"), (3, "NT", "S"),
                         (1, "S", "S"), None, (1, "C", "N")]
    assert [len(b["alerted_calls"]) for b in boards] == [1, 0, 2, 0, 0, 0, 0]


def test_a_broken_pbn_game_is_skipped_not_the_file() -> None:
    """tests/data/pbn21-broken.pbn (two games with bad tag values) before a good game: the
    good board is read, each broken game is named with its line."""
    broken = (DATA / "pbn21-broken.pbn").read_text()
    good = '[Board "3"]\n[Dealer "S"]\n[Deal "N:- - - -"]\n[Auction "S"]\n1C Pass Pass Pass\n'
    result = pbn_boards(broken + "\n" + good)
    assert [s["board"] for s in starts(result.events)] == [3]
    assert len(calls(result.events)) == 4
    assert [(s.board, s.line) for s in result.skipped] == [(None, 7), (None, 11)]
    assert str(result.skipped[0]) == ("line 7 (no board number): skipped: tag OptimumScore: "
                                      "'100' is not a score such as 'NS 420'")
    with pytest.raises(RecordError, match="line 7: tag OptimumScore"):
        pbn_events(broken + "\n" + good)


@pytest.mark.parametrize(("bad", "line", "why"), [
    ('[Board "2"]\n[Site "a"b"]\n[Deal "N:- - - -"]\n', 7, "not a tag pair"),
    ('[Board "2"]\n[Deal "N:- - - -"]\n[Auction "N"]\n1Z\n', 9, "not a call: '1Z'"),
    ('some words\n[Board "2"]\n[Deal "N:- - - -"]\n', 6, "text outside a game"),
    ('[Board "2"]\n[Deal "N:AKQ - - -"]\n', 7, "four suits"),
    ('[Board "2"]\n[Deal "N:- - - -"]\n[Auction "N"]\nPass\n[Play "Z"]\nS2\n', 10, "'Z'"),
    ('[Board "2"]\n[Deal "N:- - - -"]\n[Auction "N"]\nPass\n[Play "W"]\nS1\n', 11, "'S1'"),
])
def test_each_kind_of_broken_pbn_game_skips_that_game_only(bad: str, line: int,
                                                           why: str) -> None:
    game = '[Board "{}"]\n[Deal "N:- - - -"]\n[Auction "N"]\n1C Pass Pass Pass\n'
    result = pbn_boards(game.format(1) + "\n" + bad + "\n" + game.format(3))
    assert [s["board"] for s in starts(result.events)] == [1, 3]
    skipped = result.skipped
    assert len(skipped) == 1 and skipped[0].line == line and why in skipped[0].reason
    assert skipped[0].board == 2

"""A real vugraph record's board with a token the LIN reader does not know (`PU|` after the
auction): the reader passes it over and says so, and the play after it comes through, with the
claim and the result (Laws 68, 69A, 79A)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from shared import fold, from_map
from shared.notation import PassedOver, lin_boards, lin_events
from shared.table.board_result import result_view
from tests.records import DATA

FIXTURE = DATA / "lin-quirks" / "unknown-token.lin"
ORIGINAL = DATA / "usbf-2010-semifinal-vugraph.lin"
HANDS = "SAKQJHAKQJDAKQJC2,S5432H5432D5432C3,S9876H9876D9876C4,"
REASON = "not a LIN tag this reader knows"


def line_of(text: str, token: str) -> int:
    return text[:text.index(token)].count("\n") + 1


def first_board(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the first board of `events`."""
    starts = [i for i, e in enumerate(events) if e["type"] == "board_started"] + [len(events)]
    return events[:starts[1]]


def test_a_real_board_with_an_unknown_token_after_the_auction_keeps_its_play_and_result(
        ) -> None:
    """Board 46 (open room) of the USBF 2010 vugraph record with `PU|` after the final pass:
    read as the same board without it: the opening lead and the play, then `mc|10|` as a claim
    agreed (Laws 68, 69A), so the board has its result (Law 79A)."""
    text = FIXTURE.read_text()
    read = lin_boards(text)
    assert read.skipped == [] and read.boards == 1
    plain = first_board(lin_boards(ORIGINAL.read_text()).events)
    assert read.events == plain
    cards = [e for e in read.events if e["type"] == "card_played"]
    assert len(cards) == text.count("pc|") and cards[0]["card"] == "C2"
    assert [e["type"] for e in read.events[-3:]] == ["claim", "claim_response", "claim_response"]
    board = fold(from_map(e) for e in read.events).board
    assert board is not None
    assert result_view(board) == {"declarer_tricks": 10, "score_ns": -420}  # 4H by E, made


def test_the_unknown_token_is_reported_with_its_board_and_line() -> None:
    """The reader says what it passed over, as it names a board it skips: the board, the line,
    the token; the board is read, so reading all or nothing does not refuse the record."""
    text = FIXTURE.read_text()
    read = lin_boards(text)
    assert read.passed_over == [PassedOver(46, line_of(text, "PU|"), f"PU|: {REASON}")]
    assert str(read.passed_over[0]) == \
        f"board 46 (line {line_of(text, 'PU|')}): passed over: PU|: {REASON}"
    assert lin_events(text) == read.events


BOARD = (f"qx|o7|st||md|3{HANDS}|sv|o|\nmb|1S|mb|p|mb|p|mb|p|pg||\n"
         "pc|H5|pc|H6|pc|HT|pc|HA|pg||\npc|SA|pc|S2|pc|S6|pc|ST|pg||\nmc|13|pg||\n")


@pytest.mark.parametrize(("before", "token"), [
    ("qx|o7|", "PU|"),            # before the deal
    ("sv|o|", "PU|"),             # after the vulnerability
    ("mb|1S|", "xy|"),            # in the auction
    ("mb|p|pg||", "PU|"),         # after the final pass, as the real record has it
    ("pc|H6|", "pu|"),            # in a trick, lower case
    ("pc|SA|", "zz|what|"),       # an unknown tag with its value
    ("pc|ST|pg||\n", "Q|"),       # before the claim, at a line's start
])
def test_an_unknown_token_anywhere_in_a_board_is_passed_over_and_reported(
        before: str, token: str) -> None:
    """Anywhere in a board, alone or with a value, an unknown token is passed over: the board
    reads as it does without it (the deal, the calls, every card, the claim), and it is
    reported with the board and its line."""
    plain = lin_events(BOARD)
    at = BOARD.index(before) + len(before)
    text = BOARD[:at] + token + BOARD[at:]
    read = lin_boards(text)
    assert read.events == plain and read.skipped == []
    name = token.split("|")[0]
    assert read.passed_over == [PassedOver(7, line_of(text, token), f"{name}|: {REASON}")]


def test_an_unknown_token_before_any_board_is_reported_without_a_board() -> None:
    text = "PU|" + BOARD
    read = lin_boards(text)
    assert read.events == lin_events(BOARD)
    assert [(p.board, str(p)) for p in read.passed_over] == [
        (None, f"line 1 (no board number): passed over: PU|: {REASON}")]


def test_convert_names_each_token_it_passes_over() -> None:
    """`tableserver convert` writes the board's events and names the token on stderr, one line
    as for a board skipped."""
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "convert", str(FIXTURE)],
                            capture_output=True, text=True, check=False, timeout=120)
    assert result.returncode == 0, result.stderr
    line = line_of(FIXTURE.read_text(), "PU|")
    assert result.stderr.splitlines() == [
        f"tableserver convert: {FIXTURE}: board 46 (line {line}): passed over: PU|: {REASON}"]
    assert '"type":"card_played"' in result.stdout and '"type":"claim"' in result.stdout

"""The play in PBN and LIN (shared.notation, docs/cli.md): the real records in tests/data
fold their play to the results they state, read by the independent test reader
(tests/records.py), every board counted; LIN's `mc|N` closes a play as a claim agreed (Laws 68,
69A) or as a result recorded (Law 79A); random legal plays read back from the writers as they
were folded."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from shared import fold, from_map
from shared.deal import parse_deal
from shared.notation import lin_boards, lin_events, pbn_boards, pbn_events
from shared.notation.export import to_lin, to_pbn
from shared.table.board import Board
from shared.table.board_result import play_view, result_view
from tests.records import DATA, read_lin, read_pbn
from tests.unit.test_notation_records import text_of

# North: AKQJ in three suits and the C2; East: 5432 and the C3; South: 9876 and the C4
HANDS = "3SAKQJHAKQJDAKQJC2,S5432H5432D5432C3,S9876H9876D9876C4,"
RS = re.compile(r"([1-7])[CDHSN][NESW]x{0,2}([-+=])(\d*)")  # `4SWx-4`: 4S by W doubled, 2 down
ONE_NT = "mb|1N|mb|p|mb|p|mb|p|"  # North declares 1NT; East leads (Law 41A)


def boards_of(events: list[dict[str, Any]]) -> tuple[Board, ...]:
    return fold(from_map(e) for e in events).boards


def pbn_result(tags: dict[str, str]) -> int | None:
    """`[Result]` as declarer's tricks: `8`, or a side's (`NS 11`)."""
    value = tags.get("Result", "")
    if value.isdigit():
        return int(value)
    side, _, number = value.partition(" ")
    if not number.isdigit():
        return None
    ours = "NS" if tags["Declarer"] in "NS" else "EW"
    return int(number) if side == ours else 13 - int(number)


@pytest.mark.parametrize(("name", "results", "claims"), [
    ("realbridge-2021-online-qualifier.pbn", 278, 214),
    ("pbn21-irregularities.pbn", 1, 1)])
def test_pbn_records_fold_their_play_to_their_result_and_score(name: str, results: int,
                                                               claims: int) -> None:
    """Every board with a [Result] folds its [Play] to that result and to its [Score] (Law 77),
    with no director alert; where the cards stop before the thirteenth trick, as a claim
    agreed (Laws 68, 69A)."""
    boards = [b for b in boards_of(pbn_events(text_of(name))) if b.calls]
    records = [r for r in read_pbn(DATA / name) if r.tags.get("Board", "").isdigit()]
    assert len(boards) == len(records)
    checked = claimed = 0
    for board, record in zip(boards, records, strict=True):
        assert not board.alerts, board.board
        tricks = pbn_result(record.tags)
        if tricks is None:
            continue
        result = result_view(board)
        assert result is not None and result["declarer_tricks"] == tricks, board.board
        score = record.tags.get("Score", "").replace("+", "")
        if score:
            assert score == f"NS {result['score_ns']}", board.board
        checked += 1
        claimed += board.play is not None and board.play.ended == "claim"
    assert (checked, claimed) == (results, claims)


@pytest.mark.parametrize(("name", "boards", "complete"), [
    ("usbf-2010-semifinal-vugraph.lin", 30, 0), ("robot-match-with-alerts.lin", 8, 6)])
def test_lin_records_fold_their_play_to_mc_and_the_results_list(name: str, boards: int,
                                                                complete: int) -> None:
    """Every board: its `pc` cards, then `mc|N` (declarer's tricks, agreed: a claim), or all
    52 cards: declarer's tricks are the `mc`, else those counted (Law 44), and the USBF
    file's `rs` list (`4HE=`, `4SWx-4`) gives the same; no director alert."""
    folded = boards_of(lin_events(text_of(name)))
    read, results = read_lin(DATA / name)
    assert len(folded) == len(read) == boards
    played_out = 0
    for i, (board, record) in enumerate(zip(folded, read, strict=True)):
        assert not board.alerts and board.play is not None
        assert len(board.play.played) == record.cards
        tricks = board.play.declarer_tricks
        if record.claimed is not None:
            assert tricks == record.claimed and board.play.ended == "claim"
        else:
            assert record.cards == 52 and board.play.ended == "tricks"
            played_out += 1
        if results:
            stated = RS.fullmatch(results[i])
            assert stated is not None
            level, sign, by = stated.groups()
            assert tricks == int(level) + 6 + (int(sign + by) if by else 0), results[i]
    assert played_out == complete


def lin(play: str) -> list[dict[str, Any]]:
    return lin_events(f"md|{HANDS}|sv|o|{ONE_NT}{play}")


def test_mc_during_the_play_is_declarers_claim_agreed() -> None:
    """Law 68A: the claim of the tricks still to come; 69A: agreed by both defenders."""
    events = lin("pc|S5|pc|S6|pc|ST|pc|SA|mc|12|")  # North won the first trick
    assert events[-3:] == [{"type": "claim", "seat": "N", "tricks": 11, "statement": ""},
                           {"type": "claim_response", "seat": "E", "accept": True},
                           {"type": "claim_response", "seat": "W", "accept": True}]
    board = boards_of(events)[-1]
    assert board.play is not None and board.play.ended == "claim"
    assert result_view(board) == {"declarer_tricks": 12, "score_ns": 240}


@pytest.mark.parametrize(("play", "why"), [
    ("mc|7|", "no card recorded"),
    ("pc|S5|pc|S6|pc|ST|pc|SA|mc|0|", "fewer than declarer has won: a claim cannot say it"),
    ("pc|S5|pc|H9|pc|ST|pc|SA|pc|HA|pc|H5|pc|H8|mc|7|", "a revoke (South's H9, Law 61A)")])
def test_mc_the_claim_cannot_say_is_a_result_recorded(play: str, why: str) -> None:
    """Law 79A: the tricks agreed at the table stand as given."""
    events = lin(play)
    assert events[-1] == {"type": "result_recorded",
                          "tricks": int(play.rsplit("mc|")[1][:-1])}, why
    board = boards_of(events)[-1]
    assert board.play is not None and board.play.ended == "recorded"


def test_mc_after_the_thirteenth_trick_or_without_a_contract_adds_nothing() -> None:
    """Law 44: thirteen tricks played out are the result; a passed-out board has none."""
    cards = [e["card"] for e in random_play(1, 52) if e["type"] == "card_played"]
    events = lin("".join(f"pc|{c}|" for c in cards) + "mc|3|")
    assert len(cards) == 52 and events[-1]["type"] == "card_played"
    board = boards_of(events)[-1]
    assert board.play is not None and board.play.ended == "tricks"
    assert board.play.declarer_tricks == board.play.won_ns != 3
    assert lin_events("md|1SAK,,,|sv|o|mb|p|mb|p|mb|p|mb|p|mc|7|")[-1]["type"] == "call"


def random_play(seed: int, cards: int) -> list[dict[str, Any]]:
    """A board of the quirks deal bid to 1NT by North, then `cards` random legal cards
    (following suit when able, Law 44C)."""
    rng = random.Random(seed)
    events = lin("")
    hands = {s: {f"{suit}{rank}" for suit, ranks in zip("SHDC", h.split("."), strict=True)
                 for rank in ranks} for s, h in parse_deal(events[0]["deal"]).items()}
    for _ in range(cards):
        board = boards_of(events)[-1]
        play = board.play
        if play is not None and play.ended is not None:
            break
        seat = board.declarer.lho if play is None else play.turn  # Law 41A, then 44B, 44G
        assert seat is not None
        held = sorted(hands[seat])
        led = play.current[0][1].suit if play is not None and play.current else None
        follow = [c for c in held if c[0] == led] or held
        card = rng.choice(follow)
        hands[seat].discard(card)
        events.append({"type": "card_played", "seat": seat.name, "card": card})
    return events


def carried(board: Board) -> dict[str, Any]:
    play = board.play
    assert play is not None
    view = play_view(play)
    agreed = play.agreed
    return {"tricks": view["tricks"], "won": view["won"], "turn": view["turn"],
            "declarer_tricks": play.declarer_tricks, "result": result_view(board),
            "claim": None if agreed is None else (agreed.seat, agreed.tricks, agreed.statement)}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), cards=st.integers(1, 52),
       end=st.sampled_from([None, "claim", "recorded"]))
def test_a_folded_play_reads_back_the_same_from_pbn_and_lin(seed: int, cards: int,
                                                            end: str | None) -> None:
    """Fold → export → import → fold: the same tricks (cards, leader, winner), tricks won,
    turn, declarer's tricks and result, through PBN and through LIN; a claim agreed comes
    back as that claim (who, the tricks, the statement: Laws 68A–C, 69A), a result recorded
    as the record's result."""
    events = random_play(seed, cards)
    play = boards_of(events)[-1].play
    assert play is not None
    if play.ended is None and end == "claim":
        rest = play.remaining // 2
        events += [{"type": "claim", "seat": "N", "tricks": rest, "statement": "the rest"},
                   {"type": "claim_response", "seat": "E", "accept": True},
                   {"type": "claim_response", "seat": "W", "accept": True}]
    elif play.ended is None and end == "recorded":
        events.append({"type": "result_recorded", "tricks": play.won_ns + 1})
    before = carried(boards_of(events)[-1])
    for writer, reader in ((to_pbn, pbn_events), (to_lin, lin_events)):
        again = carried(boards_of(reader(writer(events)))[-1])
        if before["claim"] is None:  # a result recorded reads back as a claim: its result
            again["claim"] = None
        assert again == before, writer.__name__


@pytest.mark.parametrize(("play", "why"), [
    ("pc|S5|pc|S6|pc|ST|pc|S5|", "S5 is played twice"),
    ("pc|SX|", "not a card: 'SX'")])
def test_a_board_whose_cards_cannot_be_played_is_skipped_and_named(play: str, why: str) -> None:
    """A record's card that is no card, or one played twice, is not a play the Laws can
    judge (Law 45 plays a card from the hand; it is played once): the board is skipped."""
    result = lin_boards(f"md|{HANDS}|sv|o|{ONE_NT}{play}")
    assert result.events == [] and len(result.skipped) == 1
    assert why in result.skipped[0].reason
    pbn = pbn_boards('[Board "1"]\n[Deal "N:- - - -"]\n[Auction "N"]\n1NT Pass Pass Pass\n'
                     '[Play "E"]\nS5 S6 ST S5\n*\n')
    assert pbn.events == [] and "S5 is played twice" in pbn.skipped[0].reason
    lines = lin_boards(f"md|{HANDS}|sv|o|\n{ONE_NT}\n{play}")
    assert lines.skipped[0].line == 3  # the line of the board's first card

"""Real records' play folded to the results they record: RealBridge's 2021 online qualifier
(tests/data, MIT), each board's `[Play]` section (PBN 2.1: a trick a line, the cards by seat in
columns from the opening leader's) played card by card in the order the Laws give (Law 44: the
winner of a trick leads to the next, then clockwise); where the record stops before the
thirteenth trick (a claim at the table), declarer's claim of the rest agreed by both defenders
(Laws 68, 69A). The fold's result must be the record's `[Result]` and its score `[Score]`
(duplicate Law 77)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from shared import fold, from_map
from shared.notation.pbn import _game_events, read_games
from shared.seats import Seat
from shared.table.engine import TableState

pytestmark = pytest.mark.unit

RECORD = Path(__file__).parents[1] / "data" / "realbridge-2021-online-qualifier.pbn"


def results() -> dict[int, int]:
    """The `[Result]` of each game by the line of its `[Play]` tag (the reader of
    `shared.notation` keeps the tags the engine reads; this one is the test's own)."""
    found: dict[int, int] = {}
    play = result = None
    for number, line in enumerate([*RECORD.read_text().splitlines(), ""], 1):
        if not line.strip():  # a game ends
            if play is not None and result is not None:
                found[play] = result
            play = result = None
        elif line.startswith("[Play "):
            play = number
        elif match := re.fullmatch(r'\[Result "(\d+)"\]', line.strip()):
            result = int(match.group(1))
    return found


RESULTS = results()


def played_boards() -> list[Any]:
    games = [g for g in read_games(RECORD.read_text())
             if g.error is None and g.tags.get("Contract", "Pass") not in ("", "Pass")
             and g.lines.get("Play") in RESULTS]
    assert len(games) >= 10
    return games


def rows_of(game: Any) -> list[list[str]]:
    rows = []
    for _, line in game.sections["Play"]:
        if line.strip() == "*":
            break
        rows.append(line.split())
    return rows


@pytest.mark.parametrize("game", played_boards(), ids=lambda g: f"board-{g.number}-"
                         f"{g.tags['Contract']}-{g.tags['Declarer']}")
def test_a_real_records_play_folds_to_its_result_and_score(game: Any) -> None:
    """Law 44 (tricks, winners, the lead to the next), 68–69A (the claim), 77 (the score)."""
    events = _game_events(game)  # the reader's play is left out: the test plays its own
    first_card = next((i for i, e in enumerate(events)
                       if e["type"] in ("opening_lead", "card_played", "result_recorded")),
                      len(events))
    auction = events[:first_card]
    state: TableState = fold(from_map(e) for e in auction)
    board = state.board
    assert board is not None and board.contract() is not None
    assert board.contract()["declarer"] == game.tags["Declarer"]
    columns = [Seat.parse(game.tags["Play"])]
    for _ in range(3):
        columns.append(columns[-1].lho)
    leader = board.declarer.lho if board.declarer else None
    assert leader is columns[0]
    for row in rows_of(game):
        by_seat = dict(zip(columns, row, strict=True))
        seat = leader
        for _ in range(4):
            card = by_seat[seat]
            if card == "-":
                break
            state = fold([from_map({"type": "card_played", "seat": seat.name, "card": card})],
                         state)
            seat = seat.lho
        play = state.board.play if state.board else None
        assert play is not None
        if play.in_trick:
            break
        leader = play.leader
    assert state.board is not None and state.board.play is not None
    view = state.board.to_dict()
    assert view["alerts"] == [] and view["ignored"] == []
    result = RESULTS[game.lines["Play"]]
    if view["result"] is None:  # stopped by a claim: declarer's of the rest, agreed
        play = state.board.play
        declarer = play.declarer
        claimed = result - play.won_by(declarer)
        state = fold([from_map(m) for m in (
            {"type": "claim", "seat": declarer.name, "tricks": claimed},
            {"type": "claim_response", "seat": declarer.lho.name, "accept": True},
            {"type": "claim_response", "seat": declarer.rho.name, "accept": True})], state)
        assert state.board is not None
        view = state.board.to_dict()
    else:
        assert view["play"]["ended"] == "tricks"
    assert view["result"]["declarer_tricks"] == result
    side, points = game.tags["Score"].split()
    assert view["result"]["score_ns"] == (int(points) if side == "NS" else -int(points))

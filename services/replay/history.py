"""A table's history, built from its records: each event with the alerts it raised, and the
state of the board at the end. Pure: the same records give the same history.

The document (the same for `tableserver replay` and `GET /api/tables/{table}/history`):

    {"table": "t1", "board": 3, "until": 41, "version": 41,
     "history": [{"offset": 30, "board": 3, "event": {...}, "alerts": [{"id": ..., ...}]},
                 ...],
     "state": {the board, as the Laws engine gives it},
     "boards": [1, 2, 3]}

An alert raised on a board whose play has begun and not ended (as the history ends) says so,
`"in_play": true`: a player's view of the history keeps from him those the fold found from
hands he may not see, as his state of that board does (`services.gateway.tables.views`,
`shared.table.hidden_holdings`).

`board` selects one board (its last deal at the table up to `until`); without it the history
holds every event and `state` is the board last started; `boards` lists the numbers of the
table's boards in the order played. Each entry names the `board` it was folded into (the
board in progress, or the one a `board_started` or `round_started` starts; null before any
board): the event that ends a board is that board's. With `states` (and a `board`), each
entry also carries the board's `state` just after it: a board replayed call by call, its
steps folded here by the Laws engine, never by a page. An `explanation` entry also names the
`caller` whose call it explains; a record that is not an event has `"event": null` and its
`poison` alert. `think_times` (`shared.table.think_times`: every call's and card's think,
each side's per board and round, the tempo marks) is the whole table's, for the Director alone
(`shared.table.visibility.think_times_for` leaves it out of anyone else's).
"""

from __future__ import annotations

from typing import Any

from services.common.kafka.reader import Record
from shared.codec import DecodeError, EventMap, decode_map, unpack
from shared.events import CallExplained, Event
from shared.notation.export import pbn_document, to_lin, to_pbn
from shared.notation.think_notes import pbn_games_timed
from shared.table.board import Board
from shared.table.board_result import result_view
from shared.table.hidden_holdings import play_lasts
from shared.table.history_view import HistoryEntryView, HistoryView
from shared.table.table_run import TableRun
from shared.table.think_times import ThinkClock, deal_of


class NoSuchBoard(LookupError):
    """The table has no board with that number (up to the offset asked)."""


def build_history(table: str, records: list[Record], board: int | None = None,
                  until: int | None = None, states: bool = False) -> HistoryView:
    run = TableRun(table)
    entries: list[list[HistoryEntryView]] = [[]]  # per board index; [0] before any board
    raised_on: list[tuple[int, dict[str, Any]]] = []  # each alert, with its board's index
    clock = ThinkClock()  # the think times (the Director's: `think_times`)
    for offset, value in records:
        shown: EventMap | None = None
        try:
            shown = unpack(value or b"")
            event: Event | DecodeError = decode_map(shown)
            shown.pop("v", None)
        except DecodeError as exc:
            event = exc
        before = run.state.count
        raised = run.apply_event(offset, event)
        board_now = run.folded_into(event, before)  # the 52nd card is its board's, not the next's
        count = deal_of(run.state.board, board_now, before, run.state.count)
        if not isinstance(event, DecodeError):
            clock.step(offset, event, board_now, count, run.state.round, run.state)
        while len(entries) <= run.state.count:
            entries.append([])
        alerts = [{"id": alert_id, **alert} for alert_id, alert in raised]
        if alerts:
            raised_on += ((count, alert) for alert in alerts)
        entry: HistoryEntryView = {
            "offset": offset, "board": None if board_now is None else board_now.board,
            "event": None if isinstance(event, DecodeError) else shown,
            "alerts": alerts}
        if isinstance(event, CallExplained) and board_now is not None \
                and event.index < len(board_now.calls):
            entry["caller"] = board_now.calls[event.index].seat.name
        if states and board is not None and board_now is not None and board_now.board == board:
            entry["state"] = board_now.to_dict()
        entries[count].append(entry)
    boards = run.state.boards
    _mark_in_play(raised_on, boards)
    if board is None:
        chosen = len(boards)
        history = [e for per_board in entries for e in per_board]
    else:
        numbered = [i for i, b in enumerate(boards, start=1) if b.board == board]
        if not numbered:
            raise NoSuchBoard(f"table {table} has no board {board}"
                              + (f" up to offset {until}" if until is not None else ""))
        chosen = numbered[-1]
        history = entries[chosen]
    return {"table": table, "board": board, "until": until,
            "version": records[-1][0] if records else None,
            "history": history,
            "state": boards[chosen - 1].to_dict() if chosen else None,
            "boards": [b.board for b in boards],
            "think_times": clock.times().to_map()}


def _mark_in_play(raised_on: list[tuple[int, dict[str, Any]]], boards: tuple[Board, ...]
                  ) -> None:
    """`in_play` on each alert raised on a board (its index, 1-based) whose play has begun
    and not ended as the history ends."""
    lasting: dict[int, bool] = {}
    for index, alert in raised_on:
        if index not in lasting:
            found = boards[index - 1] if index > 0 else None
            lasting[index] = found is not None and play_lasts(found.play, result_view(found))
        if lasting[index]:
            alert["in_play"] = True


def events_of(document: HistoryView) -> list[dict[str, Any]]:
    """The events of a history, for the writers: records that were not events left out, and
    explanations whose text the reader may not see (`services.gateway.tables.views`)."""
    return [e["event"] for e in document["history"] if e["event"] is not None
            and not (e["event"]["type"] == "explanation" and "explanation" not in e["event"])]


def record_of(document: HistoryView, form: str, only: int | None = None,
              players: bool = False, times: bool = False) -> str:
    """A history as a PBN or LIN record (`form`), of every board or of those numbered `only`.
    The document must hold the table's whole log (built without `board`): a board's record
    needs what came before it, its players' names and, for a board a round started, its
    `round_started`. `NoSuchBoard` when the table has no board `only`. `players`: as the
    players may know it (`shared.notation.export`: no hidden holding while the play lasts).
    `times`: the Director's PBN, each board's think times after it as commentary
    (`shared.notation.think_notes`)."""
    if only is not None and only not in document["boards"]:
        until = document.get("until")
        raise NoSuchBoard(f"table {document['table']} has no board {only}"
                          + (f" up to offset {until}" if until is not None else ""))
    if times and form == "pbn":
        return pbn_document(pbn_games_timed(events_of(document), only=only))
    return (to_pbn if form == "pbn" else to_lin)(events_of(document), only=only,
                                                 players=players)

"""A board at its end, as the readers of the next board get it.

A round's next board starts in the very step that ends the board before (the engine, `fold`):
the 52nd card, the claim agreed, the result recorded (Laws 44, 69, 70, 79A). So the state a
table publishes after that step is the new board's, and the old board's end would reach no
reader. The new board's state therefore carries `previous`: the end of the board before it
(its contract, its result and score, how its play ended, its last trick), until the next
board ends in turn. Everything in it was seen by the four players at the table (the calls,
the cards played, the result they agree, Law 79A) and, once its play ended there, its four
hands (`deal`: Law 66D, the cards inspected after play ceases; `shared.table.visibility` keeps it
from a reader who does not see the board in progress's deal). A board left unfinished (no
result) carries no hand.
"""

from __future__ import annotations

from shared.table.board import Board
from shared.table.board_view import BoardEndView, BoardView
from shared.table.engine import TableState


def board_end(board: Board) -> BoardEndView:
    """The end of `board`: what its readers see of it once the next board has started."""
    view: BoardView = board.to_dict()
    play = view["play"]
    done = [t for t in play["tricks"] if t["winner"] is not None] if play is not None else []
    end: BoardEndView = {
        "board": view["board"], "dealer": view["dealer"],
        "vulnerability": view["vulnerability"], "status": view["status"],
        "contract": view["contract"], "result": view["result"],
        "ended": play["ended"] if play is not None else None,
        "last_trick": done[-1] if done else None}
    if "players" in view:
        end["players"] = view["players"]
    deal = view.get("deal")  # none for a board started without its deal (the cards unknown)
    if view["result"] is not None and deal is not None:
        end["deal"] = deal
    return end


def table_view(state: TableState) -> BoardView | None:
    """The board in progress as a table's state gives it to its readers (Redis keeps it so:
    `shared.table.table_run.TableRun.view`, which makes the end once per board): its view, and the
    end of the board before it as `previous`."""
    if state.board is None:
        return None
    view = state.board.to_dict()
    if state.earlier:
        view["previous"] = board_end(state.earlier[-1])
    return view

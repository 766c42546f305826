"""The state a reader gets, as OpenAPI shows it. A board's and a table's history are the
core's own declarations, `shared.table.board_view.BoardView` (and `WithheldView`, what the public
sees of a board still played elsewhere) and `shared.table.history_view.HistoryView`: pydantic
builds their schema from those TypedDicts, told here to read the string under each key as its
description and to allow no other key (import them from here, so that they are read so).
A tournament's overview is read so too: `services.gateway.tournaments.overview_view.Overview`,
its lines the core's `shared.table.table_summary.TableSummary` with what the gateway adds, its
standings `shared.tournament.standings_view`'s. A tournament's results are the core's
`shared.tournament.results_view.ResultsDoc` (GET /api/tournaments/{t}/results), a table's
robots the core's `shared.robot.seats.RobotSeat` (`services.gateway.robots.presence`), the
Director's alerts the alerts topic's records (`services.gateway.feeds.alerts_view`), one
player's boards the core's `shared.tournament.player_boards_view`. The routes
answer a state as stored or built, not validated (`routes.reading`, `routes.tournaments`): the
schema documents it; tests/unit/test_board_state_model.py, test_overview_schema.py and
test_results_schema.py validate real ones against it."""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
import typing
from collections.abc import Iterator
from typing import Any, Literal

import typing_extensions
from pydantic import ConfigDict

from services.gateway.feeds.alerts_view import AlertsList, HandledMarks, Mark
from services.gateway.robots.presence import TableRobots
from services.gateway.tournaments.overview_view import Overview
from shared.table.board_view import BoardView, WithheldView
from shared.table.history_view import HistoryView
from shared.tournament.player_boards_view import PlayerBoards
from shared.tournament.results_view import ResultsDoc

__all__ = [
    "DECLARED",
    "AlertsList",
    "BoardView",
    "HandledMarks",
    "HistoryView",
    "Mark",
    "Overview",
    "PlayerBoards",
    "ResultsDoc",
    "Seat",
    "TableRobots",
    "WithheldView",
    "declarations",
]

Seat = Literal["N", "E", "S", "W"]

def key_docs(view: Any) -> dict[str, str]:
    """The string under each key of the TypedDict `view`, those of the TypedDicts it extends
    included."""
    docs: dict[str, str] = {}
    for base in getattr(view, "__orig_bases__", ()):
        if typing_extensions.is_typeddict(base):
            docs |= key_docs(base)
    (declaration,) = ast.parse(textwrap.dedent(inspect.getsource(view))).body
    assert isinstance(declaration, ast.ClassDef)
    body = declaration.body
    for key, doc in itertools.pairwise(body):
        if isinstance(key, ast.AnnAssign) and isinstance(key.target, ast.Name) \
                and isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) \
                and isinstance(doc.value.value, str):
            docs[key.target.id] = inspect.cleandoc(doc.value.value)
    return docs


def inherited_descriptions(schema: dict[str, Any], view: Any) -> None:
    """A key `view` inherits from another TypedDict is described by the string under it there
    (pydantic reads those of a TypedDict's own keys only)."""
    docs = key_docs(view)
    for key, found in schema.get("properties", {}).items():
        if key in docs:
            found.setdefault("description", docs[key])


DECLARED = ConfigDict(extra="forbid", use_attribute_docstrings=True,
                      json_schema_extra=inherited_descriptions)
"""How pydantic reads a TypedDict of the core: the string under a key is its description
(an inherited key's too), and no key but those declared."""


def typed_dicts_of(annotation: Any) -> Iterator[Any]:
    """The TypedDicts an annotation names, however deep (lists, unions, NotRequired)."""
    if typing_extensions.is_typeddict(annotation):
        yield annotation
    for argument in typing.get_args(annotation):
        yield from typed_dicts_of(argument)


def declarations(*roots: Any) -> set[Any]:
    """`roots` and every TypedDict their keys name, however deep, and those they extend."""
    seen: set[Any] = set()
    todo = list(roots)
    while todo:
        view = todo.pop()
        seen.add(view)
        hints = typing.get_type_hints(view, include_extras=True)
        todo += [t for hint in hints.values() for t in typed_dicts_of(hint) if t not in seen]
        todo += [b for b in getattr(view, "__orig_bases__", ())
                 if typing_extensions.is_typeddict(b) and b not in seen]
    return seen


for _view in declarations(HistoryView, WithheldView, Overview, ResultsDoc, TableRobots,
                          AlertsList, HandledMarks, PlayerBoards):
    _view.__pydantic_config__ = DECLARED

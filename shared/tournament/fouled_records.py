"""A fouled board as the tournament's record keeps it (docs/scoring.md): the Director's
`board_fouled` event, the places at which a board was played in a changed form (Law 87A), each
changed form a group that is scored apart (Law 87B: `shared.scores.fouled_boards`).

    {"type": "board_fouled", "board": 5, "groups": [[{"ns": 3, "ew": 8}, {"ns": 4, "ew": 9}]],
     "reason": "the NS hands swapped at table 3 in round 2"}

Every place must be one the movement scheduled the board at in the rounds started; `groups`
empty marks the board as no longer fouled (the last marking of a board stands).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from shared.scores.adjustments import ScoreError
from shared.scores.corrections import Place
from shared.scores.fouled_boards import FouledBoard, Pair, groups_by_board

BOARD_FOULED = "board_fouled"
MAX_REASON = 500


def _whole(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError(f"{field}: a whole number is needed, not {value!r}", field)
    return value


def fouled_board(m: Mapping[str, Any], places: Collection[Place]) -> FouledBoard:
    """The Director's marking of a fouled board, checked against the places the movement
    scheduled (`places`: (board, NS, EW) of the rounds started); a `ScoreError` names the field
    at fault (`board`, `groups[0][1].ew`, `reason`)."""
    board = _whole(m.get("board"), "board")
    reason = m.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise ScoreError(f"reason: a text of up to {MAX_REASON} characters", "reason")
    groups = m.get("groups")
    if not isinstance(groups, list):
        raise ScoreError("groups: a list of groups, each a list of {ns, ew} (the places that "
                         "played one changed form)", "groups")
    made: list[frozenset[Pair]] = []
    for i, group in enumerate(groups):
        if not isinstance(group, list):
            raise ScoreError(f"groups[{i}]: a list of {{ns, ew}}", f"groups[{i}]")
        pairs: set[Pair] = set()
        for j, place in enumerate(group):
            at = f"groups[{i}][{j}]"
            if not isinstance(place, Mapping):
                raise ScoreError(f"{at}: {{ns, ew}}", at)
            pair = (_whole(place.get("ns"), f"{at}.ns"), _whole(place.get("ew"), f"{at}.ew"))
            if (board, *pair) not in places:
                raise ScoreError(f"{at}: board {board} is not scheduled between {pair[0]} (NS) "
                                 f"and {pair[1]} (EW) in the rounds started", at)
            pairs.add(pair)
        made.append(frozenset(pairs))
    return FouledBoard(board, tuple(made), reason)


def fouled_boards(records: Iterable[Mapping[str, Any]], places: Collection[Place]
                  ) -> tuple[dict[int, Mapping[Pair, int]], dict[int, str]]:
    """The fouled boards of the record's `board_fouled` events (the last of a board stands):
    each board's places in a changed form with their group, and the Director's reason."""
    found = [fouled_board(r, places) for r in records if r.get("type") == BOARD_FOULED]
    last = {f.board: f for f in found}
    return groups_by_board(found), {b: f.reason for b, f in last.items() if f.groups}

"""A table feed's entry as the text each view is sent, made with as little work per view as
the views allow.

The hub renders an entry once per view (`fanout.fan_out`); before, each rendering parsed the
entry's board anew and encoded its whole view anew, though most views change little of the
board: the director's and the operator's, none of it; a spectator's after the vugraph delay,
none; a seat's, the deal and now and then a list (`views.board_for`). Here an entry is parsed
once for all its views, each top-level value of the board is encoded at most once, and a view
encodes only the values it changed; a view that changes nothing is sent the stored text
itself. The text is compact JSON, and the same JSON, key for key and in the same order, as
`json.dumps` of the view (`tests/unit/test_feed_frames.py`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from shared.table.board_view import BoardView, WithheldView

Fields = dict[bytes, bytes]
ViewOf = Callable[[BoardView], BoardView | WithheldView]  # the board → what a reader may see
_encode = json.JSONEncoder(separators=(",", ":")).encode
# json's C scanner, which its stubs do not name: (text, index) → (the value there, where it
# ends); a string's, from after its opening quote
_scan: Callable[[str, int], tuple[Any, int]] = vars(json.JSONDecoder())["scan_once"]
scanstring: Callable[[str, int], tuple[str, int]] = vars(json.decoder)["scanstring"]
_MISSING = object()


def split_object(text: str) -> tuple[dict[str, Any], dict[str, str]] | None:
    """A JSON object's text, parsed, with the text `"key":value` of each of its keys as it
    stands in `text`: the text cut where the parse found each value's end (the C scanner of
    `json`, value by value). None for a text not written compactly (as the processor writes
    states: `services.common.store`), which is then parsed whole."""
    if len(text) < 2 or text[0] != "{":
        return None
    board: dict[str, Any] = {}
    parts: dict[str, str] = {}
    if text == "{}":
        return board, parts
    idx = 1
    try:
        while True:
            start = idx
            if text[idx] != '"':
                return None
            key, idx = scanstring(text, idx + 1)
            if text[idx] != ":":
                return None
            board[key], idx = _scan(text, idx + 1)
            parts[key] = text[start:idx]
            idx += 1
            if text[idx - 1] == "}":
                return (board, parts) if idx == len(text) else None
            if text[idx - 1] != ",":
                return None
    except (IndexError, StopIteration, ValueError):
        return None


class BoardEntry:
    """One feed entry's board: its stored text, parsed once, and each of its top-level values
    as text, cut from the stored text (or encoded once, when first needed)."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.text = raw.decode()
        split = split_object(self.text)
        board, self._parts = split if split is not None else (json.loads(self.text), {})
        # key → `"key":value`; the board the processor wrote, typed at this boundary
        self.board = cast(BoardView, board)

    def encoded(self, view: BoardView | WithheldView) -> str:
        """`view` (made from `board` by `views.board_for`) as compact JSON: the stored text
        when the view is the board; otherwise each value the view shares with the board as
        the board has it, and the others encoded for this view."""
        board = self.board
        if view is board:
            return self.text
        parts, shared, get = [], self._parts, board.get
        for key, value in view.items():
            part = shared.get(key) if get(key, _MISSING) is value else None
            if part is None:
                part = f"{_encode(key)}:{_encode(value)}"
                if get(key, _MISSING) is value:
                    shared[key] = part
            parts.append(part)
        return "{" + ",".join(parts) + "}"


class BoardFrames:
    """Renders a table feed's entries: the last entry's `BoardEntry` is kept, so that the
    views of one entry, rendered one after another by the hub, share it."""

    def __init__(self) -> None:
        self._last: BoardEntry | None = None

    def entry(self, raw: bytes) -> BoardEntry:
        last = self._last
        if last is None or last.raw is not raw:  # the same stored bytes: the same entry
            last = self._last = BoardEntry(raw)
        return last

    def frame(self, entry_id: str, fields: Fields, view_of: ViewOf) -> str:
        """`{"id", "version", "board"}`: the entry as the reader whose view `view_of` makes
        may see it."""
        entry = self.entry(fields[b"board"])
        board = entry.encoded(view_of(entry.board))
        return (f'{{"id":{_encode(entry_id)},"version":{int(fields[b"version"])},'
                f'"board":{board}}}')

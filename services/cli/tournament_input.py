"""What the director typed for `tableserver tournament`: board numbers (`1-3,7`), a
tournament's name, a number of tables, table names (argparse types: a bad text is refused with
the usage line), and the files read (a movement, the players' names, the deals), a bad one
refused naming the file (`Refusal`)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from services.cli.gateway_requests import Refusal

# as the gateway's TOURNAMENT_ID (services.gateway.http.models): checked here before it is put in
# a URL, so that a name with a '/' or a '?' is refused rather than sent somewhere else
TOURNAMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
MAX_BOARDS = 10_000  # numbers a --boards text may stand for (a round holds far fewer)


def parse_boards(text: str) -> list[int]:
    """Board numbers as a director writes them, `1-3,7` → [1, 2, 3, 7] (in the order given);
    an argparse type, so a bad text is refused with the usage line."""
    boards: list[int] = []
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if match is None:
            raise argparse.ArgumentTypeError(f"{part.strip()!r} is not a board or a range "
                                             "such as 1-3 (write e.g. 1-3,7)")
        first, last = int(match[1]), int(match[2] or match[1])
        if first < 1 or last < first:
            raise argparse.ArgumentTypeError(f"{part.strip()!r}: boards are numbered from 1, "
                                             "and a range goes up (1-3)")
        if len(boards) + last - first + 1 > MAX_BOARDS:
            raise argparse.ArgumentTypeError(f"more than {MAX_BOARDS} boards")
        boards.extend(range(first, last + 1))
    return boards


def board_ranges(boards: list[int]) -> str:
    """The inverse of `parse_boards` for a summary: [1, 2, 3, 7] → `1-3,7`."""
    parts: list[str] = []
    first = 0
    while first < len(boards):
        last = first
        while last + 1 < len(boards) and boards[last + 1] == boards[last] + 1:
            last += 1
        parts.append(str(boards[first]) if first == last else f"{boards[first]}-{boards[last]}")
        first = last + 1
    return ",".join(parts)


def tournament_name(text: str) -> str:
    if not TOURNAMENT_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a tournament name (1–40 letters, "
                                         "digits, - or _, starting with a letter or digit)")
    return text


def table_count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of tables (1 or more)")
    return int(text)


def table_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError("an empty table name (write a,b,c)")
    return names


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise Refusal(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise Refusal(f"{path}: not UTF-8 text ({exc.reason})") from None


def read_json(path: Path) -> Any:
    """A JSON document from a file, or a refusal that names the file and the line."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise Refusal(f"{path}: not JSON: {exc.msg} (line {exc.lineno})") from None


def read_object(path: Path) -> dict[str, Any]:
    """A JSON object from a file, or a refusal that names the file and the line."""
    try:
        found = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise Refusal(f"{path}: not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(found, dict):
        raise Refusal(f"{path}: a JSON object is expected ({{\"table\": …}})")
    return found


def read_movement(path: Path) -> dict[str, list[int]]:
    """A movement file: table → its boards, each a list of numbers or a text such as
    `"1-3,7"`."""
    movement: dict[str, list[int]] = {}
    for table, boards in read_object(path).items():
        if isinstance(boards, str):
            try:
                movement[table] = parse_boards(boards)
            except argparse.ArgumentTypeError as exc:
                raise Refusal(f"{path}: table {table}: {exc}") from None
        elif isinstance(boards, list) and all(type(b) is int for b in boards):
            movement[table] = boards
        else:
            raise Refusal(f"{path}: table {table}: give its boards as [1, 2, 3] or \"1-3\"")
    return movement

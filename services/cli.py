"""The `tableserver` command line.

    tableserver fold FILE    fold one table's log (JSON Lines, `-` for stdin) and print the
                             state of each board after its last event, one JSON object a line
    tableserver fold --text FILE   the same, drawn for a person to read
    tableserver convert FILE.pbn|FILE.lin   the events of every board of a record, JSON Lines
    tableserver export LOG.jsonl --format pbn|lin   a table's log written back as a record
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, TypeVar

from services.render import render_board
from shared.codec import EventError, from_json_line, to_map
from shared.engine import NoBoardError, fold
from shared.events import Event
from shared.notation import RecordError, lin_events, pbn_events
from shared.notation.export import to_lin, to_pbn

EXIT_BAD_INPUT = 2
T = TypeVar("T")


class LogError(Exception):
    """A line of a log that cannot be folded; the message names the line."""


def read_log(lines: TextIO) -> Iterator[Event]:
    """The events of a JSON Lines log; blank lines are skipped."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield from_json_line(line)
        except EventError as exc:
            where = f" (field {exc.field!r})" if exc.field else ""
            raise LogError(f"line {number}: {exc}{where}") from None


def _refuse(command: str, message: str) -> int:
    """Bad input: a message naming what is wrong, exit status 2, never a traceback."""
    print(f"tableserver {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _open(path: str) -> TextIO:
    if path == "-":
        return sys.stdin
    return open(path, encoding="utf-8")


@dataclass(frozen=True)
class Problem:
    """What is wrong with an input, for `_refuse`."""

    message: str


def _over_log(path: str, use: Callable[[Iterator[Event]], T]) -> T | Problem:
    """`use` applied to the events of the log at `path` (streamed), or what is wrong."""
    try:
        stream = _open(path)
    except OSError as exc:
        return Problem(f"cannot read {path}: {exc.strerror}")
    with stream:
        try:
            return use(read_log(stream))
        except (LogError, NoBoardError) as exc:
            return Problem(f"{path}: {exc}")
        except UnicodeDecodeError as exc:
            return Problem(f"{path}: not UTF-8 text ({exc.reason})")


def cmd_fold(args: argparse.Namespace) -> int:
    state = _over_log(args.file, fold)
    if isinstance(state, Problem):
        return _refuse("fold", state.message)
    out = sys.stdout
    for board in state.boards:
        if args.text:
            out.write(render_board(board.to_dict()) + "\n\n")
        else:
            out.write(json.dumps(board.to_dict(), separators=(",", ":")))
            out.write("\n")
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    path = Path(args.file)
    readers = {".pbn": pbn_events, ".lin": lin_events}
    reader = readers.get(path.suffix.lower())
    if reader is None:
        return _refuse("convert", f"{path}: give a .pbn or a .lin file")
    try:
        events = reader(path.read_bytes().decode("utf-8", errors="replace"))
    except OSError as exc:
        return _refuse("convert", f"cannot read {path}: {exc.strerror}")
    except RecordError as exc:
        return _refuse("convert", f"{path}: {exc}; nothing converted")
    out = sys.stdout
    for event in events:
        out.write(json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    writer = to_pbn if args.format == "pbn" else to_lin
    text = _over_log(args.file, lambda events: writer([to_map(e) for e in events]))
    if isinstance(text, Problem):
        return _refuse("export", text.message)
    sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tableserver", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    fold_parser = commands.add_parser("fold", help="fold a table's log (JSON Lines)")
    fold_parser.add_argument("file", help="the log, or - for standard input")
    fold_parser.add_argument("--text", action="store_true",
                             help="draw each board for a person instead of printing JSON")
    fold_parser.set_defaults(run=cmd_fold)
    convert_parser = commands.add_parser("convert", help="a PBN or LIN record as events")
    convert_parser.add_argument("file", help="FILE.pbn or FILE.lin")
    convert_parser.set_defaults(run=cmd_convert)
    export_parser = commands.add_parser("export", help="a table's log as a PBN or LIN record")
    export_parser.add_argument("file", help="the log (JSON Lines), or - for standard input")
    export_parser.add_argument("--format", choices=["pbn", "lin"], default="pbn")
    export_parser.set_defaults(run=cmd_export)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())

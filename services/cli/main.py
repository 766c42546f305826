"""The `tableserver` command line.

    tableserver fold FILE    fold one table's log (JSON Lines, `-` for stdin) and print the
                             state of each board after its last event, one JSON object a line
    tableserver fold --text FILE   the same, drawn for a person to read
    tableserver convert FILE.pbn|FILE.lin [--strict]   the events of every board of a record,
                             JSON Lines; a board that cannot be read is skipped and named on
                             stderr (--strict: nothing is written)
    tableserver export LOG.jsonl --format pbn|lin   a table's log written back as a record
    tableserver replay TABLE [--board N] [--until OFFSET] [--format json|pbn|lin]
                             a table's history read from its topic, and its state at that point
    tableserver import FILE --table T [--strict]   a record's boards (PBN, LIN or a JSON
                             Lines log) appended to a table, once (importing again adds
                             nothing, and lists the boards it leaves out); boards that cannot
                             be read are skipped as by convert
    tableserver tournament create|round|show|results|score|robots|close|export|players NAME …
                             a tournament through the gateway: its tables created, its
                             rounds started, its overview, its results, the Director's
                             scores, our robots at its empty seats, its close, its export,
                             its players' links
                             (`tableserver tournament -h`)
    tableserver robots TABLE --seats E,S,W [--boards N]   our robots seated at a table's
                             seats, through the Table Manager host (docs/robots.md)

`replay` and `import` talk to Kafka (and `import` to Redis) at the addresses of the settings
(TABLESERVER_KAFKA, TABLESERVER_REDIS; see docs/operations.md); `tournament` talks to the gateway
(TABLESERVER_GATEWAY or TABLESERVER_GATEWAY_PORT) with the director's token
(TABLESERVER_DIRECTOR_TOKEN or $TABLESERVER_DATA/director.token).

Exit status: 0 done, 1 Kafka, Redis or the gateway unavailable (or a 503: retry), 2 bad input
or a request the gateway refused (nothing written), 141 the output's reader went away (a closed
pipe), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from services.cli.render import render_board
from services.cli.robots import add_robots_parser
from services.cli.tournament import add_tournament_parser
from services.cli.words import counted
from shared.codec import EventError, from_json_line, from_map, to_map
from shared.events import Event, Ruleset
from shared.ids import TABLE_ID
from shared.table.board_result import rubber_total
from shared.table.engine import NoBoardError, fold

if TYPE_CHECKING:  # the records' readers and writers are imported by the commands that use
    from shared.notation import PassedOver, ReadResult, SkippedBoard  # them: `fold` starts faster

EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 1
EXIT_CLOSED_PIPE = 128 + 13  # as a process ended by SIGPIPE
EXIT_INTERRUPTED = 128 + 2  # as a process ended by SIGINT
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
    total = rubber_total(state.boards) if args.text else None
    if total is not None:
        out.write(f"Rubber: NS {total:+d} (the deals, and the rubber left unfinished: 300 a "
                  "game, 50 a part-score, rubber Law 80)\n")
    return 0


def _read_record(path: Path, logs: bool = False) -> ReadResult | Problem:
    """The boards of a PBN or LIN record (and, if `logs`, of a JSON Lines log, which is read
    whole or refused), or what is wrong with the file."""
    from shared.notation import ReadResult, lin_boards, pbn_boards

    readers = {".pbn": pbn_boards, ".lin": lin_boards}
    if logs and path.suffix.lower() in (".jsonl", ".json"):
        events = _over_log(str(path), lambda events: [to_map(e) for e in events])
        return events if isinstance(events, Problem) else ReadResult(events, [])
    reader = readers.get(path.suffix.lower())
    if reader is None:
        return Problem(f"{path}: give a .pbn or a .lin file" + (" or a .jsonl log" if logs
                                                                  else ""))
    try:
        return reader(path.read_bytes().decode("utf-8", errors="replace"))
    except OSError as exc:
        return Problem(f"cannot read {path}: {exc.strerror}")


def _boards_read(command: str, path: Path, strict: bool, logs: bool = False
                 ) -> list[dict[str, Any]] | Problem:
    """The events of the boards of a record that could be read, each skipped board named on
    stderr; or what is wrong: no board could be read, or (`strict`) one could not."""
    record = _read_record(path, logs)
    if isinstance(record, Problem):
        return record
    nothing = f"nothing {command}ed"
    if strict and record.skipped:
        return Problem(f"{path}: {record.skipped[0].error()}; {nothing}")
    _report_skipped(command, path, [*record.skipped, *record.passed_over])
    if record.boards == 0:
        return Problem(f"{path}: no board could be read; {nothing}" if record.skipped
                       else f"{path}: it holds no board; {nothing}")
    return record.events


def _report_skipped(command: str, path: Path,
                    skipped: list[SkippedBoard | PassedOver]) -> None:
    """Each board skipped, and each token passed over in a board read, a line on stderr: the
    file, the board, the line and why."""
    for board in skipped:
        print(f"tableserver {command}: {path}: {board}", file=sys.stderr)


def cmd_convert(args: argparse.Namespace) -> int:
    events = _boards_read("convert", Path(args.file), args.strict)
    if isinstance(events, Problem):
        return _refuse("convert", events.message)
    out = sys.stdout
    for event in events:
        out.write(json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n")
    return 0


def _unavailable(command: str, exc: Exception, setting: str) -> int:
    """Kafka or Redis unavailable: one line, exit status 1."""
    print(f"tableserver {command}: {exc or type(exc).__name__} (is `make up` running? "
          f"see {setting})", file=sys.stderr)
    return EXIT_UNAVAILABLE


def _quiet_kafka_client() -> None:
    """aiokafka logs each failed connection (and more) as an error; the command says in one
    line what went wrong instead."""
    import logging

    logging.getLogger("aiokafka").setLevel(logging.CRITICAL)


def cmd_replay(args: argparse.Namespace) -> int:
    # asyncio, the settings and Kafka's client are imported by the commands that talk to
    # Kafka only: the offline ones (fold, convert, export) start faster without them.
    import asyncio

    from services.common.kafka.reader import KafkaUnavailable, NoTableError
    from services.common.settings import Settings
    from services.replay.closed import read_any_table
    from services.replay.history import NoSuchBoard, build_history, record_of

    if not TABLE_ID.fullmatch(args.table):
        return _refuse("replay", f"{args.table!r} is not a table name")
    _quiet_kafka_client()
    settings = Settings()
    try:
        records = asyncio.run(read_any_table(settings.kafka_bootstrap, args.table,
                                             settings.shards, args.until))
        if args.format == "json":
            document = build_history(args.table, records, args.board, args.until)
            text = json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n"
        else:  # a board's record is written from the whole log: its names came before it
            text = record_of(build_history(args.table, records, None, args.until),
                             args.format, args.board, times=True)  # the Director's record
    except (NoTableError, NoSuchBoard) as exc:
        return _refuse("replay", str(exc))
    except KafkaUnavailable as exc:
        return _unavailable("replay", exc, "TABLESERVER_KAFKA")
    sys.stdout.write(text)
    return 0


def progress_bar(done: int, total: int, width: int = 30) -> str:
    filled = width * done // max(total, 1)
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} boards"


def cmd_import(args: argparse.Namespace) -> int:
    import asyncio

    from services.common.kafka.reader import KafkaUnavailable
    from services.common.settings import Settings
    from services.replay.importer import (
        NotBoards,
        RedisUnavailable,
        boards_of,
        import_boards,
        with_ids,
    )

    if not TABLE_ID.fullmatch(args.table):
        return _refuse("import", f"{args.table!r} is not a table name (1–63 letters, digits, "
                       "- or _)")
    events = _boards_read("import", Path(args.file), args.strict, logs=True)
    if isinstance(events, Problem):
        return _refuse("import", events.message)
    try:
        boards = with_ids(boards_of(events))
        for event in events:
            from_map(event)  # every event checked before connecting
    except (NotBoards, EventError) as exc:
        return _refuse("import", f"{args.file}: {exc}; nothing imported")
    _quiet_kafka_client()
    tty = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if tty:
            sys.stderr.write(progress_bar(done, total) + ("\n" if done == total else ""))
            sys.stderr.flush()

    try:
        result = asyncio.run(import_boards(Settings(), args.table, args.ruleset, boards,
                                           progress))
    except KafkaUnavailable as exc:
        return _unavailable("import", exc, "TABLESERVER_KAFKA")
    except RedisUnavailable as exc:
        return _unavailable("import", exc, "TABLESERVER_REDIS")
    except OSError as exc:
        return _unavailable("import", exc, "TABLESERVER_KAFKA and TABLESERVER_REDIS")
    where = (f", offsets {result.first_offset}–{result.last_offset}"
             if result.first_offset is not None else "")
    print(f"table {args.table}: {counted(result.boards, 'board')} imported "
          f"({counted(result.events, 'event')}{where}); {result.already} already there")
    whole = [found.board for found in result.found if found.whole]
    if whole:
        print("left out, already on the table: " + ("board " if len(whole) == 1 else "boards ")
              + ", ".join(map(str, whole)))
    for found in result.found:
        if not found.whole:
            print(f"left out, already on the table: board {found.board}, {len(found.ids)} of "
                  f"its {counted(found.events, 'event')} ({', '.join(found.ids)})")
    if result.taken:
        print(f"tableserver import: warning: {len(result.taken)} ids of this record are on "
              f"table {args.table} on other events ({', '.join(result.taken)}); their events "
              "were imported all the same", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from shared.notation.export import to_lin, to_pbn

    writer = to_pbn if args.format == "pbn" else to_lin
    text = _over_log(args.file, lambda events: writer([to_map(e) for e in events]))
    if isinstance(text, Problem):
        return _refuse("export", text.message)
    sys.stdout.write(text)
    return 0


def _positive(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number ≥ 0")
    return int(text)


STRICT_HELP = ("all or nothing: a board that cannot be read refuses the whole record "
               "(exit status 2, nothing written)")


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
    convert_parser.add_argument("--strict", action="store_true", help=STRICT_HELP)
    convert_parser.set_defaults(run=cmd_convert)
    export_parser = commands.add_parser("export", help="a table's log as a PBN or LIN record")
    export_parser.add_argument("file", help="the log (JSON Lines), or - for standard input")
    export_parser.add_argument("--format", choices=["pbn", "lin"], default="pbn")
    export_parser.set_defaults(run=cmd_export)
    replay_parser = commands.add_parser("replay", help="a table's history from its topic")
    replay_parser.add_argument("table")
    replay_parser.add_argument("--board", type=_positive, help="only this board")
    replay_parser.add_argument("--until", type=_positive, metavar="OFFSET",
                               help="the history up to this offset (included)")
    replay_parser.add_argument("--format", choices=["json", "pbn", "lin"], default="json")
    replay_parser.set_defaults(run=cmd_replay)
    import_parser = commands.add_parser("import", help="append a record's boards to a table")
    import_parser.add_argument("file", help="FILE.pbn, FILE.lin or LOG.jsonl")
    import_parser.add_argument("--table", required=True)
    import_parser.add_argument("--ruleset", choices=list(Ruleset), default=Ruleset.DUPLICATE,
                               help="for a table created by the import")
    import_parser.add_argument("--strict", action="store_true", help=STRICT_HELP)
    import_parser.set_defaults(run=cmd_import)
    add_tournament_parser(commands)
    add_robots_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        return _closed_pipe()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return code


def _closed_pipe() -> int:
    """The reader of the output went away (`tableserver convert F | head -1`): stop quietly.
    Python's recipe (the docs of `signal`, on SIGPIPE): what is left to flush goes to
    /dev/null, so that nothing complains at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return EXIT_CLOSED_PIPE


if __name__ == "__main__":
    sys.exit(main())

"""`tableserver tournament …`: the tournament API (issue 17) for a director at a terminal.

    tableserver tournament create NAME (--tables N | --table-names a,b,…) --deals FILE.pbn
        [--ruleset duplicate|rubber] [--players FILE.json] [--event-name TEXT] [--site TEXT]
        [--date YYYY.MM.DD] [--links FILE.json]
    tableserver tournament round NAME ROUND (--boards 1-3,7 | --movement FILE.json)
    tableserver tournament show NAME [--watch] [--json]
    tableserver tournament export NAME [--format pbn|lin|json] [-o FILE]

Each command is one request to the gateway (httpx): the URL is `TABLESERVER_GATEWAY`, else
`http://127.0.0.1:$TABLESERVER_GATEWAY_PORT` (`--gateway` overrides both); the director's token
is `TABLESERVER_DIRECTOR_TOKEN`, else the one `make up` wrote into the data folder
(`$TABLESERVER_DATA/director.token`, `.data/` by default), the same `Settings` the services
read. This command never writes a token of its own: a gateway would not know it.

Exit status: 0 done; 2 refused (bad input here, or a 4xx from the gateway: its `error` and
`field` are printed); 1 the gateway unreachable, too slow, or answering 503 (Kafka or Redis
down): retry, every request is idempotent.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from services.common.settings import Settings
from shared.events import Ruleset

if TYPE_CHECKING:  # httpx is imported by the commands that use it: `fold` starts faster
    import httpx

EXIT_BAD_INPUT = 2
EXIT_UNAVAILABLE = 1
# as the gateway's TOURNAMENT_ID (services.gateway.models): checked here before it is put in
# a URL, so that a name with a '/' or a '?' is refused rather than sent somewhere else
TOURNAMENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
MAX_BOARDS = 10_000  # numbers a --boards text may stand for (a round holds far fewer)
WATCH_EVERY_S = 2.0
CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen (ANSI)
TOKEN_FILE = "director.token"


class Refusal(Exception):
    """What stops a command: the message printed (one line) and the exit status."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(message)
        self.message, self.code = message, code


# --- what the director typed ----------------------------------------------------------------

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


def _tournament(text: str) -> str:
    if not TOURNAMENT_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a tournament name (1–40 letters, "
                                         "digits, - or _, starting with a letter or digit)")
    return text


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of tables (1 or more)")
    return int(text)


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError("an empty table name (write a,b,c)")
    return names


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise Refusal(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise Refusal(f"{path}: not UTF-8 text ({exc.reason})") from None


def _read_object(path: Path) -> dict[str, Any]:
    """A JSON object from a file, or a refusal that names the file and the line."""
    try:
        found = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise Refusal(f"{path}: not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(found, dict):
        raise Refusal(f"{path}: a JSON object is expected ({{\"table\": …}})")
    return found


def read_movement(path: Path) -> dict[str, list[int]]:
    """A movement file: table → its boards, each a list of numbers or a text such as
    `"1-3,7"`."""
    movement: dict[str, list[int]] = {}
    for table, boards in _read_object(path).items():
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


# --- the gateway ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Gateway:
    """Where the requests go, and the director's token they carry."""

    url: str
    token: str


def director_token(settings: Settings) -> str:
    """`TABLESERVER_DIRECTOR_TOKEN`, else `<data>/director.token`; unlike
    `Settings.director_token` this never generates one (the gateway would not know it)."""
    if settings.director_token_given is not None:
        return settings.director_token_given.get_secret_value()
    path = settings.data_dir / TOKEN_FILE
    try:
        return path.read_text().strip()
    except OSError:
        raise Refusal(f"no director's token: set TABLESERVER_DIRECTOR_TOKEN, or TABLESERVER_DATA "
                      f"to the data folder of `make up` ({path} does not exist)") from None


def refusal_of(response: httpx.Response) -> Refusal | None:
    """None for a success; else the gateway's `error` (and `field`) as a refusal: exit 1
    and "retry" for a 5xx (Kafka or Redis down), 2 for a 4xx."""
    if response.is_success:
        return None
    try:
        body = response.json()
        error = str(body["error"])
        field = body.get("field")
    except (ValueError, KeyError, TypeError):
        error, field = f"HTTP {response.status_code}: {response.text[:200].strip()}", None
    message = error + (f" (field {field!r})" if field else "")
    if response.status_code == 401:
        message += " — the director's token is TABLESERVER_DIRECTOR_TOKEN or " \
            f"$TABLESERVER_DATA/{TOKEN_FILE}"
    if response.status_code >= 500:
        return Refusal(message if "retry" in message else f"{message}; retry",
                       EXIT_UNAVAILABLE)
    return Refusal(message)


def request(gateway: Gateway, method: str, path: str, timeout: float,
            **options: Any) -> httpx.Response:
    """One request with the director's token; a refusal for a failure of any kind."""
    import httpx

    try:
        response = httpx.request(method, gateway.url + path, timeout=timeout,
                                 headers={"Authorization": f"Bearer {gateway.token}"},
                                 **options)
    except httpx.TimeoutException:
        raise Refusal(f"the gateway at {gateway.url} did not answer within {timeout:g} s; "
                      "retry (the request is idempotent)", EXIT_UNAVAILABLE) from None
    except httpx.TransportError as exc:
        raise Refusal(f"the gateway at {gateway.url} is unreachable ({exc or type(exc).__name__};"
                      " is `make up` running? see TABLESERVER_GATEWAY_PORT or "
                      "TABLESERVER_GATEWAY); retry", EXIT_UNAVAILABLE) from None
    refused = refusal_of(response)
    if refused is not None:
        raise refused
    return response


def _path(tournament: str, *more: str) -> str:
    return "/".join(["/api/tournaments", quote(tournament, safe=""), *more])


# --- the commands ---------------------------------------------------------------------------

def creation_request(args: argparse.Namespace) -> dict[str, Any]:
    """The body of POST /api/tournaments from the command's arguments and files. The same
    arguments give the same body, which the gateway finds again (it is idempotent by the
    request's digest)."""
    body: dict[str, Any] = {"tournament": args.name,
                            "tables": args.tables if args.tables is not None else args.table_names,
                            "ruleset": args.ruleset, "deals": _read_text(args.deals),
                            "name": args.event_name, "site": args.site, "date": args.date}
    if args.players is not None:
        body["players"] = _read_object(args.players)
    return body


def creation_summary(made: dict[str, Any]) -> str:
    """One line: created or found, how many tables, which boards."""
    how = "created" if made["created"] else "found (created before by the same request)"
    named = f" ({made['name']})" if made.get("name") and made["name"] != made["tournament"] \
        else ""
    return (f"tournament {made['tournament']}{named}: {how}; {len(made['tables'])} tables, "
            f"boards {board_ranges(made['boards'])}")


def links_of(made: dict[str, Any], gateway: str = "") -> dict[str, dict[str, Any]]:
    """Each table's tokens and its seats' pages: table → {seats: {N…W: token}, spectator:
    token, links: {N…W: <gateway>/seat#<token>}}."""
    return {t["table"]: {"seats": t["seats"], "spectator": t["spectator"],
                         "links": {seat: gateway.rstrip("/") + link
                                   for seat, link in t.get("links", {}).items()}}
            for t in made["tables"]}


def _write_secret(path: Path, text: str) -> None:
    """A file only its owner reads (seat tokens let anyone call for a player)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise Refusal(f"cannot write {path}: {exc.strerror}") from None


def cmd_create(args: argparse.Namespace, gateway: Gateway) -> int:
    body = creation_request(args)
    made = request(gateway, "POST", "/api/tournaments", args.timeout, json=body).json()
    links = json.dumps(links_of(made, gateway.url), indent=1) + "\n"
    if args.links is not None:
        _write_secret(args.links, links)
        print(f"{creation_summary(made)}; tokens in {args.links}")
    else:
        print(creation_summary(made), file=sys.stderr)
        sys.stdout.write(links)
    return 0


def cmd_round(args: argparse.Namespace, gateway: Gateway) -> int:
    body: dict[str, Any] = {"round": args.round}
    if args.boards is not None:
        body["boards"] = args.boards
    else:
        body["movement"] = read_movement(args.movement)
    started = request(gateway, "POST", _path(args.name, "rounds"), args.timeout,
                      json=body).json()
    what = f"boards {board_ranges(args.boards)}" if args.boards is not None else "the movement"
    print(f"tournament {args.name}: round {started['round']} ({what}) sent to "
          f"{started['tables']} tables")
    return 0


COLUMNS = (("TABLE", "table"), ("ROUND", "round"), ("BOARD", "board"), ("LEFT", "boards_left"),
           ("STATUS", "status"), ("TURN", "turn"), ("DONE", "boards_finished"),
           ("ALERTS", "alerts"), ("OPEN", "open_alerts"), ("IDLE", "idle_s"))


def idle(seconds: int | None) -> str:
    """Seconds since a table's last event, short: 7s, 3m05s, 2h04m; `-` for none yet."""
    if seconds is None:
        return "-"
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m"


def _cell(key: str, value: Any) -> str:
    if key == "idle_s":
        return idle(value)
    return "-" if value is None else str(value)


def render_overview(view: dict[str, Any]) -> str:
    """The overview for a terminal: a line a table (the table's name left, numbers right) and
    the totals; a table with an alert still open is marked `!`."""
    rows = [[_cell(key, line.get(key)) for _, key in COLUMNS] for line in view["tables"]]
    widths = [max([len(title), *(len(row[i]) for row in rows)])
              for i, (title, _) in enumerate(COLUMNS)]

    def lay(cells: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i in (0, 4, 5) else cell.rjust(w)
                         for i, (cell, w) in enumerate(zip(cells, widths, strict=True)))

    lines = [lay([title for title, _ in COLUMNS])]
    for row, line in zip(rows, view["tables"], strict=True):
        lines.append(lay(row) + ("  !" if line.get("open_alerts") else ""))
    totals = view["totals"]
    heading = view["tournament"] + (f" — {view['name']}" if view.get("name")
                                    and view["name"] != view["tournament"] else "")
    return "\n".join([heading, "", *(line.rstrip() for line in lines), "",
                      f"{totals['tables']} tables, {totals['playing']} playing; "
                      f"{totals['boards_finished']} boards finished; alerts: "
                      f"{totals['alerts_raised']} raised, {totals['alerts_open']} open"])


def cmd_show(args: argparse.Namespace, gateway: Gateway) -> int:
    def read() -> dict[str, Any]:
        found: dict[str, Any] = request(gateway, "GET", _path(args.name), args.timeout).json()
        return found

    if args.json:
        sys.stdout.write(json.dumps(read(), ensure_ascii=False) + "\n")
    elif not args.watch:
        print(render_overview(read()))
    else:
        return watch(read, WATCH_EVERY_S)
    return 0


def watch(read: Callable[[], dict[str, Any]], every_s: float) -> int:
    """The overview drawn again every `every_s` until Ctrl-C (exit 0). The gateway down or a
    503 is shown and tried again; a refusal (a 4xx) ends the watch."""
    try:
        while True:
            stamp = time.strftime("%H:%M:%S")
            try:
                text = f"{render_overview(read())}\n\n{stamp}, every {every_s:g} s; Ctrl-C stops"
            except Refusal as exc:
                if exc.code != EXIT_UNAVAILABLE:
                    raise
                text = f"{stamp}: {exc.message} (trying again every {every_s:g} s)"
            sys.stdout.write(CLEAR + text + "\n")
            sys.stdout.flush()
            time.sleep(every_s)
    except KeyboardInterrupt:
        return 0


def cmd_export(args: argparse.Namespace, gateway: Gateway) -> int:
    response = request(gateway, "GET", _path(args.name, "export"), args.timeout,
                       params={"format": args.format})
    if args.output is None:
        sys.stdout.write(response.text)
        return 0
    try:
        args.output.write_bytes(response.content)  # only once the whole export has come
    except OSError as exc:
        raise Refusal(f"cannot write {args.output}: {exc.strerror}") from None
    print(f"tournament {args.name}: {args.format} export, {len(response.content):,} bytes, "
          f"written to {args.output}", file=sys.stderr)
    return 0


# --- the parser -----------------------------------------------------------------------------

Command = Callable[[argparse.Namespace, Gateway], int]


def _runs(command: Command) -> Callable[[argparse.Namespace], int]:
    """`command` with its gateway found, and every refusal printed as one line with its exit
    status (never a traceback)."""
    def run(args: argparse.Namespace) -> int:
        try:
            settings = Settings()
            gateway = Gateway((args.gateway or settings.gateway_url).rstrip("/"),
                              director_token(settings))
            return command(args, gateway)
        except Refusal as exc:
            print(f"tableserver tournament {args.action}: {exc.message}", file=sys.stderr)
            return exc.code
    return run


def _subcommand(actions: Any, name: str, command: Command, help: str,
                timeout: float) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = actions.add_parser(name, help=help, description=help)
    parser.add_argument("name", type=_tournament, help="the tournament")
    parser.add_argument("--gateway", metavar="URL", help="the gateway (default: "
                        "TABLESERVER_GATEWAY, else http://127.0.0.1:$TABLESERVER_GATEWAY_PORT)")
    parser.add_argument("--timeout", type=float, default=timeout, metavar="SECONDS",
                        help=f"how long to wait for the gateway (default {timeout:g})")
    parser.set_defaults(run=_runs(command))
    return parser


def add_tournament_parser(commands: Any) -> None:
    """`tableserver tournament create|round|show|export`, under the `tableserver` parser's
    subcommands (`commands`)."""
    parser = commands.add_parser("tournament", help="create a tournament, start its rounds, "
                                 "watch it, export it (through the gateway)",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="action", required=True)
    create = _subcommand(actions, "create", cmd_create, "create every table of a tournament "
                         "(the same command again finds it)", 600)
    tables = create.add_mutually_exclusive_group(required=True)
    tables.add_argument("--tables", type=_count, help="how many tables (NAME-1, NAME-2, …)")
    tables.add_argument("--table-names", type=_names, metavar="A,B,…", help="the tables' names")
    create.add_argument("--deals", type=Path, required=True, metavar="FILE.pbn",
                        help="the deals, a PBN file as a dealing program writes it")
    create.add_argument("--ruleset", choices=list(Ruleset), default=Ruleset.DUPLICATE)
    create.add_argument("--players", type=Path, metavar="FILE.json",
                        help='players\' names: {"table": {"N": "Ann", …}, …}')
    create.add_argument("--event-name", default="", metavar="TEXT", help="PBN [Event]")
    create.add_argument("--site", default="", metavar="TEXT", help="PBN [Site]")
    create.add_argument("--date", default="", metavar="YYYY.MM.DD", help="PBN [Date]")
    create.add_argument("--links", type=Path, metavar="FILE.json", help="write the tables' "
                        "seat and spectator tokens here (readable by you only) instead of to "
                        "standard output")
    start = _subcommand(actions, "round", cmd_round, "start a round at every table (sent "
                        "again, nothing starts twice)", 120)
    start.add_argument("round", type=_count, help="the round's number")
    boards = start.add_mutually_exclusive_group(required=True)
    boards.add_argument("--boards", type=parse_boards, metavar="1-3,7",
                        help="the same boards at every table")
    boards.add_argument("--movement", type=Path, metavar="FILE.json",
                        help='each table\'s boards: {"table": [1, 2, 3] or "1-3", …}; a '
                        "table left out sits the round out")
    show = _subcommand(actions, "show", cmd_show, "the overview: each table's board, status, "
                       "turn, alerts, idle time; the totals", 30)
    show.add_argument("--watch", action="store_true",
                      help=f"draw it again every {WATCH_EVERY_S:g} s until Ctrl-C")
    show.add_argument("--json", action="store_true", help="the overview as the gateway gives "
                      "it (JSON)")
    export = _subcommand(actions, "export", cmd_export, "every board of every table as PBN, "
                         "LIN or JSON", 600)
    export.add_argument("--format", choices=["pbn", "lin", "json"], default="pbn")
    export.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write it here (once it has all come) instead of to standard "
                        "output")

"""`tableserver tournament …`: the tournament API (api.md) for a director at a terminal.

    tableserver tournament create NAME (--tables N | --table-names a,b,…) --deals FILE.pbn
        [--ruleset duplicate|rubber] [--players FILE.json] [--event-name TEXT] [--site TEXT]
        [--date YYYY.MM.DD] [--links FILE.json] [--entrants FILE.json
        --movement KIND:BOARDS[:ROUNDS] [--scoring matchpoints|cross_imps|butler]]
    tableserver tournament round NAME ROUND [--boards 1-3,7 | --movement FILE.json]
    tableserver tournament show NAME [--watch] [--json]
    tableserver tournament results NAME [--format text|json|csv|pbn|usebio]
    tableserver tournament score NAME FILE.json
    tableserver tournament robots NAME
    tableserver tournament close NAME [--force]
    tableserver tournament export NAME [--format pbn|lin|json] [-o FILE]
    tableserver tournament players NAME [--format text|csv|json]
        [--reissue ENTRANT.PLACE | --move ENTRANT.PLACE=ENTRANT.PLACE]

`create` prints the tables' seat and spectator links, the vugraph page of every table and the
public results page (`/results#NAME`).

Each command is one request to the gateway (httpx): the URL is `TABLESERVER_GATEWAY`, else
`http://127.0.0.1:$TABLESERVER_GATEWAY_PORT` (`--gateway` overrides both); the director's token
is `TABLESERVER_DIRECTOR_TOKEN`, else the one `make up` wrote into the data folder
(`$TABLESERVER_DATA/director.token`, `.data/` by default), the same `Settings` the services
read. This command never writes a token of its own: a gateway would not know it.

The requests and their refusals: `services/cli/gateway_requests.py`; what the director typed
(boards, names, files): `services/cli/tournament_input.py`.

Exit status: 0 done; 2 refused (bad input here, or a 4xx from the gateway: its `error` and
`field` are printed); 1 the gateway unreachable, too slow, or answering 503 (Kafka or Redis
down): retry, every request is idempotent.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from services.cli.gateway_requests import (
    EXIT_UNAVAILABLE,
    Gateway,
    Refusal,
    director_token,
    request,
)
from services.cli.players import add_players_command
from services.cli.tournament_input import (
    board_ranges,
    parse_boards,
    read_json,
    read_movement,
    read_object,
    read_text,
    table_count,
    table_names,
    tournament_name,
)
from services.cli.words import counted
from services.common.public_links import printed_link
from shared.events import Ruleset

WATCH_EVERY_S = 2.0
CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen (ANSI)


def _path(tournament: str, *more: str) -> str:
    return "/".join(["/api/tournaments", quote(tournament, safe=""), *more])


# --- the commands ---------------------------------------------------------------------------

def creation_request(args: argparse.Namespace) -> dict[str, Any]:
    """The body of POST /api/tournaments from the command's arguments and files. The same
    arguments give the same body, which the gateway finds again (it is idempotent by the
    request's digest)."""
    body: dict[str, Any] = {"tournament": args.name,
                            "tables": args.tables if args.tables is not None else args.table_names,
                            "ruleset": args.ruleset, "deals": read_text(args.deals),
                            "name": args.event_name, "site": args.site, "date": args.date}
    if args.players is not None:
        body["players"] = read_object(args.players)
    if args.entrants is not None:
        body["entrants"] = read_json(args.entrants)
    if args.movement is not None:
        kind, _, rest = args.movement.partition(":")
        per, _, rounds = rest.partition(":")
        body["movement"] = {"kind": kind, "boards_per_round": int(per) if per.isdigit() else
                            per, **({"rounds": int(rounds)} if rounds.isdigit() else {}),
                            **({"scoring": args.scoring} if args.scoring else {})}
    return body


def creation_summary(made: dict[str, Any]) -> str:
    """One line: created or found, how many tables, which boards."""
    how = "created" if made["created"] else "found (created before by the same request)"
    named = f" ({made['name']})" if made.get("name") and made["name"] != made["tournament"] \
        else ""
    return (f"tournament {made['tournament']}{named}: {how}; "
            f"{counted(len(made['tables']), 'table')}, boards {board_ranges(made['boards'])}")


def page_lines(made: dict[str, Any], gateway: str, public_url: str | None = None
               ) -> list[str]:
    """The tournament's own pages, a line each: its vugraph page (every table, for
    spectators) and its public results page (`/results#<tournament>`), at the public address
    when set, else at the gateway."""
    return [f"vugraph, every table for spectators: "
            f"{printed_link(public_url, gateway, made['vugraph'])}",
            f"results, for everyone: {printed_link(public_url, gateway, made['results'])}"]


def links_of(made: dict[str, Any], gateway: str = "", public_url: str | None = None
             ) -> dict[str, dict[str, Any]]:
    """Each table's tokens and its seats' pages: table → {seats: {N…W: token}, spectator:
    token, links: {N…W: <public address, else gateway>/seat#<token>}}."""
    return {t["table"]: {"seats": t["seats"], "spectator": t["spectator"],
                         "links": {seat: printed_link(public_url, gateway, link)
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
    links = json.dumps(links_of(made, gateway.url, gateway.public_url), indent=1) + "\n"
    said = "\n".join([creation_summary(made) + (f"; tokens in {args.links}" if args.links
                                                 is not None else ""),
                       *page_lines(made, gateway.url, gateway.public_url)])
    if args.links is not None:
        _write_secret(args.links, links)
        print(said)
    else:  # the links (JSON) alone on standard output
        print(said, file=sys.stderr)
        sys.stdout.write(links)
    return 0


def cmd_round(args: argparse.Namespace, gateway: Gateway) -> int:
    body: dict[str, Any] = {"round": args.round}
    if args.boards is not None:
        body["boards"] = args.boards
    elif args.movement is not None:
        body["movement"] = read_movement(args.movement)
    started = request(gateway, "POST", _path(args.name, "rounds"), args.timeout,
                      json=body).json()
    what = f"boards {board_ranges(args.boards)}" if args.boards is not None \
        else "the movement" if args.movement is not None \
        else "the tournament's movement"
    print(f"tournament {args.name}: round {started['round']} ({what}) sent to "
          f"{counted(started['tables'], 'table')}")
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
                      f"{counted(totals['tables'], 'table')}, {totals['playing']} playing; "
                      f"{counted(totals['boards_finished'], 'board')} finished; alerts: "
                      f"{totals['alerts_raised']} raised, {totals['alerts_open']} open",
                      *render_standings(view.get("standings"))])


def render_standings(standings: dict[str, Any] | None) -> list[str]:
    """The overview's standings: a line a field, its top places (none: no line)."""
    if not standings or not standings["fields"]:
        return []
    out = ["", f"standings ({counted(standings['complete'], 'board')} complete):"]
    for field in standings["fields"]:
        places = "; ".join(
            f"{x['rank']}. {x['entrant']} {x['name']} " + (
                f"{x['vp']:.2f} VP" if standings["scoring"] == "vp" else
                f"{x['percent']:.2f} %" if x.get("percent") is not None else
                f"{x['points']:+.2f}")
            for x in field["top"])
        out.append(f"  {field['direction'] or 'all'}: {places}")
    return out


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


def cmd_results(args: argparse.Namespace, gateway: Gateway) -> int:
    """The rankings (and, as JSON, CSV, PBN or USEBIO, the travellers and the Director's
    scores)."""
    response = request(gateway, "GET", _path(args.name, "results"), args.timeout,
                       params={"format": "json" if args.format == "text" else args.format})
    if args.format != "text":
        sys.stdout.write(response.text)
        return 0
    print(render_rankings(response.json()))
    return 0


def render_rankings(doc: dict[str, Any]) -> str:
    """The rankings as a table: per direction (a Mitchell) or one field; teams by VPs."""
    names = {e["number"]: e["name"] for e in doc["entrants"]}
    lines = [f"{doc['tournament']}: {doc['scoring']}, boards complete "
             f"{board_ranges(doc['complete']) or 'none'}"]
    for r in doc["rankings"]:
        where = f"{r['direction']:<3}" if r.get("direction") else ""
        value = f"{r['vp']:6.2f} VP {r['imps']:+7.2f} IMPs" if "vp" in r else \
            f"{r['percent']:6.2f} %" if r.get("percent") is not None else \
            f"{r['points']:+8.2f} IMPs"
        name = names.get(r["entrant"], "")
        lines.append(f"{where}{r['rank']:>3}. {r['entrant']:>3} {name:<30} {value}")
    return "\n".join(lines)


def cmd_score(args: argparse.Namespace, gateway: Gateway) -> int:
    """The Director's score (a JSON object, docs/api.md) appended to the tournament."""
    body = read_object(args.score)
    response = request(gateway, "POST", _path(args.name, "scores"), args.timeout, json=body)
    print(f"tournament {args.name}: {body.get('kind')} on board {body.get('board')} "
          f"recorded (offset {response.json()['offset']})")
    return 0


def cmd_robots(args: argparse.Namespace, gateway: Gateway) -> int:
    """Our robots at every seat with no person (the robot pool seats them)."""
    filled = request(gateway, "POST", _path(args.name, "robots"), args.timeout).json()
    for table, seats in filled["tables"].items():
        print(f"{table}: robots at {','.join(seats) or 'no seat'}")
    return 0


def cmd_close(args: argparse.Namespace, gateway: Gateway) -> int:
    """Every table closed: its events archived, its topic deleted (a board in play: refused,
    unless --force); sent again, a close cut short is finished."""
    params = {"force": "true"} if args.force else None
    done = request(gateway, "POST", _path(args.name, "close"), args.timeout,
                   params=params).json()
    print(f"tournament {args.name}: {counted(len(done['closed']), 'table')} closed, "
          f"{counted(done['events'], 'event', thousands=True)} archived, their topics deleted")
    return 0


# --- the parser -----------------------------------------------------------------------------

Command = Callable[[argparse.Namespace, Gateway], int]


def _runs(command: Command) -> Callable[[argparse.Namespace], int]:
    """`command` with its gateway found, and every refusal printed as one line with its exit
    status (never a traceback)."""
    def run(args: argparse.Namespace) -> int:
        from services.common.settings import Settings  # here only: `fold` starts faster

        try:
            settings = Settings()
            gateway = Gateway((args.gateway or settings.gateway_url).rstrip("/"),
                              director_token(settings), settings.public_url)
            return command(args, gateway)
        except Refusal as exc:
            print(f"tableserver tournament {args.action}: {exc.message}", file=sys.stderr)
            return exc.code
    return run


def _subcommand(actions: Any, name: str, command: Command, help: str,
                timeout: float) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = actions.add_parser(name, help=help, description=help)
    parser.add_argument("name", type=tournament_name, help="the tournament")
    parser.add_argument("--gateway", metavar="URL", help="the gateway (default: "
                        "TABLESERVER_GATEWAY, else http://127.0.0.1:$TABLESERVER_GATEWAY_PORT)")
    parser.add_argument("--timeout", type=float, default=timeout, metavar="SECONDS",
                        help=f"how long to wait for the gateway (default {timeout:g})")
    parser.set_defaults(run=_runs(command))
    return parser


def add_tournament_parser(commands: Any) -> None:
    """`tableserver tournament create|round|show|results|score|robots|close|export|players`, under
    the `tableserver` parser's subcommands (`commands`)."""
    parser = commands.add_parser("tournament", help="create a tournament, start its rounds, "
                                 "watch it, read its results, give the Director's scores, "
                                 "seat robots, close it, export it (through the gateway)",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    actions = parser.add_subparsers(dest="action", required=True)
    create = _subcommand(actions, "create", cmd_create, "create every table of a tournament "
                         "(the same command again finds it)", 600)
    tables = create.add_mutually_exclusive_group(required=True)
    tables.add_argument("--tables", type=table_count, help="how many tables (NAME-1, NAME-2, …)")
    tables.add_argument("--table-names", type=table_names, metavar="A,B,…",
                        help="the tables' names")
    create.add_argument("--deals", type=Path, required=True, metavar="FILE.pbn",
                        help="the deals, a PBN file as a dealing program writes it")
    create.add_argument("--ruleset", choices=list(Ruleset), default=Ruleset.DUPLICATE)
    create.add_argument("--players", type=Path, metavar="FILE.json",
                        help='players\' names: {"table": {"N": "Ann", …}, …}')
    create.add_argument("--entrants", type=Path, metavar="FILE.json",
                        help='the pairs or teams: [{"name": …, "players": [...]}, …]')
    create.add_argument("--movement", metavar="KIND:BOARDS[:ROUNDS]",
                        help="mitchell, howell, swiss_pairs, teams or swiss, boards a round, "
                        "rounds")
    create.add_argument("--scoring", choices=["matchpoints", "cross_imps", "butler"],
                        help="a pairs event's scoring (default matchpoints)")
    create.add_argument("--event-name", default="", metavar="TEXT", help="PBN [Event]")
    create.add_argument("--site", default="", metavar="TEXT", help="PBN [Site]")
    create.add_argument("--date", default="", metavar="YYYY.MM.DD", help="PBN [Date]")
    create.add_argument("--links", type=Path, metavar="FILE.json", help="write the tables' "
                        "seat and spectator tokens here (readable by you only) instead of to "
                        "standard output")
    start = _subcommand(actions, "round", cmd_round, "start a round at every table (sent "
                        "again, nothing starts twice)", 120)
    start.add_argument("round", type=table_count, help="the round's number")
    boards = start.add_mutually_exclusive_group()  # neither: the tournament's movement
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
    results = _subcommand(actions, "results", cmd_results, "the rankings; as JSON, CSV, PBN "
                          "or USEBIO 1.2 XML the travellers too", 120)
    results.add_argument("--format", choices=["text", "json", "csv", "pbn", "usebio"],
                         default="text")
    score = _subcommand(actions, "score", cmd_score, "the Director's score on a board or a "
                        "penalty, from a JSON file", 60)
    score.add_argument("score", type=Path, metavar="FILE.json")
    add_players_command(actions, _subcommand)
    _subcommand(actions, "robots", cmd_robots, "our robots at every seat with no person (no "
                "name given there), through the robot pool", 60)


    close = _subcommand(actions, "close", cmd_close, "close every table: no more events; "
                        "the events archived (replay and exports read them the same), the "
                        "tables' topics deleted", 300)
    close.add_argument("--force", action="store_true",
                       help="close even where a board is in play")
    export = _subcommand(actions, "export", cmd_export, "every board of every table as PBN, "
                         "LIN or JSON", 600)
    export.add_argument("--format", choices=["pbn", "lin", "json"], default="pbn")
    export.add_argument("-o", "--output", type=Path, metavar="FILE",
                        help="write it here (once it has all come) instead of to standard "
                        "output")

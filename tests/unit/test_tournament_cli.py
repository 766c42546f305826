"""`tableserver tournament …` without a gateway: its arguments, the requests it would send (to
a fake transport), the overview as drawn, and its refusals (one line, exit 1 or 2)."""

from __future__ import annotations

import argparse
import json
import re
import stat
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, strategies as st

from services.cli import tournament as tournament_cli
from services.cli.gateway_requests import EXIT_UNAVAILABLE, Refusal, refusal_of
from services.cli.main import build_parser, main
from services.cli.tournament import idle, render_overview, watch
from services.cli.tournament_input import board_ranges, parse_boards
from services.cli.words import counted

DEALS = Path(__file__).parent.parent / "data" / "deals-32.pbn"
TOKEN = "a-director-token-for-tests"


def test_boards_are_read_as_a_director_writes_them() -> None:
    assert parse_boards("1-3,7") == [1, 2, 3, 7]
    assert parse_boards(" 9 , 4 - 5") == [9, 4, 5]  # the order given is kept
    assert parse_boards("12") == [12]
    for bad in ("", "0", "3-1", "a", "1-", "1,,2", "1-2-3", "-4"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_boards(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="more than"):
        parse_boards("1-1000000000")


@given(st.lists(st.integers(1, 60), unique=True, min_size=1))
def test_board_ranges_is_read_back_as_the_same_boards(boards: list[int]) -> None:
    boards.sort()
    text = board_ranges(boards)
    assert parse_boards(text) == boards
    assert len(text.split(",")) == 1 + sum(1 for a, b in pairwise(boards) if b != a + 1)


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["tournament", *argv])


def test_the_arguments_of_each_command() -> None:
    created = parse("create", "spring", "--tables", "120", "--deals", "d.pbn")
    assert (created.action, created.name, created.tables, created.table_names,
            created.ruleset) == ("create", "spring", 120, None, "duplicate")
    named = parse("create", "s", "--table-names", "a, b,c", "--deals", "d.pbn",
                  "--ruleset", "rubber")
    assert named.table_names == ["a", "b", "c"] and named.tables is None
    started = parse("round", "spring", "2", "--boards", "1-3,7")
    assert (started.round, started.boards, started.movement) == (2, [1, 2, 3, 7], None)
    assert parse("show", "spring", "--watch").watch
    exported = parse("export", "spring", "--format", "lin", "-o", "out.lin")
    assert (exported.format, exported.output) == ("lin", Path("out.lin"))
    assert parse("export", "spring").format == "pbn" and parse("show", "s").timeout == 30


@pytest.mark.parametrize("argv", [
    ["create", "spring", "--deals", "d.pbn"],  # neither --tables nor --table-names
    ["create", "spring", "--tables", "3", "--table-names", "a", "--deals", "d.pbn"],
    ["create", "spring", "--tables", "0", "--deals", "d.pbn"],
    ["create", "spring", "--tables", "3"],  # no deals
    ["create", "a/b", "--tables", "3", "--deals", "d.pbn"],  # would leave the URL's path
    ["round", "spring", "x", "--boards", "1"],
    ["export", "spring", "--format", "xls"],
    ["frobnicate", "spring"],
])
def test_bad_arguments_are_refused_with_the_usage(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        parse(*argv)
    assert ended.value.code == 2
    assert "usage: tableserver tournament" in capsys.readouterr().err


# --- the overview, drawn --------------------------------------------------------------------

def line(table: str, **values: Any) -> dict[str, Any]:
    return {"table": table, "board": None, "status": "waiting", "turn": None, "round": None,
            "boards_left": 0, "held": False, "boards_finished": 0, "alerts": 0,
            "open_alerts": 0, "idle_s": None, **values}


VIEW = {"tournament": "spring", "name": "Spring pairs",
        "totals": {"tables": 3, "playing": 1, "boards_finished": 7, "alerts_raised": 4,
                   "alerts_open": 2},
        "tables": [line("spring-1", board=12, status="auction", turn="W", round=2,
                        boards_left=1, boards_finished=5, alerts=3, open_alerts=2, idle_s=185),
                   line("spring-2", board=3, status="done", round=1, boards_finished=2,
                        alerts=1, idle_s=7),
                   line("spring-10")]}


def test_the_overview_is_a_table_a_line_with_the_totals() -> None:
    text = render_overview(VIEW).splitlines()
    assert text[0] == "spring — Spring pairs" and text[1] == ""
    header, rows = text[2], text[3:6]
    assert header.split() == ["TABLE", "ROUND", "BOARD", "LEFT", "STATUS", "TURN", "DONE",
                              "ALERTS", "OPEN", "IDLE"]
    assert rows[0].split() == ["spring-1", "2", "12", "1", "auction", "W", "5", "3", "2",
                               "3m05s", "!"]
    assert rows[1].split() == ["spring-2", "1", "3", "0", "done", "-", "2", "1", "0", "7s"]
    assert rows[2].split() == ["spring-10", "-", "-", "0", "waiting", "-", "0", "0", "0", "-"]
    # the columns line up: each number ends where its title ends
    for title in ("BOARD", "ALERTS", "IDLE"):
        end = header.index(title) + len(title)
        assert all(row[end - 1] != " " and (len(row) == end or row[end] == " ")
                   for row in rows)
    assert text[-1] == "3 tables, 1 playing; 7 boards finished; alerts: 4 raised, 2 open"


def test_the_overview_ends_with_each_fields_standings() -> None:
    """Law 78A's ranking per direction (a Mitchell): the overview's standings as given."""
    standings = {"scoring": "matchpoints", "complete": 4, "fields": [
        {"direction": "NS", "top": [
            {"entrant": 1, "name": "Ann & Bo", "rank": 1, "percent": 62.5},
            {"entrant": 3, "name": "Cy & Di", "rank": 2, "percent": 50.0}]},
        {"direction": "EW", "top": [{"entrant": 4, "name": "Ed & Flo", "rank": 1,
                                     "percent": 55.25}]}]}
    text = render_overview({**VIEW, "standings": standings}).splitlines()
    assert text[-3:] == ["standings (4 boards complete):",
                         "  NS: 1. 1 Ann & Bo 62.50 %; 2. 3 Cy & Di 50.00 %",
                         "  EW: 1. 4 Ed & Flo 55.25 %"]
    assert render_overview({**VIEW, "standings": None}) == render_overview(VIEW)


def test_a_count_of_one_is_singular() -> None:
    """`1 table`, `1 board`: the overview's totals and standings, as the CLI writes them."""
    one = {**VIEW, "totals": {"tables": 1, "playing": 1, "boards_finished": 1,
                              "alerts_raised": 1, "alerts_open": 0},
           "tables": VIEW["tables"][:1], "standings": {
               "scoring": "matchpoints", "complete": 1, "fields": [{"direction": None, "top": [
                   {"entrant": 1, "name": "Ann & Bo", "rank": 1, "percent": 62.5}]}]}}
    text = render_overview(one).splitlines()
    assert "1 table, 1 playing; 1 board finished; alerts: 1 raised, 0 open" in text
    assert "standings (1 board complete):" in text
    assert (counted(1, "match"), counted(2, "match"), counted(0, "board"),
            counted(1234, "event", thousands=True)) == (
        "1 match", "2 matches", "0 boards", "1,234 events")


def test_idle_times_are_short() -> None:
    assert [idle(s) for s in (None, 0, 59, 60, 3599, 3600, 7440)] == \
        ["-", "0s", "59s", "1m00s", "59m59s", "1h00m", "2h04m"]


def test_watch_draws_again_rides_out_an_outage_and_stops_on_ctrl_c(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    answers: list[Callable[[], dict[str, Any]]] = [lambda: VIEW, down, lambda: VIEW]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if len(sleeps) == len(answers):
            raise KeyboardInterrupt

    monkeypatch.setattr(tournament_cli.time, "sleep", sleep)
    assert watch(lambda: answers[len(sleeps)](), 2.0) == 0
    screens = capsys.readouterr().out.split(tournament_cli.CLEAR)[1:]
    assert len(screens) == 3 and sleeps == [2.0] * 3
    assert screens[0].startswith("spring — Spring pairs") and "Ctrl-C stops" in screens[0]
    assert "Redis is down; retry (trying again every 2 s)" in screens[1]
    assert screens[2].startswith(render_overview(VIEW) + "\n\n")


def down() -> dict[str, Any]:
    raise Refusal("Redis is down; retry", EXIT_UNAVAILABLE)


# --- the gateway's answers ------------------------------------------------------------------

def answer(status: int, body: Any) -> httpx.Response:
    content = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    return httpx.Response(status, content=content)


def test_the_gateways_refusals_become_one_line_and_an_exit_status() -> None:
    assert refusal_of(answer(201, {"ok": True})) is None
    bad = refusal_of(answer(400, {"error": "no [Deal] for board 3", "field": "deals"}))
    assert bad is not None and (bad.code, bad.message) == (
        2, "no [Deal] for board 3 (field 'deals')")
    missing = refusal_of(answer(404, {"error": "no tournament x"}))
    assert missing is not None and (missing.code, missing.message) == (2, "no tournament x")
    forged = refusal_of(answer(401, {"error": "forged token"}))
    assert forged is not None and forged.code == 2 and "TABLESERVER_DIRECTOR_TOKEN" in \
        forged.message
    busy = refusal_of(answer(503, {"error": "Kafka did not answer in time"}))
    assert busy is not None and (busy.code, busy.message) == (
        1, "Kafka did not answer in time; retry")
    proxy = refusal_of(answer(502, "<html>Bad Gateway</html>"))
    assert proxy is not None and proxy.code == 1 and proxy.message.startswith("HTTP 502: <html>")


class FakeGateway:
    """httpx.request answered by a handler, the requests kept."""

    def __init__(self, handler: Callable[[httpx.Request], httpx.Response]) -> None:
        self.requests: list[httpx.Request] = []
        self.handler = handler

    def __call__(self, method: str, url: str, **options: Any) -> httpx.Response:
        def keep(request: httpx.Request) -> httpx.Response:
            self.requests.append(request)
            return self.handler(request)

        with httpx.Client(transport=httpx.MockTransport(keep)) as client:
            return client.request(method, url, **options)


@pytest.fixture
def gateway_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TABLESERVER_DIRECTOR_TOKEN", TOKEN)
    monkeypatch.setenv("TABLESERVER_GATEWAY_PORT", "23999")
    monkeypatch.delenv("TABLESERVER_GATEWAY", raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeGateway:
    """The gateway the command talks to, creating tournaments as `created` answers."""
    gateway = FakeGateway(created)
    monkeypatch.setattr(httpx, "request", gateway)
    return gateway


def created(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    tables = [f"{body['tournament']}-{n}" for n in range(1, body["tables"] + 1)]
    return httpx.Response(201, json={
        "tournament": body["tournament"], "name": body["name"], "created": True,
        "boards": [1, 2, 3, 4, 9],
        "tables": [{"table": t, "seats": {s: f"{t}.{s}" for s in "NESW"},
                    "spectator": f"{t}.spectator",
                    "links": {s: f"/seat#{t}.{s}" for s in "NESW"}} for t in tables],
        "vugraph": f"/vugraph#{body['tournament']}.vugraph",
        "results": f"/results#{body['tournament']}"})


@pytest.mark.usefixtures("gateway_env")
def test_create_sends_the_deals_and_prints_the_links(
        fake: FakeGateway, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    players = tmp_path / "players.json"
    players.write_text('{"spring-1": {"N": "Ann", "S": "Bob"}}')
    assert main(["tournament", "create", "spring", "--tables", "2", "--deals", str(DEALS),
                 "--players", str(players), "--event-name", "Spring pairs",
                 "--date", "2026.11.24"]) == 0
    sent = fake.requests[0]
    assert (sent.method, str(sent.url)) == ("POST", "http://127.0.0.1:23999/api/tournaments")
    assert sent.headers["Authorization"] == f"Bearer {TOKEN}"
    body = json.loads(sent.content)
    assert body == {"tournament": "spring", "tables": 2, "ruleset": "duplicate",
                    "deals": DEALS.read_text(), "name": "Spring pairs", "site": "",
                    "date": "2026.11.24", "players": {"spring-1": {"N": "Ann", "S": "Bob"}}}
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "tournament spring (Spring pairs): created; 2 tables, boards 1-4,9",
        "vugraph, every table for spectators: http://127.0.0.1:23999/vugraph#spring.vugraph",
        "results, for everyone: http://127.0.0.1:23999/results#spring"]
    links = json.loads(out)
    assert list(links) == ["spring-1", "spring-2"]
    assert links["spring-2"] == {
        "seats": {s: f"spring-2.{s}" for s in "NESW"}, "spectator": "spring-2.spectator",
        "links": {s: f"http://127.0.0.1:23999/seat#spring-2.{s}" for s in "NESW"}}


@pytest.mark.usefixtures("gateway_env")
def test_create_writes_the_links_to_a_file_only_its_owner_reads(
        fake: FakeGateway, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    links = tmp_path / "links.json"
    assert main(["tournament", "create", "t9", "--tables", "1", "--deals", str(DEALS),
                 "--links", str(links), "--gateway", "http://gw.example:81/"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"tournament t9: created; 1 table, boards 1-4,9; tokens in {links}",
        "vugraph, every table for spectators: http://gw.example:81/vugraph#t9.vugraph",
        "results, for everyone: http://gw.example:81/results#t9"]
    assert list(json.loads(links.read_text())) == ["t9-1"]
    assert stat.S_IMODE(links.stat().st_mode) == 0o600


@pytest.mark.usefixtures("gateway_env")
def test_round_sends_the_boards_or_the_movement(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    def started(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        return httpx.Response(202, json={"round": body["round"],
                                         "tables": len(body.get("movement") or "abc")})

    fake = FakeGateway(started)
    monkeypatch.setattr(httpx, "request", fake)
    assert main(["tournament", "round", "spring", "2", "--boards", "1-3,7"]) == 0
    assert str(fake.requests[0].url).endswith("/api/tournaments/spring/rounds")
    assert json.loads(fake.requests[0].content) == {"round": 2, "boards": [1, 2, 3, 7]}
    assert capsys.readouterr().out == \
        "tournament spring: round 2 (boards 1-3,7) sent to 3 tables\n"
    movement = tmp_path / "movement.json"
    movement.write_text('{"spring-1": "1-3", "spring-2": [4, 5]}')
    assert main(["tournament", "round", "spring", "3", "--movement", str(movement)]) == 0
    assert json.loads(fake.requests[1].content) == {
        "round": 3, "movement": {"spring-1": [1, 2, 3], "spring-2": [4, 5]}}
    assert "round 3 (the movement) sent to 2 tables" in capsys.readouterr().out


@pytest.mark.usefixtures("gateway_env")
def test_bad_files_are_refused_before_anything_is_sent(
        fake: FakeGateway, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"spring-1": [1, 2,\n')
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"spring-1": [1, "two"]}')
    cases = [
        (["create", "s", "--tables", "1", "--deals", str(tmp_path / "none.pbn")],
         f"tableserver tournament create: cannot read {tmp_path / 'none.pbn'}: No such file or "
         "directory"),
        (["create", "s", "--tables", "1", "--deals", str(DEALS), "--players", str(broken)],
         f"tableserver tournament create: {broken}: not JSON: Expecting value (line 2)"),
        (["round", "s", "1", "--movement", str(wrong)],
         f"tableserver tournament round: {wrong}: table spring-1: give its boards as [1, 2, 3] "
         'or "1-3"'),
    ]
    for argv, message in cases:
        assert main(["tournament", *argv]) == 2
        assert capsys.readouterr().err == message + "\n"
    assert fake.requests == []


@pytest.mark.usefixtures("gateway_env")
def test_a_refusal_is_printed_plainly(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(httpx, "request", FakeGateway(lambda _: answer(
        409, {"error": "tournament spring exists, created by another request",
              "field": "tournament"})))
    assert main(["tournament", "create", "spring", "--tables", "3", "--deals",
                 str(DEALS)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == ("tableserver tournament create: tournament spring exists, "
                                 "created by another request (field 'tournament')\n")


@pytest.mark.usefixtures("gateway_env")
def test_export_writes_the_file_once_it_has_all_come(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    record = '[Event "Spring"]\n[Board "1"]\n'
    fake = FakeGateway(lambda _: httpx.Response(200, text=record))
    monkeypatch.setattr(httpx, "request", fake)
    out = tmp_path / "spring.pbn"
    assert main(["tournament", "export", "spring", "-o", str(out)]) == 0
    assert out.read_text() == record and fake.requests[0].url.params["format"] == "pbn"
    assert capsys.readouterr().err == \
        f"tournament spring: pbn export, {len(record)} bytes, written to {out}\n"
    monkeypatch.setattr(httpx, "request", FakeGateway(lambda _: answer(
        503, {"error": "Kafka did not answer in time; retry (doing it twice is harmless)"})))
    assert main(["tournament", "export", "spring", "--format", "lin", "-o",
                 str(tmp_path / "spring.lin")]) == 1
    assert not (tmp_path / "spring.lin").exists()
    assert capsys.readouterr().err == "tableserver tournament export: Kafka did not answer " \
        "in time; retry (doing it twice is harmless)\n"


@pytest.mark.usefixtures("gateway_env")
def test_no_gateway_is_exit_1_and_says_retry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "show", "spring", "--gateway", "http://127.0.0.1:1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tableserver tournament show: the gateway at http://127.0.0.1:1 is "
                          "unreachable (")
    assert err.endswith("TABLESERVER_GATEWAY); retry\n") and "Traceback" not in err


def test_without_a_token_nothing_is_sent_and_none_is_made(
        fake: FakeGateway, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.delenv("TABLESERVER_DIRECTOR_TOKEN", raising=False)
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path / "data"))
    assert main(["tournament", "show", "spring"]) == 2
    assert "no director's token: set TABLESERVER_DIRECTOR_TOKEN" in capsys.readouterr().err
    assert fake.requests == [] and not (tmp_path / "data").exists()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "director.token").write_text("from-the-data-folder\n")
    overview = FakeGateway(lambda _: answer(200, VIEW))
    monkeypatch.setattr(httpx, "request", overview)
    assert main(["tournament", "show", "spring"]) == 0
    assert capsys.readouterr().out == render_overview(VIEW) + "\n"
    assert overview.requests[0].headers["Authorization"] == "Bearer from-the-data-folder"


def test_a_tournament_with_entrants_and_a_movement_and_its_results(tmp_path: Path) -> None:
    """Scoring: `create --entrants --movement KIND:BOARDS:ROUNDS`, `round` with neither
    boards nor movement (the tournament's movement), `results` drawn as a ranking."""
    deals = tmp_path / "d.pbn"
    deals.write_text('[Board "1"]\n[Deal "N:AKQJ.AKQJ.AKQ.AK T987.T98.T98.T98 '
                     '65432.765.765.76 .432.J432.QJ5432"]\n')
    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps([{"name": "Ann & Bob", "players": ["Ann", "Bob"]}]))
    args = parse("create", "spring", "--tables", "3", "--deals", str(deals), "--entrants",
                 str(pairs), "--movement", "mitchell:2:2")
    body = tournament_cli.creation_request(args)
    assert body["entrants"] == [{"name": "Ann & Bob", "players": ["Ann", "Bob"]}]
    assert body["movement"] == {"kind": "mitchell", "boards_per_round": 2, "rounds": 2}
    start = parse("round", "spring", "2")
    assert start.boards is None and start.movement is None
    doc = {"tournament": "spring", "scoring": "matchpoints", "complete": [1, 2],
           "entrants": [{"number": 1, "name": "Ann & Bob"}, {"number": 4, "name": "Cy"}],
           "rankings": [{"entrant": 1, "rank": 1, "direction": "NS", "percent": 62.5,
                         "points": 5.0}, {"entrant": 4, "rank": 1, "direction": "EW",
                                          "percent": 37.5, "points": 3.0}]}
    text = tournament_cli.render_rankings(doc)
    assert text.splitlines()[1].split() == ["NS", "1.", "1", "Ann", "&", "Bob", "62.50", "%"]
    assert "boards complete 1-2" in text


@pytest.mark.usefixtures("gateway_env")
def test_close_asks_the_gateway_and_says_what_was_archived(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def closing(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("force") != "true":
            return httpx.Response(409, json={"error": "a board is in play at spring-2; close "
                                             "when it is over, or with force=true",
                                             "field": "force"})
        return httpx.Response(200, json={"closed": ["spring-1", "spring-2"], "events": 1234,
                                         "steps_s": {}})
    gateway = FakeGateway(closing)
    monkeypatch.setattr(httpx, "request", gateway)
    assert main(["tournament", "close", "spring"]) == 2
    assert "a board is in play at spring-2" in capsys.readouterr().err
    assert main(["tournament", "close", "spring", "--force"]) == 0
    assert capsys.readouterr().out == ("tournament spring: 2 tables closed, 1,234 events "
                                       "archived, their topics deleted\n")
    sent = gateway.requests[-1]
    assert (sent.method, sent.url.path) == ("POST", "/api/tournaments/spring/close")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (actions,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions.choices)


def test_the_help_names_every_tournament_command(capsys: pytest.CaptureFixture[str]) -> None:
    """`tableserver --help` and `tableserver tournament -h` say what each command of the
    parser does: the help's own text (not argparse's list of choices) names every one."""
    tournament = _subcommands(build_parser())["tournament"]
    commands = list(_subcommands(tournament))
    assert {"create", "round", "show", "results", "score", "robots", "close",
            "export"} <= set(commands)
    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    listed = re.search(r"tableserver tournament ([\w|]+) NAME", top)
    assert listed is not None and sorted(listed.group(1).split("|")) == sorted(commands)
    with pytest.raises(SystemExit):
        main(["tournament", "-h"])
    own = capsys.readouterr().out.split("positional arguments:")[0]
    assert [c for c in commands if f"tableserver tournament {c} NAME" not in own] == []

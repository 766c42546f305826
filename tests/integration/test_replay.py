"""Replay from Kafka (`tableserver replay`, `GET /history`), import of records, and what each
reader sees of alerts and explanations (Law 20F), on the real broker, Redis and services."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from shared import fold, from_map
from shared.codec import to_map
from shared.notation import pbn_events
from tests.helpers import DEAL, new_table, play_script, run, state, wait_for
from tests.integration.kafka_reading import committed_alerts
from tests.script import log
from tests.stack import Stack

DATA = Path(__file__).resolve().parents[1] / "data"


def read_history(http: httpx.Client, table: str, **params: Any) -> httpx.Response:
    """A read of the history, asked again while the token is over its limit of reads a second
    (a 429: reads are quick, and one token reads here again and again)."""
    response: httpx.Response = wait_for(
        lambda: (r := http.get(f"/api/tables/{table}/history", params=params)).status_code
        != 429 and r, 10, "a read within the token's limit")
    return response


def history(stack: Stack, table: str, token: str, **params: Any) -> Any:
    with stack.client(token) as http:
        response = read_history(http, table, **params)
        assert response.status_code == 200, response.text
        return response.json() if params.get("format", "json") == "json" else response.text


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli.main", *args], env=stack.env,
                          capture_output=True, text=True, check=False, timeout=120)


def test_a_board_replays_call_by_call_with_its_alerts(stack: Stack) -> None:
    """Each step of the history folds to the state the engine gives for the events so far,
    with the alerts raised at that step, under the ids the processor emitted."""
    script = "N 1S, W 2H, N decline, E P, S 8NT"
    tokens = new_table(stack, "rep1")
    last = play_script(stack, "rep1", tokens, script)
    document = history(stack, "rep1", stack.director, board=1)
    steps = document["history"]
    assert [e["offset"] for e in steps] == list(range(last + 1))
    posted = log(script)
    posted[0]["deal"] = DEAL  # new_table starts board 1 with it
    assert [(e["event"]["type"], e["event"].get("call")) for e in steps] == \
        [(m["type"], m.get("call")) for m in posted]
    for n, entry in enumerate(steps):
        at = history(stack, "rep1", stack.director, board=1, until=entry["offset"])
        expected = fold(from_map(m) for m in posted[:n + 1]).board
        assert expected is not None
        assert {**at["state"], "started_ts": None} == {**expected.to_dict(), "started_ts": None}
        assert at["version"] == entry["offset"]
    raised = {a["id"]: a["kind"] for e in steps for a in e["alerts"]}
    assert sorted(raised.values()) == ["bid_above_seven", "bid_out_of_rotation"]
    emitted = wait_for(lambda: [a for a in run(committed_alerts(stack.bootstrap))
                                if a["table"] == "rep1"], 10, "the processor's alerts")
    assert {a["id"]: a["kind"] for a in emitted} == raised


def test_the_cli_replays_what_the_gateway_serves(stack: Stack) -> None:
    tokens = new_table(stack, "rep2")
    last = play_script(stack, "rep2", tokens, "N 1NT, E P, S 3NT, W P, N P, E P")
    done = cli(stack, "replay", "rep2")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == history(stack, "rep2", stack.director)
    early = json.loads(cli(stack, "replay", "rep2", "--board", "1", "--until", "2").stdout)
    assert [c["call"] for c in early["state"]["calls"]] == ["1NT", "P"]
    pbn = cli(stack, "replay", "rep2", "--format", "pbn").stdout
    assert '[Contract "3NT"]' in pbn and '[Declarer "N"]' in pbn  # N named NT first
    assert history(stack, "rep2", stack.director, format="pbn") == pbn
    assert "mb|3NT|" in cli(stack, "replay", "rep2", "--format", "lin").stdout
    assert json.loads(cli(stack, "replay", "rep2", "--until", str(last + 99)).stdout)[
        "version"] == last
    for args, message in ((("rep-none",), "no table rep-none"),
                          (("rep2", "--board", "9"), "no board 9"),
                          (("bad/name",), "not a table name")):
        refused = cli(stack, "replay", *args)
        assert refused.returncode == 2 and message in refused.stderr and not refused.stdout
    with stack.client(stack.director) as http:
        assert read_history(http, "rep2", board=9).status_code == 404
        assert http.get("/api/tables/rep2/history", params={"format": "x"}).status_code == 400


def test_a_boards_record_up_to_an_offset_keeps_the_players_names(stack: Stack) -> None:
    """`replay T --board N --until X --format pbn` writes the board from the table's log up to
    X: the players named before the board began keep their seats' tags, as the gateway's
    `/history` writes them."""
    with stack.client(stack.director) as http:
        created = http.post("/api/tables", json={"table": "rep-names"})
        assert created.status_code == 201, created.text
        tokens = created.json()
        assert http.post("/api/tables/rep-names/players", json={"players": {
            "N": "Ann", "E": "Di", "S": "Bob", "W": "Cy"}}).status_code == 202
        assert http.post("/api/tables/rep-names/boards",
                         json={"board": 1, "deal": DEAL}).status_code == 202
    last = play_script(stack, "rep-names", tokens, "N 1NT, E P, S 3NT")
    args = ("--board", "1", "--until", str(last - 1))
    for form in ("pbn", "lin"):
        done = cli(stack, "replay", "rep-names", *args, "--format", form)
        assert done.returncode == 0, done.stderr
        assert done.stdout == history(stack, "rep-names", stack.director, board=1,
                                      until=last - 1, format=form)
        if form == "pbn":
            assert '[West "Cy"]' in done.stdout and '[North "Ann"]' in done.stdout
            assert '[Auction "N"]\n1NT Pass' in done.stdout and "3NT" not in done.stdout
        else:
            assert "pn|Bob,Cy,Ann,Di|" in done.stdout
    refused = cli(stack, "replay", "rep-names", "--board", "2", "--format", "pbn")
    assert refused.returncode == 2 and "no board 2" in refused.stderr and not refused.stdout


def test_law_20f_self_alerts_reach_opponents_and_spectators_not_partner(stack: Stack) -> None:
    """Law 20F: N alerts and explains his own 1C; E asks at his turn, N answers. E, W and the
    spectator see the alert and both explanations; N's partner S sees neither, in the state,
    on the feed's source (the state) and in the history."""
    tokens = new_table(stack, "rep3")
    with stack.client(tokens["seats"]["N"]) as http:
        assert http.post("/api/tables/rep3/events", json={
            "type": "call", "call": "1C", "alert": True,
            "explanation": "Precision, 16+"}).status_code == 202
    last = play_script(stack, "rep3", tokens, "E asks 0, N explains 0 any shape")
    wait_for(lambda: state(stack, "rep3", stack.director)["version"] == last, 10, "folded")
    for reader in (tokens["seats"]["E"], tokens["seats"]["W"], tokens["spectator"]):
        board = state(stack, "rep3", reader)["board"]
        assert board["calls"][0] == {"seat": "N", "call": "1C", "alert": True,
                                     "explanation": "Precision, 16+"}
        assert [e["explanation"] for e in board["explanations"]] == ["any shape"]
        told = history(stack, "rep3", reader)["history"]
        assert told[1]["event"]["explanation"] == "Precision, 16+"
        assert told[3]["event"]["explanation"] == "any shape"
    south = state(stack, "rep3", tokens["seats"]["S"])["board"]
    assert south["calls"][0] == {"seat": "N", "call": "1C"}
    assert south["explanations"] == [] and south["alerted_calls"] == []
    assert south["questions"] == [{"seat": "E", "index": 0, "in_turn": True, "event": 2}]
    told_south = history(stack, "rep3", tokens["seats"]["S"])["history"]
    assert "alert" not in told_south[1]["event"] and "explanation" not in told_south[3]["event"]
    assert "Precision" not in history(stack, "rep3", tokens["seats"]["S"], format="pbn")


def test_import_is_idempotent_and_folds_like_the_record(stack: Stack, tmp_path: Path) -> None:
    record = DATA / "pbn21-irregularities.pbn"
    events = pbn_events(record.read_bytes().decode("utf-8", errors="replace"))
    boards = sum(1 for e in events if e["type"] == "board_started")
    first = cli(stack, "import", str(record), "--table", "imp1")
    assert first.returncode == 0, first.stderr
    assert f"{boards} boards imported ({len(events)} events" in first.stdout
    again = cli(stack, "import", str(record), "--table", "imp1")
    assert again.returncode == 0 and f"0 boards imported (0 events); {boards} already there" \
        in again.stdout
    replayed = json.loads(cli(stack, "replay", "imp1").stdout)
    assert len(replayed["history"]) == len(events)
    from_topic = fold(from_map(e["event"]) for e in replayed["history"]).to_dicts()
    from_record = fold(from_map(e) for e in events).to_dicts()
    assert [{**b, "started_ts": None} for b in from_topic] == \
        [{**b, "started_ts": None} for b in from_record]
    wait_for(lambda: state(stack, "imp1", stack.director)["version"] == len(events) - 1, 10,
             "the processor folds the imported table")


def test_an_import_cut_short_goes_on_where_it_stopped(stack: Stack, tmp_path: Path) -> None:
    """The boards already on the table are left out: a record that grew (the session went on),
    or an import run again after a crash, appends only what is missing."""
    done = subprocess.run([sys.executable, "-m", "services.cli.main", "convert",
                           str(DATA / "robot-match-with-alerts.lin")], capture_output=True,
                          text=True, check=True).stdout.splitlines()
    starts = [i for i, line in enumerate(done) if '"board_started"' in line]
    half, whole = tmp_path / "half.jsonl", tmp_path / "whole.jsonl"
    half.write_text("\n".join(done[:starts[4]]) + "\n")
    whole.write_text("\n".join(done) + "\n")
    assert "4 boards imported" in cli(stack, "import", str(half), "--table", "imp2").stdout
    rest = cli(stack, "import", str(whole), "--table", "imp2")
    assert f"{len(starts) - 4} boards imported" in rest.stdout and "4 already there" \
        in rest.stdout
    assert len(json.loads(cli(stack, "replay", "imp2").stdout)["history"]) == len(done)


def test_an_unreadable_record_imports_nothing(stack: Stack) -> None:
    refused = cli(stack, "import", str(DATA / "pbn21-broken.pbn"), "--table", "imp3")
    assert refused.returncode == 2 and "line 7" in refused.stderr
    assert "nothing imported" in refused.stderr
    assert cli(stack, "replay", "imp3").returncode == 2  # no table was created
    with stack.client(stack.director) as http:
        assert http.get("/api/tables/imp3/state").status_code == 404


def test_a_seat_cannot_make_an_import_leave_events_out(stack: Stack, tmp_path: Path) -> None:
    """Import ids. The importer's ids can be computed from the public file: a seat that
    posts them first is refused (400, field id), as is the director. Ids already on the table
    on other events (posted before the gateway refused them) do not make the import leave the
    record's events out: it imports them all, says so, and the table folds like the record.
    Imported again, it names the boards it leaves out."""
    from services.replay.importer import boards_of, with_ids
    from tests.integration.test_fair_play import _append

    events = [to_map(from_map(e)) for e in  # as the importer reads a log: ids from these
              log("N 1S, E P, S 2S, W P, N P, E P") + log("E 1H, S P, W P, N P", board=2)]
    record = tmp_path / "two-boards.jsonl"
    record.write_text("".join(json.dumps(e) + "\n" for e in events))
    ids = [e["id"] for e in with_ids(boards_of(events))[0]]
    with stack.client(stack.director) as http:
        created = http.post("/api/tables", json={"table": "imp4"})
        assert created.status_code == 201, created.text
        refused = http.post("/api/tables/imp4/boards", json={"board": 1, "id": ids[0]})
        assert refused.status_code == 400 and refused.json()["field"] == "id"
    with stack.client(created.json()["seats"]["N"]) as http:
        refused = http.post("/api/tables/imp4/events", json={"type": "call", "call": "P",
                                                             "id": ids[1]})
        assert refused.status_code == 400 and refused.json()["field"] == "id", refused.text
    squatted = ids[:6]
    for event_id in squatted:  # as a seat's events were appended before the refusal
        _append(stack, "imp4", {"type": "call", "seat": "S", "call": "P", "id": event_id})
    first = cli(stack, "import", str(record), "--table", "imp4")
    assert first.returncode == 0, first.stderr
    assert f"2 boards imported ({len(events)} events" in first.stdout
    assert "0 already there" in first.stdout and "left out" not in first.stdout
    assert "warning: 6 ids" in first.stderr and all(i in first.stderr for i in squatted)
    replayed = json.loads(cli(stack, "replay", "imp4").stdout)["history"][len(squatted):]
    assert [e["event"]["id"] for e in replayed[:len(ids)]] == ids
    assert [{**b, "started_ts": None} for b in
            fold(from_map(e["event"]) for e in replayed).to_dicts()] == \
        [{**b, "started_ts": None} for b in fold(from_map(e) for e in events).to_dicts()]
    again = cli(stack, "import", str(record), "--table", "imp4")
    assert again.returncode == 0 and "0 boards imported (0 events); 2 already there" \
        in again.stdout
    assert "left out, already on the table: boards 1, 2" in again.stdout
    assert again.stderr == ""  # each id is on its own event now, beside the squatter

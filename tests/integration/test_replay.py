"""Replay from Kafka (`tableserver replay`, `GET /history`), import of records, and what each
reader sees of alerts and explanations (Law 20F), on the real broker, Redis and services."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared import fold, from_map
from shared.notation import pbn_events
from tests.integration.conftest import Stack, run, wait_for
from tests.integration.kafka_reading import committed_alerts
from tests.integration.test_pipeline import DEAL, new_table, play_script, state
from tests.script import log

pytestmark = pytest.mark.integration
DATA = Path(__file__).resolve().parents[1] / "data"


def history(stack: Stack, table: str, token: str, **params: Any) -> Any:
    with stack.client(token) as http:
        response = http.get(f"/api/tables/{table}/history", params=params)
        assert response.status_code == 200, response.text
        return response.json() if params.get("format", "json") == "json" else response.text


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", *args], env=stack.env,
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
        assert http.get("/api/tables/rep2/history", params={"board": 9}).status_code == 404
        assert http.get("/api/tables/rep2/history", params={"format": "x"}).status_code == 400


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
    done = subprocess.run([sys.executable, "-m", "services.cli", "convert",
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

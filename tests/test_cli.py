"""`tableserver fold`: one table's log in, one board state a line out; clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.script import log

LOG = log("N 1S, E 1H, S decline, E 2H, S 4S, W P, N P, E P") + \
    [{"type": "board_started", "board": 2}] + \
    [{"type": "call", "seat": s, "call": "P"} for s in "ESWN"] + \
    [{"type": "board_started", "board": 3, "ruleset": "rubber"},
     {"type": "call", "seat": "S", "call": "1NT", "client_seq": 4},
     {"type": "call", "seat": "S", "call": "1NT", "client_seq": 4}]


def fold_cli(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "fold", *(args or ["-"])],
                          input=text, capture_output=True, text=True, check=False)


def jsonl(events: list[dict]) -> str:  # type: ignore[type-arg]
    return "".join(json.dumps(e) + "\n" for e in events)


def test_fold_prints_each_board_after_its_last_event() -> None:
    result = fold_cli(jsonl(LOG))
    assert result.returncode == 0, result.stderr
    states = [json.loads(line) for line in result.stdout.splitlines()]
    assert [s["board"] for s in states] == [1, 2, 3]
    assert states[0]["contract"] == {"level": 4, "strain": "S", "risk": "", "declarer": "N"}
    assert states[0]["alerts"][0]["kind"] == "insufficient_bid"
    assert states[1]["status"] == "passed_out"
    assert states[2]["ruleset"] == "rubber" and len(states[2]["calls"]) == 1
    assert states[2]["turn"] == "W"


def test_fold_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "t1.jsonl"
    path.write_text(jsonl(LOG) + "\n\n")  # blank lines are skipped
    result = fold_cli("", str(path))
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 3


def bad(text: str, *args: str) -> str:
    result = fold_cli(text, *args)
    assert result.returncode == 2
    assert result.stdout == "" and "Traceback" not in result.stderr
    return result.stderr


def test_malformed_json_names_the_line() -> None:
    assert "line 3: not JSON" in bad(jsonl(LOG[:2]) + '{"type": "call",\n')


def test_unknown_call_names_the_line_and_field() -> None:
    message = bad(jsonl(LOG[:2]) + '{"type":"call","seat":"S","call":"1Q"}\n')
    assert "line 3" in message and "not a call" in message and "'call'" in message


def test_event_before_any_board() -> None:
    assert "before any board_started" in bad('{"type":"call","seat":"N","call":"1C"}\n')


def test_missing_file_and_binary_input(tmp_path: Path) -> None:
    assert "cannot read" in bad("", str(tmp_path / "nope.jsonl"))
    path = tmp_path / "bin.jsonl"
    path.write_bytes(b"\xff\xfe\x00garbage\n")
    assert "not UTF-8" in bad("", str(path))


def test_fold_text_draws_the_auction() -> None:
    demo = Path(__file__).parent / "data" / "demo-board.jsonl"
    result = fold_cli("", "--text", str(demo))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Board 11  dealer S  vulnerable None  (duplicate)"
    assert lines[1].split() == ["W", "N", "E", "S"]
    assert lines[2].split() == ["1C!"] and lines[3].split() == ["P", "1NT!", "P", "P"]
    assert "Contract: 1NT by N" in lines
    assert any(line.startswith("DIRECTOR  Law 27  insufficient_bid") for line in lines)
    assert "Opening lead: D4 by E" in lines


def test_the_import_progress_bar_fills_as_boards_are_acknowledged() -> None:
    from services.cli import progress_bar

    assert progress_bar(0, 280, width=10) == "\r[..........] 0/280 boards"
    assert progress_bar(140, 280, width=10) == "\r[#####.....] 140/280 boards"
    assert progress_bar(280, 280, width=10) == "\r[##########] 280/280 boards"


def test_replay_and_import_refuse_a_bad_table_name_before_connecting() -> None:
    from services.cli import main

    assert main(["replay", "no/such"]) == 2
    assert main(["import", "tests/data/pbn21-irregularities.pbn", "--table", "a b"]) == 2

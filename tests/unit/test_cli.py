"""`tableserver fold`: one table's log in, one board state a line out; clear errors. The
commands run in the test's process (tests/cli.py); two process smoke tests at the end: a
closed pipe, and `fold`'s lean start-up."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli import Ran, run_cli
from tests.script import log

LOG = log("N 1S, E 1H, S decline, E 2H, S 4S, W P, N P, E P") + \
    [{"type": "board_started", "board": 2}] + \
    [{"type": "call", "seat": s, "call": "P"} for s in "ESWN"] + \
    [{"type": "board_started", "board": 3, "ruleset": "rubber"},
     {"type": "call", "seat": "S", "call": "1NT", "client_seq": 4},
     {"type": "call", "seat": "S", "call": "1NT", "client_seq": 4}]


def fold_cli(text: str, *args: str) -> Ran:
    return run_cli("fold", *(args or ["-"]), stdin=text)


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
    demo = Path(__file__).parent.parent / "data" / "demo-board.jsonl"
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
    from services.cli.main import progress_bar

    assert progress_bar(0, 280, width=10) == "\r[..........] 0/280 boards"
    assert progress_bar(140, 280, width=10) == "\r[#####.....] 140/280 boards"
    assert progress_bar(280, 280, width=10) == "\r[##########] 280/280 boards"


def test_replay_and_import_refuse_a_bad_table_name_before_connecting() -> None:
    from services.cli.main import main

    assert main(["replay", "no/such"]) == 2
    assert main(["import", "tests/data/pbn21-irregularities.pbn", "--table", "a b"]) == 2


# --- records read board by board, closed pipes, the stack down ----------------------------

DATA = Path(__file__).parent.parent / "data"
QUIRKS = DATA / "lin-quirks" / "old-vugraph.lin"
ROBOT = DATA / "robot-match-with-alerts.lin"
DOWN = {"TABLESERVER_KAFKA": "127.0.0.1:1", "TABLESERVER_REDIS": "redis://127.0.0.1:1/0"}
NOT_A_CALL = "mb|1Q|: not a call: '1Q' (expected a bid such as 1C or 3NT, P, X or XX)"
KAFKA_DOWN = ("tableserver {}: Kafka at 127.0.0.1:1 is unreachable (is `make up` running? "
              "see TABLESERVER_KAFKA)")


def cli(*args: str, env: dict[str, str] | None = None) -> Ran:
    return run_cli(*args, env=env)


def started(stdout: str) -> list[int]:
    events = [json.loads(line) for line in stdout.splitlines()]
    return [e["board"] for e in events if e["type"] == "board_started"]


def test_convert_reads_every_board_it_can_and_names_each_one_it_skips() -> None:
    result = cli("convert", str(QUIRKS))
    assert result.returncode == 0
    assert result.stderr.splitlines() == [
        f"tableserver convert: {QUIRKS}: board 4 (line 20): skipped: {NOT_A_CALL}"]
    assert started(result.stdout) == [1, 1, 2, 2, 3, 3, 4]


def test_convert_strict_is_all_or_nothing() -> None:
    result = cli("convert", "--strict", str(QUIRKS))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"tableserver convert: {QUIRKS}: line 20: {NOT_A_CALL}; " \
        "nothing converted\n"


def test_convert_skips_a_broken_pbn_game_and_keeps_the_rest(tmp_path: Path) -> None:
    record = tmp_path / "mixed.pbn"
    record.write_text((DATA / "pbn21-broken.pbn").read_text() + "\n"
                      '[Board "5"]\n[Deal "N:- - - -"]\n[Auction "N"]\nPass Pass Pass Pass\n')
    result = cli("convert", str(record))
    assert result.returncode == 0 and started(result.stdout) == [5]
    assert result.stderr.splitlines() == [
        f"tableserver convert: {record}: line 7 (no board number): skipped: tag OptimumScore: "
        "'100' is not a score such as 'NS 420'",
        f"tableserver convert: {record}: line 11 (no board number): skipped: tag OptimumScore: "
        "'EW' is not a score such as 'NS 420'"]


def test_convert_of_a_record_without_a_board_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.lin"
    empty.write_text("pn|a,b,c,d|nt|nothing dealt|")
    result = cli("convert", str(empty))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"tableserver convert: {empty}: it holds no board; nothing " \
        "converted\n"


def test_replay_with_the_stack_down_says_so_in_one_line() -> None:
    began = time.monotonic()
    result = cli("replay", "t1", env=DOWN)
    assert time.monotonic() - began < 60
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == KAFKA_DOWN.format("replay") + "\n"


def test_import_with_the_stack_down_says_so_in_one_line() -> None:
    began = time.monotonic()
    result = cli("import", str(ROBOT), "--table", "t1", env=DOWN)
    assert time.monotonic() - began < 60
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == KAFKA_DOWN.format("import") + "\n"


def test_import_names_the_boards_it_skips_before_it_connects() -> None:
    result = cli("import", str(QUIRKS), "--table", "t1", env=DOWN)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"tableserver import: {QUIRKS}: board 4 (line 20): skipped: {NOT_A_CALL}",
        KAFKA_DOWN.format("import")]


def test_import_strict_and_import_of_nothing_readable_connect_to_nothing() -> None:
    strict = cli("import", "--strict", str(QUIRKS), "--table", "t1", env=DOWN)
    assert strict.returncode == 2
    assert strict.stderr == f"tableserver import: {QUIRKS}: line 20: {NOT_A_CALL}; nothing " \
        "imported\n"
    broken = DATA / "pbn21-broken.pbn"
    nothing = cli("import", str(broken), "--table", "t1", env=DOWN)
    assert nothing.returncode == 2
    lines = nothing.stderr.splitlines()
    assert [line.split(": skipped: ")[0] for line in lines[:2]] == [
        f"tableserver import: {broken}: line 7 (no board number)",
        f"tableserver import: {broken}: line 11 (no board number)"]
    assert lines[2:] == [f"tableserver import: {broken}: no board could be read; nothing "
                         "imported"]


def test_a_broker_that_never_answers_is_given_up_in_bounded_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A port where connections are accepted (by the kernel) and never answered: the import
    gives up after its connection timeout (10 s; 1 s here, the test's), with the same one
    line. Bounded, not timed: without its timeout the import would wait on the silent socket
    for ever; 60 s leaves room for a loaded machine."""
    from services.replay import importer

    monkeypatch.setattr(importer, "CONNECT_TIMEOUT_MS", 1000)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        began = time.monotonic()
        result = cli("import", str(ROBOT), "--table", "t1",
                     env={**DOWN, "TABLESERVER_KAFKA": address})
    assert time.monotonic() - began < 60
    assert result.returncode == 1
    assert result.stderr == f"tableserver import: Kafka at {address} is unreachable (is " \
        "`make up` running? see TABLESERVER_KAFKA)\n"


def test_kafka_or_redis_unreachable_is_told_from_an_error_they_answer() -> None:
    from aiokafka.errors import (
        KafkaConnectionError,
        KafkaTimeoutError,
        TopicAuthorizationFailedError,
    )
    from redis.exceptions import ConnectionError, ResponseError, TimeoutError

    from services.common.errors import StoreUnavailable
    from services.common.kafka.reader import KafkaUnavailable
    from services.common.redis_faults import store_faults
    from services.replay.importer import RedisUnavailable

    def ours(error: Exception) -> StoreUnavailable:  # as the adapters raise it
        with pytest.raises(StoreUnavailable) as caught, store_faults():
            raise error
        return caught.value

    for down in (KafkaConnectionError("refused"), KafkaTimeoutError()):
        assert str(KafkaUnavailable.of("k:1", down)) == "Kafka at k:1 is unreachable"
    assert str(KafkaUnavailable.of("k:1", TopicAuthorizationFailedError())).startswith(
        "Kafka at k:1 answered with an error: ")
    for gone in (ConnectionError("refused"), TimeoutError()):
        assert str(RedisUnavailable.of("redis://r:1/0", ours(gone))) == \
            "Redis at redis://r:1/0 is unreachable"
    assert str(RedisUnavailable.of("redis://r:1/0", ours(ResponseError("READONLY replica")))) == \
        "Redis at redis://r:1/0 answered with an error: READONLY replica"


def test_import_names_the_setting_of_the_service_it_could_not_reach(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from services.cli import main as tableserver
    from services.replay import importer

    async def redis_down(*args: object) -> None:
        raise importer.RedisUnavailable("Redis at redis://r:1/0 is unreachable")

    monkeypatch.setattr(importer, "import_boards", redis_down)
    assert tableserver.main(["import", str(ROBOT), "--table", "t1"]) == 1
    assert capsys.readouterr().err == "tableserver import: Redis at redis://r:1/0 is " \
        "unreachable (is `make up` running? see TABLESERVER_REDIS)\n"


def trick_lines(text: str) -> list[list[str]]:
    """The words of the trick lines of `fold --text` (each begins with the trick's number)."""
    return [line.split() for line in text.splitlines() if line[:5].strip().isdigit()]


def test_fold_text_draws_the_tricks() -> None:
    """Each trick on a line, its cards under the seats W N E S, the leader's marked `>`, the
    winner (Law 44E–F: the highest trump, else the highest card of the suit led; 44G: he
    leads next) and the running tricks won by NS and EW; then the result (Law 77)."""
    from shared import fold, from_map
    from shared.notation import lin_events

    record = (Path(__file__).parent.parent / "data" / "robot-match-with-alerts.lin").read_text()
    events = lin_events(record.splitlines()[0])  # board 1: 5H by South, played out
    result = fold_cli(jsonl(events), "--text", "-")
    assert result.returncode == 0, result.stderr
    lines = trick_lines(result.stdout)
    tricks = fold(from_map(e) for e in events).boards[0].to_dict()["play"]["tricks"]
    assert len(lines) == len(tricks) == 13
    assert lines[0] == ["1", ">C9", "C3", "C2", "CK", "S", "1", "0"]  # West led, South won
    assert lines[9][5:] == ["W", "9", "1"]  # the defence's one trick: the DA
    ns = ew = 0
    for words, trick in zip(lines, tricks, strict=True):
        by_seat = {c["seat"]: c["card"] for c in trick["cards"]}
        assert words[1:5] == [(">" if s == trick["leader"] else "") + by_seat[s]
                              for s in "WNES"]
        ns, ew = ns + (trick["winner"] in "NS"), ew + (trick["winner"] in "EW")
        assert words[5:] == [trick["winner"], str(ns), str(ew)]
    assert "Result: declarer 12 tricks (tricks), NS +480" in result.stdout.splitlines()
    assert (ns, ew) == (12, 1)


def test_fold_text_draws_the_trick_in_progress_and_a_claim() -> None:
    """A trick in progress has no winner yet; a claim awaits the opponents (Laws 68, 69)."""
    from shared.notation import lin_events

    record = (Path(__file__).parent.parent / "data" / "robot-match-with-alerts.lin").read_text()
    events = lin_events(record.splitlines()[0])[:11 + 6]  # the start, the ten calls, six cards
    events.append({"type": "claim", "seat": "S", "tricks": 10, "statement": "trumps"})
    text = fold_cli(jsonl(events), "--text", "-").stdout
    lines = trick_lines(text)
    assert lines[0] == ["1", ">C9", "C3", "C2", "CK", "S", "1", "0"]
    assert lines[1] == ["2", "H3", ">HA"]  # South led the HA, West followed; no winner yet
    assert "Claim by S: 10 of the 12 remaining tricks" in text.splitlines()


def test_fold_text_ends_with_the_rubber_total_and_its_unfinished_rubber() -> None:
    """Rubber Laws 72–77 deal by deal (4S made: 120, NS's game; 2S made: 60 below, a
    part-score), then rubber Law 80 for the rubber the log leaves unfinished: 300 for NS's
    game, 50 for their part-score. A duplicate log has no such line."""
    log = []
    for board, (bid, declarer, tricks) in enumerate([("4S", "N", 10), ("2S", "S", 8)], 1):
        seats = "NESW"["NESW".index(declarer):] + "NESW"[:"NESW".index(declarer)]
        log += [{"type": "board_started", "board": board, "dealer": declarer,
                 "ruleset": "rubber"},
                {"type": "call", "seat": seats[0], "call": bid},
                *({"type": "call", "seat": s, "call": "P"} for s in seats[1:]),
                {"type": "result_recorded", "tricks": tricks}]
    result = fold_cli(jsonl(log), "--text", "-")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith(f"Rubber: NS +{120 + 60 + 300 + 50} ")
    duplicate = fold_cli(jsonl([{**e, "ruleset": "duplicate"} if "ruleset" in e else e
                                for e in log]), "--text", "-")
    assert "Rubber:" not in duplicate.stdout
    assert "Rubber:" not in fold_cli(jsonl(log)).stdout  # JSON: a board a line, nothing else


# --- process smoke tests: the command as a shell starts it ---------------------------------

def test_a_closed_pipe_ends_convert_quietly() -> None:
    """`tableserver convert F | head -1`: the reader goes away after a line; the rest of the
    output (200 kB, more than a pipe holds) has nowhere to go, and nothing is said of it."""
    convert = subprocess.Popen([sys.executable, "-m", "services.cli.main", "convert",
                                str(DATA / "realbridge-2021-online-qualifier.pbn")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = subprocess.Popen(["head", "-1"], stdin=convert.stdout, stdout=subprocess.PIPE)
    assert convert.stdout is not None and convert.stderr is not None
    convert.stdout.close()  # head holds the pipe's only reading end
    first, _ = head.communicate(timeout=60)
    errors = convert.stderr.read()
    convert.wait(timeout=60)
    assert first.count(b"\n") == 1 and b'"board_started"' in first
    assert errors == b""
    assert convert.returncode == 141


ONLY_OTHERS_NEED = {"asyncio", "pydantic", "pydantic_settings", "httpx", "aiokafka", "redis",
                    "shared.notation"}


def test_fold_starts_without_what_only_other_commands_need(tmp_path: Path) -> None:
    """`tableserver fold` as a process: its boards on stdout, and none of what only other
    commands need imported (`python -X importtime` lists each module imported): asyncio, the
    settings (pydantic), the HTTP client, Kafka's and Redis' clients, the records' readers.
    With them `fold` took 0.4 s of CPU a call; 0.2 s without."""
    path = tmp_path / "t1.jsonl"
    path.write_text(jsonl(LOG))
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "services.cli.main",
                           "fold", str(path)], capture_output=True, text=True, check=False,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["board"] for line in done.stdout.splitlines()] == [1, 2, 3]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "shared.table.engine" in imported  # the list is the one `fold` needs
    assert sorted(imported & ONLY_OTHERS_NEED) == []

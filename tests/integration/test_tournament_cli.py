"""`tableserver tournament …` as a director runs it, a process against the real stack: the
token found in the stack's data folder, a tournament created (and found the second time), a
round started, the overview drawn, a board played with the tokens it wrote, the PBN export
written to a file; refusals are one line and exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from shared.codec import from_map
from shared.deal import parse_deal
from shared.notation.pbn import pbn_events
from shared.seats import Seat
from shared.table.engine import fold
from shared.tournament.session import deals_of
from tests.helpers import wait_for
from tests.stack import Stack

DEALS = Path(__file__).parent.parent / "data" / "deals-32.pbn"
TABLES = 4


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    """The command, finding the gateway and the director's token as a director's shell
    would: from TABLESERVER_GATEWAY_PORT and the data folder (no token in the environment)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("TABLESERVER_DIRECTOR_TOKEN", "TABLESERVER_GATEWAY")}
    env.update(TABLESERVER_DATA=str(stack.data),
               TABLESERVER_GATEWAY_PORT=str(stack.gateway_port))
    result = subprocess.run([sys.executable, "-m", "services.cli.main", "tournament", *args],
                            capture_output=True, text=True, env=env, timeout=180, check=False)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def overview(stack: Stack, t: str) -> dict[str, Any]:
    result = cli(stack, "show", t, "--json")
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def test_a_director_runs_a_tournament_from_the_command_line(stack: Stack,
                                                           tmp_path: Path) -> None:
    t = "cli-spring"
    players = tmp_path / "players.json"
    players.write_text(json.dumps({f"{t}-1": {"N": "Ann", "E": "Di", "S": "Bob", "W": "Cy"}}))
    create = ["create", t, "--tables", str(TABLES), "--deals", str(DEALS), "--players",
              str(players), "--event-name", "Spring pairs", "--site", "online",
              "--date", "2026.11.24"]
    first = cli(stack, *create, "--links", str(tmp_path / "links.json"))
    assert first.returncode == 0, first.stderr
    said = first.stdout.splitlines()
    assert said[0] == (f"tournament {t} (Spring pairs): created; {TABLES} tables, boards "
                       f"1-32; tokens in {tmp_path / 'links.json'}")
    vugraph, results = said[1].split(": ", 1)[1], said[2].split(": ", 1)[1]
    assert results == f"{stack.url}/results#{t}" and vugraph.startswith(f"{stack.url}/vugraph#")
    with httpx.Client(timeout=10) as browser:  # the pages the links open, and what they read
        assert browser.get(results.split("#")[0]).status_code == 200
        listed = browser.get(f"{stack.url}/api/tournaments/{t}/vugraph",
                             headers={"Authorization": f"Bearer {vugraph.split('#')[1]}"})
        assert listed.status_code == 200, listed.text
        assert [x["table"] for x in listed.json()["tables"]] == \
            [f"{t}-{n}" for n in range(1, TABLES + 1)]
    links = json.loads((tmp_path / "links.json").read_text())
    tables = [f"{t}-{n}" for n in range(1, TABLES + 1)]
    assert list(links) == tables
    again = cli(stack, *create)  # no --links: the tokens on standard output
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[0] == (f"tournament {t} (Spring pairs): found (created "
                                            f"before by the same request); {TABLES} tables, "
                                            "boards 1-32")
    assert again.stderr.splitlines()[2] == said[2]  # the vugraph token's expiry moved on
    assert list(json.loads(again.stdout)) == tables

    started = cli(stack, "round", t, "1", "--boards", "1-2")
    assert started.returncode == 0, started.stderr
    assert started.stdout == f"tournament {t}: round 1 (boards 1-2) sent to {TABLES} tables\n"
    wait_for(lambda: all(line["board"] == 1 and line["status"] == "auction"
                         for line in overview(stack, t)["tables"]), 60, "board 1 everywhere")

    shown = cli(stack, "show", t)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == f"{t} — Spring pairs"
    rows = {line.split()[0]: line.split() for line in lines if line.startswith(f"{t}-")}
    assert list(rows) == tables
    for row in rows.values():  # round 1, board 1, one board left, North deals (Law 2)
        assert row[1:6] == ["1", "1", "1", "auction", "N"]
    assert lines[-1] == f"{TABLES} tables, {TABLES} playing; 0 boards finished; alerts: " \
        "0 raised, 0 open"

    seats = links[f"{t}-1"]["seats"]
    with httpx.Client(base_url=stack.url, timeout=10) as http:  # board 1 passed out at -1
        for seat in "NESW":
            response = http.post(f"/api/tables/{t}-1/events", json={"type": "call", "call": "P"},
                                 headers={"Authorization": f"Bearer {seats[seat]}"})
            assert response.status_code == 202, response.text
    wait_for(lambda: overview(stack, t)["tables"][0]["board"] == 2, 60, "board 2 at table 1")

    # table 2: 1NT by North (Law 41A: East on lead), then East's lead: the play
    seats2 = links[f"{t}-2"]["seats"]
    with httpx.Client(base_url=stack.url, timeout=10) as http:
        for seat, call in zip("NESW", ["1NT", "P", "P", "P"], strict=True):
            assert http.post(f"/api/tables/{t}-2/events", json={"type": "call", "call": call},
                             headers={"Authorization": f"Bearer {seats2[seat]}"}
                             ).status_code == 202
        on_lead = wait_for(lambda: (line := overview(stack, t)["tables"][1])["status"] ==
                           "closed" and line, 60, "the opening lead awaited at table 2")
        assert on_lead["turn"] == "E"
        assert cli(stack, "show", t).stdout.splitlines()[-1].startswith(
            f"{TABLES} tables, {TABLES} playing; 1 board finished")
        east = parse_deal(deals_of(DEALS.read_text())[1]["deal"])[Seat.E]
        suit, cards = next((s, c) for s, c in zip("SHDC", east.split("."), strict=True) if c)
        assert http.post(f"/api/tables/{t}-2/events", json={
            "type": "card_played", "card": suit + cards[0]},
            headers={"Authorization": f"Bearer {seats2['E']}"}).status_code == 202
        in_play = wait_for(lambda: (view := overview(stack, t))["tables"][1]["status"] ==
                           "play" and view, 60, "the play at table 2")
        assert in_play["tables"][1]["turn"] == "S"  # dummy's card, Law 45
        assert in_play["totals"]["playing"] == TABLES

    exported = cli(stack, "export", t, "--format", "pbn", "-o", str(tmp_path / "s.pbn"))
    assert exported.returncode == 0, exported.stderr
    pbn = (tmp_path / "s.pbn").read_text()
    assert exported.stderr == (f"tournament {t}: pbn export, {len(pbn.encode()):,} bytes, "
                               f"written to {tmp_path / 's.pbn'}\n")
    assert pbn.count('[Event "Spring pairs"]') == pbn.count("[Board ") == TABLES + 1
    assert '[Site "online"]' in pbn and '[North "Ann"]' in pbn
    boards = fold(from_map(m) for m in pbn_events(pbn)).boards
    assert [(b.board, b.status) for b in boards][:2] == [(1, "passed_out"), (2, "auction")]


def test_refusals_are_one_line_and_exit_2(stack: Stack, tmp_path: Path) -> None:
    missing = cli(stack, "round", "cli-nothing", "1", "--boards", "1")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == "tableserver tournament round: no tournament cli-nothing\n"
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n')
    refused = cli(stack, "create", "cli-bad", "--tables", "2", "--deals", str(bad))
    assert refused.returncode == 2 and refused.stderr.startswith(
        "tableserver tournament create: ") and "(field 'deals')" in refused.stderr

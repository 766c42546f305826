"""A night's set-up timed step by step (services/gateway/tournaments/round_timing.py): the
Director's creation of a tournament and his round each answer the seconds of their steps
(`steps_s`, in order) and log them as one line, so that where a large set-up's time goes is
read from the answers (bench/night_bench.py prints them; docs/performance.md, "The Funbridge
night"). On the fakes of the gateway's ports, over HTTP."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.fakes import MemoryKafka, MemoryStore, director_client, director_gateway
from tests.helpers import DEALS

CREATION = ["the deals parsed", "the tournament looked for", "the topics created and led",
            "the tables' records claimed", "the tables registered", "the players named",
            "the creation recorded", "the links signed"]
ROUND = ["the tables' records read", "round_ended and round_started to the tables",
         "round_started recorded"]


async def test_the_creation_and_the_round_answer_their_steps_in_order(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    gw = director_gateway(tmp_path, MemoryKafka(shards=8), MemoryStore())
    caplog.set_level(logging.INFO, logger="tableserver.clock")
    async with director_client(gw) as http:
        made = await http.post("/api/tournaments", json={
            "tournament": "steps", "tables": 3, "deals": DEALS})
        assert made.status_code == 201, made.text
        round_one = await http.post("/api/tournaments/steps/rounds", json={
            "round": 1, "movement": {"steps-1": [1], "steps-2": [2], "steps-3": [3]}})
        assert round_one.status_code == 202, round_one.text
        again = await http.post("/api/tournaments", json={
            "tournament": "steps", "tables": 3, "deals": DEALS})
    created = made.json()["steps_s"]
    assert list(created) == CREATION
    assert all(seconds >= 0 for seconds in created.values())
    assert round_one.json()["tables"] == 3
    assert list(round_one.json()["steps_s"]) == ROUND
    # the same request again found the tournament: only the steps it took
    assert again.json()["created"] is False
    assert list(again.json()["steps_s"]) == ["the deals parsed", "the links signed"]
    lines = [r.getMessage() for r in caplog.records if r.name == "tableserver.clock"]
    assert any(line.startswith("the creation of steps (3 tables) in ")
               and "the topics created and led" in line for line in lines), lines
    assert any(line.startswith("round 1 of steps in ") and "round_started recorded" in line
               for line in lines), lines

"""A tournament from a large deals file (docs/api.md, limits): 10,000 boards, each with its dealer
and vulnerability as a dealing program writes them, make a creation record of 1.4 MB, past
Kafka's default of 1 MB a record. It was answered "retry" (503) every time, leaving the tables
registered and the tournament missing. Whatever the upload limit admits is created, and read
back by a gateway that never saw it."""

from __future__ import annotations

import re
from pathlib import Path

from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from services.common.names import tournament_topic
from tests.helpers import run, wait_for
from tests.stack import Stack, another_gateway

BOARDS = 10_000
DEALS = re.findall(r'\[Deal "[^"]+"\]',
                   (Path(__file__).parent.parent / "data" / "deals-32.pbn").read_text())
DEALERS = "NESW"
VULNERABLE = ("None", "NS", "EW", "All")


def deals_file(boards: int) -> str:
    """A dealing program's file of `boards` boards (the 32 test deals again and again)."""
    return "\n".join(f'[Event "Big"]\n[Board "{n}"]\n[Dealer "{DEALERS[n % 4]}"]\n'
                     f'[Vulnerable "{VULNERABLE[n % 4]}"]\n{DEALS[n % len(DEALS)]}\n'
                     for n in range(1, boards + 1))


def test_a_deals_file_of_10000_boards_makes_its_tournament(stack: Stack) -> None:
    request = {"tournament": "big1", "tables": 2, "deals": deals_file(BOARDS)}
    with stack.client(stack.director) as http:
        created = http.post("/api/tournaments", json=request, timeout=60)
        assert created.status_code == 201, created.text
        assert created.json()["created"] and len(created.json()["boards"]) == BOARDS
        again = http.post("/api/tournaments", json=request, timeout=60)
        assert again.status_code == 201 and not again.json()["created"]
        started = http.post("/api/tournaments/big1/rounds",
                            json={"round": 1, "boards": [BOARDS - 1, BOARDS]})
        assert started.status_code == 202, started.text
    seat = created.json()["tables"][0]["seats"]["N"]

    def board_started() -> bool:
        with stack.client(seat) as http:
            state = http.get("/api/tables/big1-1/state")
        return state.status_code == 200 and \
            (state.json()["board"] or {}).get("board") == BOARDS - 1

    wait_for(board_started, 30, "the round's first board started")
    # another gateway has not seen the tournament: it reads its record from the topic
    with another_gateway(stack, stack.gateway_port + 7, "gateway-big.log") as url, \
            stack.client(stack.director) as http:
        overview = http.get(f"{url}/api/tournaments/big1", timeout=60)
        assert overview.status_code == 200, overview.text
        assert [t["table"] for t in overview.json()["tables"]] == ["big1-1", "big1-2"]


def test_a_tournaments_topic_made_with_kafkas_default_limit_takes_it_when_sent_again(
        stack: Stack) -> None:
    """An attempt before this fix made the tournament's topic with Kafka's limit of 1 MB a
    record, and failed: the same request sent again sets the topic's limit and succeeds."""
    async def made_before() -> None:
        admin = AIOKafkaAdminClient(bootstrap_servers=stack.bootstrap)
        await admin.start()
        try:
            await admin.create_topics([NewTopic(tournament_topic("big2"), 1, 1, topic_configs={
                "retention.ms": "-1", "retention.bytes": "-1"})])
        finally:
            await admin.close()

    run(made_before())
    request = {"tournament": "big2", "tables": 2, "deals": deals_file(BOARDS)}
    with stack.client(stack.director) as http:
        created = http.post("/api/tournaments", json=request, timeout=60)
    assert created.status_code == 201, created.text
    assert len(created.json()["boards"]) == BOARDS

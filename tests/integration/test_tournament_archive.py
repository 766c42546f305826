"""A closed tournament's own topic (closed tables), on the real stack: its creation, rounds,
entrants and the Director's scores are archived after its tables, and the topic deleted; its
results in every format (JSON, CSV, PBN, USEBIO, the command line's), its overview's standings
and its export read the same afterwards; its rounds, entrants and scores are refused (409),
nothing recorded; a close cut short after the tournament's archive is finished by the next
gateway to start, which has never read the tournament before."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from redis import Redis as SyncRedis

from services.common.names import TOURNAMENTS_SET, shard_alive_keys, shard_of, tournament_topic
from services.common.store import RedisStore
from services.gateway.tables.closing import close_tables
from services.gateway.tournaments.close import TOURNAMENT_CLOSING, close_topic
from tests.helpers import DEALS, GATEWAY_PORT, run, wait_for, wait_for_auction
from tests.integration.test_lifecycle import Killed, _topics, archiver_on
from tests.integration.test_tournament_results import _deals, _play
from tests.stack import Stack, another_gateway

PAIRS = [{"name": f"pair {n}", "players": [f"P{n}a", f"P{n}b"]} for n in range(1, 5)]
FORMATS = ("json", "csv", "pbn", "usebio")
# the Howell's round 1 for four pairs: table 1 seats 1 v 4, table 2 3 v 2 (board 1 at both)
SCORE = {"kind": "corrected", "board": 1, "ns": 1, "ew": 4, "score_ns": 150,
         "reason": "1NT made 9 tricks, not 8 (Law 79C)"}


def _made(http: Any, t: str) -> dict[str, dict[str, str]]:
    """A four-pair Howell `t` at two tables (`t`-1, `t`-2), round 1 started: the seats'
    tokens by table."""
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": 2, "deals": DEALS, "entrants": PAIRS,
        "movement": {"kind": "howell", "boards_per_round": 1, "rounds": 3}})
    assert made.status_code == 201, made.text
    assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202
    return {line["table"]: line["seats"] for line in made.json()["tables"]}


def _results(stack: Stack, t: str, url: str | None = None) -> dict[str, Any]:
    """Every reading of the tournament's record: the results in each format (the director's
    and the public's JSON), the overview's standings, the JSON export and the command line's
    results."""
    with stack.client(stack.director, url=url) as http:
        got: dict[str, Any] = {}
        for form in FORMATS:
            response = http.get(f"/api/tournaments/{t}/results", params={"format": form})
            assert response.status_code == 200, (form, response.text)
            got[form] = response.json() if form == "json" else response.text
        overview = http.get(f"/api/tournaments/{t}")
        assert overview.status_code == 200, overview.text
        got["standings"] = overview.json()["standings"]
        got["export"] = json.loads(http.get(f"/api/tournaments/{t}/export",
                                            params={"format": "json"}).text)
    with stack.client(url=url) as public:
        got["public"] = public.get(f"/api/tournaments/{t}/results").json()
    env = stack.env if url is None else {**stack.env, "TABLESERVER_GATEWAY": url}
    done = subprocess.run([sys.executable, "-m", "services.cli.main", "tournament", "results",
                           t, "--format", "csv"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    got["cli"] = done.stdout
    return got


def test_a_closed_tournaments_topic_is_archived_deleted_and_its_results_read_the_same(
        stack: Stack) -> None:
    t = "tarch"
    deals = _deals()
    with stack.client(stack.director) as http:
        seats = _made(http, t)
        for n, table in enumerate(seats):
            wait_for_auction(http, table, 1)
            _play(http, seats[table], table, 1, deals[1], 8 - n)
        wait_for(lambda: http.get(f"/api/tournaments/{t}/results").json()["complete"] == [1],
                 30, "board 1's results")
        given = http.post(f"/api/tournaments/{t}/scores", json=SCORE)
        assert given.status_code == 202, given.text
    before = _results(stack, t)
    assert [a["reason"] for a in before["json"]["adjustments"]] == [SCORE["reason"]]
    assert "150" in before["csv"] and "<USEBIO" in before["usebio"]
    assert tournament_topic(t) in _topics(stack)

    with stack.client(stack.director) as http:
        closed = http.post(f"/api/tournaments/{t}/close")
        assert closed.status_code == 200, closed.text
        done = closed.json()
        # its creation, round 1, the score: three records
        assert (done["tournament"], done["tournament_events"]) == (t, 3)
        assert {"tournament closed", "tournament fenced", "tournament archived",
                "tournament marked", "tournament deleted"} <= set(done["steps_s"])
    topics = _topics(stack)
    assert tournament_topic(t) not in topics
    assert not {table_topic for table_topic in topics if table_topic.endswith(f".{t}-1")}
    assert _results(stack, t) == before
    # Redis loses the tournament's record: a gateway that never read the tournament finds it
    # through its first table's record, reads it from the archive, the same, and writes the
    # record again
    with SyncRedis(host="127.0.0.1", port=stack.redis_port) as redis:
        assert redis.hdel(TOURNAMENTS_SET, t) == 1
        with another_gateway(stack, GATEWAY_PORT + 97, "tournament-fresh-gateway.log") as url:
            assert _results(stack, t, url) == before
        assert redis.hexists(TOURNAMENTS_SET, t)
        assert redis.hdel(TOURNAMENTS_SET, t) == 1  # lost again: a score is still refused
        with stack.client(stack.director) as http:
            late = http.post(f"/api/tournaments/{t}/scores", json={**SCORE, "score_ns": 110})
            assert late.status_code == 409 and late.json()["field"] == "tournament", late.text

    with stack.client(stack.director) as http:
        round_ = http.post(f"/api/tournaments/{t}/rounds", json={"round": 2})
        entrant = http.post(f"/api/tournaments/{t}/entrants",
                            json={"name": "late", "players": ["L1", "L2"]})
        score = http.post(f"/api/tournaments/{t}/scores", json={**SCORE, "score_ns": 120})
        for refused, field in ((round_, "round"), (entrant, "entrants"),
                               (score, "tournament")):
            assert refused.status_code == 409, refused.text
            assert refused.json()["field"] == field
            assert f"tournament {t} is closed" in refused.json()["error"]
        again = http.post(f"/api/tournaments/{t}/close")  # harmless: finds it done
        assert again.status_code == 200 and again.json()["tournament_events"] == 3, again.text
    assert tournament_topic(t) not in _topics(stack)
    assert _results(stack, t) == before  # nothing recorded


@pytest.mark.parametrize("step", ["tournament closed", "tournament fenced",
                                  "tournament archived", "tournament marked",
                                  "tournament deleted"])
def test_a_tournaments_close_cut_short_is_finished_by_the_next_gateway(stack: Stack,
                                                                      step: str) -> None:
    """Killed after `step` (its tables closed and archived already): the tournament takes no
    more rounds from then on; a gateway that starts (and has never read the tournament)
    finishes the close, and reads it from the archive as before."""
    t = "tcut-" + step.split()[1]
    with stack.client(stack.director) as http:
        _made(http, t)
        given = http.post(f"/api/tournaments/{t}/scores", json={
            "kind": "artificial", "board": 1, "ns": 1, "ew": 4, "ns_fault": "not_at_fault",
            "ew_fault": "directly_at_fault", "reason": "EW too late to play it (12C2(a))"})
        assert given.status_code == 202, given.text
    before = _results(stack, t)
    run(_killed_close(stack, t, step))
    assert (tournament_topic(t) in _topics(stack)) == (step != "tournament deleted")
    with stack.client(stack.director) as http:
        refused = http.post(f"/api/tournaments/{t}/rounds", json={"round": 2})
        assert refused.status_code == 409, refused.text
    with another_gateway(stack, GATEWAY_PORT + 96, "tournament-resume-gateway.log") as url:
        wait_for(lambda: tournament_topic(t) not in _topics(stack), 60,
                 "the tournament's close finished by the new gateway")
        assert _results(stack, t, url) == before
    assert _results(stack, t) == before


def test_a_tournaments_close_cut_short_among_its_tables_steps_is_finished_by_the_next_gateway(
        stack: Stack) -> None:
    """Killed after its tables' `closed` step (before the tournament's own steps): its tables'
    records say the tournament was closing, so a gateway that starts finishes the close of
    the tables and of the tournament, and reads it from the archive as before."""
    t = "tcut-tables"
    with stack.client(stack.director) as http:
        _made(http, t)
    before = _results(stack, t)

    async def killed() -> None:
        async with archiver_on(stack, "closed") as (archiver, redis):
            tables = [f"{t}-1", f"{t}-2"]
            records = await RedisStore(redis).records_of(tables)
            with pytest.raises(Killed):
                await close_tables(archiver, records, True, TOURNAMENT_CLOSING)
            assert not await redis.hexists(TOURNAMENTS_SET, t)  # the tournament's not begun

    run(killed())
    assert tournament_topic(t) in _topics(stack)
    with another_gateway(stack, GATEWAY_PORT + 94, "tournament-tables-resume.log") as url:
        wait_for(lambda: tournament_topic(t) not in _topics(stack), 60,
                 "the tournament's close finished by the new gateway")
        assert _results(stack, t, url) == before
        with stack.client(stack.director) as http:
            refused = http.post(f"/api/tournaments/{t}/rounds", json={"round": 2})
            assert refused.status_code == 409, refused.text


async def _killed_close(stack: Stack, t: str, step: str) -> None:
    """The tournament's tables closed here, then its topic's close killed after `step`."""
    async with archiver_on(stack, step) as (archiver, redis):
        tables = [f"{t}-1", f"{t}-2"]
        records = await RedisStore(redis).records_of(tables)
        await close_tables(archiver, records, force=True)  # its steps have other names
        with pytest.raises(Killed):
            await close_topic(archiver, t, tables)
        assert await redis.hexists(TOURNAMENTS_SET, t)


def test_a_closed_tournament_whose_tables_were_named_by_hand_is_found_after_redis_loses_it(
        stack: Stack) -> None:
    """Its tables are not `<t>-1`…, so no table's name leads to it: the workers, writing their
    shards again after Redis lost its data, write the closed tournament's record again from
    its tables' registry records (where its archive is), and it reads the same."""
    t, tables = "thand", ["thand-east", "thand-west"]
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": tables, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 1, "rounds": 3}})
        assert made.status_code == 201, made.text
        assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202
        closed = http.post(f"/api/tournaments/{t}/close", params={"force": "true"})
        assert closed.status_code == 200, closed.text
    before = _results(stack, t)
    shards = int(stack.env.get("TABLESERVER_SHARDS", "8"))
    with SyncRedis(host="127.0.0.1", port=stack.redis_port) as redis:
        # what losing its data means here: the tournament's record and its tables' shards'
        # marks gone (not the whole Redis, which the other tests share)
        assert redis.hdel(TOURNAMENTS_SET, t) == 1
        redis.delete(*{k for table in tables for k in shard_alive_keys(shard_of(table, shards))})
        wait_for(lambda: redis.hexists(TOURNAMENTS_SET, t), 30,
                 "the closed tournament's record written again by the workers")
    with another_gateway(stack, GATEWAY_PORT + 93, "tournament-hand-named.log") as url:
        assert _results(stack, t, url) == before

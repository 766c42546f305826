"""A round's unfinished boards scored by rule now (`shared.tournament.unfinished`: Law 12C2's
artificial scores, the fault from the log's think times; the double-dummy result with at most
K tricks left), for the Director: each a Director's score (`score_given`) on the tournament's
topic with its reason, which he may replace at any time. The clock that calls it at the
round's end is another's; the Director may call it himself.

Sent again, it scores nothing twice: a board that has a Director's score (his own, or one by
rule) is left as it is."""

from __future__ import annotations

import time
from typing import Any

from services.common.errors import Unavailable
from services.common.kafka.reader import KafkaUnavailable, Record
from services.gateway.refusals import Refused
from services.gateway.tables.service import Gateway
from services.gateway.tables.table_logs import table_logs
from services.gateway.tournaments import round_timing
from services.gateway.tournaments.log import append_records, refuse_closed
from services.gateway.tournaments.scores import record_of
from shared.scores.movements import Seating
from shared.table.table_run import decoded
from shared.table.think_times import folded_times
from shared.tournament.director_scores import ScoreKind
from shared.tournament.results import rounds_of
from shared.tournament.session import Tournament
from shared.tournament.unfinished import TRICKS_LEFT, round_unfinished

__all__ = ["TRICKS_LEFT", "score_unfinished", "scored"]


def scored(tables: list[tuple[Seating, list[Record]]], number: int, k: int,
           given: set[tuple[int, int, int]]) -> list[dict[str, Any]]:
    """The score events of round `number`'s unfinished boards at each table (its seating, its
    log's records); the places in `given` (board, NS, EW: a Director's score there already)
    left out. Run in a worker process: it folds every table's log and asks the solver
    (imported there: endplay's imports, matplotlib among them, took 1–3.5 s of every
    gateway's start while the gateway imported it)."""
    from services.robots.solver import solve

    out: list[dict[str, Any]] = []
    for seating, records in tables:
        state, times = folded_times((offset, decoded(value)) for offset, value in records)
        done = {board for board, ns, ew in given if (ns, ew) == (seating.ns, seating.ew)}
        out += round_unfinished(state, times, seating, number, k, solve,
                                dict.fromkeys(done, True))
    return out


async def score_unfinished(gw: Gateway, made: Tournament, number: int, k: int
                           ) -> dict[str, Any]:
    """Round `number`'s unfinished boards scored by rule, each appended to the tournament's
    topic as the Director's score: the events appended (a 400 naming `round` for a round
    not started, a 409 once the tournament is closed)."""
    if made.movement is None:
        raise Refused(f"tournament {made.tournament} has no entrants and movement to score",
                      "tournament")
    await refuse_closed(gw, made.tournament, "round", "scores")
    records, scores, _ = await record_of(gw, made)
    round_timing.mark("the scores' record read")
    found = [r for r in rounds_of(records, made) if r.number == number]
    if not found:
        raise Refused(f"round: round {number} has not started", "round")
    seatings = found[0].tables
    try:
        logs = await table_logs(gw, [made.tables[s.table - 1] for s in seatings])
    except KafkaUnavailable:
        raise Unavailable("Kafka did not answer in time; retry (doing it twice is "
                          "harmless)", retry_after=1) from None
    round_timing.mark("the round's tables' logs read")
    given = {(s["board"], s["ns"], s["ew"]) for s in scores
             if s.get("kind") != ScoreKind.PENALTY and {"board", "ns", "ew"} <= s.keys()}
    events = await gw.off_loop.run(scored, [(s, logs[made.tables[s.table - 1]])
                                            for s in seatings], number, k, given)
    round_timing.mark("the unfinished boards folded and solved (worker)")
    now = int(time.time() * 1000)
    if events:  # at once, in one produce round trip (one at a time took 10–20 s of 250 tables)
        await append_records(gw, made.tournament,
                             [{"type": "score_given", **event, "ts": now} for event in events],
                             "record the scores", "round", "scores")
    return {"round": number, "tricks_left": k, "scores": events}

"""A tournament's scores (scoring.md), as the gateway serves them: the Director's scores appended
to the tournament's topic (`score_given`), the movement's next round (a Swiss: paired by the
VPs so far), and the results, computed from every table's log (each board's result, folded)
and the tournament's record (the rounds' seatings, the Director's scores). The scoring itself
is `shared.tournament.results`'s."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from services.common.errors import Unavailable
from services.common.kafka.reader import KafkaUnavailable, NoTableError, Record
from services.gateway.refusals import Refused
from services.gateway.tables.service import Gateway
from services.gateway.tables.table_logs import table_logs
from services.gateway.tournaments.log import append_record, refuse_closed, tournament_records
from shared.codec import DecodeError, decode
from shared.scores.adjustments import ScoreError
from shared.scores.corrections import scheduled
from shared.scores.movements import Round
from shared.table.board import Board
from shared.table.board_result import contract_line, result_view
from shared.table.engine import TableState, fold
from shared.tournament.director_scores import parse
from shared.tournament.entrants import MovementKind, plan, swiss_round
from shared.tournament.entrants_added import ENTRANT_ADDED, with_added
from shared.tournament.fouled_records import BOARD_FOULED
from shared.tournament.results import pairs_matchpoints, results, rounds_of, standings
from shared.tournament.results_view import ResultsDoc
from shared.tournament.session import Tournament, TournamentError
from shared.tournament.standings_view import Standings
from shared.tournament.swiss_pairs_rounds import next_swiss_pairs_round

HARMLESS = "retry (doing it twice is harmless)"


def _down() -> Unavailable:
    return Unavailable(f"Kafka did not answer in time; {HARMLESS}", retry_after=1)


async def record_of(gw: Gateway, made: Tournament
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The tournament's rounds, the Director's scores and fouled boards (`board_fouled`), and
    the entrants added after its creation (`shared.tournament.entrants_added`), in the order
    recorded."""
    try:
        records = await tournament_records(gw, made.tournament)
    except NoTableError:
        return [], [], []
    except KafkaUnavailable:
        raise _down() from None
    rounds, scores, added = [], [], []
    for _, value in records:
        event = json.loads(value or b"{}")
        if event.get("type") == "round_started":
            rounds.append(event)
        elif event.get("type") in ("score_given", BOARD_FOULED):
            scores.append(event)
        elif event.get("type") == ENTRANT_ADDED and not rounds:  # with_added: before round 1
            added.append(event)
    return rounds, scores, added


@dataclass(slots=True)
class Folded:
    """A table's log folded so far: the next offset to fold and the state there. Kept per
    gateway, so that a results request folds only what each table appended since the last
    one (a topic's records below where it ended never change)."""

    next_offset: int = 0
    state: TableState = field(default_factory=TableState)


MAX_FOLDED = 20_000  # tables a gateway keeps folded; past it, it starts again
_folded: WeakKeyDictionary[Gateway, dict[str, Folded]] = WeakKeyDictionary()


def fold_more(folded: Folded, records: list[Record]) -> dict[int, int]:
    """The table's results from its log: board → NS score of each board finished (a board
    started again: its last result), folding only the records past `folded`'s offset."""
    events = []
    for offset, value in records:
        if offset < folded.next_offset:
            continue
        try:
            events.append(decode(value or b""))
        except DecodeError:
            continue  # alerted as poison by the processor: no event
    if records:
        folded.state = fold(events, folded.state)
        folded.next_offset = max(folded.next_offset, records[-1][0] + 1)
    out: dict[int, int] = {}
    for board in folded.state.boards:
        found = result_view(board)
        if found is not None:
            out[board.board] = found["score_ns"]
    return out


def table_results(records: list[Record]) -> dict[int, int]:
    """A table's results from its whole log."""
    return fold_more(Folded(), records)


async def all_results(gw: Gateway, made: Tournament) -> dict[str, dict[int, int]]:
    """Every table's results, its topic read at once with the others', from where the last
    request left it (the public's boards ask every second: each table's whole log read again
    each time was most of the gateway's Kafka reads, and grew with the night), and folded
    from there."""
    kept = _folded.setdefault(gw, {})
    if len(kept) > MAX_FOLDED:
        kept.clear()
    try:
        records = await table_logs(gw, list(made.tables),
                                   {t: kept[t].next_offset for t in made.tables if t in kept})
    except KafkaUnavailable:
        raise _down() from None
    return {t: fold_more(kept.setdefault(t, Folded()), records[t])
            for t in made.tables}


def _no_movement(made: Tournament) -> Refused:
    return Refused(f"tournament {made.tournament} has no entrants and movement to score",
                   "tournament")


async def give_score(gw: Gateway, made: Tournament, body: dict[str, Any]) -> int:
    """The Director's score, checked (a board the movement scheduled in the rounds started,
    weights summing to 100 %, …; a 400 naming the field), appended to the tournament's
    topic with its reason; its offset there."""
    if made.movement is None:
        raise _no_movement(made)
    await refuse_closed(gw, made.tournament, "tournament", "scores")
    rounds, _, _ = await record_of(gw, made)
    event = {k: v for k, v in body.items() if k not in ("type", "ts")}
    try:
        parse(event, scheduled(rounds_of(rounds, made)), pairs_matchpoints(made))
    except ScoreError as exc:
        raise Refused(str(exc), exc.field) from None
    event = {"type": "score_given", **event, "ts": int(time.time() * 1000)}
    return await append_record(gw, made.tournament, event, "record the score", "tournament",
                               "scores")


async def results_of(gw: Gateway, made: Tournament, everything: bool) -> ResultsDoc:
    """The results document (`shared.tournament.results.results`), computed again only when
    a table's log or the tournament's record has grown since the last one. The public's (the
    results page polls it; the overview's standings read it) is one computation for every
    reader: a request joins the one under way, or takes the last one for `PUBLIC_EVERY_S`
    after it ended, or as long as it took, whichever is longer (so that a slow computation, a
    large field's, never takes more than half the gateway's time)."""
    if made.movement is None:
        raise _no_movement(made)
    if everything:
        return await _compute(gw, made, everything)
    return await _shared(gw, made, False)


async def _shared(gw: Gateway, made: Tournament, everything: bool) -> ResultsDoc:
    """One computation of the results for every reader of a view (the public's page and
    feed; the Director's overview standings): the one under way, or the last one for
    `PUBLIC_EVERY_S` after it ended or as long as it took, whichever is longer."""
    entries = _public.setdefault(gw, {})
    entry = entries.setdefault((made.tournament, everything), _Public())
    task = entry.task
    if task is None or (task.done() and (
            task.exception() is not None
            or time.monotonic() - entry.done_at >= max(PUBLIC_EVERY_S, entry.cost))):
        task = entry.task = asyncio.ensure_future(_timed(entry, gw, made, everything))
    return await asyncio.shield(task)


async def standings_of(gw: Gateway, made: Tournament) -> Standings | None:
    """The top of each field's ranking for the overview (`shared.tournament.results.
    standings`), from the Director's results (the overview is the Director's: every result
    as it comes, where the public's rankings wait for the boards complete everywhere), one
    computation for every overview (`_shared`); the last ones computed if the results take
    longer than `STANDINGS_WAIT_S` (a large field's first request folds every table's log:
    the overview does not wait for it); None for a tournament with no movement, or while
    Kafka cannot be read (the overview's tables are Redis's and still answer)."""
    if made.movement is None:
        return None
    try:
        return standings(await asyncio.wait_for(_shared(gw, made, True), STANDINGS_WAIT_S))
    except TimeoutError:
        found = _last.get(gw, {}).get((made.tournament, True))
        return None if found is None else standings(found[1])
    except (Unavailable, Refused):
        return None


STANDINGS_WAIT_S = 0.5  # how long the overview waits for the results' standings
PUBLIC_EVERY_S = 0.2  # the shared results, computed at most this often per tournament


@dataclass(slots=True)
class _Public:
    """The shared results of one tournament's view on a gateway: the computation under way
    or the last one, when it ended and what it took."""

    task: asyncio.Future[ResultsDoc] | None = None
    done_at: float = 0.0
    cost: float = 0.0


_public: WeakKeyDictionary[Gateway, dict[tuple[str, bool], _Public]] = WeakKeyDictionary()
# the last document of each (tournament, everything), with the inputs it came from
_last: WeakKeyDictionary[Gateway, dict[tuple[str, bool], tuple[tuple[Any, ...],
                                                                 ResultsDoc]]] \
    = WeakKeyDictionary()


async def _timed(entry: _Public, gw: Gateway, made: Tournament, everything: bool
                 ) -> ResultsDoc:
    started = time.monotonic()
    try:
        return await _compute(gw, made, everything)
    finally:
        entry.done_at = time.monotonic()
        entry.cost = entry.done_at - started


async def table_boards(gw: Gateway, made: Tournament) -> dict[str, tuple[Board, ...]]:
    """Every table's boards, each table's log folded as `all_results` folds it (from where
    the last read left it)."""
    await all_results(gw, made)
    kept = _folded.get(gw, {})
    return {t: kept[t].state.boards if t in kept else () for t in made.tables}


def played_lines(gw: Gateway, made: Tournament) -> dict[str, dict[int, dict[str, Any]]]:
    """Each table's boards' contract, declarer, lead and tricks, from its log as
    `all_results` last folded it."""
    kept = _folded.get(gw, {})
    out: dict[str, dict[int, dict[str, Any]]] = {}
    for table in made.tables:
        folded = kept.get(table)
        boards = folded.state.boards if folded is not None else ()
        out[table] = {b.board: dict(line) for b in boards
                      if (line := contract_line(b)) is not None}
    return out


async def _compute(gw: Gateway, made: Tournament, everything: bool) -> ResultsDoc:
    rounds, scores, added = await record_of(gw, made)
    made = with_added(made, added)
    tables = await all_results(gw, made)
    kept = _folded.get(gw, {})
    inputs = (len(rounds), len(scores), len(added),
              tuple(kept[t].next_offset if t in kept else -1 for t in made.tables))
    last = _last.setdefault(gw, {})
    found = last.get((made.tournament, everything))
    if found is not None and found[0] == inputs:
        return found[1]
    try:
        doc = results(made, rounds, tables, scores, everything, played_lines(gw, made))
    except ScoreError as exc:  # a record the scoring refuses now: say which, change nothing
        raise Refused(str(exc), exc.field) from None
    last[made.tournament, everything] = (inputs, doc)
    return doc


async def movement_round(gw: Gateway, made: Tournament, number: int) -> Round:
    """Round `number` of the tournament's movement; a Swiss's rounds after the first, paired
    by the VPs of the rounds recorded (the teams not meeting again where the field allows),
    once: a round recorded already (the same round sent again) keeps the seating it started
    with, which its tables play."""
    movement = made.movement
    assert movement is not None
    if not 1 <= number <= movement.rounds:
        raise TournamentError(f"round: this movement has rounds 1 to {movement.rounds}",
                              "round")
    if not movement.kind.swiss or number == 1:
        return plan(movement, len(made.entrants))[number - 1]
    rounds, _, _ = await record_of(gw, made)
    recorded = {r.number: r for r in rounds_of(rounds, made)}
    if number in recorded:
        return recorded[number]
    doc = await results_of(gw, made, True)
    vp = {r["entrant"]: r["vp"] for r in doc["rankings"]}
    if movement.kind is MovementKind.SWISS_PAIRS:
        return next_swiss_pairs_round(number, made, rounds, vp)
    met = [frozenset((m["home"], m["away"])) for m in doc["matches"]]
    byes = [team for r in rounds if r["round"] < number for team in r.get("sit_out", ())]
    return swiss_round(number, len(made.entrants), movement.boards_per_round, vp, met, byes)

"""A tournament session: its tables, its deals, and what each table plays in a round.

The director gives the deals as a PBN file, the output of any dealing program: the boards keep
the file's numbers, and each its deal, dealer and vulnerability, or, where the file is silent,
the dealer and vulnerability of its number (Law 2, the 16-board cycle; `board_started` derives
them). A round gives every table the same boards (a teams match, a barometer) or, from the
director's own movement, each table its own; each table's boards become one `round_started`
event on the table's topic, and the table plays them one after the other (`shared.table.engine`).

Pure: the gateway stores the tournament (`to_map`) on a topic of its own and appends the
rounds' events.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from shared.codec import EventError, from_map
from shared.notation.errors import RecordError
from shared.notation.pbn import pbn_events
from shared.tournament.entrants import Entrant, Movement
from shared.tournament.errors import TournamentError

__all__ = ["Tournament", "TournamentError", "deals_of", "digest_and_deals", "digest_of",
           "round_boards", "table_names"]

MAX_ROUND_BOARDS = 36  # a round's boards at one table (the `round_started` event's limit)
MAX_BOARD = 10**6  # a board's number, as a director's board at a table (POST …/boards)


@dataclass(frozen=True)
class Tournament:
    """A session as the director created it: its `tables` in order, the players' names the
    director gave (table → seat → name), the `deals` (board number → `board_started` fields)
    and what the export writes in its headers. `digest` tells one creation request from
    another: the same request again finds this tournament, another one is refused."""

    tournament: str
    name: str
    ruleset: str
    tables: tuple[str, ...]
    deals: dict[int, dict[str, Any]]
    players: dict[str, dict[str, str]] = field(default_factory=dict)
    site: str = ""
    date: str = ""
    digest: str = ""
    entrants: tuple[Entrant, ...] = ()  # pairs or teams, numbered from 1 (docs/scoring.md)
    movement: Movement | None = None  # None: the director's own rounds
    continues: str = ""  # the tournament this session continues (`shared.tournament.carry_over`)
    session: str = ""  # the session's name in a multi-session event

    def to_map(self) -> dict[str, Any]:
        m = {"type": "tournament_created", "tournament": self.tournament,
             "name": self.name, "ruleset": self.ruleset, "tables": list(self.tables),
             "deals": [self.deals[n] for n in sorted(self.deals)],
             "players": self.players, "site": self.site, "date": self.date,
             "digest": self.digest}
        if self.entrants:
            m["entrants"] = [e.to_map() for e in self.entrants]
        if self.movement is not None:
            m["movement"] = self.movement.to_map()
        if self.continues:
            m["continues"] = self.continues
        if self.session:
            m["session"] = self.session
        return m

    @staticmethod
    def from_map(m: dict[str, Any]) -> Tournament:
        movement = m.get("movement")
        return Tournament(m["tournament"], m["name"], m["ruleset"], tuple(m["tables"]),
                          {int(d["board"]): d for d in m["deals"]}, m.get("players", {}),
                          m.get("site", ""), m.get("date", ""), m.get("digest", ""),
                          tuple(Entrant.from_map(e) for e in m.get("entrants", ())),
                          None if movement is None else Movement.from_map(movement),
                          m.get("continues", ""), m.get("session", ""))


def digest_of(request: dict[str, Any]) -> str:
    """A creation request's fingerprint: the same fields and values give the same one."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def digest_and_deals(request: dict[str, Any]) -> tuple[str, dict[int, dict[str, Any]]]:
    """A creation request's digest and the deals of its `deals` file: the costly part of a
    creation, in one call (the gateway runs it in a worker process, off its event loop)."""
    return digest_of(request), deals_of(request["deals"])


def deals_of(pbn: str) -> dict[int, dict[str, Any]]:
    """The boards of a dealing program's PBN file: number → `board_started` fields (board,
    deal, and dealer and vulnerability when the file gives them). Raises `TournamentError`
    naming the line of a game that cannot be read, a board number past `MAX_BOARD` or given
    twice, or a file without deals: every deal a round may then start."""
    try:
        events = pbn_events(pbn)
    except RecordError as exc:
        raise TournamentError(f"deals: line {exc.line}: {exc.reason}", "deals") from None
    deals: dict[int, dict[str, Any]] = {}
    for event in events:
        if event["type"] != "board_started":
            continue  # a file with auctions too: its deals are what counts
        number = event["board"]
        if not 1 <= number <= MAX_BOARD:
            raise TournamentError(f"deals: board {number}: a board's number goes from 1 to "
                                  f"{MAX_BOARD}", "deals")
        if number in deals:
            raise TournamentError(f"deals: board {number} is in the file twice", "deals")
        try:
            from_map(event)  # as a round's event will carry it
        except EventError as exc:
            raise TournamentError(f"deals: board {number}: {exc}", "deals") from None
        deals[number] = {k: v for k, v in event.items() if k != "type"}
    if not deals:
        raise TournamentError("deals: the file holds no deal ([Board] and [Deal] tags)",
                              "deals")
    return deals


def table_names(tournament: str, tables: int | list[str]) -> tuple[str, ...]:
    """The tables' names: those given, or `<tournament>-1` … `<tournament>-<n>`."""
    names = tuple(f"{tournament}-{n}" for n in range(1, tables + 1)) \
        if isinstance(tables, int) else tuple(tables)
    if len(set(names)) != len(names):
        raise TournamentError("tables: a table is named twice", "tables")
    return names


def round_boards(tournament: Tournament, boards: list[int] | None,
                 movement: dict[str, list[int]] | None) -> dict[str, list[dict[str, Any]]]:
    """Each table's boards in a round (table → `board_started` fields, in playing order):
    `boards` at every table, or the director's `movement` (a table it leaves out sits this
    round out). Every board must be one of the tournament's deals."""
    if (boards is None) == (movement is None):
        raise TournamentError("give either boards (every table plays them) or movement "
                              "(table → boards)", "boards")
    plan = {table: boards for table in tournament.tables} if boards is not None \
        else dict(movement or {})
    where = "boards" if boards is not None else "movement"
    for table, numbers in plan.items():
        at = where if boards is not None else f"movement.{table}"
        if table not in tournament.tables:
            raise TournamentError(f"movement: no table {table} in tournament "
                                  f"{tournament.tournament}", at)
        if not 1 <= len(numbers) <= MAX_ROUND_BOARDS:
            raise TournamentError(f"{at}: 1 to {MAX_ROUND_BOARDS} boards a round", at)
        for i, number in enumerate(numbers):
            if number not in tournament.deals:
                raise TournamentError(f"{at}[{i}]: board {number} is not among the deals "
                                      f"(boards {min(tournament.deals)}–"
                                      f"{max(tournament.deals)})", f"{at}[{i}]")
    return {table: [tournament.deals[n] for n in numbers] for table, numbers in plan.items()}

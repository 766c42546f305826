"""A teams event's matches as the movement's rounds seat them, each with its own results and
penalties: what every team scoring form (VPs, board-a-match, aggregate) scores."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from shared.scores.adjustments import Penalty
from shared.scores.movements import Match, Round
from shared.scores.travellers import Result


def each_match(rounds: Sequence[Round], results: Sequence[Result],
               penalties: Sequence[Penalty]) -> Iterator[tuple[Match, list[Result],
                                                               list[Penalty]]]:
    """Each match of each round (its open room at an odd table, its closed room next), with
    its own results (a session's results indexed by the two teams once) and penalties."""
    by_teams: dict[frozenset[int], list[Result]] = {}
    for r in results:
        by_teams.setdefault(frozenset((r.ns, r.ew)), []).append(r)
    for rnd in rounds:
        tables = sorted(rnd.tables, key=lambda s: s.table)
        for open_room in tables[0::2]:
            match = Match(open_room.ns, open_room.ew, open_room.boards)
            mine = [p for p in penalties if p.entrant in (match.home, match.away)
                    and p.board in match.boards]
            yield match, by_teams.get(frozenset((match.home, match.away)), []), mine

"""An event in sections in the results document (`shared.scores.sections`): the rankings stay
over the whole field (each board matchpointed or IMPed across every section's results, Law
78A / 78B), each line with its `section` and its `section_rank` (its place among its section's
pairs in its field: a Mitchell's direction), and the sections listed (`sections`)."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence

from shared.scores.sections import Section, section_of
from shared.tournament.entrants import sectioned_plan
from shared.tournament.results_view import SectionView
from shared.tournament.session import Tournament
from shared.tournament.standings_view import RankingLine


def event_sections(made: Tournament) -> tuple[Section, ...]:
    """The sections of tournament `made` (none for an event in one section)."""
    movement = made.movement
    if movement is None or movement.sections < 2:
        return ()
    return sectioned_plan(movement, len(made.entrants))[1]


def section_ranked(rankings: Sequence[RankingLine], made: Tournament
                   ) -> tuple[list[RankingLine], list[SectionView]]:
    """The rankings with each line's section and its place within it (ties share it: one
    more than the lines of its section and field ranked above it), and the sections (each
    its name, entrants and tables)."""
    sections = event_sections(made)
    name = {line["entrant"]: getattr(section_of(sections, line["entrant"]), "name", "")
            for line in rankings}
    ranks: dict[tuple[str, str | None], list[int]] = defaultdict(list)
    for line in rankings:
        ranks[name[line["entrant"]], line.get("direction")].append(line["rank"])
    for found in ranks.values():
        found.sort()
    lines: list[RankingLine] = [
        {**line, "section": name[line["entrant"]], "section_rank": 1 + bisect_left(
            ranks[name[line["entrant"]], line.get("direction")], line["rank"])}
        for line in rankings]
    return lines, [{"name": s.name, "entrants": list(range(s.first, s.last + 1)),
                    "tables": list(made.tables[s.first_table - 1:s.last_table])}
                   for s in sections]

"""An event in sections with a top across the field: the entrants split into sections (A, B, …),
each seated by its own movement at its own tables, every section on the same boards, and each
board scored over all the sections' results (Law 78A over the whole field: a board's
traveller holds every section's results, so its matchpoints compare them all in their
direction; Neuberg where the sections play a board unequal times). Ranked over the field and
within each section (docs/scoring.md, "Sections with a top across the field")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared.scores.movements import MovementError, Round, Seating

MAX_SECTIONS = 26  # A … Z


@dataclass(frozen=True, slots=True)
class Section:
    """A section: its letter, its entrants (numbers first … last) and its tables."""

    name: str
    first: int
    last: int
    first_table: int
    last_table: int

    def __contains__(self, entrant: object) -> bool:
        return isinstance(entrant, int) and self.first <= entrant <= self.last


def section_sizes(entrants: int, sections: int) -> list[int]:
    """The entrants of each section, as even as they go, the first sections the larger."""
    if not 1 <= sections <= MAX_SECTIONS:
        raise MovementError(f"sections: 1 to {MAX_SECTIONS}, not {sections}", "sections")
    base, extra = divmod(entrants, sections)
    return [base + (1 if s < extra else 0) for s in range(sections)]


def sectioned(entrants: int, sections: int, movement: Callable[[int], list[Round]]
              ) -> tuple[list[Round], tuple[Section, ...]]:
    """Every round of the event: section s's own movement (`movement(its entrants)`, entrants
    and tables numbered from 1) renumbered after the sections before it, its entrants and
    tables following theirs, round by round; and the sections. The sections play as many
    rounds as the shortest one's movement has (each round every section plays)."""
    planned, found, entrant0, table0 = [], [], 0, 0
    for s, size in enumerate(section_sizes(entrants, sections)):
        rounds = movement(size)
        tables = max((t.table for r in rounds for t in r.tables), default=0)
        planned.append([Round(r.number, tuple(
            Seating(t.table + table0, t.ns + entrant0, t.ew + entrant0, t.boards)
            for t in r.tables), tuple(e + entrant0 for e in r.sit_out)) for r in rounds])
        found.append(Section(chr(ord("A") + s), entrant0 + 1, entrant0 + size, table0 + 1,
                             table0 + tables))
        entrant0, table0 = entrant0 + size, table0 + tables
    count = min(len(rounds) for rounds in planned)
    merged = [Round(n + 1, tuple(t for rounds in planned for t in rounds[n].tables),
                    tuple(e for rounds in planned for e in rounds[n].sit_out))
              for n in range(count)]
    return merged, tuple(found)


def section_of(sections: Sequence[Section], entrant: int) -> Section | None:
    return next((s for s in sections if entrant in s), None)

"""A club Howell: every pair meets every other once and the boards move between tables, so
each board group is at one table at a time, as physical boards must be.

Built on the circle method: with n tables and m = 2n − 1 rounds, pair 2n stays at table 1 and
the others turn round a circle of m places; in round r table k + 1 holds the pairs at places
r + k and r − k and plays board group r + f(k) (mod m). The starter f, for n tables, makes the
board groups of a round different (f takes n different values) and gives each pair each group
once (f(0), and f(k) − k, f(k) + k for k = 1 … n − 1, are all different mod m). The starters
below were found by a backtracking search and are checked by the tests; the search found none
of this form for 2, 3 or 5 tables (4, 6 or 10 pairs) and was not run past 20 tables: those
fields play `movements.howell`, every table on the round's boards.
"""

from __future__ import annotations

from shared.scores.movements import MovementError, Round, Seating

HOWELL_STARTERS: dict[int, tuple[int, ...]] = {
    4: (0, 2, 4, 1),
    6: (0, 3, 5, 9, 1, 4),
    7: (0, 3, 5, 9, 1, 6, 2),
    8: (0, 2, 7, 11, 6, 1, 13, 5),
    9: (0, 2, 6, 8, 3, 7, 4, 16, 5),
    10: (0, 2, 6, 10, 14, 7, 11, 4, 17, 5),
    11: (0, 2, 4, 10, 12, 15, 11, 18, 1, 3, 8),
    12: (0, 2, 4, 8, 12, 14, 16, 20, 22, 3, 5, 9),
    13: (0, 2, 4, 1, 15, 12, 14, 17, 5, 21, 24, 7, 3),
    14: (0, 2, 4, 1, 11, 13, 20, 12, 5, 3, 26, 6, 8, 24),
    15: (0, 2, 4, 1, 9, 14, 20, 15, 7, 3, 26, 6, 8, 5, 25),
    16: (0, 2, 4, 1, 3, 16, 18, 21, 17, 27, 29, 6, 8, 28, 30, 7),
    17: (0, 2, 4, 1, 3, 13, 17, 19, 21, 29, 32, 5, 7, 30, 11, 6, 31),
    18: (0, 2, 4, 1, 3, 10, 14, 24, 19, 23, 20, 33, 6, 34, 5, 8, 32, 7),
    19: (0, 2, 4, 1, 3, 10, 14, 17, 19, 22, 24, 6, 34, 5, 35, 8, 12, 36, 7),
    20: (0, 2, 4, 1, 3, 10, 14, 16, 20, 22, 24, 5, 38, 9, 7, 34, 13, 8, 6, 37),
}


def club_howell(pairs: int, boards_per_round: int, rounds: int | None = None) -> list[Round]:
    """A Howell for ⌈pairs / 2⌉ tables with moving boards: 2 × tables − 1 rounds, every pair
    meeting every other once and playing every board group once; with an odd number of
    pairs, the pair that would meet the missing one sits out."""
    tables = (pairs + 1) // 2
    starter = HOWELL_STARTERS.get(tables)
    if starter is None:
        raise MovementError(f"no club Howell for {pairs} pairs here (tables: "
                            f"{', '.join(map(str, HOWELL_STARTERS))})", "pairs")
    if boards_per_round < 1:
        raise MovementError(f"boards_per_round must be at least 1, not {boards_per_round}",
                            "boards_per_round")
    m = 2 * tables - 1
    rounds = m if rounds is None else rounds
    if not 1 <= rounds <= m:
        raise MovementError(f"a Howell of {tables} tables plays 1 to {m} rounds, not {rounds}",
                            "rounds")
    result = []
    for r in range(rounds):
        seated, out = [], []
        for k, shift in enumerate(starter):
            a, b = (r + k) % m + 1, (2 * tables if k == 0 else (r - k) % m + 1)
            if b > pairs:
                out.append(a)
                continue
            ns, ew = (a, b) if (r + k) % 2 == 0 else (b, a)
            group = (r + shift) % m
            boards = tuple(range(group * boards_per_round + 1,
                                 (group + 1) * boards_per_round + 1))
            seated.append(Seating(k + 1, ns, ew, boards))
        result.append(Round(r + 1, tuple(seated), tuple(out)))
    return result

"""The individual movements offered (`SIZES`): where each player sits each round, as a move
of seats (each seat's player goes to one seat next round), from round 1's seats (players 1–4
at table 1 N, E, S, W, 5–8 at table 2, and so on). Player 1 stays at table 1 North.

- 8 players (two tables, seven rounds): G. L. Sicherman's rotation ("an ordinary 8-player
  individual movement", http://sicherman.net/bridge/pseudoteam.txt): 1W → 2W → 2E → 2N → 1E →
  2S → 1S → 1W.
- 12, 16, 20 and 24 players (three to six tables, 11, 15, 19 and 23 rounds): constructed, the
  round-robin rule of the complete Howell ("circle") schedule (Kirkman's): the n − 1 movers
  stand on a cycle of n − 1 places numbered 0 … n − 2; each place is a seat, and each round
  every mover goes to the place one lower (0 to n − 2). Table 1 seats the stationary player N
  and place 0 S (partners), places a and −a E and W; each other table places b and −b NS,
  c and −c EW. A round's partners are the places whose numbers add to 0 (and the stationary
  player with place 0), so the partners of round r are the movers whose round-1 places add to
  2(r − 1): as r runs over the n − 1 rounds, that sum runs over every residue (n − 1 is odd),
  and each two movers partner once; the stationary player partners each mover once (criterion
  1 of the EBU's ideal individual movement: John Pain, "Unusual (but useful) Movements for
  Clubs", https://www.ebu.co.uk/newsletters/?id=11&page=10&print=1). The opponents at a table
  are places `b ± c` apart, so that each two players meet as opponents as often as their places'
  difference is found across the tables' NS and EW: the a, b, c below (found by a search of
  every choice) meet every two players twice as opponents (criterion 2), but for one
  difference d: players d apart on the cycle meet four times, those d' apart never (no choice
  of this cyclic form does better for these sizes; criterion 3, a LHO once and a RHO once, is
  not met, as for the 8's).

Every table plays the round's boards (each its own copy), so each board is played once at
every table, and no player meets a board twice (each round has its own boards).
"""

from __future__ import annotations

SEATS = ("N", "E", "S", "W")
Place = tuple[int, str]  # (table, seat)

# Sicherman's rotation for eight: (table, seat) → the seat its player goes to next round.
_EIGHT: dict[Place, Place] = {
    (1, "N"): (1, "N"), (1, "W"): (2, "W"), (2, "W"): (2, "E"), (2, "E"): (2, "N"),
    (2, "N"): (1, "E"), (1, "E"): (2, "S"), (2, "S"): (1, "S"), (1, "S"): (1, "W")}

# The cyclic sizes: players → (a, the other tables' (b, c)), as the module's docstring says.
_CYCLIC: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {
    12: (1, ((2, 4), (3, 5))),
    16: (1, ((2, 5), (3, 7), (4, 6))),
    20: (1, ((2, 4), (3, 8), (5, 7), (6, 9))),
    24: (1, ((2, 7), (3, 9), (4, 6), (5, 10), (8, 11))),
}

SIZES: tuple[int, ...] = (8, *_CYCLIC)  # the fields an individual seats


def tables_of(players: int) -> int:
    """The tables of an individual of `players` players (four a table)."""
    return players // 4


def places(players: int) -> dict[Place, int | None]:
    """A cyclic movement's seats: (table, seat) → its place on the movers' cycle (None: the
    stationary player's, table 1 North)."""
    m = players - 1
    a, others = _CYCLIC[players]
    out: dict[Place, int | None] = {(1, "N"): None, (1, "S"): 0, (1, "E"): a, (1, "W"): m - a}
    for t, (b, c) in enumerate(others, start=2):
        out |= {(t, "N"): b, (t, "S"): m - b, (t, "E"): c, (t, "W"): m - c}
    return out


def moves(players: int) -> dict[Place, Place]:
    """(table, seat) → the seat its player goes to next round, for a size in `SIZES`."""
    if players == 8:
        return dict(_EIGHT)
    m = players - 1
    at = places(players)
    seat_at = {x: place for place, x in at.items() if x is not None}
    return {place: place if x is None else seat_at[(x - 1) % m] for place, x in at.items()}


def round_1(players: int) -> dict[Place, int]:
    """Round 1's seats: players 1–4 at table 1 N, E, S, W, 5–8 at table 2, and so on."""
    return {(t, seat): 4 * (t - 1) + i + 1
            for t in range(1, tables_of(players) + 1) for i, seat in enumerate(SEATS)}

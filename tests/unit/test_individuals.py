"""Individual events (docs/scoring.md, "Individuals"): eight players at two tables over seven
rounds by G. L. Sicherman's rotation (http://sicherman.net/bridge/pseudoteam.txt), each
player partnering each other once (criterion 1 of the EBU's ideal individual movement, John
Pain, https://www.ebu.co.uk/newsletters/?id=11&page=10&print=1); each board matchpointed
between the partnerships (Law 78A; Neuberg where a board is played fewer times than due), each
player's score the sum of his own side's matchpoints. Worked by hand below."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from shared.scores.adjustments import Played
from shared.scores.individuals import (
    individual,
    partners,
    partnership,
    player_rankings,
    seat_players,
)
from shared.scores.movements import MovementError, Seating
from shared.scores.rankings import pair_rankings
from shared.scores.travellers import Result, travellers
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import (
    MAX_ENTRANTS,
    Entrant,
    Movement,
    MovementKind,
    check_individuals,
    movement_of,
    seat_names,
)
from shared.tournament.errors import TournamentError
from shared.tournament.player_seats import Phase, TableNow, seat_in, seating_index, where
from shared.tournament.results import results
from shared.tournament.seat_ids import seat_ids
from shared.tournament.session import Tournament
from tests.unit.tournament_fixtures import round_records

pytestmark = pytest.mark.unit

PLAYERS = tuple(Entrant(i, f"P{i}", (f"P{i}",)) for i in range(1, 9))
TABLES = ("i-1", "i-2")


def test_each_player_partners_each_other_player_exactly_once() -> None:
    """The EBU's criterion 1 (each player partners every other player once): over the seven
    rounds the 28 partnerships of eight players each play one round."""
    rounds = individual(8, 2)
    assert len(rounds) == 7
    together = Counter(frozenset(partners(side)) for r in rounds for s in r.tables
                       for side in (s.ns, s.ew))
    assert set(together) == {frozenset(p) for p in combinations(range(1, 9), 2)}
    assert set(together.values()) == {1}
    for r in rounds:  # every player seated once a round, both tables on the round's boards
        seated = sorted(p for s in r.tables for p in seat_players(s).values())
        assert seated == list(range(1, 9))
        assert {s.boards for s in r.tables} == {(2 * r.number - 1, 2 * r.number)}


def test_the_rotation_moves_each_player_as_published() -> None:
    """Sicherman's move: 1N stays, 1W → 2W, 2W → 2E, 2E → 2N, 2N → 1E, 1E → 2S, 2S → 1S,
    1S → 1W (round 1: players 1–4 at table 1 N E S W, 5–8 at table 2)."""
    first, second = individual(8, 1, 2)
    at = {(s.table, seat): p for s in first.tables for seat, p in seat_players(s).items()}
    then = {(s.table, seat): p for s in second.tables for seat, p in seat_players(s).items()}
    moves = {(1, "N"): (1, "N"), (1, "W"): (2, "W"), (2, "W"): (2, "E"), (2, "E"): (2, "N"),
             (2, "N"): (1, "E"), (1, "E"): (2, "S"), (2, "S"): (1, "S"), (1, "S"): (1, "W")}
    assert {moves[place]: player for place, player in at.items()} == then
    assert at == {(1, "N"): 1, (1, "E"): 2, (1, "S"): 3, (1, "W"): 4,
                  (2, "N"): 5, (2, "E"): 6, (2, "S"): 7, (2, "W"): 8}


def test_law_78a_each_player_sums_his_sides_matchpoints() -> None:
    """Law 78A, worked by hand: round 1 board 1, table 1 (1–3 NS v 2–4) +420, table 2
    (5–7 v 6–8) +170: 1–3 2 of top 2, 2–4 0, 5–7 0, 6–8 2. Round 2 board 2, table 1 (1–7 v
    5–3) −100, table 2 (6–2 v 8–4) −50: 6–2 2, 8–4 0, 1–7 0, 5–3 2. Each player's top 4:
    3 and 6 4 (100 %), 1, 2, 5 and 8 2 (50 %), 4 and 7 0."""
    first, second = individual(8, 1, 2)
    t1, t2 = first.tables
    u1, u2 = second.tables
    assert (partners(u1.ns), partners(u1.ew), partners(u2.ns), partners(u2.ew)) \
        == ((1, 7), (5, 3), (6, 2), (8, 4))
    played = [Result(1, t1.ns, t1.ew, Played(420)), Result(1, t2.ns, t2.ew, Played(170)),
              Result(2, u1.ns, u1.ew, Played(-100)), Result(2, u2.ns, u2.ew, Played(-50))]
    boards = travellers(played, Scoring.MATCHPOINTS).values()
    got = {s.player: (s.rank, s.points, s.top, s.percent)
           for s in player_rankings(pair_rankings(boards))}
    assert got == {3: (1, 4, 4, 100), 6: (1, 4, 4, 100), 1: (3, 2, 4, 50), 2: (3, 2, 4, 50),
                   5: (3, 2, 4, 50), 8: (3, 2, 4, 50), 4: (7, 0, 4, 0), 7: (7, 0, 4, 0)}


def _made(rounds: int) -> Tournament:
    movement = movement_of(MovementKind.INDIVIDUAL, 1, rounds, Scoring.MATCHPOINTS, 8, 2,
                           list(range(1, 8)))
    deals = {n: {"board": n} for n in range(1, 8)}
    return Tournament("i", "i", "duplicate", TABLES, deals, entrants=PLAYERS,
                      movement=movement)


def test_the_results_rank_players_and_neuberg_factors_a_board_played_once() -> None:
    """The results document: one line a player. Board 1 as above; board 2 played at table 1
    only (−100; 1–7 v 5–3), due twice: Neuberg (0 + 1) × 2 / 1 − 1 = 1 of the top 2 to each
    side (Law 78A with the EBU's Neuberg formula). Players 1, 3: 2 + 1 = 3 of 4 (75 %); 5, 7:
    0 + 1 (25 %); 2, 4: 0 of 2; 6, 8: 2 of 2 (100 %), who did not play board 2."""
    made = _made(2)
    assert made.movement is not None and made.movement.one_field
    doc = results(made, round_records(made), {"i-1": {1: 420, 2: -100}, "i-2": {1: 170}}, [])
    got = {r["entrant"]: (r["rank"], r["points"], r["top"], r["percent"])
           for r in doc["rankings"]}
    assert got == {6: (1, 2, 2, 100), 8: (1, 2, 2, 100), 1: (3, 3, 4, 75), 3: (3, 3, 4, 75),
                   5: (5, 1, 4, 25), 7: (5, 1, 4, 25), 2: (7, 0, 2, 0), 4: (7, 0, 2, 0)}
    assert [line["partner"] for line in doc["scorecards"]["1"]] == [3, 7]
    assert {p["number"]: p["name"] for p in doc["partnerships"]}[partnership(1, 7)] \
        == "P1 & P7"


def test_each_players_name_and_id_at_his_seat() -> None:
    """The table's seats name the four players the rotation puts there (round 2, table 1:
    N 1, E 5, S 7, W 3), each with his ID."""
    with_ids = tuple(Entrant(e.number, e.name, e.players, (f"id{e.number}",))
                     for e in PLAYERS)
    table_1 = individual(8, 1, 2)[1].tables[0]
    assert seat_names(table_1, with_ids, False) == {"N": "P1", "E": "P5", "S": "P7", "W": "P3"}
    assert seat_ids(table_1, with_ids, False) == {"N": "id1", "E": "id5", "S": "id7", "W": "id3"}


def test_each_players_link_moves_him_round_by_round() -> None:
    """A player's place each round (his one link all evening): player 3 sits 1S in round 1,
    1W in round 2 (partner 5, against 1–7); player 8 2W then 2E."""
    rounds = {r.number: r for r in individual(8, 1)}
    index = seating_index(rounds)
    seated = {1: TableNow(1, False), 2: TableNow(1, False)}
    now = where(rounds, 1, 7, seated, 3, 1, False, index)
    assert now.phase is Phase.SEATED and now.place is not None
    assert (now.place.table, now.place.seat) == (1, "S")
    over = {1: TableNow(1, True), 2: TableNow(1, True)}
    then = where(rounds, 1, 7, over, 3, 1, False, index)
    assert then.phase is Phase.BETWEEN and then.place is not None
    assert (then.place.round, then.place.table, then.place.seat) == (2, 1, "W")
    assert partners(then.place.partnership) == (5, 3)
    assert partners(then.place.opponents) == (1, 7)
    eight = [where(rounds, r, 7, {1: TableNow(r, False), 2: TableNow(r, False)}, 8, 1, False,
                   index).place for r in (1, 2)]
    assert [(p.table, p.seat) for p in eight if p is not None] == [(2, "W"), (2, "E")]


def test_an_individual_keeps_its_kind_and_refuses_other_fields() -> None:
    made = _made(7)
    assert made.movement is not None
    assert Movement.from_map(made.movement.to_map()) == made.movement
    with pytest.raises(TournamentError) as players:
        movement_of(MovementKind.INDIVIDUAL, 1, None, Scoring.MATCHPOINTS, 9, 2, [1])
    assert players.value.field == "entrants"
    with pytest.raises(TournamentError) as rounds:
        movement_of(MovementKind.INDIVIDUAL, 1, 8, Scoring.MATCHPOINTS, 8, 2,
                    list(range(1, 9)))
    assert rounds.value.field == "movement.rounds"
    with pytest.raises(MovementError):
        individual(8, 0)


def test_an_individual_refuses_vps_and_entrants_of_two_players() -> None:
    """Players are ranked by their points (no IMPs to VPs), each entrant one player."""
    with pytest.raises(TournamentError) as vps:
        movement_of(MovementKind.INDIVIDUAL, 1, None, Scoring.CROSS_IMPS, 8, 2,
                    list(range(1, 8)), imps_to_vp=True)
    assert vps.value.field == "movement.imps_to_vp"
    pairs = (*PLAYERS[:3], Entrant(4, "P4", ("P4", "Q4")), *PLAYERS[4:])
    with pytest.raises(TournamentError) as two:
        check_individuals(pairs)
    assert two.value.field == "entrants[3].players"
    check_individuals(PLAYERS)  # one each: taken


def test_law_90_a_penalty_on_a_partnership_counts_for_both_its_players() -> None:
    """Law 90: 50 % of a top (2) on partnership 1–3 on board 1 takes 1 matchpoint from
    player 1 and from player 3 (board 1 as above: 2 − 1; board 2, −100 once of twice, 1)."""
    made = _made(2)
    penalty = {"type": "score_given", "kind": "penalty", "board": 1,
               "entrant": partnership(1, 3), "amount": 50, "unit": "percent"}
    doc = results(made, round_records(made), {"i-1": {1: 420, 2: -100}, "i-2": {1: 170}},
                  [penalty])
    got = {r["entrant"]: r["points"] for r in doc["rankings"]}
    assert (got[1], got[3], got[7], got[6]) == (2, 2, 1, 2)


def test_a_partnerships_number_is_above_any_pairs() -> None:
    """A partnership is told from an entrant by its number alone: a Mitchell's pair 150 (of
    300) is still a pair at its seat, and every partnership number is past the most
    entrants an event takes."""
    assert partnership(1, 2) > MAX_ENTRANTS
    mitchell_table = Seating(1, 150, 300, (1,))
    assert seat_in(mitchell_table, 150, 2, False) == "S"
    assert seat_in(mitchell_table, 300, 1, False) == "E"
    many = tuple(Entrant(i, f"E{i}", (f"E{i}a", f"E{i}b")) for i in range(1, 301))
    assert seat_names(mitchell_table, many, False) == {
        "N": "E150a", "S": "E150b", "E": "E300a", "W": "E300b"}

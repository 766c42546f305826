"""Where a player of a tournament is now (`shared.tournament.player_seats`), and his links as
the tournament's record keeps them (`shared.tournament.player_links`): his seat follows the
movement round by round, and only while his table plays his round's boards (a board of
another round is one he may meet later: Law 16C1)."""

from __future__ import annotations

import pytest

from shared.scores.movements import Seating, howell, team_rounds
from shared.tournament.entrants import Entrant, Movement, MovementKind
from shared.tournament.errors import TournamentError
from shared.tournament.player_links import (
    PLAYER_LINK_ISSUED,
    PLAYER_MOVED,
    check_player,
    links_of,
    moved_event,
)
from shared.tournament.player_seats import (
    Phase,
    Place,
    TableNow,
    Where,
    place_in,
    places_of,
    seat_in,
    settled,
    where,
)
from shared.tournament.session import Tournament

HOWELL = {r.number: r for r in howell(4, 2)}  # 2 tables, 3 rounds of 2 boards


def at(entrant: int, place: int, started: int, tables: dict[int, TableNow]) -> Where:
    return where(HOWELL, started, 3, tables, entrant, place, False)


def test_before_round_one_the_lobby_names_round_ones_seat() -> None:
    assert at(2, 1, 0, {}) == Where(Phase.LOBBY, 1, Place(1, 2, "E", "EW", 3, (1, 2)))


def test_a_pair_sits_where_each_round_puts_it_ns_or_ew() -> None:
    assert [place_in(HOWELL[r], 2, 1, False) for r in (1, 2, 3)] == [
        Place(1, 2, "E", "EW", 3, (1, 2)), Place(2, 2, "N", "NS", 4, (3, 4)),
        Place(3, 1, "E", "EW", 1, (5, 6))]
    assert place_in(HOWELL[2], 2, 2, False) == Place(2, 2, "S", "NS", 4, (3, 4))
    assert place_in(HOWELL[1], 2, 3, False) is None  # a pair has two places


def test_seated_while_his_table_plays_his_rounds_boards() -> None:
    playing = {1: TableNow(1, False), 2: TableNow(1, False)}
    assert at(2, 1, 1, playing) == Where(Phase.SEATED, 1, Place(1, 2, "E", "EW", 3, (1, 2)))


def test_between_rounds_he_is_told_his_next_seat() -> None:
    over = {1: TableNow(1, True), 2: TableNow(1, True)}
    assert at(2, 1, 1, over) == Where(Phase.BETWEEN, 2, Place(2, 2, "N", "NS", 4, (3, 4)))


def test_a_table_finishing_the_round_before_keeps_its_players() -> None:
    """Round 2 started while table 1 still plays round 1's last board: pair 4 (EW at table 1
    in round 1) stays there; pair 3 (NS at table 2 in round 1, EW at table 1 in round 2)
    waits for table 1."""
    tables = {1: TableNow(1, False), 2: TableNow(2, False)}
    assert at(4, 1, 2, tables) == Where(Phase.SEATED, 1, Place(1, 1, "E", "EW", 1, (1, 2)))
    assert at(3, 1, 2, tables) == Where(Phase.BETWEEN, 2, Place(2, 1, "E", "EW", 1, (3, 4)))
    assert at(2, 1, 2, tables).phase is Phase.SEATED  # table 2 plays round 2


def test_a_round_the_record_ended_and_the_next_it_started_seat_everyone_before_the_fold(
        ) -> None:
    """Law 8B1: the round ends at the Director's signal (the clock's end), for every table;
    the record has round 1 ended and round 2 started (each acknowledged at every table
    first), the processor's fold not yet: table 1 still shows round 1 in play, table 2 round
    1 over. As folded, pair 2 waits between rounds; as the record settles them, it sits at
    its round 2 seat, and pair 4 leaves table 1's cut board."""
    folded = {1: TableNow(1, False), 2: TableNow(1, True)}
    assert at(2, 1, 2, folded).phase is Phase.BETWEEN
    assert at(4, 1, 2, folded).phase is Phase.SEATED and at(4, 1, 2, folded).round == 1
    lines = settled(folded, HOWELL, 2, 1)
    assert lines == {1: TableNow(2, False), 2: TableNow(2, False)}
    assert at(2, 1, 2, lines) == Where(Phase.SEATED, 2, Place(2, 2, "N", "NS", 4, (3, 4)))
    assert at(4, 1, 2, lines) == Where(Phase.SEATED, 2, Place(2, 2, "E", "EW", 2, (3, 4)))


def test_a_round_the_record_ended_is_over_at_its_every_table() -> None:
    """Law 8B1: the round ended by the Director (no next round yet): table 1's board in play
    is cut, and its players are between rounds at once."""
    folded = {1: TableNow(1, False), 2: TableNow(1, True)}
    lines = settled(folded, HOWELL, 1, 1)
    assert lines == {1: TableNow(1, True), 2: TableNow(1, True)}
    assert at(4, 1, 1, lines).phase is Phase.BETWEEN


def test_the_next_round_started_without_the_end_leaves_the_fold_as_it_is() -> None:
    """Law 8B1: started early by the Director, round 1 not ended: a table still playing keeps
    its players until its board ends (the fold says when); a line folded further is kept."""
    folded = {1: TableNow(1, False), 2: TableNow(2, False)}
    assert settled(folded, HOWELL, 2, 0) == folded
    assert settled({1: TableNow(2, True), 2: TableNow(1, True)}, HOWELL, 2, 1) == {
        1: TableNow(2, True), 2: TableNow(2, False)}


def test_the_end_once_the_last_round_is_over_at_his_table() -> None:
    tables = {1: TableNow(3, True), 2: TableNow(3, False)}
    assert at(1, 1, 3, tables) == Where(Phase.END, 3, None)
    assert at(3, 1, 3, tables).phase is Phase.SEATED


def test_a_team_seats_its_first_two_ns_at_home_and_its_next_two_ew_away() -> None:
    """`seat_names`' rooms: the open room (home NS) and the closed room (away NS)."""
    rnd = team_rounds(2, 2)[0]
    assert [place_in(rnd, 1, p, True) for p in (1, 2, 3, 4)] == [
        Place(1, 1, "N", "NS", 2, (1, 2)), Place(1, 1, "S", "NS", 2, (1, 2)),
        Place(1, 2, "E", "EW", 2, (1, 2)), Place(1, 2, "W", "EW", 2, (1, 2))]
    assert seat_in(Seating(1, 1, 2, (1,)), 1, 5, True) is None  # a reserve sits nowhere
    assert places_of(Entrant(1, "A", ("a", "b", "c", "d", "e")), True) == 5


MADE = Tournament("t", "T", "wbf-2017", ("t-1", "t-2"), {1: {}},
                  entrants=tuple(Entrant(n, str(n), (f"{n}a", f"{n}b")) for n in (1, 2, 3, 4)),
                  movement=Movement(MovementKind.HOWELL, 2, 3))


def test_a_reissued_link_has_the_next_generation_and_a_move_seats_him_elsewhere() -> None:
    links = links_of([{"type": PLAYER_LINK_ISSUED, "entrant": 2, "place": 1, "generation": 2},
                      {"type": PLAYER_MOVED, "entrant": 2, "place": 1, "to_entrant": 3,
                       "to_place": 2},
                      {"type": "round_started", "round": 1}])
    assert (links.generation(2, 1), links.generation(2, 2)) == (2, 1)
    assert (links.sits_as(2, 1), links.sits_as(1, 1)) == ((3, 2), (1, 1))
    back = links_of([{"type": PLAYER_MOVED, "entrant": 2, "place": 1, "to_entrant": 3,
                      "to_place": 2},
                     {"type": PLAYER_MOVED, "entrant": 2, "place": 1, "to_entrant": 2,
                      "to_place": 1}])
    assert back.sits_as(2, 1) == (2, 1)


def test_who_sits_as_a_place_is_sits_as_the_other_way() -> None:
    """The partner's name on a player's page: whoever sits as the other place of his pair."""
    links = links_of([{"type": PLAYER_MOVED, "entrant": 2, "place": 1, "to_entrant": 3,
                       "to_place": 2}])
    every = [(e, p) for e in (1, 2, 3, 4) for p in (1, 2)]
    for key in every:
        assert links.sitting_as(*key) == [k for k in every if links.sits_as(*k) == key]
    assert (links.sitting_as(3, 2), links.sitting_as(2, 1)) == ([(2, 1), (3, 2)], [])


@pytest.mark.parametrize(("given", "field"), [
    ({"entrant": 5, "place": 1, "to_entrant": 1, "to_place": 1}, "entrant"),
    ({"entrant": 1, "place": 3, "to_entrant": 1, "to_place": 1}, "place"),
    ({"entrant": 1, "place": 1, "to_entrant": 0, "to_place": 1}, "to_entrant"),
    ({"entrant": 1, "place": 1, "to_entrant": 2, "to_place": "1"}, "to_place")])
def test_a_move_names_the_field_at_fault(given: dict[str, object], field: str) -> None:
    with pytest.raises(TournamentError) as caught:
        moved_event(MADE, given)
    assert caught.value.field == field


def test_a_player_of_a_tournament_without_movement_is_refused() -> None:
    with pytest.raises(TournamentError) as caught:
        check_player(Tournament("t", "T", "wbf-2017", ("t-1",), {1: {}}), 1, 1)
    assert caught.value.field == "movement"

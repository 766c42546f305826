"""Entrants' players' IDs (the player's evening: who he is in the records)."""

import pytest


def test_players_ids_are_kept_in_order_and_travel_on_the_topic() -> None:
    """A player's ID (a federation number or an email) tells apart two players of one name
    and reaches the records: kept beside the names, and read back from the topic's map."""
    from shared.tournament.entrants import Entrant, entrants_of

    made = entrants_of([{"players": ["Ann", "Bob"], "player_ids": ["EBU 1", ""]},
                        {"players": ["Ann", "Cy"]}])
    assert made[0].player_ids == ("EBU 1", "")
    assert made[1].player_ids == () and "player_ids" not in made[1].to_map()
    assert Entrant.from_map(made[0].to_map()) == made[0]


def test_players_ids_of_the_wrong_shape_are_refused_naming_the_field() -> None:
    from shared.tournament.entrants import entrants_of
    from shared.tournament.errors import TournamentError

    with pytest.raises(TournamentError) as one:
        entrants_of([{"players": ["Ann", "Bob"], "player_ids": ["EBU 1"]}])
    assert one.value.field == "entrants[0].player_ids"
    with pytest.raises(TournamentError) as two:
        entrants_of([{"players": ["Ann", "Bob"], "player_ids": ["x" * 65, ""]}])
    assert two.value.field == "entrants[0].player_ids[0]"

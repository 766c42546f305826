"""A tournament's entries (`shared.tournament.entries`): folded from the tournament topic's events,
duplicates told by name and ID, and the movement chosen or checked from the count at close
(as `shared.tournament.entrants` plans it: a Mitchell or Howell, a sit-out where it must)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.scores.movements import howell, mitchell
from shared.tournament.entrants import MovementKind
from shared.tournament.entries import (
    EntryConflict,
    Player,
    check_entry,
    entrants_at_close,
    entry_of,
    fold,
    movement_at_close,
)
from shared.tournament.entry_kinds import EntryKind
from shared.tournament.errors import TournamentError

DEALS = list(range(1, 37))


def opened(teams: bool = False, **movement: Any) -> dict[str, Any]:
    return {"type": "entries_opened", "teams": teams, "name": "Tuesday pairs",
            "movement": {"boards_per_round": 2, **movement}}


def pair(a: str, b: str, a_id: str = "", b_id: str = "") -> dict[str, Any]:
    return {"type": "entry_made", "players": [{"name": a, "id": a_id}, {"name": b, "id": b_id}]}


def numbered(*events: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return list(enumerate(events))


def test_entries_fold_made_refused_edited_then_closed_in_the_order_recorded() -> None:
    entries = fold(numbered(opened(), pair("Ann", "Bob"), pair("Cy", "Di"), pair("Ed", "Flo"),
                            {"type": "entry_refused", "entry": 2, "reason": "not a member"},
                            {"type": "entry_edited", "entry": 3,
                             "players": [{"name": "Ed"}, {"name": "Gus", "id": "EBU 7"}]},
                            {"type": "entries_closed"}, pair("Hal", "Ivy")))
    assert [e.entry for e in entries.entries] == [1, 2, 3]  # Hal & Ivy came after the close
    assert entries.entries[1].refused == "not a member"
    assert [e.name for e in entries.standing] == ["Ann & Bob", "Ed & Gus"]
    assert entries.number_of(3) == 2 and entries.number_of(2) is None
    assert entries.closed is not None
    made = entrants_at_close(entries)
    assert [(e.number, e.name, e.players, e.player_ids) for e in made] == [
        (1, "Ann & Bob", ("Ann", "Bob"), ()), (2, "Ed & Gus", ("Ed", "Gus"), ("", "EBU 7"))]


def test_the_fold_goes_on_from_where_it_stopped() -> None:
    events = numbered(opened(), pair("Ann", "Bob"), pair("Cy", "Di"))
    part = fold(events[:2])
    assert part.next_offset == 2 and len(part.entries) == 1
    assert fold(events, part) == fold(events)


def test_nothing_counts_before_the_opening() -> None:
    entries = fold(numbered(pair("Ann", "Bob"), opened(), pair("Cy", "Di")))
    assert [e.name for e in entries.entries] == ["Cy & Di"]


@pytest.mark.parametrize(("first", "second", "same"), [
    (Player("Ann Smith"), Player("ann  smith"), True),  # case and spaces aside
    (Player("Ann Smith", "EBU 1"), Player("Ann Smith", "EBU 2"), False),  # told apart
    (Player("Ann Smith", "EBU 1"), Player("Ann Smith", "ebu 1"), True),
    (Player("Ann Smith", "EBU 1"), Player("Ann Smith"), True),  # one ID tells nothing
    (Player("Ann Smith"), Player("Ann Smyth"), False),
])
def test_a_player_is_the_same_by_name_unless_two_ids_tell_them_apart(
        first: Player, second: Player, same: bool) -> None:
    assert first.same_as(second) is same
    assert second.same_as(first) is same


def test_a_player_entered_already_is_refused_naming_the_player() -> None:
    entries = fold(numbered(opened(), pair("Ann Smith", "Bob", "ann@example.org")))
    players, _ = entry_of(pair("Cy", "ann smith"), EntryKind.PAIR)
    with pytest.raises(EntryConflict) as caught:
        check_entry(entries, players)
    assert caught.value.field == "players[1]"
    assert "entry 1" in str(caught.value)
    other, _ = entry_of({"players": [{"name": "Cy"}, {"name": "Ann Smith", "id": "EBU 9"}]},
                        EntryKind.PAIR)
    check_entry(entries, other)  # her namesake, told apart by two IDs


def test_of_two_entries_sent_at_once_with_one_player_the_first_stands() -> None:
    entries = fold(numbered(opened(), pair("Ann", "Bob"), pair("Ann", "Cy"), pair("Di", "Ed")))
    assert [e.name for e in entries.entries] == ["Ann & Bob", "Di & Ed"]
    assert entries.offsets == {1: 1, 3: 2}  # the record at offset 2 made no entry


def test_a_refused_entry_frees_its_players_and_an_edit_may_keep_its_own() -> None:
    entries = fold(numbered(opened(), pair("Ann", "Bob"),
                            {"type": "entry_refused", "entry": 1},
                            pair("Ann", "Cy"),
                            {"type": "entry_edited", "entry": 2,
                             "players": [{"name": "Ann"}, {"name": "Di"}]}))
    assert [e.name for e in entries.standing] == ["Ann & Di"]
    assert entries.entries[0].refused == "refused by the Director"


@pytest.mark.parametrize(("given", "teams", "field"), [
    ({"players": [{"name": "Ann"}]}, False, "players"),
    ({"players": [{"name": "Ann"}, {"name": "  "}]}, False, "players[1].name"),
    ({"players": [{"name": "Ann"}, {}]}, False, "players[1].name"),
    ({"players": [{"name": "Ann"}, {"name": "ANN"}]}, False, "players[1]"),
    ({"players": [{"name": "Ann"}, {"name": "Bob", "id": "x" * 65}]}, False, "players[1].id"),
    ({"players": [{"name": n} for n in "ABC"]}, True, "players"),
    ({"players": [{"name": n} for n in "ABCD"], "team": 5}, True, "team"),
    ({}, False, "players"),
])
def test_a_bad_entry_names_its_field(given: dict[str, Any], teams: bool, field: str) -> None:
    with pytest.raises(TournamentError) as caught:
        entry_of(given, EntryKind.TEAM if teams else EntryKind.PAIR)
    assert caught.value.field == field
    assert not isinstance(caught.value, EntryConflict)


def test_a_team_is_named_by_its_captain_unless_named() -> None:
    players = [{"name": n} for n in ("Ann", "Bob", "Cy", "Di", "Ed")]
    assert entry_of({"players": players}, EntryKind.TEAM)[1] == "Team Ann"
    assert entry_of({"players": players, "team": " The  Aces "},
                    EntryKind.TEAM)[1] == "The Aces"
    assert entry_of({"players": players[:2], "team": "ignored"}, EntryKind.PAIR)[1] == ""


def test_entries_closed_or_never_opened_take_no_entry() -> None:
    players, _ = entry_of(pair("Ann", "Bob"), EntryKind.PAIR)
    for events in ([], [opened(), {"type": "entries_closed"}]):
        with pytest.raises(EntryConflict) as caught:
            check_entry(fold(numbered(*events)), players)
        assert caught.value.field == "entries"


def _field(count: int, teams: bool = False, **movement: Any) -> Any:
    entries = fold(numbered(opened(teams, **movement), *(
        {"type": "entry_made", "players": [{"name": f"P{n}-{k}"} for k in
                                           range(4 if teams else 2)]}
        for n in range(count))))
    assert entries.opening is not None
    return entries.opening


def test_a_small_field_of_pairs_plays_a_howell_with_a_sit_out_when_odd() -> None:
    movement, tables = movement_at_close(_field(7), 7, DEALS)
    assert movement.kind is MovementKind.HOWELL and tables == 3
    assert movement.rounds == 7  # each pair sits out once
    assert all(len(r.sit_out) == 1 for r in howell(7, 2))


def test_a_larger_field_of_pairs_plays_a_mitchell() -> None:
    movement, tables = movement_at_close(_field(11), 11, DEALS)
    assert movement.kind is MovementKind.MITCHELL and tables == 6
    assert movement.rounds == 5  # six tables, even: the skip after half, tables − 1 rounds
    assert [len(r.sit_out) for r in mitchell(11, 2)] == [1] * 5


def test_the_directors_movement_is_checked_against_the_count() -> None:
    movement, tables = movement_at_close(_field(5, kind="mitchell"), 5, DEALS)
    assert (movement.kind, tables, movement.rounds) == (MovementKind.MITCHELL, 3, 3)
    with pytest.raises(TournamentError) as caught:
        movement_at_close(_field(2), 2, DEALS)  # a Howell needs three pairs
    assert caught.value.field == "entrants"
    with pytest.raises(TournamentError) as caught:
        movement_at_close(_field(6, kind="howell", rounds=9), 6, DEALS)
    assert caught.value.field == "movement.rounds"
    with pytest.raises(TournamentError) as caught:
        movement_at_close(_field(8), 8, DEALS[:10])  # seven rounds of two boards: 14 deals
    assert caught.value.field == "movement.boards_per_round"
    with pytest.raises(TournamentError) as caught:
        movement_at_close(_field(4, kind="teams"), 4, DEALS)
    assert caught.value.field == "movement.kind"


def test_teams_play_a_round_robin_of_matches() -> None:
    movement, tables = movement_at_close(_field(4, teams=True), 4, DEALS)
    assert movement.kind is MovementKind.TEAMS and tables == 4  # two matches, two rooms each


def test_a_field_of_500_pairs_plays_a_mitchell_of_at_most_200_rounds() -> None:
    """A Mitchell of 250 tables has 249 rounds; a creation takes 200 at the most."""
    movement, tables = movement_at_close(_field(500), 500, list(range(1, 501)))
    assert (movement.kind, tables, movement.rounds) == (MovementKind.MITCHELL, 250, 200)

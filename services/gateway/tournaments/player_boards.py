"""One player's boards across a tournament's tables, as the gateway serves them to the
Director (`shared.tournament.player_boards`): every table's log folded (`scores.table_boards`,
as the results fold them) and the rounds recorded on the tournament's topic."""

from __future__ import annotations

from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments.scores import record_of, table_boards
from services.gateway.tournaments.service import find
from shared.codec import unfit_text
from shared.tournament.player_boards import MAX_PLAYER, player_boards, rounds_by_board
from shared.tournament.player_boards_view import PlayerBoards


def checked_player(given: str) -> str:
    """The player asked for: an ID or a name, 1 to `MAX_PLAYER` characters of text (a 400
    naming `player` otherwise)."""
    player = given.strip()
    if not player or len(player) > MAX_PLAYER or unfit_text(player):
        raise Refused(f"player: an ID or a name, 1 to {MAX_PLAYER} characters", "player")
    return player


async def boards_of(gw: Gateway, tournament: str, given: str) -> PlayerBoards:
    """The boards the player sat at (by his ID; at a seat with no ID, by his name), each
    with its table, round, seat, contract, result and score; 404 for no such tournament."""
    player = checked_player(given)
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    rounds, _, _ = await record_of(gw, made)
    tables = await table_boards(gw, made)
    return {"tournament": tournament, "player": player,
            "boards": player_boards(tables, rounds_by_board(rounds), player)}

"""An individual in the results document (`shared.scores.individuals`): the boards scored as a
pairs event's between each round's partnerships (Law 78A), then one ranking of players, each
the sum of his partnerships' points over the boards he played (`player_rankings`); each
player's scorecard his partnerships' boards, with his partner on each; the partnerships listed
(`partnerships`: each number and its two players, so that a traveller's NS and EW read as
names). A player's place at a table (`individual_place`): his partner and opponents that
round. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from shared.scores.individuals import is_partnership, partners, player_rankings
from shared.scores.rankings import Standing
from shared.tournament.entrants import Entrant
from shared.tournament.results_view import EntrantMap, ScorecardLine
from shared.tournament.standings_view import RankingLine


def _name(entrants: Sequence[Entrant], player: int) -> str:
    e = entrants[player - 1]
    return next(iter(e.players), "") or e.name


def partnership_map(entrants: Sequence[Entrant], number: int) -> EntrantMap:
    """A partnership as an entrant is shown: its number, its two players' names."""
    names = [_name(entrants, p) for p in partners(number)]
    return {"number": number, "name": " & ".join(names), "players": names}


def individual_ranked(standings: Iterable[Standing], entrants: Sequence[Entrant],
                      scorecards: Mapping[str, Sequence[ScorecardLine]]
                      ) -> tuple[list[RankingLine], dict[str, list[ScorecardLine]],
                                 list[EntrantMap]]:
    """The players' ranking lines (`entrant` the player's number), their scorecards (each
    board of his partnerships, with `partner`), and the partnerships that played."""
    seen = list(standings)
    lines: list[RankingLine] = [
        {"entrant": s.player, "rank": s.rank, "direction": None, "boards": s.boards,
         "points": s.points, "top": s.top, "percent": s.percent}
        for s in player_rankings(seen)]
    cards: dict[str, list[ScorecardLine]] = {str(e.number): [] for e in entrants}
    for number, card in scorecards.items():
        if not is_partnership(int(number)):  # the players' own keys: they sat only in partnerships
            continue
        a, b = partners(int(number))
        for me, partner in ((a, b), (b, a)):
            cards[str(me)] += [{**line, "partner": partner} for line in card]
    for card in cards.values():
        card.sort(key=lambda line: line["board"])
    return lines, cards, [partnership_map(entrants, s.entrant)
                          for s in sorted(seen, key=lambda s: s.entrant)]


def individual_place(entrants: Sequence[Entrant], partnership: int, opponents: int
                     ) -> dict[str, Any]:
    """A seated player's partner this round (his partnership's other player) and opponents
    (their partnership), for his page."""
    return {"partnership": partnership_map(entrants, partnership),
            "opponents": partnership_map(entrants, opponents)}

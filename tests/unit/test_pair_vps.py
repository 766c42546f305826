"""IMPs to VPs for a pairs event (docs/scoring.md): a cross-IMP Howell of four pairs, each
round's IMPs (Law 78B, worked by hand here: two results a board, so a pair's cross-IMPs are
its IMPs against the other table) converted on the WBF continuous scale for a two-board round
(`shared.scores.victory_points`, tested against the WBF's published values in
test_victory_points.py), the pairs ranked by total VPs."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

import pytest

from shared.scores.victory_points import scale
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import Movement, MovementKind, movement_of
from shared.tournament.errors import TournamentError
from shared.tournament.results import results
from shared.tournament.session import Tournament
from shared.tournament.usebio import write_usebio
from tests.unit.tournament_fixtures import entrants, round_records

pytestmark = pytest.mark.unit

# the Howell: round 1 boards 1-2, table 1 pair 1 v 4, table 2 pair 3 v 2; round 2 boards 3-4,
# 1 v 3 and 2 v 4; round 3 boards 5-6, 1 v 2 and 3 v 4. NS scores by table:
TABLES = {"t-1": {1: 420, 2: -100, 3: 110, 4: 600, 5: -200, 6: 140},
          "t-2": {1: 170, 2: -100, 3: -50, 4: 100, 5: -200, 6: 110}}
# by hand (Law 78B): board 1 250 → 6 IMPs, 2 flat; board 3 160 → 4, board 4 500 → 11;
# board 5 flat, board 6 30 → 1. Each pair's IMPs a round:
ROUND_IMPS = {1: (6, 15, 1), 2: (6, -15, -1), 3: (-6, -15, -1), 4: (-6, 15, 1)}
VP2 = scale(2)  # the two-board scale: 1 → 10.86, 6 → 14.39, 15 → 18.37


def _vp(imps: int) -> float:
    return VP2[imps] if imps >= 0 else round(20 - VP2[-imps], 2)


def test_a_cross_imp_howell_ranked_by_vps_round_by_round() -> None:
    assert (VP2[1], VP2[6], VP2[15]) == (10.86, 14.39, 18.37)
    made, doc = howell()
    assert made.movement is not None
    assert Movement.from_map(made.movement.to_map()) == made.movement
    vps = {p: round(sum(_vp(i) for i in imps), 2) for p, imps in ROUND_IMPS.items()}
    assert vps == {1: 43.62, 2: 25.16, 3: 16.38, 4: 34.84}  # 120: six matches of 20
    got = {r["entrant"]: (r["rank"], r["vp"], r["points"], r["rounds"])
           for r in doc["rankings"]}
    assert got == {1: (1, 43.62, 22.0, 3), 4: (2, 34.84, 10.0, 3), 2: (3, 25.16, -10.0, 3),
                   3: (4, 16.38, -22.0, 3)}
    assert [r["entrant"] for r in doc["rankings"]] == [1, 4, 2, 3]
    rounds = {(r["round"], r["entrant"]): (r["imps"], r["vp"]) for r in doc["vp_rounds"]}
    assert rounds == {(n + 1, p): (float(i), _vp(i)) for p, imps in ROUND_IMPS.items()
                      for n, i in enumerate(imps)}


def test_a_vp_pairs_usebio_file_totals_the_vps_its_places_follow() -> None:
    """USEBIO of the Howell above: `MATCH_SCORING_METHOD` VPS, each pair's `TOTAL_SCORE` its
    VPs (not its IMPs), in the order of its `PLACE`; the lines keep their IMPs."""
    made, doc = howell()
    event = ElementTree.fromstring(write_usebio(doc, made)).find("EVENT")
    assert event is not None and event.findtext("MATCH_SCORING_METHOD") == "VPS"
    pairs = [(p.findtext("PAIR_NUMBER"), p.findtext("PLACE"), p.findtext("TOTAL_SCORE"))
             for p in event.iter("PAIR")]
    assert pairs == [("1", "1", "43.62"), ("4", "2", "34.84"), ("2", "3", "25.16"),
                     ("3", "4", "16.38")]
    first = event.find("BOARD/TRAVELLER_LINE")
    assert first is not None and first.findtext("NS_IMPS") == "6.00"


def howell() -> tuple[Tournament, Any]:
    """The Howell above ranked by VPs, and its results."""
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.HOWELL, 2, None, Scoring.CROSS_IMPS, 4, 2,
                           list(deals), imps_to_vp=True)
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), deals, entrants=entrants(4),
                      movement=movement)
    return made, results(made, round_records(made), TABLES, [])


def test_imps_to_vp_needs_a_pairs_event_in_imps() -> None:
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.HOWELL, 2, None, Scoring.MATCHPOINTS, 4, 2,
                    list(range(1, 7)), imps_to_vp=True)
    assert caught.value.field == "movement.imps_to_vp"
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.TEAMS, 2, None, Scoring.MATCHPOINTS, 2, 2, [1, 2],
                    imps_to_vp=True)
    assert caught.value.field == "movement.imps_to_vp"

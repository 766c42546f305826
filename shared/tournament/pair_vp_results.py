"""A pairs event's IMPs converted to VPs round by round (`shared.scores.pair_vps`) in the
results document: each field's ranking by VPs (its lines keep their IMPs as `points`, with
`vp` and `rounds`), and each pair's rounds (`vp_rounds`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.scores.adjustments import Penalty
from shared.scores.movements import Round
from shared.scores.pair_vps import pair_vp_rankings, round_vps
from shared.scores.travellers import Traveller
from shared.tournament.results_view import VpRound
from shared.tournament.standings_view import RankingLine


def vp_ranked(rankings: Sequence[RankingLine], boards: Sequence[Traveller],
              rounds: Sequence[Round], penalties: Sequence[Penalty]
              ) -> tuple[list[RankingLine], list[VpRound]]:
    """The rankings by VPs in the fields the IMP rankings have (a Mitchell's two lines, else
    one), and the rounds' IMPs and VPs."""
    played = round_vps(boards, rounds, penalties)
    by_entrant: Mapping[int, RankingLine] = {line["entrant"]: line for line in rankings}
    out: list[RankingLine] = []
    for field in dict.fromkeys(line.get("direction") for line in rankings):
        mine = [r for r in played if r.entrant in by_entrant
                and by_entrant[r.entrant].get("direction") == field]
        for s in pair_vp_rankings(mine):
            out.append({**by_entrant[s.entrant], "rank": s.rank, "vp": s.vp,
                        "rounds": s.rounds})
    return out, [{"round": r.round, "entrant": r.entrant, "opponent": r.opponent,
                  "boards": r.boards, "imps": r.imps, "vp": r.vp} for r in played]

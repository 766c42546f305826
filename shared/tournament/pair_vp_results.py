"""A pairs event's IMPs converted to VPs round by round (`shared.scores.pair_vps`) in the
results document: each field's ranking by VPs (its lines keep their IMPs as `points`, with
`vp` and `rounds`), and each pair's rounds (`vp_rounds`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.scores.adjustments import Penalty
from shared.scores.movements import Round
from shared.scores.pair_vps import pair_vp_rankings, round_vps
from shared.scores.travellers import Traveller


def vp_ranked(rankings: Sequence[Mapping[str, Any]], boards: Sequence[Traveller],
              rounds: Sequence[Round], penalties: Sequence[Penalty]) -> dict[str, Any]:
    """The rankings by VPs in the fields the IMP rankings have (a Mitchell's two lines, else
    one), and the rounds' IMPs and VPs."""
    played = round_vps(boards, rounds, penalties)
    by_entrant = {line["entrant"]: line for line in rankings}
    out: list[dict[str, Any]] = []
    for field in dict.fromkeys(line["direction"] for line in rankings):
        mine = [r for r in played if by_entrant.get(r.entrant, {}).get("direction") == field]
        for s in pair_vp_rankings(mine):
            out.append({**by_entrant[s.entrant], "rank": s.rank, "vp": s.vp,
                        "rounds": s.rounds})
    return {"rankings": out, "vp_rounds": [
        {"round": r.round, "entrant": r.entrant, "opponent": r.opponent, "boards": r.boards,
         "imps": r.imps, "vp": r.vp} for r in played]}

"""Results imported from another scoring program's USEBIO file (`shared.tournament.usebio_import`):
every line checked first, then each appended to the tournament's topic as the Director's score
(`score_given`), as `POST …/scores` appends one. A line at fault: a 400 naming it, nothing
recorded. Kafka not answering midway: a 503, and the same file again is harmless (a later score
for a board replaces the earlier one, the same)."""

from __future__ import annotations

import time
from typing import Any

from services.gateway.refusals import Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments.log import append_record, refuse_closed
from services.gateway.tournaments.scores import record_of
from shared.scores.corrections import scheduled
from shared.tournament.results import pairs_matchpoints, rounds_of
from shared.tournament.session import Tournament
from shared.tournament.usebio_import import UsebioImportError, imported_scores


async def import_usebio(gw: Gateway, made: Tournament, data: bytes) -> dict[str, Any]:
    """The file's lines recorded as the Director's scores: how many, and their offsets."""
    if made.movement is None:
        raise Refused(f"tournament {made.tournament} has no entrants and movement to score",
                      "tournament")
    await refuse_closed(gw, made.tournament, "tournament", "scores")
    rounds, _, _ = await record_of(gw, made)
    try:
        scores = imported_scores(data, scheduled(rounds_of(rounds, made)),
                                 pairs_matchpoints(made))
    except UsebioImportError as exc:
        raise Refused(str(exc), exc.field) from None
    offsets = []
    for score in scores:
        event = {"type": "score_given", **score, "ts": int(time.time() * 1000)}
        offsets.append(await append_record(gw, made.tournament, event, "record the import",
                                           "tournament", "scores"))
    return {"imported": len(offsets), "offsets": offsets}

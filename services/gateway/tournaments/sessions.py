"""A multi-session event's results (docs/scoring.md): a session that continues another carries
the totals over (`shared.tournament.carry_over`), each earlier session's results read as the
reader may see them (the public's: the boards complete)."""

from __future__ import annotations

from services.gateway.tables.service import Gateway
from services.gateway.tournaments import scores as tournament_scores
from services.gateway.tournaments.service import find
from shared.tournament.carry_over import Session, continued
from shared.tournament.results_view import ResultsDoc
from shared.tournament.session import Tournament

MAX_SESSIONS = 50  # sessions an event carries over (a chain longer is cut there)


def _name(made: Tournament, number: int) -> str:
    return made.session or f"Session {number}"


async def with_sessions(gw: Gateway, made: Tournament, doc: ResultsDoc,
                        everything: bool) -> ResultsDoc:
    """The session's results with the sessions before it carried over (`sessions`,
    `overall`); a tournament that continues none: as it is."""
    if not made.continues:
        return doc
    chain = [made]
    while chain[-1].continues and len(chain) < MAX_SESSIONS:
        previous = await find(gw, chain[-1].continues)
        if previous is None or previous.movement is None:
            break
        chain.append(previous)
    chain.reverse()
    sessions = [Session(_name(t, i), await tournament_scores.results_of(gw, t, everything))
                for i, t in enumerate(chain[:-1], start=1)]
    sessions.append(Session(_name(made, len(chain)), doc))
    return continued(doc, sessions, made.continues)

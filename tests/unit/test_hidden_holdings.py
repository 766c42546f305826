"""What the fold knows from hands a player may not see reaches him on no channel while the play
lasts (`shared.table.hidden_holdings`): a revoke not corrected (Laws 61, 63), a lead against a lead
restriction (Laws 26, 50D2), a play against declarer's Law 57A option. Each entry of a seat's
history (whole, one board, step by step, up to an offset) and his PBN and LIN records tell of
it as his state of the board does: not before the play ends, then all of it (Law 64)."""

from __future__ import annotations

from typing import Any

import pytest

from services.gateway.tables.views import board_for, entry_for, hides_holdings
from services.gateway.tokens import Grant
from services.replay.history import build_history, events_of
from shared import from_map
from shared.codec import encode
from shared.notation.export import to_lin, to_pbn
from tests.helpers import DEAL

pytestmark = pytest.mark.unit

AUCTION = [("N", "1S"), ("E", "P"), ("S", "P"), ("W", "P")]  # N declares, S is dummy
CLAIMED = [{"type": "claim", "seat": "N", "tricks": 7, "statement": "cross-ruff"},
           {"type": "claim_response", "seat": "E", "accept": True},
           {"type": "claim_response", "seat": "W", "accept": True}]


def card(seat: str, card: str) -> dict[str, Any]:
    return {"type": "card_played", "seat": seat, "card": card}


# each Law's board after the auction, ending with the card that raises its alert
PLAYS: dict[str, tuple[list[dict[str, Any]], str]] = {
    # Laws 61A, 63A: W fails to follow a diamond holding four, then EW play to trick 2
    "61": ([card("E", "DA"), card("S", "D6"), card("W", "H4"), card("N", "D2"),
            card("E", "C2"), card("S", "C5"), card("W", "C6")], "revoke"),
    # Law 26 (a Director's lead restriction): E must lead a heart, leads DA holding four
    "26": ([{"type": "ruling", "action": "lead_restriction", "seat": "E", "suit": "H",
             "restriction": "require"}, card("E", "DA")], "lead_restriction_not_followed"),
    # Law 57A: W plays prematurely; declarer requires E's highest heart; E plays H6
    "57A": ([card("E", "C2"), card("S", "C5"), card("W", "C6"), card("N", "CA"),
             card("N", "H2"), card("W", "H4"),
             {"type": "play_option", "seat": "N", "choice": "highest"}, card("E", "H6")],
            "play_restriction_not_followed"),
}
SEATS = [Grant("t", seat, "seat") for seat in "NESW"]
OTHERS = [Grant("t", None, "spectator"), Grant("t", None, "operator"),
          Grant("t", None, "director")]


def records(law: str, ended: bool) -> list[tuple[int, bytes]]:
    log = [{"type": "board_started", "board": 1, "deal": DEAL},
           *({"type": "call", "seat": s, "call": c} for s, c in AUCTION), *PLAYS[law][0],
           *(CLAIMED if ended else [])]
    return [(offset, encode(from_map(event))) for offset, event in enumerate(log)]


def told(entries: list[dict[str, Any]], kind: str) -> list[int]:
    """The board's `event` of each alert of `kind` the entries carry."""
    return [a["event"] for e in entries for a in e["alerts"] if a["kind"] == kind]


QUERIES: list[dict[str, Any]] = [{}, {"board": 1}, {"board": 1, "states": True},
                                 {"board": 1, "until": len(AUCTION) + 1}]


@pytest.mark.parametrize("law", PLAYS)
@pytest.mark.parametrize("query", QUERIES, ids=["whole", "board", "states", "until"])
def test_a_players_history_tells_an_alert_only_as_his_state_does(law: str, query: dict[str, Any]
                                                                 ) -> None:
    """Laws 61B, 63, 64 (26, 50D2, 57A): while the play lasts, no seat's history carries the
    alert (the Director's does, and the spectator's and operator's, whose states show it);
    once the play ends (a claim agreed, Law 69A), every seat's does. In each, a reader's
    history carries it exactly when his state of the board shows it."""
    until = query.get("until")
    kind = PLAYS[law][1]
    for ended in (False, True):
        recs = records(law, ended)
        if until is not None:  # up to the card that raised the alert: the play lasts
            until = len(recs) - 1 - (len(CLAIMED) if ended else 0)
            query = {**query, "until": until}
            recs = recs[:until + 1]
        document = build_history("t", recs, **query)
        raised = told(document["history"], kind)
        assert raised, "the fold alerts the Director"
        for grant in SEATS + OTHERS:
            entries = [entry_for(grant, e, 0, 0) for e in document["history"]]
            state = board_for(grant, document["state"], 0, 0)
            shown = [a["event"] for a in state["alerts"] if a["kind"] == kind]
            assert told(entries, kind) == shown, (grant, ended)
            hidden = grant in SEATS and not (ended and until is None)
            assert shown == ([] if hidden else raised), (grant, ended)
            for entry in entries:  # each step's state, as the reader sees it
                if "state" in entry:
                    assert all(a["event"] in raised for a in entry["state"]["alerts"]
                               if a["kind"] == kind)
                    if hidden:
                        assert told([{"alerts": entry["state"]["alerts"]}], kind) == []


@pytest.mark.parametrize("law", PLAYS)
def test_a_players_pbn_and_lin_tell_an_alert_only_once_the_play_ends(law: str) -> None:
    """Laws 61B, 63, 64 (26, 50D2, 57A): each seat's PBN and LIN records (folded from his
    history: his own hand, so the offender's fold finds his own irregularity) leave out the
    Director's alert, the establishment (Law 63, PBN's `^R`) while the play lasts; once it
    ends every seat's records carry them. The Director's carry them throughout."""
    words = f"({PLAYS[law][1].replace('_', ' ')})"
    for ended in (False, True):
        document = build_history("t", records(law, ended))
        for grant in SEATS + OTHERS[2:]:
            seen = {**document, "history": [entry_for(grant, e, 0, 0)
                                            for e in document["history"]]}
            players = hides_holdings(grant)
            pbn = to_pbn(events_of(seen), players=players)
            lin = to_lin(events_of(seen), players=players)
            offender = grant.seat == ("E" if law in ("26", "57A") else "W")
            found = grant.role == "director" or (offender and ended)
            assert (words in pbn, words in lin) == (found, found), (grant, ended)
            if law == "61":
                assert ("^R" in pbn, "Law 63" in pbn) == (found, found), (grant, ended)


def test_a_board_left_in_play_keeps_its_revoke_from_the_players() -> None:
    """Laws 61B, 64: the Director starts board 2 while board 1's play lasts (its revoke not
    settled); board 1 never ends, so no seat's state of it shows the revoke (`board=1`), nor
    does the table's whole history, whose last board is another; a board whose play ended
    before the next one started tells it to all in the same history."""
    then = {"type": "board_started", "board": 2, "deal": DEAL}
    left = records("61", ended=False)
    left.append((len(left), encode(from_map(then))))
    finished = records("61", ended=True)
    finished.append((len(finished), encode(from_map(then))))
    for recs, ended in ((left, False), (finished, True)):
        whole, first = build_history("t", recs), build_history("t", recs, board=1)
        assert told(whole["history"], "revoke") != []
        for grant in SEATS:
            state = board_for(grant, first["state"], 0, 0)
            shown = [a["event"] for a in state["alerts"] if a["kind"] == "revoke"]
            assert (shown != []) is ended, grant
            for document in (whole, first):
                entries = [entry_for(grant, e, 0, 0) for e in document["history"]]
                assert told(entries, "revoke") == shown, grant

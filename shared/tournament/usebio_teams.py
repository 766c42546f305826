"""A teams tournament's results as USEBIO 1.2 XML (scoring.md): the matches, their IMPs and VPs.

USEBIO's specification and DTD are not among the stored sources (docs/scoring.md); each element
written here is one that public writers or readers of real files use:

- `EVENT EVENT_TYPE="TEAMS"` (a round robin) or `"SWISS_TEAMS"` (a Swiss): the values a New
  Zealand stratification program's USEBIO reader lists (`EVENT_TYPES`); a club appliance's
  USEBIO 1.2 writer (TypeScript, `generateSwissTeamsXml`, found by the code search, repository
  not named) writes `SWISS_TEAMS`.
- `BOARD_SCORING_METHOD` `IMPS`, `MATCH_SCORING_METHOD` `VPS`: that writer's `VPS` and its
  reader's type (`BoardScoringMethod = 'IMPS' | …`); marcshearer/ImportUsebio
  (`Usebio Parser.swift`, `processEvent`) reads both elements, and takes IMPs for a four-player
  entrant without one.
- `PARTICIPANTS` > `TEAM` with its number and name as the attributes `TEAM_ID` and
  `TEAM_NAME`, its `TOTAL_SCORE` (VPs), `PLACE` (`=` on a tie, as for pairs) and a `PLAYER`
  (`PLAYER_NAME`, `NATIONAL_ID_NUMBER`) each: that writer, and ImportUsebio's
  `processParticipants` / `processTeam` (attributes `TEAM_ID`, `TEAM_NAME`; `PLAYER` in
  `TEAM`; `PLACE`, `TOTAL_SCORE`).
- `MATCH` a match, in `EVENT`: `ROUND_NUMBER`, `TEAM` (home: NS in the open room),
  `OPPOSING_TEAM`, `TEAM_SCORE` and `OPPOSING_TEAM_SCORE` (their VPs), and a `BOARD` each
  (`BOARD_NUMBER`, `IMPS`: the home team's IMPs on it, signed, after a split score its own
  side's), its two `TRAVELLER_LINE`s with `DIRECTION` (where the home team sat: `NS` in
  the open room, `EW` in the closed) then the line's `CONTRACT`, `PLAYED_BY`, `LEAD`,
  `TRICKS` where the results carry them, and `SCORE` (NS's, as for pairs): the elements
  of that writer, and of ImportUsebio's `processMatch` and `processTravellerLine`
  (`ROUND_NUMBER`, `TEAM`, `OPPOSING_TEAM`, `TEAM_SCORE`, `OPPOSING_TEAM_SCORE`, `BOARD` >
  `TRAVELLER_LINE` > `DIRECTION`).
- `TEAM_IMPS` and `OPPOSING_TEAM_IMPS`, each team's IMPs over the match (after penalties,
  Law 90): no source names an element for a match's IMPs; these are ours, named after
  `TEAM_SCORE`, and readers that do not know them skip them (ImportUsebio's default branch).

An IMP is Law 78B's; a match's VPs are the WBF scale's (`shared.scores.victory_points`). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.tournament.entrants import MovementKind
from shared.tournament.session import Tournament
from shared.tournament.usebio import (
    PROGRAM,
    add_players,
    date_text,
    places,
    score_text,
    start,
    sub,
    text_of,
)

TEAMS_EVENT = {MovementKind.TEAMS: "TEAMS", MovementKind.SWISS: "SWISS_TEAMS"}
"""`EVENT_TYPE` of each teams movement."""


def _number(value: float) -> str:
    return f"{value:.2f}"


def _line(board: Any, room: Mapping[str, Any], direction: str) -> None:
    node = sub(board, "TRAVELLER_LINE")
    sub(node, "DIRECTION", direction)
    for tag, field in (("CONTRACT", "contract"), ("PLAYED_BY", "declarer"), ("LEAD", "lead"),
                       ("TRICKS", "tricks")):
        if field in room:
            sub(node, tag, room[field])
    sub(node, "SCORE", score_text(room))


def write_usebio_teams(doc: Mapping[str, Any], made: Tournament) -> str:
    """The results document (`shared.tournament.results.results`) of a teams event as a
    USEBIO 1.2 file."""
    assert made.movement is not None and made.movement.kind in TEAMS_EVENT
    root, event = start(made, TEAMS_EVENT[made.movement.kind])
    boards = {b["board"] for m in doc["matches"] for b in m["boards"]}
    for tag, text in (("PROGRAM_NAME", PROGRAM), ("EVENT_IDENTIFIER", made.tournament),
                      ("EVENT_DESCRIPTION", made.name or made.tournament),
                      ("DATE", date_text(made.date)), ("BOARD_SCORING_METHOD", "IMPS"),
                      ("MATCH_SCORING_METHOD", "VPS"), ("BOARDS_PLAYED", len(boards)),
                      ("WINNER_TYPE", 1)):
        sub(event, tag, text)
    participants = sub(event, "PARTICIPANTS")
    entrants = {e["number"]: e for e in doc["entrants"]}
    for r, place in zip(doc["rankings"], places(doc["rankings"]), strict=True):
        entrant = entrants[r["entrant"]]
        team = sub(participants, "TEAM")
        team.set("TEAM_ID", str(r["entrant"]))
        team.set("TEAM_NAME", entrant["name"])
        sub(team, "PLACE", place)
        sub(team, "TOTAL_SCORE", _number(r["vp"]))
        add_players(team, entrant)
    for m in doc["matches"]:
        match = sub(event, "MATCH")
        for tag, text in (("ROUND_NUMBER", m["round"]), ("TEAM", m["home"]),
                          ("OPPOSING_TEAM", m["away"]), ("TEAM_SCORE", _number(m["home_vp"])),
                          ("OPPOSING_TEAM_SCORE", _number(m["away_vp"])),
                          ("TEAM_IMPS", _number(m["home_imps"])),
                          ("OPPOSING_TEAM_IMPS", _number(m["away_imps"]))):
            sub(match, tag, text)
        for b in m["boards"]:
            board = sub(match, "BOARD")
            sub(board, "BOARD_NUMBER", b["board"])
            sub(board, "IMPS", _number(b["home_imps"]))
            _line(board, b["open"], "NS" if b["open"]["ns"] == m["home"] else "EW")
            _line(board, b["closed"], "NS" if b["closed"]["ns"] == m["home"] else "EW")
    return text_of(root)

"""USEBIO 1.2 for the pairs forms a single field's file does not say (docs/scoring.md, "USEBIO for
sections, individuals and Swiss pairs"): an event in sections, an individual, a Swiss pairs.

USEBIO's specification and DTD are not among the stored sources; each element is one that
public writers or readers of real files use (docs/scoring.md names them):

- Sections: `SECTION_COUNT` and `SESSION_COUNT` in `EVENT`, then `SESSION SESSION_ID="1"` and
  a `SECTION SECTION_ID="A"` each (a club appliance's TypeScript writer, `startSection`;
  marcshearer/ImportUsebio's `processEvent` reads `SESSION`, `SECTION` and both counts), each
  section holding its own `PARTICIPANTS` (its pairs) and the `BOARD`s of its tables' lines.
  The top is across the field: a pair's `PLACE` is its place in its field (the Mitchell's
  direction) over every section, as a reader awarding places over the event takes it, and
  `SECTION_PLACE` (ours: no source names one) its place within its section; each line's match
  points are the field's.
- Individuals: `EVENT_TYPE="INDIVIDUAL"` (ImportUsebio's `EventType.individual`, whose
  participants are players), `PARTICIPANTS` > `PLAYER` each (ImportUsebio's
  `processParticipants` and `processPlayer`: `PLAYER_NUMBER`, `PLAYER_NAME`,
  `NATIONAL_ID_NUMBER`, `PLACE`, `TOTAL_SCORE`, `PERCENTAGE`). A traveller line names its
  partnerships in `NS_PAIR_NUMBER` and `EW_PAIR_NUMBER` (10000 × North or East + South or
  West: the numbers the Director's scores and the import take) and its four players in
  `NORTH_PLAYER_NUMBER`, `EAST_…`, `SOUTH_…`, `WEST_PLAYER_NUMBER` (ours, after
  `PLAYER_NUMBER` and PBN's `PlayerId_North`: no source names a line's players).
- Swiss pairs: `EVENT_TYPE="SWISS_PAIRS"` and `MATCH_SCORING_METHOD` `VPS` (the appliance's
  `generateSwissPairsXml`; ImportUsebio's `EventType.swiss_pairs`), `BOARD_SCORING_METHOD`
  the IMPs' (as a pairs file's), each `PAIR`'s `TOTAL_SCORE` its VPs (no `DIRECTION`: a pair
  sits either way); a `MATCH` a table a round: `ROUND_NUMBER`, `NS_PAIR_NUMBER`,
  `EW_PAIR_NUMBER`, `NS_SCORE`, `EW_SCORE` (their VPs: the appliance, ImportUsebio's
  `processMatch`), `NS_IMPS` and `EW_IMPS` (the match's IMPs: ours, as a line's), and its
  `BOARD`s with their traveller lines.

Pure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any
from xml.etree import ElementTree

from shared.scores.individuals import partners
from shared.tournament.entrants import MovementKind
from shared.tournament.session import Tournament
from shared.tournament.usebio import (
    METHOD,
    PROGRAM,
    add_line,
    add_pair,
    add_players,
    date_text,
    number_text,
    places,
    start,
    sub,
    text_of,
)

SEAT_ELEMENTS = ("NORTH_PLAYER_NUMBER", "EAST_PLAYER_NUMBER", "SOUTH_PLAYER_NUMBER",
                 "WEST_PLAYER_NUMBER")
"""An individual's traveller line: the player at each seat (N, E, S, W)."""


def form_of(doc: Mapping[str, Any], made: Tournament) -> str | None:
    """Which form's writer a pairs event's results take (`individual`, `swiss_pairs`,
    `sections`), None for a single field's (`shared.tournament.usebio.write_usebio`)."""
    kind = made.movement.kind if made.movement is not None else None
    if kind is MovementKind.INDIVIDUAL:
        return "individual"
    if kind is MovementKind.SWISS_PAIRS and "vp_rounds" in doc:
        return "swiss_pairs"
    return "sections" if doc.get("sections") else None


def _event(doc: Mapping[str, Any], made: Tournament, event_type: str,
           extra: Iterable[tuple[str, Any]] = ()
           ) -> tuple[ElementTree.Element, ElementTree.Element]:
    root, event = start(made, event_type)
    for tag, text in (("PROGRAM_NAME", PROGRAM), ("EVENT_IDENTIFIER", made.tournament),
                      ("EVENT_DESCRIPTION", made.name or made.tournament),
                      ("DATE", date_text(made.date)),
                      ("BOARD_SCORING_METHOD", METHOD[doc["scoring"]]), *extra,
                      ("BOARDS_PLAYED", len(doc["travellers"]))):
        sub(event, tag, text)
    return root, event


def write_sections(doc: Mapping[str, Any], made: Tournament) -> str:
    """An event in sections: a `SECTION` each, its pairs (their place over the field and
    within the section) and its tables' traveller lines."""
    fields = {r.get("direction") for r in doc["rankings"]}
    root, event = _event(doc, made, "PAIRS", (
        ("WINNER_TYPE", 2 if fields == {"NS", "EW"} else 1),
        ("SESSION_COUNT", 1), ("SECTION_COUNT", len(doc["sections"]))))
    session = sub(event, "SESSION")
    session.set("SESSION_ID", "1")
    entrants = {e["number"]: e for e in doc["entrants"]}
    field_place = dict(zip((r["entrant"] for r in doc["rankings"]), places(doc["rankings"]),
                           strict=True))
    section_of = {n: s["name"] for s in doc["sections"] for n in s["entrants"]}
    for s in doc["sections"]:
        section = sub(session, "SECTION")
        section.set("SECTION_ID", s["name"])
        mine = sorted((r for r in doc["rankings"] if section_of[r["entrant"]] == s["name"]),
                      key=lambda r: (r.get("direction") == "EW", r["section_rank"]))
        within = places([{**r, "rank": r["section_rank"]} for r in mine])
        participants = sub(section, "PARTICIPANTS")
        for r, place in zip(mine, within, strict=True):
            pair = add_pair(participants, r, field_place[r["entrant"]])
            sub(pair, "SECTION_PLACE", place)
            add_players(pair, entrants[r["entrant"]])
        for t in doc["travellers"]:
            lines = [x for x in t["lines"] if section_of.get(x["ns"]) == s["name"]]
            if not lines:
                continue
            board = sub(section, "BOARD")
            sub(board, "BOARD_NUMBER", t["board"])
            for line in lines:
                add_line(board, line, doc["scoring"])
    return text_of(root)


def write_individual(doc: Mapping[str, Any], made: Tournament) -> str:
    """An individual: its players ranked, each a `PLAYER`; each line's partnerships and the
    player at each seat."""
    root, event = _event(doc, made, "INDIVIDUAL", (("WINNER_TYPE", 1),))
    participants = sub(event, "PARTICIPANTS")
    entrants = {e["number"]: e for e in doc["entrants"]}
    for r, place in zip(doc["rankings"], places(doc["rankings"]), strict=True):
        entrant = entrants[r["entrant"]]
        player = sub(participants, "PLAYER")
        sub(player, "PLAYER_NUMBER", r["entrant"])
        sub(player, "PLAYER_NAME", next(iter(entrant["players"]), "") or entrant["name"])
        ids = entrant.get("player_ids") or []
        if ids and ids[0]:
            sub(player, "NATIONAL_ID_NUMBER", ids[0])
        sub(player, "PLACE", place)
        sub(player, "TOTAL_SCORE", number_text(r["points"]))
        if r["percent"] is not None:
            sub(player, "PERCENTAGE", number_text(r["percent"]))
    for t in doc["travellers"]:
        board = sub(event, "BOARD")
        sub(board, "BOARD_NUMBER", t["board"])
        for line in t["lines"]:
            node = add_line(board, line, doc["scoring"])
            (north, south), (east, west) = partners(line["ns"]), partners(line["ew"])
            for i, (tag, who) in enumerate(zip(SEAT_ELEMENTS, (north, east, south, west),
                                               strict=True)):
                node.insert(2 + i, _element(tag, who))
    return text_of(root)


def _element(tag: str, text: Any) -> ElementTree.Element:
    node = ElementTree.Element(tag)
    node.text = str(text)
    return node


def write_swiss_pairs(doc: Mapping[str, Any], made: Tournament) -> str:
    """A Swiss pairs: its pairs by VPs, and a `MATCH` a table a round with both pairs' VPs
    and IMPs and the match's boards."""
    assert made.movement is not None
    root, event = _event(doc, made, "SWISS_PAIRS", (("MATCH_SCORING_METHOD", "VPS"),
                                                    ("WINNER_TYPE", 1)))
    participants = sub(event, "PARTICIPANTS")
    entrants = {e["number"]: e for e in doc["entrants"]}
    for r, place in zip(doc["rankings"], places(doc["rankings"]), strict=True):
        add_players(add_pair(participants, r, place, vp=True),
                    entrants[r["entrant"]])
    per = made.movement.boards_per_round
    matches: dict[tuple[int, int, int], list[tuple[int, Mapping[str, Any]]]] = defaultdict(list)
    for t in doc["travellers"]:
        for line in t["lines"]:
            matches[(t["board"] - 1) // per + 1, line["ns"], line["ew"]].append(
                (t["board"], line))
    won = {(r["round"], r["entrant"]): r for r in doc["vp_rounds"]}
    for (rnd, ns, ew), lines in sorted(matches.items()):
        match = sub(event, "MATCH")
        for tag, text in (("ROUND_NUMBER", rnd), ("NS_PAIR_NUMBER", ns),
                          ("EW_PAIR_NUMBER", ew)):
            sub(match, tag, text)
        sides = [(side, won[rnd, pair]) for side, pair in (("NS", ns), ("EW", ew))
                 if (rnd, pair) in won]  # every match played has both; none: no VPs
        for key, tag in (("vp", "SCORE"), ("imps", "IMPS")):
            for side, found in sides:
                sub(match, f"{side}_{tag}", number_text(found[key]))
        for number, line in lines:
            board = sub(match, "BOARD")
            sub(board, "BOARD_NUMBER", number)
            add_line(board, line, doc["scoring"])
    return text_of(root)


WRITERS = {"sections": write_sections, "individual": write_individual,
           "swiss_pairs": write_swiss_pairs}

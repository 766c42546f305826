"""A pairs tournament's results as USEBIO 1.2 XML (scoring.md), the format the EBU's and others'
scoring and ranking programs exchange.

USEBIO's own specification and DTD (usebio.org) are not among the stored sources; the
elements written here are those that public readers and writers of real USEBIO 1.2 files use
(docs/scoring.md names them): `USEBIO Version="1.2"` holding `CLUB` (`CLUB_NAME`,
`CLUB_ID_NUMBER`) and `EVENT EVENT_TYPE="PAIRS"` (`PROGRAM_NAME`, `EVENT_IDENTIFIER`,
`EVENT_DESCRIPTION`, `DATE` as dd/mm/yyyy, `BOARD_SCORING_METHOD`, `BOARDS_PLAYED`,
`WINNER_TYPE`: 2 for a Mitchell's two fields), then `PARTICIPANTS` (a `PAIR` each:
`PAIR_NUMBER`, `DIRECTION`, `PLACE` with `=` for a tie, `TOTAL_SCORE`, `PERCENTAGE`, a
`PLAYER` with its `PLAYER_NAME` each, and its `NATIONAL_ID_NUMBER` where the entrant gave the
player's ID and the results are the Director's) and a `BOARD` each (`BOARD_NUMBER`, a
`TRAVELLER_LINE` a result: `NS_PAIR_NUMBER`, `EW_PAIR_NUMBER`, `CONTRACT`, `PLAYED_BY`,
`LEAD`, `TRICKS`, `SCORE` from NS's side, `NS_MATCH_POINTS`, `EW_MATCH_POINTS`). An
artificial adjusted score (Law 12C2) is `A` and both sides' percentages (`A6040`), as those
readers take it. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any
from xml.etree import ElementTree

from shared.scores.adjustments import ARTIFICIAL_PERCENT
from shared.scores.vocabulary import Fault
from shared.tournament.session import Tournament

PROGRAM = "tableserver"
MEDIA = "application/xml"


class UsebioError(ValueError):
    """Results USEBIO is not written for here (teams, pairs scored in IMPs)."""

    field = "format"


def _date(text: str) -> str:
    """USEBIO 1.2's dd/mm/yyyy from ISO's 2026-11-25 or PBN's 2026.11.25 (else as given)."""
    parts = text.replace(".", "-").split("-")
    if len(parts) == 3 and len(parts[0]) == 4 and all(p.isdigit() for p in parts):
        return f"{parts[2]}/{parts[1]}/{parts[0]}"
    return text


def _sub(parent: ElementTree.Element, tag: str, text: Any = None) -> ElementTree.Element:
    node = ElementTree.SubElement(parent, tag)
    if text is not None:
        node.text = str(text)
    return node


def _mean(parts: list[Mapping[str, Any]]) -> int:
    total = sum((Fraction(str(p.get("percent_text", p["percent"]))) * int(p["score_ns"])
                 for p in parts), Fraction(0))  # the weight exact, as the Director gave it
    return round(total / 100)


def score_text(line: Mapping[str, Any]) -> str:
    """A line's `SCORE`: NS's score; an artificial score `A` and both sides' percentages
    (Law 12C2(a): 60 average plus, 50 average, 40 average minus); a weighted score (Law
    12C1(c)) its parts' weighted mean, a split score its NS side's (their match points, the
    Director's exactly, are the line's `NS_MATCH_POINTS` and `EW_MATCH_POINTS`)."""
    kind = line["kind"]
    if kind == "artificial":
        return "A" + "".join(f"{int(ARTIFICIAL_PERCENT[Fault(line[k])]):02d}"
                             for k in ("ns_fault", "ew_fault"))
    if kind == "weighted":
        return str(_mean(line["parts"]))
    if kind == "split":
        side = line["ns_score"]
        return str(side["score_ns"] if "score_ns" in side else _mean(side["parts"]))
    return str(line["score_ns"])


def _number(value: float) -> str:
    return f"{value:.2f}"


def write_usebio(doc: Mapping[str, Any], made: Tournament) -> str:
    """The results document (`shared.tournament.results.results`) of a matchpoint pairs
    event as a USEBIO 1.2 file."""
    if doc["scoring"] != "matchpoints":
        raise UsebioError("format: USEBIO is written for a pairs event scored in matchpoints; "
                          "this one's results are json, csv or pbn")
    root = ElementTree.Element("USEBIO", {"Version": "1.2"})
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", made.site or PROGRAM)
    _sub(club, "CLUB_ID_NUMBER", "")
    event = _sub(root, "EVENT")
    event.set("EVENT_TYPE", "PAIRS")
    fields = {r.get("direction") for r in doc["rankings"]}
    for tag, text in (("PROGRAM_NAME", PROGRAM), ("EVENT_IDENTIFIER", made.tournament),
                      ("EVENT_DESCRIPTION", made.name or made.tournament),
                      ("DATE", _date(made.date)), ("BOARD_SCORING_METHOD", "MATCH_POINTS"),
                      ("BOARDS_PLAYED", len(doc["travellers"])),
                      ("WINNER_TYPE", 2 if fields == {"NS", "EW"} else 1)):
        _sub(event, tag, text)
    participants = _sub(event, "PARTICIPANTS")
    entrants = {e["number"]: e for e in doc["entrants"]}
    counts: dict[tuple[Any, int], int] = {}
    for r in doc["rankings"]:
        key = (r.get("direction"), r["rank"])
        counts[key] = counts.get(key, 0) + 1
    for r in doc["rankings"]:
        pair = _sub(participants, "PAIR")
        _sub(pair, "PAIR_NUMBER", r["entrant"])
        if r.get("direction"):
            _sub(pair, "DIRECTION", r["direction"])
        tie = "=" if counts[r.get("direction"), r["rank"]] > 1 else ""
        _sub(pair, "PLACE", f"{r['rank']}{tie}")
        _sub(pair, "TOTAL_SCORE", _number(r["points"]))
        _sub(pair, "PERCENTAGE", _number(r["percent"] or 0))
        entrant = entrants[r["entrant"]]
        ids = entrant.get("player_ids") or []
        for i, name in enumerate(entrant["players"] or [entrant["name"]]):
            player = _sub(pair, "PLAYER")
            _sub(player, "PLAYER_NAME", name)
            if i < len(ids) and ids[i]:
                _sub(player, "NATIONAL_ID_NUMBER", ids[i])
    for t in doc["travellers"]:
        board = _sub(event, "BOARD")
        _sub(board, "BOARD_NUMBER", t["board"])
        for line in t["lines"]:
            node = _sub(board, "TRAVELLER_LINE")
            _sub(node, "NS_PAIR_NUMBER", line["ns"])
            _sub(node, "EW_PAIR_NUMBER", line["ew"])
            for tag, field in (("CONTRACT", "contract"), ("PLAYED_BY", "declarer"),
                               ("LEAD", "lead"), ("TRICKS", "tricks")):
                if field in line:
                    _sub(node, tag, line[field])
            _sub(node, "SCORE", score_text(line))
            _sub(node, "NS_MATCH_POINTS", _number(line["ns_points"]))
            _sub(node, "EW_MATCH_POINTS", _number(line["ew_points"]))
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + \
        ElementTree.tostring(root, encoding="unicode") + "\n"

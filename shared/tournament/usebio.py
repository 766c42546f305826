"""A pairs tournament's results as USEBIO 1.2 XML (scoring.md), the format the EBU's and others'
scoring and ranking programs exchange (a teams event's: `shared.tournament.usebio_teams`).

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
readers take it.

Pairs scored in IMPs (Law 78B) are written the same way but for their method and units, as
a club appliance's USEBIO 1.2 writer (TypeScript, `generateMpPairsXml`, found by the code
search; repository not named) writes them: `BOARD_SCORING_METHOD` `CROSS_IMPS` (cross-IMPs)
or `BUTLER_IMPS` (Butler: the value a New Zealand stratification program's reader lists
among `BOARD_SCORINGS`; that appliance writes `BUTLER`), each line's `NS_IMPS` and `EW_IMPS`
in place of the match points, each pair's `TOTAL_SCORE` its IMPs and no `PERCENTAGE`. Those
ranked by VPs round by round (`imps_to_vp`) say so as a Swiss event does
(`MATCH_SCORING_METHOD` `VPS`, `shared.tournament.usebio_forms`), each pair's `TOTAL_SCORE`
its VPs, which its `PLACE` follows. Pure.
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


METHOD = {"matchpoints": "MATCH_POINTS", "cross_imps": "CROSS_IMPS", "butler": "BUTLER_IMPS"}
"""`BOARD_SCORING_METHOD` of each pairs scoring (`shared.scores.vocabulary.Scoring`)."""
LINE_POINTS = {"matchpoints": ("NS_MATCH_POINTS", "EW_MATCH_POINTS"),
               "cross_imps": ("NS_IMPS", "EW_IMPS"), "butler": ("NS_IMPS", "EW_IMPS")}
"""A traveller line's two sides' points, by the pairs scoring."""


class UsebioError(ValueError):
    """Results USEBIO is not written for here (a teams event: `usebio_teams`)."""

    field = "format"


def date_text(text: str) -> str:
    """USEBIO 1.2's dd/mm/yyyy from ISO's 2026-11-25 or PBN's 2026.11.25 (else as given)."""
    parts = text.replace(".", "-").split("-")
    if len(parts) == 3 and len(parts[0]) == 4 and all(p.isdigit() for p in parts):
        return f"{parts[2]}/{parts[1]}/{parts[0]}"
    return text


def sub(parent: ElementTree.Element, tag: str, text: Any = None) -> ElementTree.Element:
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


def number_text(value: float) -> str:
    """A score, a percentage, VPs or IMPs as USEBIO's files write them: two decimals."""
    return f"{value:.2f}"


def add_pair(participants: ElementTree.Element, line: Mapping[str, Any], place: str,
             vp: bool = False) -> ElementTree.Element:
    """A ranking line's `PAIR`: its number, its field (`DIRECTION`), `PLACE`, `TOTAL_SCORE`
    (its points; `vp`: its VPs, no percentage) and `PERCENTAGE` (none in IMPs)."""
    pair = sub(participants, "PAIR")
    sub(pair, "PAIR_NUMBER", line["entrant"])
    if line.get("direction"):
        sub(pair, "DIRECTION", line["direction"])
    sub(pair, "PLACE", place)
    sub(pair, "TOTAL_SCORE", number_text(line["vp"] if vp else line["points"]))
    if line["percent"] is not None and not vp:
        sub(pair, "PERCENTAGE", number_text(line["percent"]))
    return pair


def add_line(board: ElementTree.Element, line: Mapping[str, Any], scoring: str
             ) -> ElementTree.Element:
    """A `TRAVELLER_LINE` in `board`: its pairs, the play where the table played it, NS's
    `SCORE` and both sides' match points or IMPs (`LINE_POINTS` by the pairs `scoring`)."""
    node = sub(board, "TRAVELLER_LINE")
    sub(node, "NS_PAIR_NUMBER", line["ns"])
    sub(node, "EW_PAIR_NUMBER", line["ew"])
    for tag, field in (("CONTRACT", "contract"), ("PLAYED_BY", "declarer"),
                       ("LEAD", "lead"), ("TRICKS", "tricks")):
        if field in line:
            sub(node, tag, line[field])
    sub(node, "SCORE", score_text(line))
    ns_tag, ew_tag = LINE_POINTS[scoring]
    sub(node, ns_tag, number_text(line["ns_points"]))
    sub(node, ew_tag, number_text(line["ew_points"]))
    return node


def add_players(parent: ElementTree.Element, entrant: Mapping[str, Any]) -> None:
    """A `PLAYER` an entrant's player (`PLAYER_NAME`; `NATIONAL_ID_NUMBER` where the
    entrant gave its ID and the results are the Director's), or its name without players."""
    ids = entrant.get("player_ids") or []
    for i, name in enumerate(entrant["players"] or [entrant["name"]]):
        player = sub(parent, "PLAYER")
        sub(player, "PLAYER_NAME", name)
        if i < len(ids) and ids[i]:
            sub(player, "NATIONAL_ID_NUMBER", ids[i])


def places(rankings: list[Mapping[str, Any]]) -> list[str]:
    """Each ranking line's `PLACE`: its rank, `=` after it when another in its field shares
    it (a tie)."""
    counts: dict[tuple[Any, int], int] = {}
    for r in rankings:
        key = (r.get("direction"), r["rank"])
        counts[key] = counts.get(key, 0) + 1
    return [f"{r['rank']}{'=' if counts[r.get('direction'), r['rank']] > 1 else ''}"
            for r in rankings]


def start(made: Tournament, event_type: str
          ) -> tuple[ElementTree.Element, ElementTree.Element]:
    """`USEBIO Version="1.2"` with its `CLUB`, and its `EVENT` of `event_type`."""
    root = ElementTree.Element("USEBIO", {"Version": "1.2"})
    club = sub(root, "CLUB")
    sub(club, "CLUB_NAME", made.site or PROGRAM)
    sub(club, "CLUB_ID_NUMBER", "")
    event = sub(root, "EVENT", None)
    event.set("EVENT_TYPE", event_type)
    return root, event


def write_usebio(doc: Mapping[str, Any], made: Tournament) -> str:
    """The results document (`shared.tournament.results.results`) of a pairs event (in
    matchpoints, cross-IMPs or Butler) as a USEBIO 1.2 file."""
    if doc["scoring"] not in METHOD:
        raise UsebioError("format: this USEBIO writer takes a pairs event's results")
    root, event = start(made, "PAIRS")
    fields = {r.get("direction") for r in doc["rankings"]}
    by_vp = made.movement is not None and made.movement.imps_to_vp  # its places by VPs
    for tag, text in (("PROGRAM_NAME", PROGRAM), ("EVENT_IDENTIFIER", made.tournament),
                      ("EVENT_DESCRIPTION", made.name or made.tournament),
                      ("DATE", date_text(made.date)),
                      ("BOARD_SCORING_METHOD", METHOD[doc["scoring"]]),
                      *((("MATCH_SCORING_METHOD", "VPS"),) if by_vp else ()),
                      ("BOARDS_PLAYED", len(doc["travellers"])),
                      ("WINNER_TYPE", 2 if fields == {"NS", "EW"} else 1)):
        sub(event, tag, text)
    participants = sub(event, "PARTICIPANTS")
    entrants = {e["number"]: e for e in doc["entrants"]}
    for r, place in zip(doc["rankings"], places(doc["rankings"]), strict=True):
        add_players(add_pair(participants, r, place, vp=by_vp), entrants[r["entrant"]])
    for t in doc["travellers"]:
        board = sub(event, "BOARD")
        sub(board, "BOARD_NUMBER", t["board"])
        for line in t["lines"]:
            add_line(board, line, doc["scoring"])
    return text_of(root)


def text_of(root: ElementTree.Element) -> str:
    """The document's text, indented, with its XML declaration."""
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + \
        ElementTree.tostring(root, encoding="unicode") + "\n"

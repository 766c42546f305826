"""Results imported from another scoring program's USEBIO 1.2 file (scoring.md): each traveller
line becomes the Director's score on its board between its two entrants.

Why USEBIO and not the table devices' own export: a Bridgemate's results reach a scoring
program through BCS's Access database (`.bws`), whose reading needs an Access driver
(mdbtools, or a Python Access parser) this project does not carry, and whose tables are
described by no public specification among the stored sources; the scoring programs that read
it (EBUScore, Scorebridge, …) write USEBIO, the format readers and writers agree on
(`shared.tournament.usebio`'s sources).

What is read, the elements `shared.tournament.usebio` and `usebio_teams` write (and
marcshearer/ImportUsebio's reader reads): a pairs event's `BOARD` > `BOARD_NUMBER` and its
`TRAVELLER_LINE`s' `NS_PAIR_NUMBER`, `EW_PAIR_NUMBER` and `SCORE`, wherever the `BOARD` sits
(in `EVENT`, or `EVENT/SESSION/SECTION`); a teams event's `MATCH` > `TEAM`,
`OPPOSING_TEAM`, `BOARD` > `BOARD_NUMBER`, `TRAVELLER_LINE` > `DIRECTION` (where `TEAM`
sat) and `SCORE`. A `SCORE` is NS's: a whole number is the result the table obtained, recorded
as a result the Director entered (`corrected`, scored as played: Law 79C's score agreed);
`A` and the two sides' percentages (`A6040`) is an artificial adjusted score (Law 12C2(a):
60 average plus, 50 average, 40 average minus). Anything else, or a line naming a board its
entrants were not scheduled to play (`shared.tournament.director_scores.parse`), or a second
line for the same board between the same entrants, refuses the whole file, naming the line
(`TRAVELLER_LINE` n, in document order, from 1) and its field. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any
from xml.etree import ElementTree

from shared.scores.adjustments import ARTIFICIAL_PERCENT, ScoreError
from shared.scores.corrections import Place
from shared.scores.vocabulary import Fault
from shared.tournament.director_scores import ScoreKind, parse

FAULT_OF = {int(percent): fault for fault, percent in ARTIFICIAL_PERCENT.items()}
"""The fault an artificial score's percentage stands for (Law 12C2(a))."""
_ARTIFICIAL = re.compile(r"A(\d\d)(\d\d)")
_SCORE = re.compile(r"[+-]?\d{1,5}")
REASON = "imported from {program}'s USEBIO file"


class UsebioImportError(ValueError):
    """A file or a line that cannot be imported; `field` names it."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def _root(data: bytes) -> ElementTree.Element:
    if b"<!ENTITY" in data:  # no entity expansion: a file of results declares none
        raise UsebioImportError("usebio: a USEBIO file declares no entities", "usebio")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise UsebioImportError(f"usebio: not well-formed XML ({exc})", "usebio") from None
    if root.tag != "USEBIO":
        raise UsebioImportError(f"usebio: the document is {root.tag}, not USEBIO", "usebio")
    return root


def _whole(node: ElementTree.Element, tag: str, at: str) -> int:
    text = (node.findtext(tag) or "").strip()
    if not text.isdigit():
        raise UsebioImportError(f"{at}.{tag}: a number, not {text!r}", f"{at}.{tag}")
    return int(text)


def score_of(text: str, at: str) -> dict[str, Any]:
    """A `SCORE` as the Director's score's map: a result entered, or an artificial score."""
    text = text.strip()
    if _SCORE.fullmatch(text):
        return {"kind": str(ScoreKind.CORRECTED), "score_ns": int(text)}
    found = _ARTIFICIAL.fullmatch(text)
    if found and {int(found[1]), int(found[2])} <= FAULT_OF.keys():
        return {"kind": str(ScoreKind.ARTIFICIAL), "ns_fault": str(FAULT_OF[int(found[1])]),
                "ew_fault": str(FAULT_OF[int(found[2])])}
    raise UsebioImportError(
        f"{at}.SCORE: NS's score (420, -50) or an artificial score (A6040: "
        f"{', '.join(f'{p} {Fault(f)}' for p, f in FAULT_OF.items())}), not {text!r}",
        f"{at}.SCORE")


def _lines(root: ElementTree.Element) -> Iterator[tuple[ElementTree.Element, int, int, int]]:
    """Each traveller line with its board and its NS and EW entrants, in document order."""
    count = 0
    # a teams match names its teams, each line the room by DIRECTION; a Swiss pairs' match
    # (NS_PAIR_NUMBER) is read as a pairs file's boards
    matches = [m for m in root.iter("MATCH") if m.find("TEAM") is not None]
    teams = {id(b) for m in matches for b in m.iter("BOARD")}
    for match in matches:
        for board in match.iter("BOARD"):
            for line in board.iter("TRAVELLER_LINE"):
                count += 1
                at = f"TRAVELLER_LINE[{count}]"
                home, away = _whole(match, "TEAM", at), _whole(match, "OPPOSING_TEAM", at)
                direction = (line.findtext("DIRECTION") or "").strip()
                if direction not in ("NS", "EW"):
                    raise UsebioImportError(f"{at}.DIRECTION: NS or EW (where TEAM sat), "
                                            f"not {direction!r}", f"{at}.DIRECTION")
                ns, ew = (home, away) if direction == "NS" else (away, home)
                yield line, _whole(board, "BOARD_NUMBER", at), ns, ew
    for board in root.iter("BOARD"):
        if id(board) in teams:
            continue
        for line in board.iter("TRAVELLER_LINE"):
            count += 1
            at = f"TRAVELLER_LINE[{count}]"
            yield (line, _whole(board, "BOARD_NUMBER", at), _whole(line, "NS_PAIR_NUMBER", at),
                   _whole(line, "EW_PAIR_NUMBER", at))


def imported_scores(data: bytes, places: Collection[Place], pairs_matchpoints: bool
                    ) -> list[dict[str, Any]]:
    """Each traveller line of a USEBIO file as the Director's score (the map `POST …/scores`
    takes and the record keeps), every one checked as the Director's own is (`parse`); the
    first line at fault refuses them all (`UsebioImportError` naming it)."""
    root = _root(data)
    program = (root.findtext("EVENT/PROGRAM_NAME") or "").strip()[:100] or "another program"
    out: list[dict[str, Any]] = []
    seen: dict[Place, int] = {}
    for n, (line, board, ns, ew) in enumerate(_lines(root), start=1):
        at = f"TRAVELLER_LINE[{n}]"
        if (board, ns, ew) in seen:
            raise UsebioImportError(
                f"{at}: board {board} between {ns} (NS) and {ew} (EW) is already "
                f"TRAVELLER_LINE[{seen[board, ns, ew]}]", at)
        seen[board, ns, ew] = n
        score = {**score_of(line.findtext("SCORE") or "", at), "board": board, "ns": ns,
                 "ew": ew, "reason": REASON.format(program=program)}
        try:
            parse(score, places, pairs_matchpoints)
        except ScoreError as exc:
            raise UsebioImportError(f"{at}: {exc}", f"{at}.{exc.field}") from None
        out.append(score)
    if not out:
        raise UsebioImportError("usebio: the file has no TRAVELLER_LINE to import", "usebio")
    return out

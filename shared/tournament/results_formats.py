"""A tournament's results in the formats other programs read (docs/scoring.md): CSV, the rankings
then each traveller's lines (pairs) or each match's boards (teams), one row each; PBN 2.1's
`[TotalScoreTable]` and `[ScoreTable]` sections (pairs); USEBIO 1.2 XML (`shared.tournament.usebio`:
pairs in matchpoints or IMPs; `shared.tournament.usebio_teams`: teams;
`shared.tournament.usebio_forms`: sections, individuals, Swiss pairs)."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from shared.codec import from_map
from shared.events import BoardStarted
from shared.notation.export import PBN_VULNERABLE
from shared.scores.individuals import partners
from shared.tournament.entrants import MovementKind
from shared.tournament.session import Tournament
from shared.tournament.usebio import UsebioError, write_usebio
from shared.tournament.usebio_forms import WRITERS, form_of
from shared.tournament.usebio_teams import write_usebio_teams

MEDIA = {"csv": "text/csv", "pbn": "application/x-bridge-pbn", "usebio": "application/xml"}
EXTENSION = {"csv": "csv", "pbn": "pbn", "usebio": "xml"}


# what a traveller's line says of the play, when the table played it
# (`shared.table.board_result.contract_line`): the CSV's last columns
PLAY = ("contract", "declarer", "lead", "tricks")


class FormatError(ValueError):
    """A format the results cannot be written in (teams in PBN's pairs tables)."""

    field = "format"


class _Rows:
    """A CSV document being written (the csv module's writer wants a file: this is one)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\0")
"""What a spreadsheet reads as the start of a formula in a CSV cell (OWASP, CSV injection;
ASVS 1.2.10)."""
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as written, never runs: text starting with `=`, `+`,
    `-`, `@`, a tab, a carriage return or a NUL (a player or pair named `=cmd|' /C calc'!A0`,
    a reason) gets a leading single quote, as OWASP advises against CSV injection; a number
    (a score such as -420, as a number or its text) stays a number."""
    if isinstance(value, str) and value.startswith(FORMULA_START) \
            and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


class _Writer(Protocol):
    def writerow(self, row: Iterable[Any], /) -> Any: ...


class _Cells:
    """A CSV writer whose every cell is written as `safe_cell` makes it."""

    def __init__(self, writer: _Writer) -> None:
        self.writer = writer

    def writerow(self, row: Iterable[Any]) -> None:
        self.writer.writerow([safe_cell(value) for value in row])


def _score(line: Mapping[str, Any]) -> str:
    if "score_ns" in line:
        return str(line["score_ns"])
    if line["kind"] == "weighted":
        return " ".join(f"{p['percent']:g}%:{p['score_ns']}" for p in line["parts"])
    if line["kind"] == "artificial":
        return f"{line['ns_fault']}/{line['ew_fault']}"
    return f"NS {_score(line['ns_score'] | {'kind': 'part'})} EW " \
        f"{_score(line['ew_score'] | {'kind': 'part'})}" if line["kind"] == "split" \
        else " ".join(f"{p['percent']:g}%:{p['score_ns']}" for p in line.get("parts", ()))


def _players_cells(entrant: Mapping[str, Any]) -> tuple[str, str]:
    """An entrant's players' names and their IDs (the Director's results: `""` in the
    public's, or for a player without one), each joined by `; ` in the same order."""
    names = list(entrant.get("players", ()))
    ids = list(entrant.get("player_ids", ())) or [""] * len(names)
    return "; ".join(names), "; ".join(ids) if any(ids) else ""


def write_csv(doc: Mapping[str, Any]) -> str:
    """The rankings (`ranking` rows, each entrant's players and their IDs last) and the
    travellers or matches (`traveller`, `match`), each cell neutralised against CSV injection
    (`safe_cell`)."""
    out = _Rows()
    rows = _Cells(csv.writer(out, lineterminator="\n"))
    names = {e["number"]: e["name"] for e in doc["entrants"]}
    players = {e["number"]: _players_cells(e) for e in doc["entrants"]}
    teams = doc["scoring"] == "vp" or doc.get("teams", False)
    # board-a-match or aggregate: points where IMPs and VPs would be (team_form_results)
    totals, swings = (["points"], ["home_points", "away_points"]) if doc["scoring"] != "vp" \
        else (["vp", "imps"], ["home_imps", "away_imps"])
    rows.writerow(["ranking", "rank", "entrant", "name", "direction", "boards", "points",
                   "percent", "players", "player_ids"] if not teams else
                  ["ranking", "rank", "entrant", "name", "matches", *totals, "players",
                   "player_ids"])
    for r in doc["rankings"]:
        rows.writerow(["ranking", r["rank"], r["entrant"], names.get(r["entrant"], ""),
                       r.get("direction") or "", r["boards"], r["points"],
                       "" if r["percent"] is None else r["percent"],
                       *players.get(r["entrant"], ("", ""))] if not teams else
                      ["ranking", r["rank"], r["entrant"], names.get(r["entrant"], ""),
                       r["matches"], *(r[k] for k in totals),
                       *players.get(r["entrant"], ("", ""))])
    if teams:
        rows.writerow(["match", "home", "away", "board", "open_score", "closed_score",
                       *swings])
        for m in doc["matches"]:
            for b in m["boards"]:
                rows.writerow(["match", m["home"], m["away"], b["board"], _score(b["open"]),
                               _score(b["closed"]), *(b[k] for k in swings)])
        return "".join(out.parts)
    rows.writerow(["traveller", "board", "ns", "ew", "kind", "score", "ns_points",
                   "ew_points", "ns_percent", "ew_percent", "reason", *PLAY])
    for t in doc["travellers"]:
        for line in t["lines"]:
            rows.writerow(["traveller", t["board"], line["ns"], line["ew"], line["kind"],
                           _score(line), line["ns_points"], line["ew_points"],
                           "" if line["ns_percent"] is None else line["ns_percent"],
                           "" if line["ew_percent"] is None else line["ew_percent"],
                           line.get("reason", ""), *(line.get(key, "") for key in PLAY)])
    return "".join(out.parts)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(value: float | None, places: int = 2) -> str:
    return "-" if value is None else f"{value:.{places}f}"


def _table(name: str, columns: list[str], rows: list[list[str]]) -> list[str]:
    """A PBN 2.1 table (section 5.2): the tag naming each column (`name\\width` and its
    alignment), then a line a row, its values apart by spaces, `-` where there is none."""
    widths = [max([1, *(len(r[i]) for r in rows)]) for i in range(len(columns))]
    header = ";".join(f"{c}\\{w}{'L' if c == 'Names' else 'R'}"
                      for c, w in zip(columns, widths, strict=True))
    return [f'[{name} "{header}"]', *(" ".join(r) for r in rows)]


def _dealer_and_vulnerable(board: int, deal: Mapping[str, Any]) -> list[str]:
    """PBN 2.1's `[Dealer]` and `[Vulnerable]` (section 3.4, after `[Board]`, before
    `[Deal]`): as the dealing program's file gave them, else the board's number's (Law 2)."""
    started = from_map({**deal, "type": "board_started", "board": board})
    assert isinstance(started, BoardStarted)
    return [f'[Dealer "{started.dealer.name}"]',
            f'[Vulnerable "{PBN_VULNERABLE[str(started.vulnerability)]}"]']


def _games(doc: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], str | None, list[Any]]]:
    """Each PBN game's board, section and lines: a game per board, or in sections a game per
    board and section (its tables' lines, their points the field's), section after section."""
    sections = doc.get("sections") or []
    if not sections:
        return [(t, None, list(t["lines"])) for t in doc["travellers"]]
    section_of = {n: s["name"] for s in sections for n in s["entrants"]}
    return [(t, s["name"], lines) for s in sections for t in doc["travellers"]
            if (lines := [x for x in t["lines"] if section_of.get(x["ns"]) == s["name"]])]


def write_pbn(doc: Mapping[str, Any], made: Tournament) -> str:
    """A game per board (in sections: per board and section, `[Section]`) with its
    `[Competition]` (`Individuals` or `Pairs`) and `[ScoreTable]` (each result: the pairs, or
    an individual's four players, the score on the side that scored it, both sides'
    matchpoints or IMPs and percentages; a Swiss pairs' its round), the first game also with
    the `[TotalScoreTable]` (the ranking; a Swiss pairs' VPs, an individual's players, the
    sections' pairs' section). Pairs only."""
    if doc["scoring"] == "vp" or doc.get("teams", False):
        raise FormatError("format: PBN's score tables hold a pairs event; a teams event's "
                          "results are json or csv")
    mp = doc["scoring"] == "matchpoints"
    unit = "MP" if mp else "IMP"
    movement = made.movement
    individual = movement is not None and movement.kind is MovementKind.INDIVIDUAL
    per = movement.boards_per_round if movement is not None and "vp_rounds" in doc else None
    names = {e["number"]: " - ".join(e["players"]) or e["name"] for e in doc["entrants"]}
    header = ["% PBN 2.1", "% EXPORT", ""]
    out: list[str] = list(header)
    for i, (t, section, lines) in enumerate(_games(doc)):
        out += [f"[Event {_quoted(made.name)}]", f"[Site {_quoted(made.site)}]",
                f"[Date {_quoted(made.date or '?')}]", f'[Board "{t["board"]}"]']
        deal = made.deals.get(t["board"], {})
        out += _dealer_and_vulnerable(t["board"], deal)
        if deal.get("deal"):
            out.append(f"[Deal {_quoted(deal['deal'])}]")
        out.append(f'[Scoring "{"MatchPoints" if mp else "IMP"}"]')
        out.append(f'[Competition "{"Individuals" if individual else "Pairs"}"]')
        if section is not None:
            out.append(f"[Section {_quoted(section)}]")
        if i == 0:
            out += _total_table(doc, unit, names, individual)
        out += _score_table(lines, unit, individual,
                            None if per is None else (t["board"] - 1) // per + 1)
        out.append("")
    return "\n".join(out)


def _total_table(doc: Mapping[str, Any], unit: str, names: Mapping[int, str],
                 individual: bool) -> list[str]:
    """PBN 2.1's `[TotalScoreTable]`: each ranking line's rank, pair (or player: `PlayerId`,
    `Name`), section, direction, points (a Swiss pairs' VPs besides), percentage, boards."""
    sections = bool(doc.get("sections"))
    vp = "vp_rounds" in doc
    columns = ["Rank", "PlayerId" if individual else "PairId",
               *(["Section"] if sections else []), *([] if individual else ["Direction"]),
               f"TotalScore{unit}", *(["TotalScoreVP"] if vp else []), "TotalPercentage",
               "Name" if individual else "Names", "NrBoards"]
    rows = [[str(r["rank"]), str(r["entrant"]),
             *([_quoted(r.get("section", ""))] if sections else []),
             *([] if individual else [_quoted(
                 {"NS": "N-S", "EW": "E-W"}.get(r.get("direction") or "", ""))]),
             _number(r["points"]), *([_number(r["vp"])] if vp else []),
             _number(r["percent"]), _quoted(names[r["entrant"]]), str(r["boards"])]
            for r in doc["rankings"]]
    return _table("TotalScoreTable", columns, rows)


def _score_table(lines: list[Any], unit: str, individual: bool, rnd: int | None
                 ) -> list[str]:
    """PBN 2.1's `[ScoreTable]`: a row a result (a Swiss pairs' with its `Round`; an
    individual's four players, `PlayerId_North` …, in place of the pairs)."""
    rows = []
    for line in lines:
        score = line.get("score_ns")
        ns = "-" if score is None or score < 0 else _quoted(str(score))
        ew = "-" if score is None or score >= 0 else _quoted(str(-score))
        if score is None:
            ns = _quoted(_score(line))
        (north, south), (east, west) = partners(line["ns"]), partners(line["ew"])
        ids = [str(north), str(east), str(south), str(west)] if individual \
            else [str(line["ns"]), str(line["ew"])]
        rows.append([*([] if rnd is None else [str(rnd)]), *ids, ns, ew,
                     _number(line["ns_points"]), _number(line["ew_points"]),
                     _number(line["ns_percent"]), _number(line["ew_percent"])])
    players = ["PlayerId_North", "PlayerId_East", "PlayerId_South", "PlayerId_West"]
    return _table("ScoreTable", [*([] if rnd is None else ["Round"]),
                                 *(players if individual else ["PairId_NS", "PairId_EW"]),
                                 "Score_NS", "Score_EW", f"{unit}_NS", f"{unit}_EW",
                                 "Percentage_NS", "Percentage_EW"], rows)


def write(doc: Mapping[str, Any], made: Tournament, form: str) -> tuple[str, str]:
    """The document in `form` (csv, pbn or usebio), and its media type. A format that cannot
    hold these results raises `FormatError` naming `format`."""
    if form == "usebio" and doc["scoring"] == "vp":
        return write_usebio_teams(doc, made), MEDIA[form]
    if form == "usebio" and (found := form_of(doc, made)) is not None:
        return WRITERS[found](doc, made), MEDIA[form]
    if form == "usebio":
        try:
            return write_usebio(doc, made), MEDIA[form]
        except UsebioError as exc:
            raise FormatError(str(exc)) from None
    text = write_pbn(doc, made) if form == "pbn" else write_csv(doc)
    return text, MEDIA[form]

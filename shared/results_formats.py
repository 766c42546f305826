"""A tournament's results in the formats other programs read (issue 28): CSV, the rankings
then each traveller's lines (pairs) or each match's boards (teams), one row each. (USEBIO
1.2 XML and PBN's score tables are still to come: docs/scoring.md.)"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from typing import Any

from shared.tournament import Tournament

MEDIA = {"csv": "text/csv"}


class _Rows:
    """A CSV document being written (the csv module's writer wants a file: this is one)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)


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


def write_csv(doc: Mapping[str, Any]) -> str:
    """The rankings (`ranking` rows) and the travellers or matches (`traveller`, `match`)."""
    out = _Rows()
    rows = csv.writer(out, lineterminator="\n")
    names = {e["number"]: e["name"] for e in doc["entrants"]}
    teams = doc["scoring"] == "vp"
    rows.writerow(["ranking", "rank", "entrant", "name", "direction", "boards", "points",
                   "percent"] if not teams else
                  ["ranking", "rank", "entrant", "name", "matches", "vp", "imps"])
    for r in doc["rankings"]:
        rows.writerow(["ranking", r["rank"], r["entrant"], names.get(r["entrant"], ""),
                       r.get("direction") or "", r["boards"], r["points"],
                       "" if r["percent"] is None else r["percent"]] if not teams else
                      ["ranking", r["rank"], r["entrant"], names.get(r["entrant"], ""),
                       r["matches"], r["vp"], r["imps"]])
    if teams:
        rows.writerow(["match", "home", "away", "board", "open_score", "closed_score",
                       "home_imps", "away_imps"])
        for m in doc["matches"]:
            for b in m["boards"]:
                rows.writerow(["match", m["home"], m["away"], b["board"], _score(b["open"]),
                               _score(b["closed"]), b["home_imps"], b["away_imps"]])
        return "".join(out.parts)
    rows.writerow(["traveller", "board", "ns", "ew", "kind", "score", "ns_points",
                   "ew_points", "ns_percent", "ew_percent", "reason"])
    for t in doc["travellers"]:
        for line in t["lines"]:
            rows.writerow(["traveller", t["board"], line["ns"], line["ew"], line["kind"],
                           _score(line), line["ns_points"], line["ew_points"],
                           "" if line["ns_percent"] is None else line["ns_percent"],
                           "" if line["ew_percent"] is None else line["ew_percent"],
                           line.get("reason", "")])
    return "".join(out.parts)


def write(doc: Mapping[str, Any], made: Tournament, form: str) -> tuple[str, str]:
    """The document in `form` (csv), and its media type."""
    del made  # the headers of formats to come
    return write_csv(doc), MEDIA[form]

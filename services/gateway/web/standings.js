// The standings the tournament's overview carries (GET /api/tournaments/{t}: `standings`): the
// top of each field's ranking, drawn in the director's console beside the tables.

import { el } from "./table.js";
import { counted } from "./words.js";

const FIELD = { NS: "North–South", EW: "East–West" };

function value(line, scoring) {
  if (scoring === "vp" || typeof line.vp === "number") return `${line.vp.toFixed(2)} VP`;
  if (scoring === "board_a_match") return `${line.points.toFixed(2)} boards`;
  if (scoring === "aggregate") return `${line.points.toFixed(0)} points`;
  if (scoring !== "matchpoints") return `${line.points.toFixed(2)} IMPs`;
  return line.percent === null ? "no comparison yet" : `${line.percent.toFixed(2)} %`;
}

/** The standings' node: a list a field, each line its rank, entrant and score; null when
 * the tournament has no movement to rank. */
export function standingsNode(standings) {
  if (!standings) return null;
  if (!standings.fields.length) {
    return el("p", { class: "quiet", text: "Standings: no result yet." });
  }
  return el("div", { class: "standings" },
    el("h3", { text: `Standings (${counted(standings.complete, "board")} complete)` }),
    standings.fields.map((f) => el("div", { class: "standings-field" },
      el("h4", { text: f.direction ? FIELD[f.direction] : "Field" }),
      el("ol", { "data-direction": f.direction || "" }, f.top.map((line) => el("li", {
        "data-entrant": line.entrant, "data-rank": line.rank },
      `${line.rank}. ${line.entrant} ${line.name}: ${value(line, standings.scoring)}`))))));
}

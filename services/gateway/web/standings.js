// The standings the tournament's overview carries (GET /api/tournaments/{t}: `standings`): the
// top of each field's ranking, drawn in the director's console beside the tables. The words
// are the catalogue's (i18n.js); the entrants' names as sent.

import { t } from "./i18n.js";
import { el } from "./table.js";

function value(line, scoring) {
  const unit = (key, places) => t(key, { value: line.points.toFixed(places) });
  if (scoring === "vp" || typeof line.vp === "number") {
    return t("std.vp", { value: line.vp.toFixed(2) });
  }
  if (scoring === "board_a_match") return unit("std.boards", 2);
  if (scoring === "aggregate") return unit("std.points", 0);
  if (scoring !== "matchpoints") return unit("std.imps", 2);
  return line.percent === null ? t("std.noComparison") : `${line.percent.toFixed(2)} %`;
}

/** The standings' node: a list a field, each line its rank, entrant and score; null when
 * the tournament has no movement to rank. */
export function standingsNode(standings) {
  if (!standings) return null;
  if (!standings.fields.length) {
    return el("p", { class: "quiet", text: t("std.none") });
  }
  return el("div", { class: "standings" },
    el("h3", { text: t("std.title", { boards: t("count.boardComplete",
      { count: standings.complete }) }) }),
    standings.fields.map((f) => el("div", { class: "standings-field" },
      el("h4", { text: f.direction ? t(`side.${f.direction}`) : t("std.field") }),
      el("ol", { "data-direction": f.direction || "" }, f.top.map((line) => el("li", {
        "data-entrant": line.entrant, "data-rank": line.rank },
      `${line.rank}. ${line.entrant} `, el("span", { "data-verbatim": "", text: line.name }),
      `: ${value(line, standings.scoring)}`))))));
}

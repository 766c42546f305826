// A multi-session event's totals carried over (docs/scoring.md): the overall ranking, each
// pair's total with each session's, drawn from the results document's `overall` (a session
// that continues another). Rendering only: the totals are the server's.

import { fixed, table } from "./results_view.js";
import { el } from "./table.js";

/** The overall ranking over the sessions so far, or nothing for a single session. */
export function overallNode(doc) {
  if (!doc.overall) return null;
  const percent = doc.carried === "percent";
  const sessions = doc.sessions.map((name) => (percent ? `${name} %` : name));
  return el("div", { id: "overall" }, table(
    `Overall, ${doc.sessions.length} sessions carried over (${percent
      ? "matchpoints over the tops played" : doc.carried === "vp" ? "VPs summed"
        : "IMPs summed"})`,
    ["Rank", "Pair", "Boards", ...sessions, percent ? "MP" : "Total",
      ...(percent ? ["%"] : [])],
    doc.overall.map((r) => el("tr", { "data-name": r.name, "data-rank": r.rank },
      el("td", { text: String(r.rank) }), el("td", { class: "name", text: r.name }),
      el("td", { text: String(r.boards) }),
      ...r.sessions.map((s) => el("td", { "data-session": "",
        text: s === null ? "—" : fixed(percent ? s.percent : s.points) })),
      el("td", { text: fixed(r.points) }),
      ...(percent ? [el("td", { "data-percent": "", text: fixed(r.percent) })] : []))),
  ));
}

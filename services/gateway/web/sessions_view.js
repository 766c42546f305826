// A multi-session event's totals carried over (docs/scoring.md): the overall ranking, each
// pair's total with each session's, drawn from the results document's `overall` (a session
// that continues another). Rendering only: the totals are the server's. The words are the
// catalogue's; the sessions' and pairs' names as sent.

import { t } from "./i18n.js";
import { fixed, table } from "./results_view.js";
import { el } from "./table.js";

/** The overall ranking over the sessions so far, or nothing for a single session. */
export function overallNode(doc) {
  if (!doc.overall) return null;
  const percent = doc.carried === "percent";
  // a session's column by its name, as sent
  const sessions = doc.sessions.map((name) => ({ text: percent ? `${name} %` : name,
    verbatim: true }));
  return el("div", { id: "overall" }, table(
    t("res.overall", { count: doc.sessions.length, how: t(percent ? "res.carried.percent"
      : doc.carried === "vp" ? "res.carried.vp" : "res.carried.imps") }),
    [t("res.col.rank"), { text: t("res.col.pair"), name: true }, t("res.col.boards"),
      ...sessions, percent ? t("res.col.mp") : t("res.col.total"), ...(percent ? ["%"] : [])],
    doc.overall.map((r) => el("tr", { "data-name": r.name, "data-rank": r.rank },
      el("td", { text: String(r.rank) }),
      el("td", { class: "name", "data-verbatim": "", text: r.name }),
      el("td", { text: String(r.boards) }),
      ...r.sessions.map((s) => el("td", { "data-session": "",
        text: s === null ? "—" : fixed(percent ? s.percent : s.points) })),
      el("td", { text: fixed(r.points) }),
      ...(percent ? [el("td", { "data-percent": "", text: fixed(r.percent) })] : []))),
  ));
}

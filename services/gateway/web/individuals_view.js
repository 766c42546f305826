// An individual (docs/scoring.md, "Individuals"): one ranking of players, each on the sum of
// his own side's points over the boards he played, and the partnerships that played (each
// number as the travellers show it, "a–b", and its two players). Drawn from the results
// document's `partnerships` and its ranking lines (one a player). Rendering only: the scores
// are the server's.

import { t } from "./i18n.js";
import { entrantCell, fixed, namesOf, sideNumber, table, words } from "./results_view.js";
import { el } from "./table.js";

/** Whether the document is an individual's (its sides are partnerships of players). */
export const isIndividual = (doc) => Array.isArray(doc.partnerships);

/** The players ranked, then the partnerships' numbers with their players. */
export function individualsNode(doc) {
  const names = namesOf(doc);
  const mp = doc.scoring === "matchpoints";
  return el("div", { id: "individuals" },
    table(t("res.players"),
      [t("res.col.rank"), words(t("res.col.player")), t("res.col.boards"),
        t(mp ? "res.col.mp" : "res.col.imps"), ...(mp ? ["%"] : [])],
      doc.rankings.map((r) => el("tr", { "data-entrant": r.entrant, "data-rank": r.rank },
        el("td", { text: String(r.rank) }),
        entrantCell(`${r.entrant} ${names[r.entrant]}`),
        el("td", { text: String(r.boards) }), el("td", { text: fixed(r.points) }),
        ...(mp ? [el("td", { "data-percent": "", text: fixed(r.percent) })] : [])))),
    table(t("res.partnerships"), [t("res.col.number"), words(t("res.col.players"))],
      doc.partnerships.map((p) => el("tr", { "data-partnership": p.number },
        el("td", { text: sideNumber(p.number) }),
        entrantCell(p.name)))));
}

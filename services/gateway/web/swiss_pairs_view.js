// A Swiss pairs' matches (docs/scoring.md, "Swiss pairs"): each round's matches in table
// order, the pair that sat NS first, each pair's IMPs and VPs, drawn from the results document's
// `vp_rounds`. Rendering only: the pairings and VPs are the server's.

import { t } from "./i18n.js";
import { entrantCell, fixed, namesOf, table, words } from "./results_view.js";
import { el } from "./table.js";

/** Each round's matches of a Swiss pairs, or nothing for another form. */
export function swissMatchesNode(doc) {
  if (doc.movement.kind !== "swiss_pairs" || !doc.vp_rounds) return null;
  const names = namesOf(doc);
  const mine = new Map(doc.vp_rounds.map((r) => [`${r.round}:${r.entrant}`, r]));
  const rounds = [...new Set(doc.vp_rounds.map((r) => r.round))].sort((a, b) => a - b);
  // each table's NS pair comes before its EW pair in `vp_rounds`: keep the first of each
  const firsts = (n) => {
    const seen = new Set();
    return doc.vp_rounds.filter((r) => r.round === n && !seen.has(r.entrant)
      && seen.add(r.opponent));
  };
  return el("div", { id: "swiss-matches" }, rounds.map((n) => table(
    t("res.swissRound", { round: n }),
    [words(t("res.col.pair")), t("res.col.imps"), t("res.col.vp"), words(t("res.col.pair")),
      t("res.col.imps"), t("res.col.vp")],
    firsts(n).map((r) => {
      const them = mine.get(`${n}:${r.opponent}`);
      return el("tr", { "data-round": n, "data-pair": r.entrant, "data-opponent": r.opponent },
        entrantCell(`${r.entrant} ${names[r.entrant]}`),
        el("td", { text: fixed(r.imps) }), el("td", { "data-vp": "", text: fixed(r.vp) }),
        entrantCell(`${r.opponent} ${names[r.opponent]}`),
        el("td", { text: fixed(them?.imps) }),
        el("td", { "data-vp": "", text: fixed(them?.vp) }));
    }))));
}

// An event in sections with a top across the field (docs/scoring.md): each section's pairs in
// its field (a Mitchell's direction) by their place within the section, beside their place
// over the whole field, drawn from the results document's `sections` and each ranking line's
// `section` and `section_rank`. Rendering only: the places are the server's.

import { fixed, namesOf, table } from "./results_view.js";
import { el } from "./table.js";

const FIELD = { NS: "North–South pairs", EW: "East–West pairs" };

/** Each section's ranking, or nothing for an event in one section. */
export function sectionsNode(doc) {
  if (!doc.sections) return null;
  const names = namesOf(doc);
  const mp = doc.scoring === "matchpoints";
  const fields = [...new Set(doc.rankings.map((r) => r.direction))];
  return el("div", { id: "sections" }, doc.sections.flatMap((s) => fields.map((d) => table(
    `Section ${s.name}${d ? ` — ${FIELD[d]}` : ""} (a top across the field)`,
    ["Rank", "Pair", mp ? "%" : "IMPs", "Overall"],
    doc.rankings.filter((r) => r.section === s.name && r.direction === d)
      .sort((a, b) => a.section_rank - b.section_rank)
      .map((r) => el("tr", { "data-section": s.name, "data-entrant": r.entrant,
        "data-section-rank": r.section_rank },
      el("td", { text: String(r.section_rank) }),
      el("td", { class: "name", text: `${r.entrant} ${names[r.entrant]}` }),
      el("td", { text: fixed(mp ? r.percent : r.points) }),
      el("td", { "data-overall": "", text: String(r.rank) })))))));
}

// An event in sections with a top across the field (docs/scoring.md): each section's pairs in
// its field (a Mitchell's direction) by their place within the section, beside their place
// over the whole field, drawn from the results document's `sections` and each ranking line's
// `section` and `section_rank`. Rendering only: the places are the server's.

import { t } from "./i18n.js";
import { entrantCell, fixed, namesOf, table, words } from "./results_view.js";
import { el } from "./table.js";

/** Each section's ranking, or nothing for an event in one section. */
export function sectionsNode(doc) {
  if (!doc.sections) return null;
  const names = namesOf(doc);
  const mp = doc.scoring === "matchpoints";
  const fields = [...new Set(doc.rankings.map((r) => r.direction))];
  return el("div", { id: "sections" }, doc.sections.flatMap((s) => fields.map((d) => table(
    d ? t("res.sectionField", { section: s.name, field: t(`res.pairs.${d}`) })
      : t("res.section", { section: s.name }),
    [t("res.col.rank"), words(t("res.col.pair")), mp ? "%" : t("res.col.imps"),
      t("res.col.overall")],
    doc.rankings.filter((r) => r.section === s.name && r.direction === d)
      .sort((a, b) => a.section_rank - b.section_rank)
      .map((r) => el("tr", { "data-section": s.name, "data-entrant": r.entrant,
        "data-section-rank": r.section_rank },
      el("td", { text: String(r.section_rank) }),
      entrantCell(`${r.entrant} ${names[r.entrant]}`),
      el("td", { text: fixed(mp ? r.percent : r.points) }),
      el("td", { "data-overall": "", text: String(r.rank) })))))));
}

// The links the director hands out: each seat's page, the table's spectator page, a
// tournament's vugraph; each with a copy button, and the whole as a sheet to print and cut
// into slips (director.css hides everything else when printing). The buttons' words are the
// catalogue's (i18n.js); a link's address as it is.

import { t } from "./i18n.js";
import { el, SEATS, SEAT_NAMES } from "./table.js";

// a link the API gave at the public address (TABLESERVER_PUBLIC_URL) stays as it is; one it
// gave relative, or the page built, is at this page's address
const full = (link) => new URL(link, window.location.origin).href;

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t("links.copied");
  } catch {
    button.textContent = t("links.byHand");
  }
  window.setTimeout(() => { button.textContent = t("links.copy"); }, 3000);
}

/** A link's row: its label (`verbatim`: a player's name, as sent), its address to copy. */
function linkRow(label, link, id, { verbatim = false } = {}) {
  const url = full(link);
  const input = el("input", { type: "text", readonly: true, value: url, id,
    "aria-label": t("links.link", { label }), class: "link-url" });
  const button = el("button", { type: "button", class: "copy",
    "aria-label": t("links.copyLabel", { label }) }, t("links.copy"));
  button.addEventListener("click", () => copy(url, button));
  return el("li", { class: "link-row" }, el("span", { class: "link-label",
    "data-verbatim": verbatim, text: label }),
  input, button, el("span", { class: "link-print", "data-verbatim": true,
    text: url })); // the sheet's, printed
}

/** One table's slips: its four seats (with their players' names when known) and its
 * spectators' page. `links` as the API gives them ({table, links, spectator}). */
export function tableSlips(links, players = {}) {
  return el("section", { class: "slip", "data-table": links.table },
    el("h3", { text: t("links.table", { table: links.table }) }),
    el("ul", { class: "link-list" },
      SEATS.map((seat) => linkRow(
        players[seat] ? t("links.seatOf", { seat: SEAT_NAMES[seat], name: players[seat] })
          : SEAT_NAMES[seat],
        links.links[seat], `link-${links.table}-${seat}`)),
      linkRow(t("links.spectators"), links.vugraph || `/vugraph#${links.spectator}`,
        `link-${links.table}-vugraph`)));
}

/** A tournament's sheet: its vugraph page, then every table's slips. */
export function tournamentSlips(view) {
  return el("div", {},
    el("ul", { class: "link-list" }, linkRow(t("links.vugraphOf", { tournament: view.tournament }), view.vugraph,
      `link-${view.tournament}-vugraph`)),
    ...view.tables.map((links) => tableSlips(links)));
}

export { copy, full, linkRow };

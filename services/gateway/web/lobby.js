// A tournament's vugraph (`/vugraph#<vugraph token>`): its tables, each with its board, status
// and whose turn, read again every few seconds, and a link to watch each one as a spectator.
// The list holds no hand: a table's own page shows the table as it was the vugraph delay ago,
// each board once every table has played it, or live if the Director made it a vugraph match.

import { getJson } from "./api.js";
import { t } from "./i18n.js";
import { el, SEAT_NAMES } from "./table.js";

const EVERY_MS = 5000;
const STATUSES = ["waiting", "auction", "closed", "play", "held", "done"];
/** A table's status in words ("bidding", "playing"…), the page's language. */
export const STATUS = Object.freeze(Object.defineProperties({}, Object.fromEntries(
  STATUSES.map((s) => [s, { enumerable: true, get: () => t(`status.${s}`) }]))));

function tableRow(line) {
  const status = STATUS[line.status] || line.status;
  return el("tr", { "data-table": line.table },
    el("th", { scope: "row" }, el("a", { class: "table-link", href: line.link,
      "aria-label": t("vg.watch", { table: line.table }) },
    el("span", { "data-verbatim": "", text: line.table }))),
    el("td", { text: line.board === null ? "—" : String(line.board) }),
    el("td", { text: status }),
    el("td", { text: line.turn ? SEAT_NAMES[line.turn] : "—" }),
    el("td", { text: t(line.vugraph_match ? "vg.asPlayed" : "vg.onceAll") }));
}

export function tablesNode(lines) {
  if (!lines.length) return el("p", { class: "quiet", text: t("vg.noTable") });
  return el("table", { class: "tables" },
    el("caption", { class: "sr-only", text: t("vg.caption") }),
    el("thead", {}, el("tr", {}, ["table", "board", "status", "turn", "shown"].map((h) =>
      el("th", { scope: "col", text: t(`vg.col.${h}`) })))),
    el("tbody", {}, lines.map(tableRow)));
}

/** Show tournament `name`'s tables in `root`, again every few seconds; `onRead(view)` and
 * `onError(message)` for the page's header. */
export function followTables({ name, token, root, onRead, onError }) {
  const read = async () => {
    try {
      const view = await getJson(`/api/tournaments/${encodeURIComponent(name)}/vugraph`,
        token);
      root.replaceChildren(tablesNode(view.tables || []));
      onRead(view);
    } catch (error) {
      onError(error.message);
    }
    window.setTimeout(read, EVERY_MS);
  };
  read();
}

// Whom the table waits for with no open page ("waiting for West, not connected") and who
// plays as a substitute: the table's `GET /api/tables/{t}/substitutes`, looked at every few
// seconds while the page is in sight (docs/operations.md, "Substitutes").

import { getJson } from "./api.js";

const EVERY_MS = 3000;

/** Keep `node` saying what the table is told; `current()` gives `{table, token}` (null: no
 * table now). The node is hidden while the table waits for nobody. */
export function watchWaiting(node, current) {
  const look = async () => {
    const at = current();
    if (!at || document.hidden) return;
    try {
      const told = await getJson(`/api/tables/${encodeURIComponent(at.table)}/substitutes`,
        at.token);
      const text = told.waiting ? `The table is ${told.waiting}.` : "";
      if (node.textContent !== text) node.textContent = text; // unchanged: no redraw
      node.hidden = !told.waiting;
    } catch { /* the next look tries again */ }
  };
  look();
  return window.setInterval(look, EVERY_MS);
}

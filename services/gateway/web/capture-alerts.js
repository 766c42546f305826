// The capture page's call for the Director: the alerts and rectifications of the board's state
// that the operator has not yet acknowledged ("Director called"), shown at once and
// prominently, so that he calls the Director to the table. What he acknowledged is kept for
// the tab (sessionStorage, per table and board): a reload does not raise it again.

import { t } from "./i18n.js";
import { directorNode } from "./panels.js";
import { el } from "./table.js";

export class DirectorCall {
  constructor(table) {
    this.table = table;
    this.memory = new Map(); // the same, where the tab keeps no storage
  }

  key(board) { return `capture:${this.table}:${board.board}`; }

  seen(board) {
    try {
      const found = JSON.parse(window.sessionStorage.getItem(this.key(board)) || "null");
      if (found && Number.isInteger(found.alerts) && Number.isInteger(found.rectifications)) {
        return found;
      }
    } catch { /* no storage, or not ours */ }
    return this.memory.get(this.key(board)) || { alerts: 0, rectifications: 0 };
  }

  /** The alerts and rectifications not yet acknowledged. */
  fresh(board) {
    const seen = this.seen(board);
    return { alerts: (board.alerts || []).slice(seen.alerts),
      rectifications: (board.rectifications || []).slice(seen.rectifications) };
  }

  acknowledge(board) {
    const seen = { alerts: (board.alerts || []).length,
      rectifications: (board.rectifications || []).length };
    this.memory.set(this.key(board), seen);
    try {
      window.sessionStorage.setItem(this.key(board), JSON.stringify(seen));
    } catch { /* kept for this page only */ }
  }
}

/** The banner: "Call the Director" with each new alert (the irregularity, the options the
 * Laws give), then the rectifications applied; null when there is nothing new. */
export function directorCallNode(fresh, onAcknowledge) {
  const calling = fresh.alerts.length > 0;
  if (!calling && !fresh.rectifications.length) return null;
  return el("div", { class: `director-call${calling ? " calling" : ""}` },
    el("h2", { text: t(calling ? "cap.callDirector" : "cap.rectification") }),
    directorNode(fresh),
    el("button", { type: "button", id: "director-called", class: "primary",
      onclick: onAcknowledge }, t(calling ? "cap.directorCalled" : "cap.seen")));
}

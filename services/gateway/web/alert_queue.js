// The director's alert queue: every alert from every table, newest first, filtered by
// tournament and table, each marked handled once the director has dealt with it (the mark is
// kept on the server, `POST /api/alerts/{id}/handled`, so every console shows it).

import { t } from "./i18n.js";
import { el, SEAT_NAMES } from "./table.js";
import { forPeople } from "./words.js";

const time = (ms) => (ms ? new Date(ms).toLocaleTimeString(document.documentElement.lang) : "");

export class AlertQueue {
  /** `root` the list; `onOpen(alert)` opens its table; `onMark(alert, handled)` marks it. */
  constructor(root, { onOpen, onMark }) {
    Object.assign(this, { root, onOpen, onMark });
    this.alerts = new Map(); // alert id → alert (with `handled`, the director's mark)
    this.filter = { tournament: "", table: "", handled: false };
  }

  /** Alerts read or pushed (`{id, table, board, law, message, …}`); true if one was new. */
  add(alerts) {
    let fresh = false;
    for (const alert of alerts) {
      const known = this.alerts.get(alert.id);
      fresh = fresh || !known;
      this.alerts.set(alert.id, { ...known, ...alert, handled: alert.handled ?? known?.handled });
    }
    return fresh;
  }

  /** The director's marks (alert id → `{handled, note, ts}`). */
  marks(handled) {
    for (const [id, mark] of Object.entries(handled)) {
      const alert = this.alerts.get(id);
      if (alert) alert.handled = mark;
    }
  }

  isOpen(alert) { return !(alert.handled && alert.handled.handled); }

  shown() {
    const { tournament, table, handled } = this.filter;
    return [...this.alerts.values()]
      .filter((a) => (!tournament || a.tournament === tournament) && (!table || a.table === table)
        && (handled || this.isOpen(a)))
      .sort((a, b) => (b.offset ?? 0) - (a.offset ?? 0));
  }

  openCount() { return [...this.alerts.values()].filter((a) => this.isOpen(a)).length; }

  render() {
    const shown = this.shown();
    if (!shown.length) {
      this.root.replaceChildren(el("li", { class: "quiet", text: t("dq.none") }));
      return;
    }
    this.root.replaceChildren(...shown.map((alert) => this.item(alert)));
  }

  item(alert) {
    const open = this.isOpen(alert);
    const where = alert.board ? t("dq.whereBoard", { table: alert.table, board: alert.board })
      : t("dq.where", { table: alert.table });
    return el("li", { class: `queue-item${open ? "" : " handled"}`, "data-alert": alert.id,
      "data-kind": alert.kind },
    el("p", { class: "queue-where" }, el("strong", { text: where }),
      alert.tournament ? el("span", { class: "quiet", "data-verbatim": "",
        text: ` · ${alert.tournament}` }) : null,
      el("span", { class: "quiet", text: t("dq.at", { time: time(alert.ts) }) })),
    el("p", {}, el("strong", { text: alert.law ? t("dq.law", { law: alert.law }) : "" }), " ",
      alert.message ? el("span", { "data-verbatim": "", text: forPeople(alert.message) })
        : t("dq.kindSeat", { kind: alert.kind, seat: SEAT_NAMES[alert.seat] || alert.seat || "" })),
    (alert.options || []).length ? el("ul", { class: "queue-options" },
      alert.options.map((o) => el("li", { "data-verbatim": "", text: forPeople(o) }))) : null,
    el("div", { class: "queue-buttons" },
      el("button", { type: "button", class: "open-table", onclick: () => this.onOpen(alert),
        "aria-label": t("dq.openTable", { table: alert.table }) }, t("dq.open")),
      open
        ? el("button", { type: "button", class: "mark primary", onclick: () =>
          this.onMark(alert, true) }, t("dq.mark"))
        : el("button", { type: "button", class: "mark", onclick: () =>
          this.onMark(alert, false) }, t("dq.reopen"))));
  }
}

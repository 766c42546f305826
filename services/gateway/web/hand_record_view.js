// A board's hand record (GET /api/tournaments/{t}/hand-records, docs/api.md): its deal in four
// hands round the board's box, the double-dummy table (the tricks each declarer takes in each
// strain) and the par. Rendering only: the server solves, and says which boards a reader may
// see (the public: a board once every table has played it). The results page shows one beside
// each traveller; the hand-records page prints them all. The words are the catalogue's
// (i18n.js); the ranks as the cards print them (A K Q J, `.ranks`), the par as the server
// writes it.

import { t } from "./i18n.js";
import { el } from "./table.js";

const SEATS = "NESW";
const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
const DECLARERS = ["N", "S", "E", "W"];
const VULNERABLE = ["None", "NS", "EW", "Both"];
const red = (key) => (key === "H" || key === "D" ? "red" : null);

/** The hands of a PBN deal (`N:KT8.A96.A95.7542 …`): seat → its four suits' ranks. */
export function handsOf(deal) {
  const [first, rest] = deal.split(":");
  const start = SEATS.indexOf(first);
  return Object.fromEntries(rest.trim().split(/\s+/).map((hand, i) =>
    [SEATS[(start + i) % 4], hand.split(".")]));
}

function handNode(seat, suits) {
  return el("div", { class: `hr-hand hr-${seat}`, "data-seat": seat },
    el("span", { class: "hr-seat", text: t(`seat.${seat}`) }),
    SUITS.map(([key, symbol], i) => el("div", { class: "hr-suit" },
      el("span", { class: red(key), "aria-label": t(`suits.${key}`), text: symbol }), " ",
      el("span", { class: "ranks", text: (suits[i] || "").replace(/T/g, "10") || "—" }))));
}

function tableNode(table) {
  const strains = [["NT", t("call.NT"), t("hr.noTrump")],
    ...SUITS.map(([key, symbol]) => [key, symbol, t(`suits.${key}`)])];
  return el("table", { class: "hr-table", "aria-label": t("hr.tableLabel") },
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "" }),
      strains.map(([key, symbol, name]) => el("th", { scope: "col", class: red(key),
        "aria-label": name, text: symbol })))),
    el("tbody", {}, DECLARERS.map((seat) => el("tr", {},
      el("th", { scope: "row", "aria-label": t(`seat.${seat}`), text: t(`seatShort.${seat}`) }),
      strains.map(([key]) => el("td", { "data-declarer": seat, "data-strain": key,
        class: table[seat][key] >= 7 ? "makes" : null, text: String(table[seat][key]) }))))));
}

/** One board's record: ready (deal, table, par), or a line saying it is still solved. */
export function handRecordNode(record) {
  const title = t("res.board", { board: record.board });
  const box = el("div", { class: "hr-box" }, el("strong", { text: title }),
    el("span", { text: t("vg.dealer", { seat: t(`seatShort.${record.dealer}`) }) }),
    el("span", { text: VULNERABLE.includes(record.vulnerable)
      ? t(`hr.vul.${record.vulnerable}`) : record.vulnerable }));
  if (record.status !== "ready") {
    return el("div", { class: "hand-record waiting", "data-board": record.board,
      "data-status": record.status }, box, el("p", { class: "quiet", text:
        t(record.status === "failed" ? "hr.failed" : "hr.underWay") }));
  }
  const hands = handsOf(record.deal);
  return el("div", { class: "hand-record", "data-board": record.board, "data-status": "ready",
    role: "group", "aria-label": t("hr.label", { board: record.board }) },
  el("div", { class: "hr-deal" }, box, SEATS.split("").map((s) => handNode(s, hands[s]))),
  el("div", { class: "hr-analysis" }, tableNode(record.double_dummy),
    el("p", { class: "hr-par", "data-par": "", text: t("hr.par", { par: record.par.text }) })));
}

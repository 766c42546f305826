// A board's hand record (GET /api/tournaments/{t}/hand-records, docs/api.md): its deal in four
// hands round the board's box, the double-dummy table (the tricks each declarer takes in each
// strain) and the par. Rendering only: the server solves, and says which boards a reader may
// see (the public: a board once every table has played it). The results page shows one beside
// each traveller; the hand-records page prints them all.

import { el } from "./table.js";

const SEATS = "NESW";
const SUITS = [["S", "♠", "spades"], ["H", "♥", "hearts"], ["D", "♦", "diamonds"],
  ["C", "♣", "clubs"]];
const STRAINS = [["NT", "NT", "no trump"], ...SUITS];
const DECLARERS = ["N", "S", "E", "W"];
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
const VULNERABLE = { None: "None vul", NS: "NS vul", EW: "EW vul", Both: "All vul" };
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
    el("span", { class: "hr-seat", text: SEAT_NAMES[seat] }),
    SUITS.map(([key, symbol, name], i) => el("div", { class: "hr-suit" },
      el("span", { class: red(key), "aria-label": name, text: symbol }),
      ` ${(suits[i] || "").replace(/T/g, "10") || "—"}`)));
}

function tableNode(table) {
  return el("table", { class: "hr-table", "aria-label": "Double-dummy tricks" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "" }),
      STRAINS.map(([key, symbol, name]) => el("th", { scope: "col", class: red(key),
        "aria-label": name, text: symbol })))),
    el("tbody", {}, DECLARERS.map((seat) => el("tr", {},
      el("th", { scope: "row", text: seat }),
      STRAINS.map(([key]) => el("td", { "data-declarer": seat, "data-strain": key,
        class: table[seat][key] >= 7 ? "makes" : null, text: String(table[seat][key]) }))))));
}

/** One board's record: ready (deal, table, par), or a line saying it is still solved. */
export function handRecordNode(record) {
  const title = `Board ${record.board}`;
  const box = el("div", { class: "hr-box" }, el("strong", { text: title }),
    el("span", { text: `Dealer ${record.dealer}` }),
    el("span", { text: VULNERABLE[record.vulnerable] || record.vulnerable }));
  if (record.status !== "ready") {
    return el("div", { class: "hand-record waiting", "data-board": record.board,
      "data-status": record.status }, box, el("p", { class: "quiet", text:
        record.status === "failed" ? "The double-dummy analysis could not be made."
          : "Double-dummy analysis under way…" }));
  }
  const hands = handsOf(record.deal);
  return el("div", { class: "hand-record", "data-board": record.board, "data-status": "ready",
    role: "group", "aria-label": `${title} hand record` },
  el("div", { class: "hr-deal" }, box, SEATS.split("").map((s) => handNode(s, hands[s]))),
  el("div", { class: "hr-analysis" }, tableNode(record.double_dummy),
    el("p", { class: "hr-par", "data-par": "", text: `Par: ${record.par.text}` })));
}

// The auction diagram every page shows: four columns, W N E S, the dealer's first call under
// the dealer. Rendering only (the state's `calls`, `pending`, `turn`: docs/api.md). A page
// that redraws at each state (the seat page) draws it with `drawAuction`, which keeps the
// cells a new state leaves as they were: a new call is one new cell (and the "?" moved), a new
// row only when a row fills.

import { t } from "./i18n.js";
import { callNode, callWords, el, SEAT_NAMES, vulnerable } from "./table.js";

const ORDER = ["W", "N", "E", "S"];
const EMPTY = "empty";
/** What each drawn cell, and each drawn table's head, was made from. */
const DRAWN = new WeakMap();

function headRow(board) {
  const players = board.players || {};
  return el("tr", {}, ORDER.map((seat) => {
    const vul = vulnerable(seat, board.vulnerability);
    return el("th", { scope: "col", class: `${vul ? "vul" : ""} ${seat === board.dealer
      ? "dealer" : ""}`.trim() },
    el("abbr", { title: SEAT_NAMES[seat], text: t(`seatShort.${seat}`) }),
    seat === board.dealer ? el("span", { class: "tag", text: t("tag.dealer") }) : null,
    vul ? el("span", { class: "tag", text: t("tag.vul") }) : null,
    players[seat] ? el("span", { class: "player", "data-verbatim": "", text: players[seat] })
      : null);
  }));
}

function headKey(board) {
  const players = board.players || {};
  return JSON.stringify([ORDER.map((seat) => players[seat] || null), board.vulnerability,
    board.dealer]);
}

/** The auction's cells, row by row: each `{ key, make }` (what it is drawn from, and how),
 * or null where a row has no call. */
function grid(board, options) {
  const rows = [];
  let row = null;
  let col = -1;
  const place = (seat, key, make) => {
    const at = ORDER.indexOf(seat);
    if (row === null || at <= col) {
      row = Array(4).fill(null);
      rows.push(row);
    }
    row[at] = { key, make };
    col = at;
  };
  const button = Boolean(options.onCall);
  (board.calls || []).forEach((entry, index) => {
    const alerted = Boolean(entry.alert || entry.explanation);
    place(entry.seat, JSON.stringify(["call", index, entry.seat, entry.call, alerted, button]),
      () => callCell(entry, index, alerted, options));
  });
  const pending = board.pending;
  if (pending) {
    place(pending.offender, JSON.stringify(["pending", pending.offender, pending.call]), () =>
      el("td", { class: "pending" },
        el("span", { "aria-label": t("auction.pending", { seat: SEAT_NAMES[pending.offender],
          call: callWords(pending.call) }) },
        callNode(pending.call), el("span", { class: "tag", text: "?" }))));
  } else if (board.turn && board.status === "auction") {
    const turn = board.turn;
    place(turn, JSON.stringify(["next", turn]), () => el("td", { class: "next" },
      el("span", { text: "?", "aria-label": t("auction.toCall", { seat: SEAT_NAMES[turn] }) })));
  }
  return rows; // the cells before the dealer's first call, and after the last, stay empty
}

function callCell(entry, index, alerted, options) {
  const content = [callNode(entry.call), alerted ? el("span", { class: "alert-mark",
    text: "!", title: t("alerted") }) : null];
  const label = t(alerted ? "auction.callAlerted" : "auction.call",
    { seat: SEAT_NAMES[entry.seat], call: callWords(entry.call) });
  const cell = options.onCall
    ? el("button", { type: "button", class: "call-button", "aria-label": label,
      "data-index": index, onclick: () => options.onCall(index) }, content)
    : el("span", { "aria-label": label }, content);
  return el("td", { class: alerted ? "alerted" : "" }, cell);
}

function cellNode(cell) {
  const node = cell ? cell.make() : el("td", { class: EMPTY });
  DRAWN.set(node, cell ? cell.key : EMPTY);
  return node;
}

/** The auction as a table. `options.onCall(index)` makes each call a button (to read or ask
 * about it); a "?" where the next call goes, an irregular call awaiting its option holder
 * shown apart. */
export function auctionNode(board, options = {}) {
  const body = el("tbody", {}, grid(board, options).map((cells) => el("tr", {},
    cells.map(cellNode))));
  const table = el("table", { class: "auction", "aria-label": t("seat.auction") },
    el("thead", {}, headRow(board)), body);
  DRAWN.set(table, headKey(board));
  return table;
}

/** Draw the auction in `container`, keeping every cell (and the table) the state leaves as
 * it was; drawn anew when the head changes (the players, the vulnerability, the dealer). */
export function drawAuction(container, board, options = {}) {
  const table = container.firstElementChild;
  if (!table || DRAWN.get(table) !== headKey(board) || container.children.length !== 1) {
    container.replaceChildren(auctionNode(board, options));
    return;
  }
  const body = table.tBodies[0];
  const rows = grid(board, options);
  rows.forEach((cells, r) => {
    const tr = body.rows[r] || body.appendChild(el("tr"));
    cells.forEach((cell, c) => {
      const td = tr.cells[c];
      if (td && DRAWN.get(td) === (cell ? cell.key : EMPTY)) return;
      const node = cellNode(cell);
      if (td) td.replaceWith(node);
      else tr.append(node);
    });
  });
  while (body.rows.length > rows.length) body.lastElementChild.remove();
}

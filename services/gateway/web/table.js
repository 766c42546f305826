// What every page shows of a table: seats, suits, calls, cards, hands and the auction
// diagram. Rendering only: the board's state (docs/api.md's "state of a board") says what the
// Laws decided; nothing here works a Law out. The words are the catalogue's (i18n.js).

import { parts, t } from "./i18n.js";

export const SEATS = ["N", "E", "S", "W"]; // clockwise
/** "North", … in the page's language (each read from the catalogue when asked). */
export const SEAT_NAMES = Object.freeze(Object.defineProperties({}, Object.fromEntries(
  SEATS.map((seat) => [seat, { enumerable: true, get: () => t(`seat.${seat}`) }]))));
const suit = (key, symbol, colour) => ({ key, symbol, colour,
  get name() { return t(`suits.${key}`); } }); // "hearts": the suit's name, plural
export const SUITS = [ // the order a hand is shown in
  suit("S", "♠", "black"), suit("H", "♥", "red"), suit("D", "♦", "red"), suit("C", "♣", "black"),
];
const SUIT_BY_KEY = Object.fromEntries(SUITS.map((s) => [s.key, s]));
export const STRAINS = ["C", "D", "H", "S", "NT"];
const RANKS = ["A", "K", "Q", "J", "T"];

export function partnerOf(seat) { return SEATS[(SEATS.indexOf(seat) + 2) % 4]; }
export function lhoOf(seat) { return SEATS[(SEATS.indexOf(seat) + 1) % 4]; }
export function sameSide(a, b) { return a === b || partnerOf(a) === b; }

/** Whether `seat` is vulnerable: the board's `vulnerability` is None, NS, EW or Both. */
export function vulnerable(seat, vulnerability) {
  if (vulnerability === "Both") return true;
  return vulnerability === "NS" ? "NS".includes(seat)
    : vulnerability === "EW" ? "EW".includes(seat) : false;
}

/** `el("p", {class: "x", text: "…"}, child…)`: an element; text is never parsed as HTML. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
  }
  return node;
}

/** A call as shown: "1♥", "2NT", "Pass", "Dbl", "Rdbl" (parts with their suit's colour). */
export function callNode(call) {
  const span = el("span", { class: "call", "aria-label": callWords(call) });
  const m = /^([1-7])(C|D|H|S|NT)$/.exec(call);
  if (!m) {
    span.textContent = { P: t("call.P"), X: t("call.X"), XX: t("call.XX") }[call] || call;
    return span;
  }
  const suit = SUIT_BY_KEY[m[2]];
  span.append(m[1], suit ? el("span", { class: `suit ${suit.colour} suit-${suit.key}`,
    "aria-hidden": "true", text: suit.symbol }) : t("call.NT"));
  return span;
}

/** A call in words, for labels and screen readers: "1 hearts", "pass", "double". */
export function callWords(call) {
  const m = /^([1-7])(C|D|H|S|NT)$/.exec(call);
  if (m) return t(`bid.${m[2]}`, { count: Number(m[1]) });
  return { P: t("callWords.P"), X: t("callWords.X"), XX: t("callWords.XX") }[call] || call;
}

export function cardWords(card) { // "HK" → "king of hearts"
  const rank = RANKS.includes(card[1]) ? t(`rank.${card[1]}`) : card[1];
  return SUIT_BY_KEY[card[0]] ? t(`card.${card[0]}`, { rank }) : `${rank} ${card[0]}`;
}

export function cardNode(card) { // "HK" → a card's face, K over ♥; read as "king of hearts"
  // (an image's label: a plain span may not carry one, axe-core's aria-prohibited-attr)
  const suit = SUIT_BY_KEY[card[0]];
  return el("span", { class: `card face ${suit ? `${suit.colour} suit-${suit.key}` : ""}`,
    role: "img", "aria-label": cardWords(card) }, // drawn rank over suit where faces are
  el("span", { class: "suit", "aria-hidden": "true", text: suit ? suit.symbol : card[0] }),
  el("span", { class: "face-rank", "aria-hidden": "true",
    text: card[1] === "T" ? "10" : card[1] }));
}

/** A hidden hand: the backs of its `count` cards, fanned, and the count in figures. */
export function backsNode(count, label) {
  const backs = Array.from({ length: Math.min(count, 13) }, () =>
    el("span", { class: "back", "aria-hidden": "true" }));
  return el("div", { class: "backs", role: "img", "aria-label": t("backs", { label, count }),
    "data-backs": String(count) },
  el("span", { class: "back-fan", "aria-hidden": "true" }, backs),
  el("span", { class: "back-count", "aria-hidden": "true", text: String(count) }));
}

/** The four-colour deck (diamonds orange, clubs green), the reader's choice kept in this
 * browser: a class on the page's root that the style sheets read. */
const FOUR_COLOURS = "tableserver.four-colours";
export function fourColours() {
  try { return localStorage.getItem(FOUR_COLOURS) === "1"; } catch { return false; }
}
export function setFourColours(on) {
  try { localStorage.setItem(FOUR_COLOURS, on ? "1" : "0"); } catch { /* private mode */ }
  document.documentElement.classList.toggle("four-colours", on);
}

/** The deck's colours switch, a checkbox: `<label><input> Four-colour deck</label>`. */
export function fourColoursNode() {
  document.documentElement.classList.toggle("four-colours", fourColours());
  const box = el("input", { type: "checkbox", id: "four-colours", checked: fourColours(),
    onchange: () => setFourColours(box.checked) });
  return el("label", { class: "deck-switch", for: "four-colours" }, box, ` ${t("fourColours")}`);
}

/** The hands of a PBN deal, "N:AKQ2.J3.T98.7654 - - -": seat → {S, H, D, C} (rank strings,
 * "T" for ten) or null for a hand not shown. */
export function parseDeal(deal) {
  const hands = { N: null, E: null, S: null, W: null };
  const m = /^([NESW]):(.*)$/.exec((deal || "").trim());
  if (!m) return hands;
  let at = SEATS.indexOf(m[1]);
  for (const text of m[2].trim().split(/\s+/)) {
    const suits = text.split(".");
    if (text !== "-" && suits.length === 4) {
      hands[SEATS[at]] = { S: suits[0], H: suits[1], D: suits[2], C: suits[3] };
    }
    at = (at + 1) % 4;
  }
  return hands;
}

/** A hand as four lines, ♠♥♦♣; with `onCard`, each card is a button (a card to pick); with
 * `enabled` too (the cards that may be played now), the others are disabled buttons. */
export function handNode(hand, { onCard = null, played = null, label = t("hand"),
  enabled = null } = {}) {
  const open = enabled ? new Set(enabled) : null;
  const list = el("ul", { class: `hand${open && open.size ? " to-play" : ""}`,
    "aria-label": label, "data-hand": "" });
  for (const suit of SUITS) {
    const ranks = [...(hand[suit.key] || "")];
    const row = el("li", { class: `suit-row ${suit.colour} suit-${suit.key}${ranks.length ? ""
      : " void-row"}` },
      el("span", { class: "suit-symbol", "aria-hidden": "true", text: suit.symbol }),
      el("span", { class: "sr-only", text: t("suitRow", { suit: suit.name }) }));
    if (!ranks.length) {
      row.append(el("span", { class: "void", text: "—", "aria-label": t("void") }));
    }
    for (const rank of ranks) {
      const card = suit.key + rank;
      const attrs = { class: `rank face${card === played ? " played" : ""}`, "data-card": card };
      const parts = [el("span", { class: "suit face-suit", "aria-hidden": "true",
        text: suit.symbol }), el("span", { class: "face-rank", "aria-hidden": "true",
        text: rank === "T" ? "10" : rank })];
      row.append(onCard
        ? el("button", { ...attrs, type: "button", "aria-label": cardWords(card),
          disabled: open !== null && !open.has(card), onclick: () => onCard(card) }, parts)
        : el("span", { ...attrs, role: "img", "aria-label": cardWords(card) }, parts));
    }
    list.append(row);
  }
  return list;
}

/** "2♥X by East", or "Passed out". */
export function contractNode(board) {
  if (board.status === "passed_out") return el("span", { text: t("passedOut") });
  const c = board.contract;
  if (!c) return null;
  return el("span", { class: "contract" }, ...parts("contractBy", {
    call: callNode(`${c.level}${c.strain}`), risk: c.risk ? el("span", { text: t(`risk.${c.risk}`) })
      : "",
    seat: SEAT_NAMES[c.declarer] }));
}

/** "East (Bob)", or "East" while the seat has no name. */
export function seatLabel(board, seat) {
  const player = ((board && board.players) || {})[seat];
  return player ? t("seatWithPlayer", { seat: SEAT_NAMES[seat], player }) : SEAT_NAMES[seat];
}

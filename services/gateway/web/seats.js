// The seats around a table as every page draws them: a seat's plate (its name, player,
// vulnerability, dealer, declarer or dummy, and whether it is the seat to act), the cards a
// hidden hand still holds, and the compact box of the board (number, dealer, vulnerability,
// contract, declarer and the tricks won). Rendering only: the state says what the Laws
// decided (docs/api.md, the state of a board).

import { clockNode } from "./clock.js";
import { t } from "./i18n.js";
import { contractNode, el, SEAT_NAMES, vulnerable } from "./table.js";

/** The seat whose action the table waits for, to light it: the caller in the auction (the
 * option holder of an irregular call), the opening leader, then the hand whose card is due
 * (dummy's hand when declarer plays from it). None once the play ends or while a claim, a
 * lead out of turn or an option waits on someone else. */
export function seatToAct(board) {
  if (!board || board.result || board.status === "passed_out") return null;
  if (board.status === "auction") {
    return board.pending ? board.pending.option_holder : board.turn || null;
  }
  const play = board.play;
  if (!play) return board.on_lead || null;
  if (play.ended || play.claim || play.lead_out_of_turn) return null;
  return play.turn || null;
}

/** How many cards `seat` still holds: thirteen less those he played to the tricks (and
 * played early, waiting for his turn). */
export function cardsLeft(board, seat) {
  const play = board && board.play;
  let played = 0;
  for (const trick of (play && play.tricks) || []) {
    played += trick.cards.filter((entry) => entry.seat === seat).length;
  }
  played += ((play && play.waiting) || []).filter((entry) => entry.seat === seat).length;
  return 13 - played;
}

/** A seat's plate: "South (Cy)", then its badges: vulnerable, dealer, declarer or dummy, and
 * "to play" / "to call" when lit. `me`: the page's own seat, said "You". */
export function plateNode(board, seat, { me = null, id = null } = {}) {
  const play = board.play;
  const contract = board.contract;
  const player = (board.players || {})[seat];
  const vul = vulnerable(seat, board.vulnerability);
  const declarer = play ? play.declarer : contract ? contract.declarer : null;
  const role = play && seat === play.dummy ? "dummy" : seat === declarer ? "declarer" : null;
  const lit = seatToAct(board) === seat;
  return el("h3", { class: `seat-title plate${vul ? " vul" : ""}${lit ? " lit" : ""}`, id },
    el("span", { class: "plate-name" }, seat === me ? t("plate.you") : "", SEAT_NAMES[seat],
      player ? el("span", { class: "player", "data-verbatim": "", text: ` ${player}` }) : null),
    vul ? badge("vul", t("plate.vul"), t("plate.vulnerable")) : null,
    seat === board.dealer ? badge("dealer", t("plate.D"), t("plate.dealer")) : null,
    role ? badge("role", t(`plate.${role}`), t(`plate.${role}Said`)) : null,
    lit ? actBadgeNode(board) : null);
}

function badge(cls, text, words) {
  return el("span", { class: `badge ${cls}` },
    el("span", { "aria-hidden": "true", text }), el("span", { class: "sr-only", text: words }));
}

/** The lit seat's badge: "to call" in the auction, "to play" after it. */
export function actBadgeNode(board) {
  const auction = board.status === "auction";
  return badge("act", t(auction ? "plate.toCall" : "plate.toPlay"),
    t(auction ? "plate.toCallSaid" : "plate.toPlaySaid"));
}

/** A plate drawn by `plateNode` lit or put out as the seat to act moves: its class and its
 * last badge, the rest of it kept. */
export function lightPlate(plate, board, lit) {
  plate.classList.toggle("lit", lit);
  const act = plate.querySelector(".badge.act");
  if (act) act.remove();
  if (lit) plate.append(actBadgeNode(board));
}

/** The board's compact box, always in sight: board, dealer, vulnerability, the contract and
 * its declarer, the tricks each side has won, and the round's time left when it is timed. */
export function boardBoxNode(board) {
  const contract = contractNode(board);
  const won = board.play && board.play.won;
  const item = (name, ...value) => el("span", { class: "box-item" },
    el("span", { class: "box-name", text: name }), " ", ...value);
  const vul = board.vulnerability;
  const items = [el("strong", { class: "box-item", text: t("previous.board",
    { board: board.board }) }),
    item(t("box.dealer"), SEAT_NAMES[board.dealer] || "?"),
    item(t("box.vul"), ["None", "NS", "EW", "Both"].includes(vul) ? t(`vul.${vul}`) : "?"),
    contract ? item(t("box.contract"), contract) : null,
    won ? item(t("box.tricks"), el("span", { id: "box-won", text: `${t("won.NS",
      { count: won.NS })} · ${t("won.EW", { count: won.EW })}` })) : null,
    board.clock ? clockNode(board.clock) : null].filter(Boolean);
  return el("span", { class: "board-box", id: "board-box" },
    items.flatMap((node, i) => (i ? [el("span", { class: "box-sep", "aria-hidden": "true",
      text: " · " }), node] : [node])));
}

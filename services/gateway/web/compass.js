// The four hands of a board around the table (North at the top), as the server sends them: a
// spectator's state holds no hand until the vugraph delay has passed, then all four.

import { t } from "./i18n.js";
import { plateNode, seatToAct } from "./seats.js";
import { contractNode, el, handNode, parseDeal, SEAT_NAMES } from "./table.js";

const AREAS = { N: "north", E: "east", S: "south", W: "west" };

function seatNode(board, seat, hand, onCard) {
  const player = (board.players || {})[seat];
  const name = player ? t("seatWithPlayer", { seat: SEAT_NAMES[seat], player }) : SEAT_NAMES[seat];
  const lit = seatToAct(board) === seat;
  return el("div", { class: `compass-seat ${AREAS[seat]}${lit ? " to-act" : ""}`,
    "data-seat": seat }, plateNode(board, seat, { id: `hand-${seat}` }),
  hand ? handNode(hand, { label: t("hand.of", { seat: name }),
    played: board.opening_lead && board.opening_lead.seat === seat
      ? board.opening_lead.card : null,
    onCard: onCard ? (card) => onCard(seat, card) : null })
    : el("p", { class: "quiet hidden-hand", text: t("vg.afterDelay") }));
}

/** North, East, South and West (a vulnerable side's names in red) around a centre that
 * tells the board, its dealer and vulnerability and, once known, the contract. With
 * `onCard(seat, card)`, each card shown is a button. */
export function compassNode(board, { onCard = null } = {}) {
  const hands = parseDeal(board.deal);
  const contract = contractNode(board);
  const centre = el("div", { class: "compass-centre" },
    el("strong", { text: t("previous.board", { board: board.board }) }),
    el("span", { text: t("vg.dealer", { seat: SEAT_NAMES[board.dealer] || "?" }) }),
    el("span", { text: t("vg.vul", { vul: ["None", "NS", "EW", "Both"]
      .includes(board.vulnerability) ? t(`vul.${board.vulnerability}`) : "?" }) }),
    contract ? el("span", { class: "centre-contract" }, contract) : null);
  return el("div", { class: "compass" },
    ["N", "W", "E", "S"].map((seat) => seatNode(board, seat, hands[seat], onCard)), centre);
}

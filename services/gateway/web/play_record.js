// A board's play as a table of tricks, as the server folded it (the state's `play`, docs/api.md):
// each trick's number, who led, the four cards under their seats (the lead marked), who won
// it; then the tricks won by each side, the claim, the revokes and how the play ended. For the
// director's board view and the capture page; the penalty cards and declarer's lead option
// in words (lead_options.js). Rendering only: the fold applied the Laws
// (Law 44 the tricks, 61–64 the revokes, 68–71 the claims).

import { cardNode, el, SEAT_NAMES, SEATS, seatLabel } from "./table.js";
import { leadOptionWords, penaltyWords } from "./lead_options.js";

const ENDED = {
  tricks: "the thirteenth trick played",
  claim: "a claim agreed (Law 69A)",
  ruling: "the Director's ruling on the tricks (Laws 64C, 69B, 70, 71)",
  recorded: "the result recorded at the table (Law 79A)",
};

const sideOf = (seat) => ("NS".includes(seat) ? "NS" : "EW");

/** The tricks declarer's side has won so far (completed tricks). */
export function declarerWon(play) {
  return play ? (play.won || {})[sideOf(play.declarer)] || 0 : 0;
}

/** How many tricks are complete. */
export function tricksDone(play) {
  return play ? (play.tricks || []).filter((t) => t.winner).length : 0;
}

/** The cards a seat still holds: its dealt cards ("HK", "ST" …) less those played to a trick
 * (a revoke's corrected card back in the hand, a penalty card still in it: Laws 50, 62). */
export function cardsLeft(board, seat, hands) {
  const hand = hands[seat];
  if (!hand) return [];
  const played = new Set();
  for (const trick of ((board.play || {}).tricks || [])) {
    for (const c of trick.cards) if (c.seat === seat) played.add(c.card);
  }
  // a premature card that stands is played, waiting for its hand's turn (Laws 57C3, 57D)
  for (const c of ((board.play || {}).waiting || [])) if (c.seat === seat) played.add(c.card);
  const cards = [];
  for (const suit of ["S", "H", "D", "C"]) {
    for (const rank of hand[suit] || "") if (!played.has(suit + rank)) cards.push(suit + rank);
  }
  return cards;
}

/** A play event in words, parts of a paragraph ("East (Bob) plays ♦A."). */
export function playEventParts(event, board) {
  const who = event.seat ? seatLabel(board, event.seat) : "";
  switch (event.type) {
    case "card_played": return [`${who} plays `, cardNode(event.card), "."];
    case "claim": return [`${who} claims ${event.tricks} of the tricks left.`];
    case "claim_response": return [`${who} ${event.accept ? "agrees to" : "disputes"} the claim.`];
    case "result_recorded": return [event.seat // a seat's proposal, agreed as a claim is
      ? `${who} proposes the result: declarer ${event.tricks} tricks in all.`
      : `Declarer made ${event.tricks} tricks (recorded).`];
    default: return null;
  }
}

/** The hands shown in `root` (compass.js's four): each card played to a trick greyed, and no
 * longer a button to press; a penalty card (Law 50) marked, still to be played. */
export function markPlayed(root, board) {
  for (const { seat, card } of board.penalty_cards || []) {
    const node = root.querySelector(`[data-seat='${seat}'] [data-card='${card}']`);
    if (node) {
      node.classList.add("penalty");
      node.setAttribute("aria-label", `${node.getAttribute("aria-label")}, a penalty card`);
      node.title = "a penalty card (Law 50)";
    }
  }
  for (const trick of ((board.play || {}).tricks || [])) {
    for (const { seat, card } of trick.cards) {
      const node = root.querySelector(`[data-seat='${seat}'] [data-card='${card}']`);
      if (node) {
        node.classList.add("gone");
        if (node instanceof HTMLButtonElement) node.disabled = true;
      }
    }
  }
}

function trickRow(trick, index, revokes) {
  const bySeat = Object.fromEntries(trick.cards.map((c) => [c.seat, c.card]));
  const revoked = Object.fromEntries(revokes.filter((r) => r.trick === index + 1)
    .map((r) => [r.seat, r.corrected ? "corrected" : "revoke"]));
  return el("tr", { "data-trick": String(index + 1) },
    el("th", { scope: "row", text: String(index + 1) }),
    el("td", { text: SEAT_NAMES[trick.leader] || trick.leader }),
    SEATS.map((seat) => el("td", { class: [seat === trick.leader ? "led" : "",
      revoked[seat] || ""].join(" ").trim() || null, "data-seat": seat },
    bySeat[seat] ? cardNode(bySeat[seat]) : el("span", { class: "quiet", text: "·",
      "aria-label": "not played" }),
    revoked[seat] ? el("span", { class: "tag", text: revoked[seat] }) : null)),
    el("td", { text: trick.winner ? SEAT_NAMES[trick.winner] : "…" }));
}

function revokeWords(r) {
  const state = r.corrected ? "corrected (Law 62)" : r.established ? "established (Law 63)"
    : "not established yet (Law 63)";
  return [`${SEAT_NAMES[r.seat]} revoked on trick ${r.trick} with `, cardNode(r.card),
    `: ${state}.`];
}

function claimWords(claim, play) {
  const answers = Object.entries(claim.answers || {}).map(([seat, yes]) =>
    `${SEAT_NAMES[seat]} ${yes ? "agrees" : "disputes"}`).join(", ");
  const total = claim.seat === play.declarer || claim.seat === play.dummy
    ? ` (${declarerWon(play) + claim.tricks} in all)` : "";
  return `${SEAT_NAMES[claim.seat]} claims ${claim.tricks} of the ${claim.remaining} tricks ` +
    `left${total}${claim.statement ? `: “${claim.statement}”` : ""}` +
    `${answers ? ` — ${answers}` : ""}${claim.disputed ? ". Disputed: the Director rules " +
      "the tricks (Laws 68D, 70, 71)." : "."}`;
}

/** The play record of a board's state, or null before the play (no opening lead, no
 * result). */
export function playRecordNode(board) {
  const play = board && board.play;
  if (!play) return null;
  const revokes = play.revokes || [];
  const tricks = play.tricks || [];
  const won = play.won || {};
  const lines = [el("p", { class: "play-won" },
    `Declarer ${SEAT_NAMES[play.declarer]}, dummy ${SEAT_NAMES[play.dummy]} · tricks won: ` +
    `NS ${won.NS || 0}, EW ${won.EW || 0}`)];
  if (play.claim) lines.push(el("p", { class: "play-claim", text: claimWords(play.claim, play) }));
  for (const r of revokes) lines.push(el("p", { class: "play-revoke" }, ...revokeWords(r)));
  if (!play.ended) {
    for (const parts of penaltyWords(board)) {
      lines.push(el("p", { class: "play-penalty" }, ...parts));
    }
    const option = leadOptionWords(board);
    if (option) lines.push(el("p", { class: "play-lead-option", text: option }));
  }
  if (play.ended) {
    const result = board.result;
    const score = result ? ` Declarer ${result.declarer_tricks} tricks, NS ` +
      `${result.score_ns > 0 ? "+" : ""}${result.score_ns}.` : "";
    lines.push(el("p", { class: "play-ended", text: `Play ended by ${ENDED[play.ended] ||
      play.ended}.${score}` }));
  }
  return el("div", { class: "play-record" },
    tricks.length ? el("div", { class: "play-scroll", tabindex: "0", role: "region",
      "aria-label": "The play, trick by trick" }, el("table", { class: "tricks" },
      el("caption", { class: "sr-only", text: "The play, trick by trick" }),
      el("thead", {}, el("tr", {}, ["Trick", "Led by", ...SEATS, "Won by"].map((h) =>
        el("th", { scope: "col", text: h })))),
      el("tbody", {}, tricks.map((t, i) => trickRow(t, i, revokes)))))
      : el("p", { class: "quiet", text: "No card played." }),
    ...lines);
}

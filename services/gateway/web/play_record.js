// A board's play as a table of tricks, as the server folded it (the state's `play`, docs/api.md):
// each trick's number, who led, the four cards under their seats (the lead marked), who won
// it; then the tricks won by each side, the claim, the revokes and how the play ended. For the
// director's board view and the capture page; the penalty cards and declarer's lead option
// in words (lead_options.js). Rendering only: the fold applied the Laws
// (Law 44 the tricks, 61–64 the revokes, 68–71 the claims). The words are the catalogue's
// (i18n.js); a claim's statement as the claimer made it.

import { parts, t } from "./i18n.js";
import { cardNode, el, SEAT_NAMES, SEATS, seatLabel } from "./table.js";
import { leadOptionWords, penaltyWords } from "./lead_options.js";

const ENDED = ["tricks", "claim", "ruling", "recorded"];

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
    case "card_played": return parts("step.plays", { who, card: cardNode(event.card) });
    case "claim": return [t("pr.claimsLeft", { who, count: event.tricks })];
    case "claim_response": return [t(event.accept ? "step.claimAccepted" : "step.claimDisputed",
      { who })];
    case "result_recorded": return [event.seat // a seat's proposal, agreed as a claim is
      ? t("pr.proposes", { who, count: event.tricks })
      : t("pr.recorded", { count: event.tricks })];
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
      node.setAttribute("aria-label", t("pr.penaltyLabel", {
        card: node.getAttribute("aria-label") }));
      node.title = t("pr.penaltyTitle");
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
  const tag = { corrected: t("pr.tag.corrected"), revoke: t("pr.tag.revoke") };
  return el("tr", { "data-trick": String(index + 1) },
    el("th", { scope: "row", text: String(index + 1) }),
    el("td", { text: SEAT_NAMES[trick.leader] || trick.leader }),
    SEATS.map((seat) => el("td", { class: [seat === trick.leader ? "led" : "",
      revoked[seat] || ""].join(" ").trim() || null, "data-seat": seat },
    bySeat[seat] ? cardNode(bySeat[seat]) : el("span", { class: "quiet", text: "·",
      "aria-label": t("pr.notPlayed") }),
    revoked[seat] ? el("span", { class: "tag", text: tag[revoked[seat]] }) : null)),
    el("td", { text: trick.winner ? SEAT_NAMES[trick.winner] : "…" }));
}

function revokeWords(r) {
  const state = t(r.corrected ? "pr.revoke.corrected" : r.established
    ? "pr.revoke.established" : "pr.revoke.open");
  return parts("pr.revoked", { seat: SEAT_NAMES[r.seat], trick: r.trick, card: cardNode(r.card),
    state });
}

function claimWords(claim, play) {
  const answers = Object.entries(claim.answers || {}).map(([seat, yes]) =>
    t(yes ? "pr.agrees" : "pr.disputes", { seat: SEAT_NAMES[seat] })).join(", ");
  const total = claim.seat === play.declarer || claim.seat === play.dummy
    ? t("pr.inAll", { count: declarerWon(play) + claim.tricks }) : "";
  const line = [t("pr.claims", { seat: SEAT_NAMES[claim.seat], count: claim.tricks,
    remaining: claim.remaining, total }),
  claim.statement ? el("span", { "data-verbatim": "", text: `: “${claim.statement}”` }) : null,
  answers ? ` — ${answers}` : null, claim.disputed ? t("pr.disputed") : "."];
  return line.filter(Boolean);
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
    t("pr.won", { declarer: SEAT_NAMES[play.declarer], dummy: SEAT_NAMES[play.dummy],
      ns: won.NS || 0, ew: won.EW || 0 }))];
  if (play.claim) lines.push(el("p", { class: "play-claim" }, ...claimWords(play.claim, play)));
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
    const score = result ? ` ${t("pr.score", { count: result.declarer_tricks,
      score: `${result.score_ns > 0 ? "+" : ""}${result.score_ns}` })}` : "";
    const how = ENDED.includes(play.ended) ? t(`pr.ended.${play.ended}`) : play.ended;
    lines.push(el("p", { class: "play-ended", text: `${t("pr.endedBy", { how })}${score}` }));
  }
  return el("div", { class: "play-record" },
    tricks.length ? el("div", { class: "play-scroll", tabindex: "0", role: "region",
      "aria-label": t("pr.caption") }, el("table", { class: "tricks" },
      el("caption", { class: "sr-only", text: t("pr.caption") }),
      el("thead", {}, el("tr", {}, [t("pr.col.trick"), t("pr.col.ledBy"),
        ...SEATS.map((s) => t(`seatShort.${s}`)), t("pr.col.wonBy")].map((h) =>
        el("th", { scope: "col", text: h })))),
      el("tbody", {}, tricks.map((t, i) => trickRow(t, i, revokes)))))
      : el("p", { class: "quiet", text: t("pr.noCard") }),
    ...lines);
}

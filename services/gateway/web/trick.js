// The play of the hand as the pages show it: the cards left in a hand, the cards a hand may
// play now, the trick in the middle (and who won it), the last trick, the tricks won by each
// side, and the result with its score. Reading the state's `play` and `result` (docs/api.md,
// the state of a board); the Laws are the server's: a seat's page enables only the cards its
// view's `playable` names (shared/table/playable.py: in turn, following suit, declarer's options,
// the penalty cards), so that no revoke or card out of turn is sent from it.

import { parts, t } from "./i18n.js";
import {
  callNode, cardNode, cardWords, el, handNode, lhoOf, parseDeal, partnerOf, SEAT_NAMES, SEATS,
  SUITS,
} from "./table.js";

const SIDE_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };
export function sideOf(seat) { return SIDE_OF[seat]; }
export function rhoOf(seat) { return SEATS[(SEATS.indexOf(seat) + 3) % 4]; }

/** Every card played to a trick so far (completed tricks and the one in progress, with the
 * premature cards that stand and wait for their hand's turn: Laws 57C3, 57D, 54B2). */
export function playedCards(play) {
  const played = new Set();
  for (const trick of (play && play.tricks) || []) {
    for (const entry of trick.cards) played.add(entry.card);
  }
  for (const entry of (play && play.waiting) || []) played.add(entry.card);
  return played;
}

/** A hand ({S, H, D, C} rank strings) without the cards already played. */
export function remainingHand(hand, play) {
  if (!hand) return hand;
  const played = playedCards(play);
  const left = {};
  for (const suit of SUITS) {
    left[suit.key] = [...(hand[suit.key] || "")].filter((r) => !played.has(suit.key + r))
      .join("");
  }
  return left;
}

/** The trick in progress (some cards played to it, no winner yet), or null. */
export function trickInProgress(play) {
  const last = ((play && play.tricks) || []).at(-1);
  return last && last.winner === null ? last : null;
}

/** The last completed trick (Law 44: it has a winner), or null. */
export function lastCompleted(play) {
  const done = ((play && play.tricks) || []).filter((t) => t.winner);
  return done.at(-1) || null;
}

/** Whether the play goes on with a card due: not ended, no claim or option waiting. */
export function playing(board) {
  const play = board && board.play;
  if (!play) return board && board.status === "closed" && !board.opening_lead &&
    !board.result && Boolean(board.on_lead);
  return !play.ended && !play.claim && !play.lead_out_of_turn && Boolean(play.turn);
}

/** The hand `me` plays from now, or null: the one whose cards his view's `playable` carries
 * (the server's: his own in turn, dummy's for declarer, Law 45). */
export function handToPlay(board, me) {
  const due = board && board.playable;
  return due && playing(board) ? due.seat : null;
}

/** The cards the hand `seat` may play now: the server's `playable` (none for another hand). */
export function playableCards(board, seat) {
  const due = board && board.playable;
  return due && due.seat === seat ? due.cards : [];
}

/** Whether `me` may still look at the last trick: the server's `play.inspect_last` (Law 66,
 * shared/table/last_trick.py). */
export function mayInspectLast(board, me) {
  const play = board && board.play;
  return Boolean(play && (play.inspect_last || []).includes(me));
}

const PLACES = ["bottom", "left", "top", "right"];

/** Where each seat sits seen from `bottom`: seat → bottom, left (his LHO), top, right. */
export function placesFrom(bottom) {
  return { [bottom]: "bottom", [lhoOf(bottom)]: "left", [partnerOf(bottom)]: "top",
    [rhoOf(bottom)]: "right" };
}

/** A trick's four cards in their places around the middle, seen from `bottom`. */
export function trickCardsNode(trick, bottom, { label = t("trick.the") } = {}) {
  const places = placesFrom(bottom);
  const slots = Object.fromEntries(PLACES.map((place) => [place,
    el("div", { class: `trick-slot ${place}` })]));
  for (const entry of (trick && trick.cards) || []) {
    const slot = slots[places[entry.seat]];
    slot.dataset.seat = entry.seat;
    slot.dataset.card = entry.card;
    const led = entry.seat === trick.leader;
    slot.classList.toggle("won", trick.winner === entry.seat);
    slot.classList.toggle("led", led);
    slot.replaceChildren(el("span", { class: "trick-seat", "aria-hidden": "true",
      text: led ? t("trick.ledShort", { seat: t(`seatShort.${entry.seat}`) })
        : t(`seatShort.${entry.seat}`) }), cardNode(entry.card));
  }
  const words = ((trick && trick.cards) || []).map((e) =>
    t(e.seat === trick.leader ? "trick.cardLed" : "trick.card",
      { seat: SEAT_NAMES[e.seat], card: cardWords(e.card) })).join(", ");
  const said = !words ? t("trick.noCard") : trick && trick.winner
    ? t("trick.cardsWon", { cards: words, seat: SEAT_NAMES[trick.winner] }) : words;
  return el("div", { class: "trick", role: "group", "aria-label":
    t("trick.label", { label, words: said }) }, PLACES.map((place) => slots[place]));
}

/** The middle of the table: the trick in progress (with the premature cards waiting for their
 * hand's turn, faced in their places), or the one just completed with its winner, and the
 * tricks won by each side. */
export function middleNode(board, bottom) {
  const play = board.play;
  const current = trickInProgress(play);
  const trick = current ? { ...current, cards: [...current.cards, ...(play.waiting || [])] }
    : lastCompleted(play);
  const note = trick && trick.winner
    ? t("trick.numberWon", { number: play.tricks.length, seat: SEAT_NAMES[trick.winner] })
    : trick ? t("trick.number", { number: play.tricks.length }) : "";
  return el("div", { class: "middle", id: "middle" },
    trickCardsNode(trick, bottom, { label: trick && trick.winner ? t("trick.justWon")
      : t("trick.inProgress") }),
    el("p", { class: "trick-note", id: "trick-note", text: note }),
    wonNode(board));
}

/** "NS 3 · EW 2": the tricks won by each side (Law 44). */
export function wonNode(board) {
  const won = (board.play && board.play.won) || { NS: 0, EW: 0 };
  return el("p", { class: "won", id: "won", "aria-label":
    t("won.label", { ns: won.NS, ew: won.EW }) },
  el("span", { "data-side": "NS", text: t("won.NS", { count: won.NS }) }), " · ",
  el("span", { "data-side": "EW", text: t("won.EW", { count: won.EW }) }));
}

/** The score's words for `side` ("NS" or "EW"): "+420", "−50", "0". */
function signed(points) { return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0"; }

/** The board's result once the play has ended: the contract, declarer's tricks (made, over-
 * or under-tricks), and the score from North–South's side, and from `me`'s side if given. */
export function resultNode(board, me = null) {
  const result = board && board.result;
  if (!result) return null;
  const mine = me ? sideOf(me) : null;
  const fromMine = mine === "EW" ? -result.score_ns : result.score_ns;
  const yours = mine ? el("p", { class: "result-mine",
    text: t("result.yours", { side: t(`side.${mine}`), score: signed(fromMine) }) }) : null;
  if (result.declarer_tricks === null || !board.contract) {
    return el("div", { class: "result-box" },
      el("p", { class: "result-line", text: t("result.passedOut") }), yours);
  }
  const c = board.contract;
  const over = result.declarer_tricks - (c.level + 6);
  const how = over === 0 ? t("result.made") : over > 0 ? t("result.madeOver", { over })
    : t("result.down", { under: -over });
  const ended = board.ended || (board.play && board.play.ended); // a `previous`: its own
  const by = ["claim", "ruling", "recorded"].includes(ended) ? t(`result.by.${ended}`) : "";
  return el("div", { class: "result-box" },
    el("p", { class: "result-line" }, ...parts("result.line", {
      call: callNode(`${c.level}${c.strain}`), risk: c.risk ? t(`risk.${c.risk}`) : "",
      seat: SEAT_NAMES[c.declarer], count: result.declarer_tricks, how, by })),
    el("p", { class: "score-line", text: t("result.score", { ns: signed(result.score_ns),
      ew: signed(-result.score_ns) }) }),
    yours);
}

/** The board before the one in progress, as it ended (the state's `previous`: a round's next
 * board starts in the step that ends the one before): its result and score, and its last
 * trick seen from `bottom`'s place. */
export function previousNode(previous, bottom = "S", me = null) {
  if (!previous) return null;
  const last = previous.last_trick;
  const passed = previous.status === "passed_out";
  return el("div", { class: "previous", id: "previous-board", "data-board": String(previous.board) },
    el("h3", { text: t(passed ? "previous.passedOut" : "previous.over",
      { board: previous.board }) }),
    previous.result ? resultNode(previous, me)
      : passed ? null : el("p", { class: "quiet", text: t("previous.unfinished") }),
    last ? el("div", { class: "previous-trick" }, trickCardsNode(last, bottom,
      { label: t("previous.lastTrick", { board: previous.board }) }), el("p", {
      class: "trick-note", text: t("previous.lastWon", { seat: SEAT_NAMES[last.winner] }) }))
      : null,
    previous.deal ? dealNode(previous.deal, t("previous.board", { board: previous.board }))
      : null);
}

/** A board's four hands, once its play has ended at the table (Law 66D: the state's
 * `previous.deal`): North, East, South, West, each a suit a line. */
export function dealNode(deal, label) {
  const hands = parseDeal(deal);
  return el("div", { class: "deal-diagram", role: "group", "aria-label":
    t("deal.label", { label }) }, SEATS.filter((seat) => hands[seat]).map((seat) => {
    const hand = handNode(hands[seat], { label: t("deal.hand", { label,
      seat: SEAT_NAMES[seat] }) });
    hand.removeAttribute("data-hand"); // not a hand at the table now
    hand.dataset.dealHand = seat;
    return el("div", { class: `deal-seat deal-${seat}` },
      el("p", { class: "deal-name", text: SEAT_NAMES[seat] }), hand);
  }));
}

/** The deal without the cards played: what is left in each hand shown ("-" stays hidden). */
export function remainingDeal(deal, play) {
  const m = /^([NESW]):(.*)$/.exec((deal || "").trim());
  if (!m || !play) return deal;
  const played = playedCards(play);
  const hands = m[2].trim().split(/\s+/).map((text) => {
    const suits = text.split(".");
    if (text === "-" || suits.length !== 4) return text;
    return suits.map((ranks, i) => [...ranks].filter((r) => !played.has(SUITS[i].key + r))
      .join("")).join(".");
  });
  return `${m[1]}:${hands.join(" ")}`;
}

/** Whose card it is, for a reader who is none of the seats (vugraph): text. */
export function playWords(board, name = (seat) => SEAT_NAMES[seat]) {
  const play = board.play;
  if (!play) return "";
  if (play.ended || board.result) return t("turn.playOver");
  if (play.claim) {
    const c = play.claim;
    const said = { seat: name(c.seat), tricks: c.tricks, count: c.remaining,
      statement: c.statement };
    return t(`claim.${c.statement ? "words" : "wordsBare"}${c.disputed ? "Disputed" : ""}`,
      said);
  }
  if (play.lead_out_of_turn) return t("turn.leadOut");
  const options = play.lead_options;
  if (options && options.choice === null) { // Law 50D2: partner's penalty card
    return t("vg.leadsOnce", { seat: name(options.seat), declarer: name(play.declarer) });
  }
  const premature = play.partner_option;
  if (premature && premature.choice === null) { // Law 57A: the partner waits for declarer
    return t("vg.playsOnce", { seat: name(premature.seat), declarer: name(play.declarer) });
  }
  if (!play.turn) return "";
  return play.turn === play.dummy
    ? t("vg.fromDummy", { seat: name(play.declarer), dummy: SEAT_NAMES[play.dummy] })
    : t("vg.toPlay", { seat: name(play.turn) });
}

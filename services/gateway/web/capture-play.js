// The capture page's play, as a vugraph operator types it once the auction has closed (after
// BBO's operators): a card suit then rank (`sa`, `h4`, `d10` or `dt`; rank then suit, `4h`,
// is read too), the rank alone when only one card of that rank may be played by the hand due
// (`4` while following in hearts with ♥4: the state's `playable`), a seat and a colon for a card out of turn or a correction
// (`w:d7`), and a claim by declarer of his tricks in all, as LIN's `mc` (`c10`, with two
// digits: `c07`, since `c7` is the ♣7; `c10(draws trumps)` with its statement). The page
// sends each card as the seat it names played it: the operator records what happened at the
// table, and the server applies the Laws (a revoke, a card out of turn: Laws 53–64).

import { cardsLeft, declarerWon, tricksDone } from "./play_record.js";
import { cardWords, parseDeal, SEAT_NAMES, seatLabel } from "./table.js";

const RANK = "(10|[2-9tjqka])";
const SUIT = "([shdc])";
const TRICKS = 13;

const rankOf = (text) => (text === "10" ? "T" : text.toUpperCase());

/** One word of a line in the play: `{text, seat, card}`, `{text, seat, rank}` (the rank
 * alone), `{text, claim, statement}` (declarer's tricks in all) or `{text, error}`. `seat`
 * is null for the hand whose card is due. */
export function parsePlayWord(text) {
  const claim = /^c(\d\d)(?:\(([^)]*)\)?)?$/i.exec(text);
  if (claim) {
    const tricks = Number(claim[1]);
    return tricks > TRICKS ? { text, error: `"${text}": a claim is of 0 to 13 tricks in all ` +
      "(c00 to c13)" } : { text, claim: tricks, statement: (claim[2] || "").trim() };
  }
  const m = /^(?:([a-z]):)?(.*)$/i.exec(text);
  if (m[1] && !/^[nesw]$/i.test(m[1])) {
    return { text, error: `"${m[1]}:" is not a seat: n, e, s or w` };
  }
  const seat = m[1] ? m[1].toUpperCase() : null;
  const body = m[2];
  let found = new RegExp(`^${SUIT}${RANK}$`, "i").exec(body);
  if (found) return { text, seat, card: found[1].toUpperCase() + rankOf(found[2]) };
  found = new RegExp(`^${RANK}${SUIT}$`, "i").exec(body);
  if (found) return { text, seat, card: found[2].toUpperCase() + rankOf(found[1]) };
  found = new RegExp(`^${RANK}$`, "i").exec(body);
  if (found) return { text, seat, rank: rankOf(found[1]) };
  return { text, error: `"${text}" is not a card or a claim: type e.g. sa, h4, 4 (the rank ` +
    "alone when the suit is forced), w:d7 or c10" };
}

/** The hand whose card is due: the player on lead before the opening lead, then the state's
 * `play.turn` (dummy's hand when dummy's card is due). */
export function seatToPlay(board) {
  if (board.play) return board.play.turn;
  return board.status === "closed" ? board.on_lead : null;
}

/** The cards `seat` may play now, if his card is due: the state's `playable` (the operator's
 * view carries it for the hand due: shared/table/playable.py, the fold's Laws 44C, 50, 51,
 * 26, 57A), or null for a hand whose card is not due. */
function playableOf(board, seat) {
  const due = board.playable;
  return due && due.seat === seat ? due.cards : null;
}

function rankWord(rank) { return rank === "T" ? "10" : rank; }

/** A word of the play turned into its event against the board's state: `{event}` or
 * `{error}` that says which card and why. */
export function playEvent(word, board) {
  if (!board.contract) return { error: `"${word.text}": the auction is not over.` };
  if (board.result || (board.play && board.play.ended)) {
    return { error: `"${word.text}" not recorded: the play has ended.` };
  }
  if (word.claim !== undefined) return claimEvent(word, board);
  const seat = word.seat || seatToPlay(board);
  if (!seat) {
    return { error: `"${word.text}": no hand is due to play (a claim or an option is open); ` +
      "name the seat, e.g. w:d7." };
  }
  const hands = parseDeal(board.deal);
  const left = cardsLeft(board, seat, hands);
  const name = SEAT_NAMES[seat];
  if (word.card) {
    if (left.includes(word.card)) return { event: { type: "card_played", seat, card: word.card } };
    const dealt = cardsLeft({}, seat, hands).includes(word.card);
    return { error: `"${word.text}": ${name} ${dealt ? "has already played" : "does not hold"} ` +
      `the ${cardWords(word.card)}.` };
  }
  const legal = playableOf(board, seat);
  if (!legal) {
    return { error: `"${word.text}": ${name}'s card is not due: type the card, suit then ` +
      "rank." };
  }
  const matches = legal.filter((c) => c[1] === word.rank);
  if (matches.length === 1) return { event: { type: "card_played", seat, card: matches[0] } };
  if (!matches.length) {
    return { error: `"${word.text}": ${name} has no ${rankWord(word.rank)} he may play: ` +
      "type the card, suit then rank." };
  }
  const which = matches.map(cardWords).join(" or the ");
  return { error: `"${word.text}": ${name} may play the ${which}: type the suit too, e.g. ` +
    `${matches[0][0].toLowerCase()}${rankWord(word.rank)}.` };
}

/** `c10`: declarer claims 10 tricks in all; the claim event counts those of the tricks not yet
 * completed (Law 68; shared/codec_play.py). */
function claimEvent(word, board) {
  const declarer = board.contract.declarer;
  const won = declarerWon(board.play);
  const remaining = TRICKS - tricksDone(board.play);
  const tricks = word.claim - won;
  if (tricks < 0 || tricks > remaining) {
    const most = String(won + remaining).padStart(2, "0");
    return { error: `"${word.text}": declarer has won ${won} trick${won === 1 ? "" : "s"} and ` +
      `${remaining} remain, so a claim is of c${String(won).padStart(2, "0")} to c${most}.` };
  }
  return { event: { type: "claim", seat: declarer, tricks, statement: word.statement || "" } };
}

/** The claim's answers `agree` (both defenders, or the one named) and `dispute <seat>` stand
 * for: the events, or `{error}`. */
export function claimResponses(event, board) {
  const claim = board.play && board.play.claim;
  if (!claim) return { error: "No claim is open." };
  if (event.seat) return { events: [event] };
  const waiting = claim.awaited || []; // the server's (Law 69A)
  if (!event.accept || !waiting.length) {
    return { error: "Name the seat: e.g. dispute w, agree e." };
  }
  return { events: waiting.map((seat) => ({ ...event, seat })) };
}

/** Whose card is due, in words, once the auction has closed. */
export function playTurnWords(board) {
  const name = (seat) => seatLabel(board, seat);
  const play = board.play;
  if (board.result) {
    const score = board.result.score_ns;
    return `Play over: declarer ${board.result.declarer_tricks} tricks, NS ` +
      `${score > 0 ? "+" : ""}${score}.`;
  }
  if (play && play.claim) {
    return play.claim.disputed ? `${name(play.claim.seat)}'s claim is disputed: the Director ` +
      "rules the tricks." : `${name(play.claim.seat)} has claimed: agree, or dispute <seat>.`;
  }
  if (play && play.lead_out_of_turn) {
    const lead = play.lead_out_of_turn;
    const holders = lead.option_holders.map(name).join(" or ");
    const held = lead.held ? ` ${name(lead.held.seat)} ${lead.held.accept ? "accepts"
      : "declines"}; the option of the player next in turn prevails (Law 55A).` : "";
    return `${name(lead.seat)} led out of turn: ${holders} may accept it (accept, decline).` +
      held;
  }
  const options = play && play.lead_options;
  if (options && options.choice === null) { // Law 50D2: he leads once declarer has chosen
    return `${name(options.seat)} leads once declarer ${name(play.declarer)} has chosen ` +
      "(require h, prohibit h, prohibit, free).";
  }
  const seat = seatToPlay(board);
  if (!seat) return "";
  return board.play ? `${name(seat)} to play, trick ${tricksDone(play) + 1}.`
    : `${name(seat)} is on lead.`;
}

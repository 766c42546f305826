// The capture page's play, as a vugraph operator types it once the auction has closed (after
// BBO's operators): a card suit then rank (`sa`, `h4`, `d10` or `dt`; rank then suit, `4h`,
// is read too), the rank alone when only one card of that rank may be played by the hand due
// (`4` while following in hearts with ♥4: the state's `playable`), a seat and a colon for a card out of turn or a correction
// (`w:d7`), and a claim by declarer of his tricks in all, as LIN's `mc` (`c10`, with two
// digits: `c07`, since `c7` is the ♣7; `c10(draws trumps)` with its statement). The page
// sends each card as the seat it names played it: the operator records what happened at the
// table, and the server applies the Laws (a revoke, a card out of turn: Laws 53–64).

import { t } from "./i18n.js";
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
    return tricks > TRICKS ? { text, error: t("cap.claimRange", { text }) } : { text, claim: tricks, statement: (claim[2] || "").trim() };
  }
  const m = /^(?:([a-z]):)?(.*)$/i.exec(text);
  if (m[1] && !/^[nesw]$/i.test(m[1])) {
    return { text, error: t("cap.notASeat", { text: m[1] }) };
  }
  const seat = m[1] ? m[1].toUpperCase() : null;
  const body = m[2];
  let found = new RegExp(`^${SUIT}${RANK}$`, "i").exec(body);
  if (found) return { text, seat, card: found[1].toUpperCase() + rankOf(found[2]) };
  found = new RegExp(`^${RANK}${SUIT}$`, "i").exec(body);
  if (found) return { text, seat, card: found[2].toUpperCase() + rankOf(found[1]) };
  found = new RegExp(`^${RANK}$`, "i").exec(body);
  if (found) return { text, seat, rank: rankOf(found[1]) };
  return { text, error: t("cap.notACard", { text }) };
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
  const text = word.text;
  if (!board.contract) return { error: t("cap.auctionNotOver", { text }) };
  if (board.result || (board.play && board.play.ended)) {
    return { error: t("cap.playEnded", { text }) };
  }
  if (word.claim !== undefined) return claimEvent(word, board);
  const seat = word.seat || seatToPlay(board);
  if (!seat) {
    return { error: t("cap.noHandDue", { text }) };
  }
  const hands = parseDeal(board.deal);
  const left = cardsLeft(board, seat, hands);
  const name = SEAT_NAMES[seat];
  if (word.card) {
    if (left.includes(word.card)) return { event: { type: "card_played", seat, card: word.card } };
    const dealt = cardsLeft({}, seat, hands).includes(word.card);
    return { error: t(dealt ? "cap.alreadyPlayed" : "cap.notHeld", { text, name,
      card: cardWords(word.card) }) };
  }
  const legal = playableOf(board, seat);
  if (!legal) {
    return { error: t("cap.notDue", { text, name }) };
  }
  const matches = legal.filter((c) => c[1] === word.rank);
  if (matches.length === 1) return { event: { type: "card_played", seat, card: matches[0] } };
  if (!matches.length) {
    return { error: t("cap.noSuchRank", { text, name, rank: rankWord(word.rank) }) };
  }
  const which = matches.map(cardWords).join(t("cap.orThe"));
  return { error: t("cap.whichSuit", { text, name, which,
    example: `${matches[0][0].toLowerCase()}${rankWord(word.rank)}` }) };
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
    return { error: t("cap.claimOf", { text: word.text, count: won, remaining,
      least: `c${String(won).padStart(2, "0")}`, most: `c${most}` }) };
  }
  return { event: { type: "claim", seat: declarer, tricks, statement: word.statement || "" } };
}

/** The claim's answers `agree` (both defenders, or the one named) and `dispute <seat>` stand
 * for: the events, or `{error}`. */
export function claimResponses(event, board) {
  const claim = board.play && board.play.claim;
  if (!claim) return { error: t("cap.noClaim") };
  if (event.seat) return { events: [event] };
  const waiting = claim.awaited || []; // the server's (Law 69A)
  if (!event.accept || !waiting.length) {
    return { error: t("cap.nameTheSeat") };
  }
  return { events: waiting.map((seat) => ({ ...event, seat })) };
}

/** Whose card is due, in words, once the auction has closed. */
export function playTurnWords(board) {
  const name = (seat) => seatLabel(board, seat);
  const play = board.play;
  if (board.result) {
    const score = board.result.score_ns;
    return t("cap.playOver", { count: board.result.declarer_tricks,
      score: `${score > 0 ? "+" : ""}${score}` });
  }
  if (play && play.claim) {
    return t(play.claim.disputed ? "cap.claimDisputed" : "cap.claimed",
      { seat: name(play.claim.seat) });
  }
  if (play && play.lead_out_of_turn) {
    const lead = play.lead_out_of_turn;
    const holders = lead.option_holders.map(name).join(t("or"));
    const held = lead.held ? ` ${t(lead.held.accept ? "cap.heldAccepts" : "cap.heldDeclines",
      { seat: name(lead.held.seat) })}` : "";
    return t("cap.ledOut", { seat: name(lead.seat), holders }) + held;
  }
  const options = play && play.lead_options;
  if (options && options.choice === null) { // Law 50D2: he leads once declarer has chosen
    return t("cap.leadsOnce", { seat: name(options.seat), declarer: name(play.declarer) });
  }
  const seat = seatToPlay(board);
  if (!seat) return "";
  return board.play ? t("cap.toPlay", { seat: name(seat), trick: tricksDone(play) + 1 })
    : t("turn.onLead", { seat: name(seat) });
}

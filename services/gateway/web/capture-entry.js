// The capture page's entry line, read as a vugraph operator types it. Syntax only: who is in
// turn, who holds an option or who is on lead comes from the board's state (capture.js), and
// what a call means under the Laws is the server's to say.
//
//   1h p 2s x          calls, each by the seat in turn
//   w:1s               West calls 1S (out of rotation when it is not his turn)
//   2c!  2c!(strong)   an alerted call, and its explanation
//   accept | decline   the option holder accepts the irregular call, or does not
//   slip e 2h          East replaces an inadvertent call by 2H (Law 25A)
//   change e 2h        East changes his call to 2H (Law 25B)
//   show w hk          West exposes the king of hearts during the auction (Law 24)
//   lead d2            the player on lead faces the two of diamonds (lead n d2: North does)
//   ask e  ask e 3     East asks about the auction, or about its 3rd call
//   explain s 3 text   South explains the 3rd call (at the table, to all: Law 20F1)
//
// Once the auction has closed, a line is the play's (capture-play.js: `sa h4 4`, `w:d7`,
// `c10`), and three more commands:
//   agree  agree e     the claim's opponents acquiesce in it (both, or East), Law 69A
//   dispute w          West disputes the claim (Laws 68D, 70)
//   result 9           declarer made 9 tricks, the cards not recorded (Law 79A)
//   require h          declarer's option on a lead (a penalty card, Law 50D2; 51B; Law 26):
//   prohibit h         require or prohibit hearts, prohibit every suit of the penalty cards
//   prohibit  free     (`prohibit` alone), or leave the lead free (50D2(b)); sent as declarer's
// `accept` and `decline` name a seat when more than one may (`accept s`: a lead out of turn).

import { parseTyped } from "./bidding.js";
import { parsePlayWord } from "./capture-play.js";
import { t } from "./i18n.js";

const SEAT = /^[nesw]$/i;
const COMMANDS = ["accept", "decline", "slip", "change", "show", "lead", "ask", "explain",
  "agree", "dispute", "result", "require", "prohibit", "free"];

/** A card as the server spells it, or null: "hk" → "HK", "d10"/"dt" → "DT". */
export function parseCard(text) {
  const m = /^([shdc])(10|[2-9tjqka])$/i.exec(text.trim());
  return m ? `${m[1].toUpperCase()}${m[2] === "10" ? "T" : m[2].toUpperCase()}` : null;
}

function seatOf(text) { return SEAT.test(text || "") ? text.toUpperCase() : null; }

/** The words of a line: runs of non-blanks, a parenthesised explanation kept whole. */
function words(text) {
  return text.match(/[^\s(]+(?:\([^)]*\)?)?|\([^)]*\)?/g) || [];
}

/** One word of a line of calls: `{text, seat (null: the seat in turn), call, alert,
 * explanation}` or `{text, error}`. */
function callOf(text) {
  const m = /^(?:([a-z]):)?([^!(]*)(!)?(?:\(([^)]*)\)?)?$/i.exec(text);
  const call = m && parseTyped(m[2]);
  if (!m || !call) {
    return { text, error: t("cap.notACall", { text }) };
  }
  if (m[1] && !seatOf(m[1])) return { text, error: t("cap.notASeat", { text: m[1] }) };
  const explanation = (m[4] || "").trim();
  return { text, seat: seatOf(m[1]), call, alert: Boolean(m[3]),
    explanation: explanation || null };
}

function calledNumber(text) { // "3" → index 2 (the 3rd call shown), or null
  return /^[1-9]\d{0,2}$/.test(text || "") ? Number(text) - 1 : null;
}

// each command's usage: the catalogue's `cap.usage.<command>` (the commands' words English)

/** A command line (its first word one of COMMANDS): `{event}` with `seat: null` where the
 * state names him (the option holder, the player on lead), or `{error}`. */
function commandOf(command, parts, text) {
  const usage = () => ({ error: t("cap.type", { usage: t(`cap.usage.${command}`) }) });
  const seat = seatOf(parts[0]);
  switch (command) {
    case "accept": case "decline":
      return parts.length > 1 || (parts.length && !seat)
        ? { error: t("cap.optionAlone", { command }) }
        : { event: { type: "option", seat, accept: command === "accept" } };
    case "agree": case "dispute":
      return parts.length > 1 || (parts.length && !seat) || (command === "dispute" && !seat)
        ? usage() : { event: { type: "claim_response", seat, accept: command === "agree" } };
    case "require": case "prohibit": case "free": { // declarer's lead option (Laws 50D2, 26)
      const suit = /^[shdc]$/i.test(parts[0] || "") ? parts[0].toUpperCase() : null;
      const ok = command === "free" ? !parts.length
        : parts.length === 1 ? Boolean(suit) : command === "prohibit" && !parts.length;
      return ok ? { event: { type: "lead_option", seat: null, choice: command,
        ...(suit ? { suit } : {}) } } : usage();
    }
    case "result":
      return parts.length === 1 && /^(1[0-3]|[0-9])$/.test(parts[0])
        ? { event: { type: "result_recorded", tricks: Number(parts[0]) } } : usage();
    case "slip": case "change": {
      const call = parts.length === 2 && seat ? parseTyped(parts[1]) : null;
      return call ? { event: { type: "call_changed", seat, call,
        inadvertent: command === "slip" } } : usage();
    }
    case "show": {
      const card = parts.length === 2 && seat ? parseCard(parts[1]) : null;
      return card ? { event: { type: "card_exposed", seat, card } } : usage();
    }
    case "lead": {
      const card = parseCard(parts[parts.length - 1] || "");
      const ok = card && (parts.length === 1 || (parts.length === 2 && seat));
      return ok ? { event: { type: "opening_lead", seat: parts.length === 2 ? seat : null,
        card } } : usage();
    }
    case "ask": {
      const index = calledNumber(parts[1]);
      if (!seat || parts.length > 2 || (parts.length === 2 && index === null)) return usage();
      return { event: { type: "question", seat, ...(index === null ? {} : { index }) } };
    }
    default: { // explain: the text is the rest of the line, as typed
      const m = /^\s*\S+\s+(\S+)\s+(\S+)\s+(.+)$/.exec(text);
      const index = m ? calledNumber(m[2]) : null;
      return m && seatOf(m[1]) && index !== null ? { event: { type: "explanation",
        seat: seatOf(m[1]), index, explanation: m[3].trim() } } : usage();
    }
  }
}

/** The entry line read: `{calls: [...]}` (each as `callOf` reads it) or, in the `play`,
 * `{plays: [...]}` (each as capture-play.js's `parsePlayWord` reads it), `{event}` for a
 * command, `{error}` for a line with any word that is not understood (nothing is sent), or
 * `{}` for an empty line. */
export function parseEntry(text, { play = false } = {}) {
  const all = words(text);
  if (!all.length) return {};
  const first = all[0].toLowerCase();
  if (COMMANDS.includes(first)) {
    return commandOf(first, text.trim().split(/\s+/).slice(1), text);
  }
  if (play) {
    const plays = all.map(parsePlayWord);
    const wrong = plays.find((p) => p.error);
    return wrong ? { error: wrong.error } : { plays };
  }
  const calls = all.map(callOf);
  const wrong = calls.find((c) => c.error);
  return wrong ? { error: wrong.error } : { calls };
}

// A step of a replay in words: the event a history entry holds (its seat, its call or card)
// and the Director's alerts it raised. The state after it (the entry's `state`, folded by the
// server) says what the Laws made of it; nothing here works a Law out.

import { rulingWords } from "./rulings.js";
import { callNode, cardNode, el, seatLabel } from "./table.js";
import { forPeople } from "./words.js";

/** An event in words, parts of a paragraph: "North calls 1♥ (alerted).", "West exposes ♥K.".
 * `board`: the state it is read in (the calls an index names, the players' names). */
export function eventParts(event, board) {
  const who = event.seat ? seatLabel(board, event.seat) : "The Director";
  const calls = board.calls || [];
  const callAt = (index) => (calls[index] ? callNode(calls[index].call) : `call ${index + 1}`);
  switch (event.type) {
    case "board_started": return [`Board ${event.board} starts.`];
    case "call": return [`${who} calls `, callNode(event.call),
      event.alert || event.explanation ? " (alerted)" : "",
      event.explanation ? `: ${event.explanation}` : "", "."];
    case "option": return [`${who} ${event.accept ? "accepts" : "does not accept"} the ` +
      "irregular call."];
    case "call_changed": return [`${who} changes his call to `, callNode(event.call), "."];
    case "card_exposed": return [`${who} exposes `, cardNode(event.card), "."];
    case "opening_lead": return [`${who} leads `, cardNode(event.card), "."];
    case "card_played": return [`${seatLabel(board, event.seat)} plays `, cardNode(event.card),
      "."];
    case "claim": return [`${who} claims ${event.tricks} tricks`,
      event.statement ? `: ${event.statement}` : "", "."];
    case "claim_response": return [`${who} ${event.accept ? "accepts" : "disputes"} the claim.`];
    case "question": return [`${who} asks about `, callAt(event.index), "."];
    case "explanation": return [`${who} explains `, callAt(event.index),
      event.explanation ? `: ${event.explanation}` : "", "."];
    case "ruling": return [rulingWords(event)];
    case "players_named": return ["The players are named."];
    case "table_held": return [event.held ? "The table is held." : "The table goes on."];
    default: return [`${event.type}.`];
  }
}

/** One entry of a history (`{offset, event, alerts, state}`) as a paragraph and the
 * Director's alerts it raised. */
export function stepNode(entry) {
  const board = entry.state || {};
  const said = entry.event ? eventParts(entry.event, board)
    : ["A record that is not an event (skipped)."];
  return el("div", { class: "step" }, el("p", {}, ...said),
    (entry.alerts || []).length
      ? el("ul", { class: "step-alerts" }, entry.alerts.map((a) => el("li", {},
        el("strong", { text: a.law ? `Law ${a.law} ` : "" }), forPeople(a.message || a.kind))))
      : null);
}

// A step of a replay in words: the event a history entry holds (its seat, its call or card)
// and the Director's alerts it raised. The state after it (the entry's `state`, folded by the
// server) says what the Laws made of it; nothing here works a Law out.

import { parts, t } from "./i18n.js";
import { rulingWords } from "./rulings.js";
import { callNode, cardNode, el, seatLabel } from "./table.js";
import { forPeople } from "./words.js";

/** An event in words, parts of a paragraph: "North calls 1♥ (alerted).", "West exposes ♥K.".
 * `board`: the state it is read in (the calls an index names, the players' names). */
export function eventParts(event, board) {
  const who = event.seat ? seatLabel(board, event.seat) : t("step.director");
  const calls = board.calls || [];
  const callAt = (index) => (calls[index] ? callNode(calls[index].call)
    : t("step.callNumber", { number: index + 1 }));
  const own = (text) => el("span", { "data-verbatim": "", text }); // a player's own words
  const said = (key, text, params) => parts(text ? `${key}Said` : key,
    { ...params, said: text ? own(text) : "" });
  switch (event.type) {
    case "board_started": return [t("step.boardStarts", { board: event.board })];
    case "call": return said(event.alert || event.explanation ? "step.callAlerted" : "step.call",
      event.explanation, { who, call: callNode(event.call) });
    case "option": return [t(event.accept ? "step.optionAccepts" : "step.optionDeclines",
      { who })];
    case "call_changed": return parts("step.callChanged", { who, call: callNode(event.call) });
    case "card_exposed": return parts("step.exposes", { who, card: cardNode(event.card) });
    case "opening_lead": return parts("step.leads", { who, card: cardNode(event.card) });
    case "card_played": return parts("step.plays", { who: seatLabel(board, event.seat),
      card: cardNode(event.card) });
    case "claim": return said("step.claim", event.statement, { who, count: event.tricks });
    case "claim_response": return [t(event.accept ? "step.claimAccepted" : "step.claimDisputed",
      { who })];
    case "question": return parts("step.question", { who, call: callAt(event.index) });
    case "explanation": return said("step.explanation", event.explanation,
      { who, call: callAt(event.index) });
    case "ruling": return [own(rulingWords(event))]; // the console's words for a ruling
    case "players_named": return [t("step.named")];
    case "table_held": return [t(event.held ? "step.held" : "step.goesOn")];
    default: return [own(`${event.type}.`)];
  }
}

/** One entry of a history (`{offset, event, alerts, state}`) as a paragraph and the
 * Director's alerts it raised. */
export function stepNode(entry) {
  const board = entry.state || {};
  const said = entry.event ? eventParts(entry.event, board)
    : [t("step.notEvent")];
  return el("div", { class: "step" }, el("p", {}, ...said),
    (entry.alerts || []).length
      ? el("ul", { class: "step-alerts" }, entry.alerts.map((a) => el("li", {},
        el("strong", { text: a.law ? `${t("law", { law: a.law })} ` : "" }),
        el("span", { "data-verbatim": "", text: forPeople(a.message || a.kind) }))))
      : null);
}

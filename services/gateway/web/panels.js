// Panels of the pages that show what the state says in words: whose turn it is, the
// Director's alerts and rectifications, an option to exercise, the explanations of calls, and
// questions.

import { parts, t } from "./i18n.js";
import { rulingWords } from "./rulings.js";
import { forPeople } from "./words.js";
import {
  callNode, callWords, cardNode, el, SEAT_NAMES, sameSide, seatLabel,
} from "./table.js";

const lawOf = (law) => (law ? t("law", { law }) : "");
/** The server's words (an alert's, a rectification's): shown as it sends them. */
const said = (text, attrs = {}) => el("span", { ...attrs, "data-verbatim": "", text });

/** Whose turn it is, or how the auction ended, for a reader who is none of the seats (the
 * vugraph, the capture page): text, or parts of a paragraph. */
export function turnWords(board) {
  const name = (seat) => seatLabel(board, seat);
  if (board.status === "passed_out") return t("turn.passedOut");
  if (board.opening_lead) {
    return parts("turn.led", { seat: name(board.opening_lead.seat),
      card: cardNode(board.opening_lead.card) });
  }
  if (board.status === "closed") {
    return board.on_lead ? t("turn.onLead", { seat: name(board.on_lead) })
      : t("turn.auctionOver");
  }
  if (board.pending) {
    return parts("turn.decides", { holder: name(board.pending.option_holder),
      call: callNode(board.pending.call), seat: name(board.pending.offender) });
  }
  return board.turn ? t("turn.toCall", { seat: name(board.turn) }) : "";
}

/** The Director's alerts (with their options), the rectifications, lead restrictions and
 * rulings. */
export function directorNode(board) {
  const items = [];
  for (const alert of board.alerts || []) {
    items.push(el("li", { class: "director-alert", "data-kind": alert.kind },
      el("strong", { text: lawOf(alert.law) }), " ", said(forPeople(alert.message || alert.kind)),
      (alert.options || []).length ? el("ul", { class: "options", "data-verbatim": "" },
        alert.options.map((o) => el("li", { text: forPeople(o) })))
        : null));
  }
  for (const r of board.rectifications || []) {
    items.push(el("li", { class: "rectification" }, el("strong", { text: lawOf(r.law) }), " ",
      said(forPeople(r.message || ""))));
  }
  for (const r of board.lead_restrictions || []) {
    if (r.action) continue; // a ruling's: shown with the rulings
    const what = r.declarer_may ? t("restriction.may", { may: r.declarer_may })
      : t("restriction.none"); // (what declarer may: the server's words)
    items.push(el("li", { class: "lead-restriction" }, el("strong", { text: lawOf(r.law) }),
      " ", t(r.applies === false ? "restriction.void" : "restriction.line", {
        seat: SEAT_NAMES[r.player] || r.player, offender: SEAT_NAMES[r.offender] || r.offender,
        call: callWords(r.withdrawn || ""), what })));
  }
  for (const r of board.rulings || []) {
    items.push(el("li", { class: "ruling", "data-action": r.action, "data-verbatim": "" },
      rulingWords(r))); // the Director's ruling, in the console's words
  }
  if (!items.length) return el("p", { class: "quiet", text: t("director.none") });
  return el("ul", { class: "director-list" }, items);
}

/** The option over an irregular call, for its holder: the alert's words and two buttons.
 * `title`: the panel's heading before the Law ("Your option" on the holder's own page). */
export function optionNode(board, onChoose, title = t("option.yours")) {
  const pending = board.pending;
  const alert = [...(board.alerts || [])].reverse()
    .find((a) => a.kind === pending.kind && a.seat === pending.offender) || {};
  return el("div", { class: "option-box", role: "group", "aria-labelledby": "option-title" },
    el("h3", { id: "option-title", text: t("option.title",
      { title, law: lawOf(alert.law || pending.law) }) }),
    alert.message ? el("p", { "data-verbatim": "", text: forPeople(alert.message) })
      : el("p", { text: t("option.irregular", { seat: SEAT_NAMES[pending.offender],
        call: callWords(pending.call) }) }),
    (alert.options || []).length ? el("ul", { class: "options", "data-verbatim": "" },
      alert.options.map((o) => el("li", { text: forPeople(o) }))) : null,
    el("div", { class: "option-buttons" },
      el("button", { type: "button", id: "accept", class: "primary",
        onclick: () => onChoose(true) }, ...parts("option.accept", { call: callNode(pending.call) })),
      el("button", { type: "button", id: "decline", onclick: () => onChoose(false) },
        t("option.decline"))));
}

/** Explanations given of each call: its self-alert and explanation, and answers to questions
 * (Law 20F). What partner said of his own calls never reaches this page (Law 16). */
export function explanationsOf(board, index) {
  const entry = (board.calls || [])[index] || {};
  const said = [];
  if (entry.explanation) said.push(entry.explanation);
  for (const e of board.explanations || []) {
    if (e.index === index && e.explanation) said.push(e.explanation);
  }
  return said;
}

export function explanationsNode(board) {
  const items = [];
  (board.calls || []).forEach((entry, index) => {
    const told = explanationsOf(board, index);
    if (!entry.alert && !told.length) return;
    items.push(el("li", { "data-index": index },
      el("strong", { text: `${SEAT_NAMES[entry.seat]} ` }), callNode(entry.call),
      entry.alert ? el("span", { class: "alert-mark", text: ` ${t("alerted")}` }) : null,
      told.length ? ": " : "", told.length ? said(told.join("; ")) : "")); // their own words
  });
  return items.length ? el("ul", { class: "explanations" }, items) : null;
}

/** One call chosen in the auction: what was said of it, and for an opponent's call a button
 * to ask about it (Law 20F1). */
export function callDetailNode(board, index, mySeat, onAsk) {
  const entry = (board.calls || [])[index];
  if (!entry) return null;
  const told = explanationsOf(board, index);
  const asked = (board.questions || []).some((q) => q.index === index && q.seat === mySeat);
  const opponent = !sameSide(entry.seat, mySeat);
  return el("div", { class: "call-detail", role: "region", "aria-label": t("detail.label") },
    el("p", {}, el("strong", { text: t("detail.seat", { seat: SEAT_NAMES[entry.seat] }) }),
      callNode(entry.call), entry.alert ? t("detail.alerted") : "",
      told.length ? " — " : opponent ? t("detail.none") : "",
      told.length ? said(told.join("; ")) : ""),
    opponent && board.status !== "passed_out"
      ? el("button", { type: "button", id: "ask", disabled: asked, onclick: () => onAsk(index) },
        asked ? t("detail.asked") : t("detail.ask"))
      : null);
}

/** Questions about this seat's own calls still to answer (Law 20F: online, each player
 * explains his own calls), each with a field and a button. */
export function questionsNode(board, mySeat, onAnswer) {
  const calls = board.calls || [];
  const open = (board.questions || []).filter((q) => {
    const entry = calls[q.index];
    if (!entry || entry.seat !== mySeat) return false;
    return !(board.explanations || []).some((e) => e.index === q.index && e.event > q.event);
  });
  if (!open.length) return null;
  return el("div", { class: "questions" }, open.map((q) => {
    const id = `answer-${q.index}`;
    const input = el("input", { id, type: "text", maxlength: 2000, autocomplete: "off" });
    return el("form", { class: "answer", "data-index": q.index, onsubmit: (event) => {
      event.preventDefault();
      if (input.value.trim()) onAnswer(q.index, input.value.trim());
    } },
    el("label", { for: id }, ...parts("question.asks", { seat: seatLabel(board, q.seat),
      call: callNode(calls[q.index].call) })),
    input, el("button", { type: "submit", text: t("question.answer") }));
  }));
}

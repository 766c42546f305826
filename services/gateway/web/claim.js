// A claim on a seat's page: the form (the tricks of those remaining, and the statement of the
// line, Law 68C), and the opponents' answer (Law 69A: agreed when both defenders acquiesce in
// declarer's claim, or declarer in a defender's; a dispute calls the Director, Law 68D, and
// play waits; a defender's partner may object to his concession, Law 68B2, and play goes
// on). The server decides what a claim does; this is its form and its words.

import { t } from "./i18n.js";
import { el, SEAT_NAMES } from "./table.js";

function remainingTricks(play) {
  return 13 - play.tricks.filter((t) => t.winner).length;
}

/** Whether `me` answers the claim now: a seat whose answer it awaits, the server's
 * `claim.awaited` (Law 69A, shared/table/claim_answers.py). */
export function answersClaim(play, me) {
  const claim = play && play.claim;
  return Boolean(claim) && (claim.awaited || []).includes(me);
}

/** Whether `me` may object to his partner's concession (Law 68B2: then "neither a concession
 * nor a claim has occurred" and play continues): the server's `claim.may_object`. */
export function objectsToConcession(play, me) {
  const claim = play && play.claim;
  return Boolean(claim) && claim.may_object === me;
}

function claimWords(claim) {
  const said = { seat: SEAT_NAMES[claim.seat], tricks: claim.tricks, count: claim.remaining,
    statement: claim.statement };
  return t(claim.statement ? "claim.words" : "claim.wordsBare", said);
}

function formNode(play, onClaim) {
  const remaining = remainingTricks(play);
  const tricks = el("input", { id: "claim-tricks", type: "number", min: 0, max: remaining,
    value: remaining, required: true, inputmode: "numeric",
    oninput: () => tricks.setCustomValidity("") });
  const statement = el("input", { id: "claim-statement", type: "text", maxlength: 500,
    placeholder: t("claim.placeholder") });
  const submit = (event) => {
    event.preventDefault();
    const n = Number(tricks.value);
    if (!Number.isInteger(n) || n < 0 || n > remaining) {
      tricks.setCustomValidity(t("claim.range", { remaining }));
      tricks.reportValidity();
      return;
    }
    onClaim(n, statement.value.trim());
  };
  return el("details", { class: "claim-form" },
    el("summary", { text: t("claim.summary") }),
    el("form", { id: "claim", onsubmit: submit, autocomplete: "off" },
      el("label", { for: "claim-tricks", text: t("claim.tricks", { count: remaining }) }),
      tricks,
      el("label", { for: "claim-statement", text: t("claim.how") }),
      statement,
      el("button", { type: "submit", class: "primary", id: "claim-send",
        text: t("claim.send") })));
}

/** The claim panel for seat `me`: the form while play goes on (not for dummy), the claim
 * in words once made, the opponents' buttons, and what waits on whom. */
export function claimNode(board, me, { onClaim, onAnswer }) {
  const play = board && board.play;
  if (!play || play.ended || board.result) return null;
  const claim = play.claim;
  if (!claim) {
    if (me === play.dummy || play.lead_out_of_turn) return null;
    return formNode(play, onClaim);
  }
  const parts = [el("p", { class: "claim-words", id: "claim-words", text: claimWords(claim) })];
  // (the statement, the claimer's own words, inside the catalogue's)
  const answer = (claim.answers || {})[me];
  if (claim.disputed) {
    parts.push(el("p", { class: "claim-disputed", id: "claim-disputed",
      text: t("claim.disputed") }));
  } else if (answersClaim(play, me)) {
    parts.push(el("div", { class: "option-buttons" },
      el("button", { type: "button", id: "claim-accept", class: "primary",
        onclick: () => onAnswer(true), text: t("claim.accept") }),
      el("button", { type: "button", id: "claim-reject", onclick: () => onAnswer(false),
        text: t("claim.reject") })));
  } else if (objectsToConcession(play, me)) {
    parts.push(el("div", { class: "option-buttons" },
      el("button", { type: "button", id: "claim-object", onclick: () => onAnswer(false),
        text: t("claim.object") })));
  } else {
    const waiting = (claim.awaited || []).map((s) => SEAT_NAMES[s]);
    parts.push(el("p", { class: "quiet", text: answer === true ? t("claim.accepted")
      : waiting.length ? t("claim.waiting", { seats: waiting.join(t("and")) }) : "" }));
  }
  return el("div", { class: "claim-box", role: "group", "aria-label": t("claim.label") }, parts);
}

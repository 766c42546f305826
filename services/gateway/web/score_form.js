// The director's console's form for the Director's scores on a tournament (out of
// director.js): adjusted scores (Law 12C2 artificial: average plus, average, average minus;
// 12C1(b) assigned; 12C1(c) weighted; split, each side its own), procedural penalties
// (Law 90) and corrections of a result, posted to POST /api/tournaments/{t}/scores. The
// server checks them (a board the movement scheduled, weights summing to 100 %, …) and
// answers a refusal naming the field; the form shows it, and nothing is recorded.

import { t } from "./i18n.js";
import { fieldWords } from "./words.js";

const $ = (id) => document.getElementById(id);
const PART = /^\s*(\d+(?:\.\d+)?)\s*%?\s*:?\s*(-?\d+)\s*$/;

/** "60% 620, 40% -100" → [{percent: 60, score_ns: 620}, {percent: 40, score_ns: -100}];
 * null for text that is not such a list. */
export function partsOf(text) {
  const parts = text.split(/[,;]/).map((p) => p.trim()).filter(Boolean).map((p) => PART.exec(p));
  if (!parts.length || parts.some((m) => !m)) return null;
  return parts.map((m) => ({ percent: Number(m[1]), score_ns: Number(m[2]) }));
}

/** A split score's side: "620" (assigned) or "60% 620, 40% -100" (weighted); null if
 * neither. */
export function sideOf(text) {
  if (/^\s*-?\d+\s*$/.test(text)) return { score_ns: Number(text) };
  const parts = partsOf(text);
  return parts ? { parts } : null;
}

function kindFields() {
  const kind = $("score-kind").value;
  for (const label of document.querySelectorAll("#score-form [data-kinds]")) {
    label.hidden = !label.dataset.kinds.split(" ").includes(kind);
  }
}

class FormError extends Error { // the field's label says which (fieldWords), not its name
  constructor(field, message) {
    const input = document.querySelector(`#score-form [name='${field}']`);
    super(t("dir.formError", { field: fieldWords(input) || field, message }));
    this.field = field;
  }
}

function whole(id, field) {
  const text = $(id).value.trim();
  if (!/^-?\d+$/.test(text)) throw new FormError(field, t("dir.err.whole"));
  return Number(text);
}

/** The request's body from the form, or a FormError naming the field to mend. */
export function scoreBody() {
  const kind = $("score-kind").value;
  const body = { kind, board: whole("score-board", "board"), reason: $("score-reason").value };
  if (kind === "penalty") {
    body.entrant = whole("score-entrant", "entrant");
    const amount = $("score-amount").value.trim();
    if (!amount || Number.isNaN(Number(amount))) throw new FormError("amount", t("dir.err.number"));
    body.amount = Number(amount);
    if ($("score-unit").value) body.unit = $("score-unit").value;
    return body;
  }
  body.ns = whole("score-ns", "ns");
  body.ew = whole("score-ew", "ew");
  if (kind === "corrected" || kind === "assigned") {
    body.score_ns = whole("score-score", "score_ns");
  } else if (kind === "weighted") {
    body.parts = partsOf($("score-parts").value);
    if (!body.parts) throw new FormError("parts", t("dir.err.parts"));
  } else if (kind === "split") {
    for (const side of ["ns", "ew"]) {
      body[`${side}_score`] = sideOf($(`score-${side}-side`).value);
      if (!body[`${side}_score`]) {
        throw new FormError(`${side}_score`, t("dir.err.side"));
      }
    }
  } else {
    body.ns_fault = $("score-ns-fault").value;
    body.ew_fault = $("score-ew-fault").value;
  }
  return body;
}

/** The form: its kind's fields; on submit, `send(body)` (a promise of the server's answer)
 * or the form's own refusal, shown in `#score-result` by `say(text, error)`. */
export function bindScoreForm(send, say) {
  $("score-kind").addEventListener("change", kindFields);
  kindFields();
  $("score-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let body;
    try {
      body = scoreBody();
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      say(t("dir.notSent", { message: error.message }), true);
      return;
    }
    send(body);
  });
}

// The director's console's forms for the board in view (out of director.js): the ruling form,
// its fields and what each ruling does (rulings.js), and declarer's lead option recorded as
// a table without devices reports it (Laws 50D2, 51B: lead_options.js), sent as declarer's
// event. `send(resultId, body, said)` posts an event for the table in view and says `said`
// in `resultId` once it is taken (or the refusal, with its field).

import { t } from "./i18n.js";
import { awaitingChoice, leadOptionNode } from "./lead_options.js";
import { RULINGS } from "./rulings.js";
import { el, SEAT_NAMES } from "./table.js";

const $ = (id) => document.getElementById(id);

function rulingFields() {
  const form = $("ruling-action").value;
  const ruling = RULINGS[form];
  for (const label of document.querySelectorAll("#ruling-form [data-field]")) {
    label.hidden = !ruling.fields.includes(label.dataset.field);
  }
  $("ruling-does").textContent = t(`rule.${form}.does`);
  $("ruling-law").placeholder = ruling.law ? t("dir.lawCited", { law: ruling.law })
    : t("dir.lawExample");
}

/** The ruling form: the fields of the chosen action, and what it does; sent by `send`. */
export function bindRulingForm(send) {
  $("ruling-action").replaceChildren(...Object.keys(RULINGS).map((action) =>
    el("option", { value: action, text: t(`rule.${action}.label`) })));
  $("ruling-action").addEventListener("change", rulingFields);
  rulingFields();
  $("ruling-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = $("ruling-action").value;
    const fields = RULINGS[form].fields;
    const body = { type: "ruling", action: RULINGS[form].action || form };
    const value = (id) => $(id).value.trim();
    if (fields.includes("index") && value("ruling-index")) { // a call by its number, else
      body.index = Number(value("ruling-index")) - 1;          // the seat's last call
    } else if (fields.includes("seat")) body.seat = value("ruling-seat");
    for (const key of ["obligation", "suit", "restriction", "score"]) {
      if (fields.includes(key) && value(`ruling-${key}`)) body[key] = value(`ruling-${key}`);
    }
    if (fields.includes("tricks") && value("ruling-tricks")) { // else refused, naming `tricks`
      body.tricks = Number(value("ruling-tricks"));
    }
    if (value("ruling-law")) body.law = value("ruling-law");
    if (value("ruling-note")) body.note = value("ruling-note");
    send("ruling-result", body, t("dir.rulingGiven",
      { ruling: t(`rule.${form}.label`).toLowerCase() }));
  });
}


/** While declarer's option on a lead awaits (Law 50D2), its buttons for the director to
 * record what the table reports: sent as declarer's `lead_option`; null otherwise. */
export function leadOptionForm(board, send) {
  const play = board && board.play;
  if (!awaitingChoice(play)) return null;
  const declarer = play.declarer;
  return leadOptionNode(board, declarer, (choice, suit) => send("lead-option-result", {
    type: "lead_option", seat: declarer, choice, ...(suit ? { suit } : {}) },
  t(suit && choice !== "free" ? "dir.optionSuit" : "dir.option",
    { chosen: t(`dir.chosen.${choice}`), suit: suit ? t(`suits.${suit}`) : "" })),
  { title: t("dir.optionTitle", { seat: SEAT_NAMES[declarer] }) });
}

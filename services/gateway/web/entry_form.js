// The entry form's parts, shared by the entry page and the Director's panel of entries: a
// player a line (name, optional ID), the body the gateway takes, the words of its answer. The
// words are the catalogue's (i18n.js); the names as sent.

import { t } from "./i18n.js";
import { el } from "./table.js";

/** The `count` players' lines; their inputs are named as the gateway names its fields
 * (`players[1].name`), so that a refusal marks its own. */
export function playerRows(count, teams) {
  const who = (i) => {
    if (i === 0) return t("entry.you");
    return teams ? t("entry.teamMate", { number: i }) : t("entry.partner");
  };
  return Array.from({ length: count }, (_, i) => el("fieldset", { class: "entry-player" },
    el("legend", { text: who(i) }),
    el("label", {}, t("entry.name"), el("input", { type: "text", name: `players[${i}].name`,
      maxlength: 64, required: i < (teams ? 4 : 2), autocomplete: i === 0 ? "name" : "off" })),
    el("label", {}, t("entry.id"), el("input", { type: "text", name: `players[${i}].id`,
      maxlength: 64, placeholder: t("entry.idPlaceholder") }))));
}

/** The entry as the gateway takes it, from a form with the players' lines: empty lines past
 * the needed ones left out. */
export function entryBody(form) {
  const lines = [...form.querySelectorAll(".entry-player")].map((line) => ({
    name: line.querySelector("input[name$='.name']").value.trim(),
    id: line.querySelector("input[name$='.id']").value.trim(),
  }));
  const needed = form.querySelector("#team-line") && !form.querySelector("#team-line").hidden ?
    4 : 2;
  const players = lines.filter((p, i) => i < needed || p.name || p.id);
  const team = form.querySelector("input[name='team']");
  return team && team.value.trim() ? { players, team: team.value.trim() } : { players };
}

/** "You are entered: entrant 7 (7 entries so far)". */
export function entryWords(answer) {
  return t(answer.made === false ? "entry.enteredAgain" : "entry.entered",
    { name: answer.name, number: answer.number, count: answer.entrants });
}

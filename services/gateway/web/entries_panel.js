// A tournament's entries on the director's console: open them (the entry link to publish),
// watch them arrive (read again every two seconds while the panel is in view), refuse one
// with a reason or edit it, and close: the tournament is created with the standing entries
// and the movement their number chooses (an individual's: one player an entry). The gateway
// checks everything; nothing here does.

import { getJson, postJson, putJson } from "./api.js";
import { entryBody, playerRows } from "./entry_form.js";
import { t } from "./i18n.js";
import { el } from "./table.js";

const EVERY_MS = 2000;
const KINDS = ["howell", "individual", "mitchell", "swiss", "teams"]; // res.kind.<kind>

function playersText(entry) {
  return entry.players.map((p) => (p.id ? `${p.name} (${p.id})` : p.name)).join(", ");
}

function listNode(view, onRefuse, onEdit) {
  if (!view.entries.length) return el("p", { class: "mode", text: t("de.none") });
  return el("table", { class: "entries", "aria-label": t("de.tableLabel") },
    el("thead", {}, el("tr", {}, ["entry", "entrant", "name", "players", ""].map((h) =>
      el("th", { scope: "col", text: h ? t(`de.col.${h}`) : "" })))),
    el("tbody", {}, view.entries.map((e) => el("tr", {
      "data-entry": e.entry, "data-state": e.refused === null ? "standing" : "refused" },
    el("td", { text: String(e.entry) }),
    el("td", { text: e.number === null ? "—" : String(e.number) }),
    el("td", { text: e.name, "data-verbatim": "" }),
    el("td", { text: playersText(e), "data-verbatim": "" }),
    el("td", {}, e.refused !== null ? t("dir.refused", { message: e.refused }) : view.closed ? ""
      : [
      el("button", { type: "button", class: "entry-refuse", onclick: () => onRefuse(e),
        text: t("de.refuse") }),
      " ",
      el("button", { type: "button", class: "entry-edit", onclick: () => onEdit(e),
        text: t("dir.edit") })])))));
}

/** Binds the entries panel; `act` is the console's way to send a request and say its
 * answer, `visible()` whether the panel is in view. */
export function bindEntries({ token, act, visible }) {
  const $ = (id) => document.getElementById(id);
  const state = { tournament: "", editing: null, team: "", teams: false };
  const path = () => `/api/tournaments/${encodeURIComponent(state.tournament)}/entries`;

  const render = (view) => {
    state.teams = view.teams;
    const standing = view.entries.filter((e) => e.refused === null).length;
    $("entries-summary").textContent = t(view.closed ? "de.summaryClosed" : "de.summaryOpen",
      { tournament: view.tournament, standing, count: view.entries.length });
    $("entries-link").href = view.link;
    $("entries-link").textContent = `${window.location.origin}${view.link}`;
    $("entries-link").dataset.verbatim = "";
    $("entries-link").hidden = false;
    $("entries-close").disabled = view.closed;
    $("entries-list").replaceChildren(listNode(view, refuse, edit));
  };
  const read = async () => {
    if (!state.tournament || !visible()) return;
    try { render(await getJson(path(), token)); } catch { /* said at the next answer */ }
  };
  const watch = (name) => {
    state.tournament = name;
    read();
  };
  function refuse(entry) {
    act("entries-result", () => postJson(`${path()}/${entry.entry}/refuse`, token,
      { reason: $("entries-reason").value.trim() }), (answer) => {
      read();
      return t("de.refused", { entry: answer.entry, name: answer.name });
    });
  }
  function edit(entry) {
    state.editing = entry.entry;
    state.team = entry.team;
    $("entry-edit-title").textContent = t("de.editTitle", { entry: entry.entry });
    $("entry-edit-players").replaceChildren(...playerRows(entry.players.length, state.teams));
    entry.players.forEach((p, i) => {
      $("entry-edit-players").querySelector(`[name='players[${i}].name']`).value = p.name;
      $("entry-edit-players").querySelector(`[name='players[${i}].id']`).value = p.id;
    });
    $("entry-edit-form").hidden = false;
  }
  $("entry-edit-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const { players } = entryBody($("entry-edit-form"));
    const body = state.team ? { players, team: state.team } : { players };
    act("entries-result", () => putJson(`${path()}/${state.editing}`, token, body),
      (answer) => {
        $("entry-edit-form").hidden = true;
        read();
        return t("de.edited", { entry: answer.entry, name: answer.name });
      });
  });
  $("entry-edit-cancel").addEventListener("click", () => { $("entry-edit-form").hidden = true; });
  $("entries-open-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("entries-tournament").value.trim();
    const kind = $("entries-kind").value;
    // an individual's entries are players alone, never teams
    const teams = kind !== "individual" && $("entries-teams").value === "1";
    const body = { teams, name: $("entries-event").value.trim(),
      deals: $("entries-deals").value, movement: {
        boards_per_round: Number($("entries-per").value), ...(kind ? { kind } : {}),
        ...($("entries-minutes").value ?
          { minutes_per_board: Number($("entries-minutes").value) } : {}) } };
    act("entries-open-result", () => postJson(
      `/api/tournaments/${encodeURIComponent(name)}/entries/open`, token, body), (answer) => {
      watch(answer.tournament);
      return t(answer.opened ? "de.opened" : "de.openAlready");
    });
  });
  $("entries-kind").addEventListener("change", () => { // an individual's: players alone
    $("entries-teams").disabled = $("entries-kind").value === "individual";
  });
  $("entries-watch").addEventListener("click", () => watch($("entries-tournament").value.trim()));
  $("entries-close").addEventListener("click", () => {
    act("entries-close-result", () => postJson(`${path()}/close`, token, {}), (answer) => {
      read();
      const m = answer.movement;
      const movement = m ? t("de.movement", { kind: KINDS.includes(m.kind)
        ? t(`res.kind.${m.kind}`) : m.kind, rounds: t("de.rounds", { count: m.rounds }),
      boards: t("de.boards", { count: m.boards_per_round }) }) : "";
      return t("de.closed", { tournament: answer.tournament, entrants: answer.entrants,
        tables: answer.tables, movement });
    });
  });
  window.setInterval(read, EVERY_MS);
}

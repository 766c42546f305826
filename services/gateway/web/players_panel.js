// The players' links on the director's console (the player's evening): each player's own link
// for the evening with a copy button, "New link" (reissued: the links he has stop working at
// once) and "Move" (a late change: his link seats him as another player from now on), each
// confirmed before it is sent. Keyboard: the confirmation takes the focus (Enter sends it,
// Escape cancels and gives the focus back). The gateway checks everything; its refusals are
// said in words for people (the console's `act`).

import { getJson, postJson } from "./api.js";
import { copy, full } from "./links.js";
import { el } from "./table.js";

const $ = (id) => document.getElementById(id);
const key = (entrant, place) => `${entrant}.${place}`;

/** Binds the players' panel; `act` is the console's way to send a request and say its
 * answer, `tournament()` the tournament picked on the console (used when no name is typed). */
export function bindPlayers({ token, act, tournament }) {
  const state = { name: "", players: [], noun: "pair", pending: null, back: null };
  const path = (...parts) => ["/api/tournaments", ...[state.name, ...parts]
    .map(encodeURIComponent)].join("/");
  const who = (p) => p.name || `player ${p.place} of ${state.noun} ${p.entrant}`;
  const placeWords = (entrant, place) => `player ${place} of ${state.noun} ${entrant}`;

  function rowNode(p) {
    const [entrant, place] = p.sits_as;
    const moved = entrant !== p.entrant || place !== p.place;
    const link = el("input", { type: "text", readonly: true, value: full(p.link),
      class: "link-url player-link", "aria-label": `${who(p)}'s link` });
    const button = (cls, text, label, onclick) => el("button", { type: "button", class: cls,
      text, "aria-label": `${label} ${who(p)}`, onclick });
    const copyButton = button("copy", "Copy", "Copy the link of", () => copy(link.value,
      copyButton));
    return el("tr", { "data-player": key(p.entrant, p.place),
      "data-generation": String(p.generation) },
    el("td", { text: `${p.entrant} ${p.entrant_name}` }),
    el("th", { scope: "row", text: p.player_id ? `${who(p)} (${p.player_id})` : who(p) }),
    el("td", { class: "player-sits", text: moved ? `${state.noun} ${entrant}, player ${place}`
      : "own place" }),
    el("td", { class: "player-link-cell" }, link, " ", copyButton),
    el("td", {}, button("player-reissue", "New link", "A new link for", (event) =>
      confirm(event.target, `Give ${who(p)} a new link? The link he has stops working at ` +
        "once, and so does his seat of the round in progress.", () => reissue(p))), " ",
    button("player-move", "Move", "Move", (event) => openMove(event.target, p))));
  }

  function render() {
    const players = state.players;
    state.noun = players.some((p) => p.place > 2) ? "team" : "pair";
    $("players-list").replaceChildren(players.length ? el("table", { class: "players",
      "aria-label": `The players of ${state.name} and their links` },
    el("thead", {}, el("tr", {}, ["Entrant", "Player", "Sits as", "His link", ""].map((h) =>
      el("th", { scope: "col", text: h })))),
    el("tbody", {}, players.map(rowNode))) :
      el("p", { class: "quiet", text: "No player yet." }));
  }

  async function read() {
    const view = await getJson(path("players"), token);
    state.players = view.players;
    render();
    return view;
  }

  function close(id) {
    $(id).hidden = true;
    if (state.back && state.back.isConnected) state.back.focus();
  }

  /** The confirmation: `words`, then `send` on Yes (Enter on it), nothing on Cancel or
   * Escape. */
  function confirm(from, words, send) {
    state.back = from;
    state.pending = send;
    $("players-move").hidden = true;
    $("players-confirm-words").textContent = words;
    $("players-confirm").hidden = false;
    $("players-confirm-yes").focus();
  }

  function reissue(p) {
    act("players-result", () => postJson(path("players", String(p.entrant), String(p.place),
      "reissue"), token, {}), (made) => {
      read().catch(() => {});
      return `New link for ${who(p)} (his link number ${made.generation}): hand him this ` +
        `one, ${full(made.link)}; the old one no longer works.`;
    });
  }

  function openMove(from, p) {
    state.back = from;
    state.pending = null;
    $("players-confirm").hidden = true;
    $("players-move-title").textContent = `Move ${who(p)}: from now on he sits as`;
    $("players-move-to").replaceChildren(...state.players.map((q) => el("option", {
      value: key(q.entrant, q.place),
      text: `${placeWords(q.entrant, q.place)}${q.name ? ` (${q.name}'s place)` : ""}` })));
    $("players-move-to").value = key(...p.sits_as);
    $("players-move").dataset.player = key(p.entrant, p.place);
    $("players-move").hidden = false;
    $("players-move-to").focus();
  }

  $("players-move-send").addEventListener("click", () => {
    const p = state.players.find((q) => key(q.entrant, q.place) ===
      $("players-move").dataset.player);
    if (!p) return;
    const [toEntrant, toPlace] = $("players-move-to").value.split(".").map(Number);
    const home = toEntrant === p.entrant && toPlace === p.place;
    const where = home ? "in his own place again" : `as ${placeWords(toEntrant, toPlace)}`;
    confirm(state.back, `Move ${who(p)}? ${who(p)} sits ${where} from now on: his link ` +
      "takes him to that place's seat.", () => act("players-result", () => postJson(
      path("players", "moves"), token, { entrant: p.entrant, place: p.place,
        to_entrant: toEntrant, to_place: toPlace }), () => {
      read().catch(() => {});
      return `${who(p)} now sits ${where}.`;
    }));
  });
  $("players-move-cancel").addEventListener("click", () => close("players-move"));
  $("players-confirm-yes").addEventListener("click", () => {
    const send = state.pending;
    state.pending = null;
    close("players-confirm");
    if (send) send();
  });
  $("players-confirm-no").addEventListener("click", () => close("players-confirm"));
  for (const id of ["players-confirm", "players-move"]) {
    $(id).addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        close(id);
      }
    });
  }
  $("players-form").addEventListener("submit", (event) => {
    event.preventDefault();
    state.name = $("players-tournament").value.trim() || tournament();
    $("players-confirm").hidden = true;
    $("players-move").hidden = true;
    act("players-result", read, (view) =>
      `${view.players.length} players of ${view.tournament}: hand each his own link.`);
  });
}

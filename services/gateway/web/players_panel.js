// The players' links on the director's console (the player's evening): each player's own link
// for the evening with a copy button, "New link" (reissued: the links he has stop working at
// once) and "Move" (a late change: his link seats him as another player from now on), each
// confirmed before it is sent. Keyboard: the confirmation takes the focus (Enter sends it,
// Escape cancels and gives the focus back). The gateway checks everything; its refusals are
// said in words for people (the console's `act`).

import { getJson, postJson } from "./api.js";
import { copy, full } from "./links.js";
import { t } from "./i18n.js";
import { el } from "./table.js";

const $ = (id) => document.getElementById(id);
const key = (entrant, place) => `${entrant}.${place}`;

/** Binds the players' panel; `act` is the console's way to send a request and say its
 * answer, `tournament()` the tournament picked on the console (used when no name is typed). */
export function bindPlayers({ token, act, tournament }) {
  const state = { name: "", players: [], noun: "pair", pending: null, back: null };
  const path = (...parts) => ["/api/tournaments", ...[state.name, ...parts]
    .map(encodeURIComponent)].join("/");
  const placeWords = (entrant, place) => t(`dp.place.${state.noun}`, { place, entrant });
  const who = (p) => p.name || placeWords(p.entrant, p.place);

  function rowNode(p) {
    const [entrant, place] = p.sits_as;
    const moved = entrant !== p.entrant || place !== p.place;
    const link = el("input", { type: "text", readonly: true, value: full(p.link),
      class: "link-url player-link", "aria-label": t("dp.linkOf", { who: who(p) }) });
    const button = (cls, text, label, onclick) => el("button", { type: "button", class: cls,
      text, "aria-label": t(label, { who: who(p) }), onclick });
    const copyButton = button("copy", t("dp.copy"), "dp.copyOf", () => copy(link.value,
      copyButton));
    return el("tr", { "data-player": key(p.entrant, p.place),
      "data-generation": String(p.generation) },
    el("td", { text: `${p.entrant} ${p.entrant_name}`, "data-verbatim": "" }),
    el("th", { scope: "row", text: p.player_id ? t("dp.withId", { who: who(p), id: p.player_id })
      : t("dp.who", { who: who(p) }) }),
    el("td", { class: "player-sits", text: moved ? t(`dp.sits.${state.noun}`, { entrant, place })
      : t("dp.ownPlace") }),
    el("td", { class: "player-link-cell" }, link, " ", copyButton),
    el("td", {}, button("player-reissue", t("dp.newLink"), "dp.newLinkFor", (event) =>
      confirm(event.target, t("dp.confirmReissue", { who: who(p) }), () => reissue(p))), " ",
    button("player-move", t("dir.move"), "dp.moveWho", (event) => openMove(event.target, p))));
  }

  function render() {
    const players = state.players;
    state.noun = players.some((p) => p.place > 2) ? "team" : "pair";
    $("players-list").replaceChildren(players.length ? el("table", { class: "players",
      "aria-label": t("dp.tableLabel", { tournament: state.name }) },
    el("thead", {}, el("tr", {}, ["entrant", "player", "sits", "link", ""].map((h) =>
      el("th", { scope: "col", text: h ? t(`dp.col.${h}`) : "" })))),
    el("tbody", {}, players.map(rowNode))) :
      el("p", { class: "quiet", text: t("dp.none") }));
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
      return t("dp.reissued", { who: who(p), generation: made.generation,
        link: full(made.link) });
    });
  }

  function openMove(from, p) {
    state.back = from;
    state.pending = null;
    $("players-confirm").hidden = true;
    $("players-move-title").textContent = t("dp.moveTitle", { who: who(p) });
    $("players-move-to").replaceChildren(...state.players.map((q) => el("option", {
      value: key(q.entrant, q.place),
      text: q.name ? t("dp.placeOf", { place: placeWords(q.entrant, q.place), name: q.name })
        : placeWords(q.entrant, q.place) })));
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
    const where = home ? t("dp.home") : t("dp.as", { place: placeWords(toEntrant, toPlace) });
    confirm(state.back, t("dp.confirmMove", { who: who(p), where }), () => act(
      "players-result", () => postJson(
      path("players", "moves"), token, { entrant: p.entrant, place: p.place,
        to_entrant: toEntrant, to_place: toPlace }), () => {
      read().catch(() => {});
      return t("dp.moved", { who: who(p), where });
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
      t("dp.shown", { count: view.players.length, tournament: view.tournament }));
  });
}

// The player's page (`/play#<player token>`): his one link all evening. It listens on its
// socket (`/api/play/live`), which sends where he is now, and again each time that changes:
// the lobby before round 1, his seat during a round (the seat page itself, moved to his table
// of the round: `seat.js`'s `sitAt`), where he goes next between rounds with his running score,
// his scorecard at the end. It polls nothing and needs no click to move. Between timed rounds
// it says when the next round starts (the clock's end; seated, the seat page's box has it).

import { clockNode, fromTournament, nextRoundText } from "./clock.js";
import { prefsNode, t, translate } from "./i18n.js";
import { fixed } from "./results_view.js";
import { statusWords } from "./socket.js";
import { tokenFromHash } from "./token.js";

const $ = (id) => document.getElementById(id);
const token = tokenFromHash();
const RETRY_MS = [500, 1000, 2000, 4000, 8000];
const PING_MS = 25000;
const REFUSED = { 4401: "play.refused4401", 4403: "play.refused4403", 4404: "play.refused4404" };

function el(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function status(stateName, detail) {
  const node = $("play-connection");
  node.dataset.state = stateName;
  node.textContent = statusWords(stateName, detail);
}

function boardsWords(boards) {
  if (!boards.length) return "";
  return boards.length === 1 ? t("play.board", { board: boards[0] })
    : t("play.boards", { first: boards[0], last: boards[boards.length - 1] });
}

const state = { seat: null, seatedAt: null, tries: 0, ws: null, pinger: null, noun: "pair" };

/** "pair 12 (Ann, Bob)", or "pair 12, The Owls (Ann, Bob)" when it has a name of its own;
 * in an individual, "player 3", or a round's partnership "players 2 and 4 (Bob, Di)" (its
 * number 10000·a + b). */
function entrantWords(entrant) {
  const names = entrant.players.filter(Boolean).join(", ");
  const noun = t(`play.${state.noun}`);
  const partnership = state.noun === "individual" && entrant.number >= 10000;
  const label = partnership ? t("play.partnershipNumbers", {
    a: Math.floor(entrant.number / 10000), b: entrant.number % 10000 })
    : entrant.number ? t(`play.${state.noun}Number`, { number: entrant.number }) : noun;
  if (state.noun === "individual") { // a player's name is his entry's: said once
    return names ? t("play.withNames", { entrant: label, names }) : label;
  }
  const named = [String(entrant.number), label, `${state.noun} ${entrant.number}`]
    .includes(entrant.name) ? label : t("play.named", { label, name: entrant.name });
  return names ? t("play.withNames", { entrant: named, names }) : named;
}

/** "Round 3: table 5, North–South, against pair 12 (Ann, Bob), boards 7–9" */
export function placeWords(seat) {
  return t("play.place", { round: seat.round, table: seat.table_number,
    side: t(`side.${seat.direction}`), seat: t(`seat.${seat.seat}`),
    against: entrantWords(seat.opponents), boards: boardsWords(seat.boards) });
}

/** An individual's partner for the round his seat is about (each round another player). */
function partnerNode(view) {
  const names = view.seat?.partnership?.players.filter((n) => n !== view.player) || [];
  return names.length ? el("p", t("play.partnerThisRound", { partner: names.join(", ") }),
    { class: "next", id: "play-partner" }) : null;
}

function scoreNode(view) {
  const line = view.score;
  if (!line) return el("p", t("play.noScore"), { class: "quiet score" });
  const value = line.percent !== undefined && line.percent !== null ? `${fixed(line.percent)} %`
    : line.vp !== undefined ? `${fixed(line.vp)} VP` : `${line.points}`;
  return el("p", t("play.score", { value, rank: line.rank, count: view.complete }),
    { class: "score", id: "play-score" });
}

function lobbyNodes(view) {
  const event = view.date ? t("play.eventOn", { name: view.name, date: view.date }) : view.name;
  const who = view.player || t("play.player", { place: view.place });
  const nodes = [el("p", t(view.partner.length ? "play.youAreWith" : "play.youAre",
    { event, who, entrant: entrantWords(view.entrant), partner: view.partner.join(", ") }))];
  if (view.entries) { // his entry's link before the tournament exists
    nodes.push(el("p", t(view.entries === "open" ? "play.enteredOpen" : "play.enteredClosed",
      { entry: view.entry }), { class: "next", id: "play-next" }));
  } else {
    nodes.push(view.seat ? el("p", placeWords(view.seat), { class: "next", id: "play-next" })
      : el("p", t("play.sitOut", { round: 1 }), { class: "next", id: "play-next" }));
    nodes.push(...[partnerNode(view)].filter(Boolean)); // an individual's round-1 partner
  }
  const list = el("ol", null, { id: "play-entrants" });
  for (const entrant of view.entrants || []) list.append(el("li", entrantWords(entrant)));
  nodes.push(el("h3", t("play.entrants", { count: (view.entrants || []).length })), list);
  return nodes;
}

function scorecardNode(rows) {
  const table = el("table", null, { id: "play-scorecard" });
  const head = el("tr");
  for (const title of ["board", "dir", "against", "contract", "points", "percent"]) {
    head.append(el("th", t(`play.card.${title}`), { scope: "col" }));
  }
  table.append(head);
  for (const row of rows) {
    const tr = el("tr");
    const percent = row.percent === null || row.percent === undefined ? "" : fixed(row.percent);
    const side = ["NS", "EW"].includes(row.direction) ? t(`vul.${row.direction}`) : row.direction;
    for (const value of [row.board, side, row.opponent, row.contract || "", row.points,
      percent]) tr.append(el("td", String(value)));
    for (const at of [2, 3]) tr.children[at].dataset.verbatim = ""; // names, the contract
    table.append(tr);
  }
  return table;
}

function panel(view) {
  const body = [];
  let heading = t("play.welcome");
  if (view.phase === "lobby") {
    heading = t("play.lobby");
    body.push(...lobbyNodes(view));
  } else if (view.phase === "seated") {
    heading = t("play.round", { round: view.round });
    body.push(el("p", placeWords(view.seat), { class: "next", id: "play-next" }));
    body.push(...[partnerNode(view)].filter(Boolean));
  } else if (view.phase === "between") {
    heading = t("play.between", { round: view.round });
    body.push(view.seat ? el("p", placeWords(view.seat), { class: "next", id: "play-next" })
      : el("p", t("play.sitOutOrNotDrawn", { round: view.round }),
        { class: "next", id: "play-next" }));
    body.push(...[partnerNode(view)].filter(Boolean));
    const clock = view.clock;
    if (clock && clock.round === view.round - 1) {
      body.push(el("p", null, { class: "next-start", id: "play-next-start" }));
      body[body.length - 1].append(clockNode(fromTournament(clock), nextRoundText));
    }
    body.push(scoreNode(view));
  } else if (view.phase === "end") {
    heading = t("play.end");
    body.push(scoreNode(view));
    if (view.scorecard) body.push(el("h3", t("play.scorecard")), scorecardNode(view.scorecard));
    const link = el("a", t("play.results"), { href: view.results, id: "play-results" });
    body.push(el("p", null), link);
  }
  $("play-heading").textContent = heading;
  $("play-body").replaceChildren(...body);
}

async function seatModule() { // the seat page's markup and module, once
  if (!state.seat) {
    state.seat = (async () => {
      const html = await (await fetch("/seat")).text();
      const doc = new DOMParser().parseFromString(html, "text/html");
      const bar = document.importNode(doc.querySelector("header"), true);
      const main = document.importNode(doc.querySelector("main"), true);
      bar.id = "seat-bar";
      main.id = "seat-main";
      translate(bar); // the seat's markup in the page's language (this page's own: at load)
      translate(main);
      document.body.append(bar, main);
      return import("./seat.js");
    })();
  }
  return state.seat;
}

async function sit(view) {
  const seated = view.phase === "seated" && view.seat && view.seat.token;
  const at = seated ? `${view.seat.table}/${view.seat.seat}/${view.seat.round}` : null;
  if (at === state.seatedAt) return;
  state.seatedAt = at;
  if (!seated && !state.seat) return;
  const seat = await seatModule();
  seat.sitAt(seated ? view.seat.token : null);
  $("seat-bar").hidden = !seated;
  $("seat-main").hidden = !seated;
}

function show(view) {
  state.noun = view.movement === "individual" ? "individual"
    : ["teams", "swiss"].includes(view.movement) ? "team" : "pair";
  document.body.dataset.phase = view.phase;
  document.body.dataset.round = String(view.round);
  document.body.dataset.table = view.seat ? view.seat.table : "";
  $("play-title").textContent = view.name; // the event's name, the Director's words
  $("play-title").dataset.verbatim = "";
  $("play-where").textContent = view.phase === "seated" || view.phase === "between"
    ? t("play.roundOf", { round: view.round, rounds: view.rounds }) : "";
  panel(view);
  sit(view);
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${window.location.host}/api/play/live`);
  state.ws = ws;
  ws.addEventListener("open", () => {
    ws.send(JSON.stringify({ type: "auth", token }));
    state.tries = 0;
    status("open");
    state.pinger = window.setInterval(() => ws.send('{"type":"ping"}'), PING_MS);
  });
  ws.addEventListener("message", (event) => {
    const view = JSON.parse(event.data);
    if (view.type !== "pong") show(view);
  });
  ws.addEventListener("close", (event) => {
    window.clearInterval(state.pinger);
    if (REFUSED[event.code]) {
      status("refused", event.reason || t(REFUSED[event.code])); // a refused entry says so
      document.body.dataset.phase = "refused";
      if (state.seat) sit({ phase: "refused" });
      return;
    }
    status("reconnecting");
    const wait = RETRY_MS[Math.min(state.tries, RETRY_MS.length - 1)];
    state.tries += 1;
    window.setTimeout(connect, wait);
  });
}

$("play-prefs").replaceChildren(prefsNode("play-prefs"));
if (token) {
  connect();
} else {
  status("refused", t("play.needsLink"));
}

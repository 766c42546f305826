// The public results page (`/results#<tournament>`): the rankings, each board's traveller, each
// entrant's scorecard and the Director's scores, read without a token and read again every
// POLL_MS, so that a result or an adjustment shows within a second. The server decides what
// the public sees: a board's traveller only once every table that plays it has finished it.
// Another tournament in the `#` (a link followed, the address edited) is followed at once:
// the page is emptied and reads the new one's results; a read still under way for the one
// before is dropped. Each complete board's hand record (its deal, double-dummy table and par)
// is read beside (GET …/hand-records, every HANDS_MS while a complete board has none yet) and
// shown with its traveller.

import {
  directorNode, isTeams, namesOf, rankingsNode, scorecardsNode, travellersNode,
} from "./results_view.js";
import { el } from "./table.js";
import { counted } from "./words.js";

const POLL_MS = 250;
const HANDS_MS = 1000;
const SECTIONS = ["rankings", "director", "travellers", "scorecards", "scorecard-pick"];
const $ = (id) => document.getElementById(id);
// `reading` counts the tournaments followed: a read answers only if it is still the current
const page = { tournament: "", text: "", doc: null, picked: null, reading: 0, timer: null,
  hands: {}, handsText: "", handsAt: 0 };

function tournamentInHash() {
  const text = window.location.hash.replace(/^#/, "");
  try {
    return decodeURIComponent(text).trim();
  } catch { // a malformed %-escape: the name as written
    return text.trim();
  }
}

function show(id, node) { $(id).replaceChildren(node); }

/** The movement as a scorer names it: a Mitchell's arrow switch (one winner) said. */
function movementText(movement) {
  if (movement.team_scoring) {
    return `${movement.kind}, ${movement.team_scoring.replaceAll("_", "-")}`;
  }
  const n = movement.arrow_switch || 0;
  if (movement.imps_to_vp) return `${movement.kind}, ${movement.scoring} to VPs a round`;
  if (!n) return movement.kind;
  return `${movement.kind}, arrow-switched (${n === 1 ? "last round" : `last ${n} rounds`}):`
    + " one field";
}

function render() {
  const doc = page.doc;
  $("title").textContent = `Results — ${doc.name || doc.tournament}`;
  document.title = `Results: ${doc.name || doc.tournament}`;
  const boards = isTeams(doc) ? ""
    : ` · ${counted(doc.complete.length, "board")} complete`;
  $("summary").textContent = counted(doc.entrants.length, isTeams(doc) ? "team" : "pair")
    + ` · ${movementText(doc.movement)} · round ${doc.rounds} of ${doc.movement.rounds}${boards}`;
  show("rankings", rankingsNode(doc));
  show("director", directorNode(doc));
  show("travellers", travellersNode(doc, page.hands));
  $("travellers-note").textContent = "A board's traveller is shown once every table that " +
    "plays it has finished it.";
  const names = namesOf(doc);
  const pick = $("scorecard-pick");
  if (pick.options.length !== doc.entrants.length) {
    pick.replaceChildren(...doc.entrants.map((e) => el("option", { value: e.number,
      text: `${e.number} ${names[e.number]}` })));
    page.picked = page.picked ?? doc.entrants[0]?.number;
    pick.value = String(page.picked);
  }
  show("scorecards", scorecardsNode(doc, page.picked));
}

$("scorecard-pick").addEventListener("change", () => {
  page.picked = Number($("scorecard-pick").value);
  if (page.doc) render();
});
$("print").addEventListener("click", () => window.print());

/** Whether a complete board still lacks its solved hand record. */
function handsMissing() {
  return page.doc && !isTeams(page.doc)
    && page.doc.complete.some((b) => !["ready", "failed"].includes(page.hands[b]?.status));
}

async function readHands(reading) {
  page.handsAt = Date.now();
  try {
    const response = await fetch(
      `/api/tournaments/${encodeURIComponent(page.tournament)}/hand-records`,
      { headers: { Accept: "application/json" }, cache: "no-store" });
    const text = await response.text();
    if (reading !== page.reading || !response.ok || text === page.handsText) return;
    page.handsText = text;
    page.hands = Object.fromEntries(JSON.parse(text).boards.map((b) => [b.board, b]));
    if (page.doc) render();
  } catch { /* read again at the next poll */ }
}

function connection(state, text) {
  $("connection").dataset.state = state;
  $("connection").textContent = text;
}

async function poll(reading) {
  let next = true;
  try {
    const response = await fetch(
      `/api/tournaments/${encodeURIComponent(page.tournament)}/results`,
      { headers: { Accept: "application/json" }, cache: "no-store" });
    const text = await response.text();
    if (reading !== page.reading) return; // the page follows another tournament now
    if (!response.ok) {
      let message = `${response.status}`;
      try { message = JSON.parse(text).error || message; } catch { /* not JSON */ }
      const refused = response.status === 404 || response.status === 400; // no such results
      connection(refused ? "refused" : "reconnecting", message);
      next = !refused;
    } else {
      connection("open", "Live");
      if (text !== page.text) {
        page.text = text;
        page.doc = JSON.parse(text);
        render();
      }
      if (handsMissing() && Date.now() - page.handsAt >= HANDS_MS) await readHands(reading);
    }
  } catch {
    if (reading !== page.reading) return;
    connection("reconnecting", "Reconnecting…");
  }
  if (next) page.timer = window.setTimeout(() => poll(reading), POLL_MS);
}

/** The tournament in the `#`, from nothing: what the page showed of another one is gone. */
function follow() {
  window.clearTimeout(page.timer);
  page.reading += 1;
  Object.assign(page, { tournament: tournamentInHash(), text: "", doc: null, picked: null,
    hands: {}, handsText: "", handsAt: 0 });
  $("hand-records").href = `/hand-records#${encodeURIComponent(page.tournament)}`;
  $("title").textContent = "Results";
  document.title = "Results — tableserver";
  $("summary").textContent = "";
  $("travellers-note").textContent = "";
  for (const id of SECTIONS) $(id).replaceChildren();
  if (!page.tournament) {
    connection("refused", "No tournament: open /results#<tournament>");
    return;
  }
  connection("connecting", "Connecting…");
  poll(page.reading);
}

window.addEventListener("hashchange", follow);
follow();

// The public results page (`/results#<tournament>`): the rankings, each board's traveller, each
// entrant's scorecard and the Director's scores, read without a token and read again every
// POLL_MS, so that a result or an adjustment shows within a second. The server decides what
// the public sees: a board's traveller only once every table that plays it has finished it.

import {
  directorNode, namesOf, rankingsNode, scorecardsNode, travellersNode,
} from "./results_view.js";
import { el } from "./table.js";

const POLL_MS = 250;
const $ = (id) => document.getElementById(id);
const tournament = decodeURIComponent(window.location.hash.replace(/^#/, "")).trim();
const page = { text: "", doc: null, picked: null };

function show(id, node) { $(id).replaceChildren(node); }

function render() {
  const doc = page.doc;
  $("title").textContent = `Results — ${doc.name || doc.tournament}`;
  document.title = `Results: ${doc.name || doc.tournament}`;
  const boards = doc.scoring === "vp" ? "" : ` · ${doc.complete.length} boards complete`;
  $("summary").textContent = `${doc.entrants.length} ${doc.scoring === "vp" ? "teams" : "pairs"}`
    + ` · ${doc.movement.kind} · round ${doc.rounds} of ${doc.movement.rounds}${boards}`;
  show("rankings", rankingsNode(doc));
  show("director", directorNode(doc));
  show("travellers", travellersNode(doc));
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

function connection(state, text) {
  $("connection").dataset.state = state;
  $("connection").textContent = text;
}

async function poll() {
  try {
    const response = await fetch(`/api/tournaments/${encodeURIComponent(tournament)}/results`,
      { headers: { Accept: "application/json" }, cache: "no-store" });
    const text = await response.text();
    if (!response.ok) {
      let message = `${response.status}`;
      try { message = JSON.parse(text).error || message; } catch { /* not JSON */ }
      const refused = response.status === 404 || response.status === 400; // no such results
      connection(refused ? "refused" : "reconnecting", message);
      if (refused) return;
    } else {
      connection("open", "Live");
      if (text !== page.text) {
        page.text = text;
        page.doc = JSON.parse(text);
        render();
      }
    }
  } catch {
    connection("reconnecting", "Reconnecting…");
  }
  window.setTimeout(poll, POLL_MS);
}

if (tournament) poll();
else connection("refused", "No tournament: open /results#<tournament>");

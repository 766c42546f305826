// The printable hand-records page (`/hand-records#<tournament>`): every board's deal with its
// double-dummy table and par, read without a token and read again every POLL_MS until each
// board is there and solved. The server decides what the public sees: a board once every
// table that plays it has finished it (Law 16C1); the others are counted, not shown.

import { handRecordNode } from "./hand_record_view.js";
import { counted } from "./words.js";

const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);
const page = { tournament: "", text: "", reading: 0, timer: null };

function tournamentInHash() {
  const text = window.location.hash.replace(/^#/, "");
  try {
    return decodeURIComponent(text).trim();
  } catch { // a malformed %-escape: the name as written
    return text.trim();
  }
}

function connection(state, text) {
  $("connection").dataset.state = state;
  $("connection").textContent = text;
}

function render(doc) {
  $("title").textContent = `Hand records — ${doc.name || doc.tournament}`;
  document.title = `Hand records: ${doc.name || doc.tournament}`;
  $("summary").textContent = `${counted(doc.boards.length, "board")} shown`
    + (doc.withheld ? ` · ${doc.withheld} still to be played` : "");
  $("records-note").textContent = doc.withheld
    ? "A board's deal is shown once every table that plays it has finished it." : "";
  $("records").replaceChildren(...doc.boards.map(handRecordNode));
}

/** Whether the page has all it will get: every board shown and solved. */
const finished = (doc) => doc.withheld === 0 && doc.boards.every((b) => b.status !== "pending");

async function poll(reading) {
  let next = true;
  try {
    const response = await fetch(
      `/api/tournaments/${encodeURIComponent(page.tournament)}/hand-records`,
      { headers: { Accept: "application/json" }, cache: "no-store" });
    const text = await response.text();
    if (reading !== page.reading) return;
    if (!response.ok) {
      let message = `${response.status}`;
      try { message = JSON.parse(text).error || message; } catch { /* not JSON */ }
      const refused = response.status === 404 || response.status === 400;
      connection(refused ? "refused" : "reconnecting", message);
      next = !refused;
    } else {
      const doc = JSON.parse(text);
      connection("open", finished(doc) ? "Complete" : "Live");
      if (text !== page.text) {
        page.text = text;
        render(doc);
      }
      next = !finished(doc);
    }
  } catch {
    if (reading !== page.reading) return;
    connection("reconnecting", "Reconnecting…");
  }
  if (next) page.timer = window.setTimeout(() => poll(reading), POLL_MS);
}

function follow() {
  window.clearTimeout(page.timer);
  page.reading += 1;
  Object.assign(page, { tournament: tournamentInHash(), text: "" });
  $("records").replaceChildren();
  $("summary").textContent = "";
  if (!page.tournament) {
    connection("refused", "No tournament: open /hand-records#<tournament>");
    return;
  }
  const name = encodeURIComponent(page.tournament);
  $("pbn").href = `/api/tournaments/${name}/hand-records?format=pbn`;
  $("results").href = `/results#${name}`;
  connection("connecting", "Connecting…");
  poll(page.reading);
}

$("print").addEventListener("click", () => window.print());
window.addEventListener("hashchange", follow);
follow();

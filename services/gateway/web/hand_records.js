// The printable hand-records page (`/hand-records#<tournament>`): every board's deal with its
// double-dummy table and par, read without a token and read again every POLL_MS until each
// board is there and solved. The server decides what the public sees: a board once every
// table that plays it has finished it (Law 16C1); the others are counted, not shown.

import { handRecordNode } from "./hand_record_view.js";
import { followTournament } from "./public_reader.js";
import { counted } from "./words.js";

const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);

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

$("print").addEventListener("click", () => window.print());
followTournament({
  page: "hand-records",
  everyMs: POLL_MS,
  url: (t) => `/api/tournaments/${encodeURIComponent(t)}/hand-records`,
  label: (doc) => (finished(doc) ? "Complete" : "Live"),
  start(tournament) {
    $("records").replaceChildren();
    $("summary").textContent = "";
    const name = encodeURIComponent(tournament);
    $("pbn").href = `/api/tournaments/${name}/hand-records?format=pbn`;
    $("results").href = `/results#${name}`;
  },
  answer(doc, changed) {
    if (changed) render(doc);
    return !finished(doc);
  },
});

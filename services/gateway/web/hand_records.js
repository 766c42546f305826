// The printable hand-records page (`/hand-records#<tournament>`): every board's deal with its
// double-dummy table and par, read without a token and read again every POLL_MS until each
// board is there and solved. The server decides what the public sees: a board once every
// table that plays it has finished it (Law 16C1); the others are counted, not shown. The
// page's words are the catalogue's (i18n.js, its switch in the bar).

import { handRecordNode } from "./hand_record_view.js";
import { prefsNode, t } from "./i18n.js";
import { followTournament } from "./public_reader.js";

const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);

function render(doc) {
  const name = doc.name || doc.tournament;
  $("title").textContent = t("hr.titleOf", { name });
  document.title = t("hr.tabOf", { name });
  const shown = t("hr.shown", { count: doc.boards.length });
  $("summary").textContent = doc.withheld
    ? t("hr.withheld", { shown, count: doc.withheld }) : shown;
  $("records-note").textContent = doc.withheld ? t("hr.note") : "";
  $("records").replaceChildren(...doc.boards.map(handRecordNode));
}

/** Whether the page has all it will get: every board shown and solved. */
const finished = (doc) => doc.withheld === 0 && doc.boards.every((b) => b.status !== "pending");

$("print").addEventListener("click", () => window.print());
$("prefs").replaceChildren(prefsNode("hand-records-prefs"));
followTournament({
  page: "hand-records",
  everyMs: POLL_MS,
  url: (t) => `/api/tournaments/${encodeURIComponent(t)}/hand-records`,
  label: (doc) => t(finished(doc) ? "hr.complete" : "pub.live"),
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

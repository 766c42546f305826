// The director's console (`/director#<director token>`): the alert queue across tables, live;
// a table's state with every hand, its record, rulings, boards and links; a tournament's
// overview, rounds, links and exports; creating tables and tournaments; a tournament's entries
// (entries_panel.js). Everything goes through the gateway's API with the director's token;
// nothing here works a Law out.

import { AlertQueue } from "./alert_queue.js";
import { download, getJson, postJson, putJson } from "./api.js";
import { compassNode } from "./compass.js";
import { linkRow, tableSlips, tournamentSlips } from "./links.js";
import { STATUS } from "./lobby.js";
import { clockPanelNode } from "./clock_panel.js";
import { bindEntries } from "./entries_panel.js";
import { bindPlayers } from "./players_panel.js";
import { directorNode, explanationsNode } from "./panels.js";
import { markPlayed, playEventParts, playRecordNode } from "./play_record.js";
import { bindRobots, robotsLine } from "./robots_panel.js";
import { bindRulingForm, leadOptionForm } from "./ruling_form.js";
import { bindScoreForm } from "./score_form.js";
import { thinkNode, thinkSummary, thinksByOffset } from "./think_times.js";
import { statusWords, TableSocket } from "./socket.js";
import { standingsNode } from "./standings.js";
import { stepNode } from "./steps.js";
import { auctionNode, contractNode, el, SEAT_NAMES } from "./table.js";
import { tokenFromHash } from "./token.js";
import { previousNode, resultNode } from "./trick.js";
import { counted, fieldWords, forPeople } from "./words.js";

const $ = (id) => document.getElementById(id);
const token = tokenFromHash();
const enc = encodeURIComponent;
const HANDLED_EVERY_MS = 5000; // other consoles' marks
const TABLES_EVERY_MS = 15000;
const OVERVIEW_EVERY_MS = 3000;
const BOARD_STATUS = { auction: "bidding", closed: "auction over", passed_out: "passed out" };
const page = { tables: [], table: null, board: null, socket: null, tournament: "" };

function show(id, node) { $(id).replaceChildren(...(node ? [node] : [])); }

/** Say in `id` what the server answered, or its refusal (and mark the field at fault). */
function answer(id, text, error = false) {
  $(id).textContent = text;
  $(id).classList.toggle("error", error);
}

async function act(resultId, work, done) {
  for (const invalid of document.querySelectorAll("[aria-invalid='true']")) {
    invalid.removeAttribute("aria-invalid");
  }
  try {
    answer(resultId, "Sending…");
    const said = done(await work());
    if (said !== null) answer(resultId, said);
  } catch (error) {
    const field = error.field ? document.querySelector(`[name='${error.field}']`) : null;
    if (field) field.setAttribute("aria-invalid", "true");
    const where = fieldWords(field); // the field at fault by its label, not its name
    answer(resultId, `Refused: ${forPeople(error.message)}${where ? ` (${where})` : ""}`, true);
  }
}

/** An event for the table in view, sent with the director's token; `said` once taken. */
function sendEvent(resultId, body, said) {
  act(resultId, () => postJson(`/api/tables/${enc(page.table)}/events`, token, body),
    () => said);
}

// --- tabs ---------------------------------------------------------------------------------

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) {
    if (tab.dataset.tab === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  for (const section of ["tables", "table", "tournament", "create", "entries"]) {
    $(`tab-${section}`).hidden = section !== name;
  }
}

// --- the alert queue ----------------------------------------------------------------------

const queue = new AlertQueue($("alert-list"), {
  onOpen: (alert) => openTable(alert.table),
  onMark: (alert, handled) => mark(alert, handled),
});

function renderQueue() {
  queue.render();
  const open = queue.openCount();
  $("queue-summary").textContent = `${open} alert${open === 1 ? "" : "s"} to deal with`;
}

async function mark(alert, handled) {
  try {
    const mark = await postJson(`/api/alerts/${enc(alert.id)}/handled`, token, { handled });
    queue.marks({ [alert.id]: mark });
    renderQueue();
  } catch (error) {
    $("new-alert").textContent = `Not marked: ${error.message}`;
  }
}

async function followAlerts() {
  const { alerts } = await getJson("/api/alerts?count=1000", token);
  queue.add(alerts);
  renderQueue();
  const socket = new TableSocket({
    token, path: "/api/alerts/feed",
    onState: ({ id, alert }) => {
      if (queue.add([{ ...alert, offset: Number(id) }])) {
        $("new-alert").textContent = `New alert, table ${alert.table}: ${alert.message || ""}`;
        renderQueue();
        if (page.table === alert.table) readRecord();
      }
    },
    onStatus: (state, detail) => {
      $("connection").dataset.state = state;
      $("connection").textContent = statusWords(state, detail);
    },
  });
  if (alerts.length) socket.lastId = String(alerts[alerts.length - 1].offset);
  socket.start();
  window.setInterval(async () => {
    try {
      queue.marks((await getJson("/api/alerts/handled", token)).handled);
      renderQueue();
    } catch { /* the next read will do */ }
  }, HANDLED_EVERY_MS);
}

for (const id of ["filter-tournament", "filter-table", "show-handled"]) {
  $(id).addEventListener("change", () => {
    Object.assign(queue.filter, { tournament: $("filter-tournament").value,
      table: $("filter-table").value, handled: $("show-handled").checked });
    renderQueue();
  });
}

// --- tables and tournaments ---------------------------------------------------------------

function options(select, values, first) {
  const chosen = select.value;
  select.replaceChildren(...(first ? [el("option", { value: "", text: first })] : []),
    ...values.map((v) => el("option", { value: v, text: v })));
  if (values.includes(chosen) || (first && chosen === "")) select.value = chosen;
}

async function readTables() {
  page.tables = (await getJson("/api/tables", token)).tables;
  const tournaments = [...new Set(page.tables.map((t) => t.tournament).filter(Boolean))].sort();
  options($("filter-tournament"), tournaments, "All");
  options($("filter-table"), page.tables.map((t) => t.table), "All");
  options($("tournament-pick"), tournaments, null);
  if (!page.tournament && tournaments.length) pickTournament(tournaments[0]);
  const groups = new Map();
  for (const t of page.tables) {
    const key = t.tournament || "";
    groups.set(key, [...(groups.get(key) || []), t]);
  }
  show("table-list", page.tables.length ? el("div", {}, ...[...groups].map(([name, tables]) =>
    el("div", { class: "table-group" },
      el("h3", { text: name ? `Tournament ${name}` : "Tables of no tournament" }),
      el("ul", { class: "table-buttons" }, tables.map((t) => el("li", {},
        el("button", { type: "button", class: "table-link", "data-table": t.table,
          onclick: () => openTable(t.table) }, t.table, el("span", { class: "quiet",
          text: t.ruleset === "rubber" ? " (rubber)" : "" })))))))) :
    el("p", { class: "quiet", text: "No table yet: create one." }));
}

// --- one table ----------------------------------------------------------------------------

function renderTable() {
  const board = page.board;
  $("table-title").textContent = `Table ${page.table}`;
  if (!board) {
    $("table-info").textContent = "No board yet.";
    for (const id of ["compass", "auction", "explanations", "director", "play", "board-outcome",
      "previous"]) show(id, null);
    $("play-section").hidden = true;
    return;
  }
  const play = board.play || {};
  const turn = board.turn ? ` · ${SEAT_NAMES[board.turn]} to call`
    : board.result ? " · played" : play.claim ? ` · ${SEAT_NAMES[play.claim.seat]} has claimed`
      : play.turn ? ` · ${SEAT_NAMES[play.turn]} to play` : "";
  $("table-info").textContent = `Board ${board.board} · Dealer ${SEAT_NAMES[board.dealer]} · ` +
    `Vulnerable: ${board.vulnerability} · ${BOARD_STATUS[board.status] || board.status}${turn}`;
  show("compass", compassNode(board));
  markPlayed($("compass"), board);
  show("board-outcome", resultNode(board));
  show("previous", previousNode(board.previous));
  show("auction", auctionNode(board));
  const contract = contractNode(board);
  $("contract").replaceChildren(...(contract ? ["Contract: ", contract] : []));
  show("explanations", explanationsNode(board));
  show("director", directorNode(board));
  const record = playRecordNode(board);
  $("play-section").hidden = !record;
  show("play", record);
  show("lead-option-form", leadOptionForm(board, sendEvent));
  const claim = board.play && board.play.claim;
  if (claim && !$("ruling-tricks").value && [board.play.declarer, board.play.dummy]
    .includes(claim.seat)) { // what declarer claimed, in all: the Director's starting point
    $("ruling-tricks").value = String(((board.play.won || {})[
      "NS".includes(board.play.declarer) ? "NS" : "EW"] || 0) + claim.tricks);
  }
  if (!$("board-number").value) $("board-number").value = String((board.board || 0) + 1);
}

function openTable(name) {
  showTab("table");
  if (page.table === name) return;
  if (page.socket) page.socket.stop();
  Object.assign(page, { table: name, board: null });
  $("board-number").value = "";
  $("ruling-tricks").value = "";
  for (const id of ["ruling-result", "board-result", "operator-result", "record-error",
    "robots-result"]) {
    answer(id, "");
  }
  renderTable();
  robots.open();
  page.socket = new TableSocket({ table: name, token, onState: ({ board }) => {
    const boardChanged = !page.board || page.board.board !== board.board;
    page.board = board;
    renderTable();
    if (boardChanged) readRecord();
    else if ($("record-board").value === String(board.board)) followRecord();
  } });
  page.socket.start();
  readRecord();
}

/** The record of board `number` (else the board in progress) read from the table's topic:
 * each event with the state after it and the alerts it raised. */
async function readRecord(number = null) {
  const table = page.table;
  const chosen = number ?? (page.board ? page.board.board : null);
  try {
    const { history, boards, think_times: times } = await getJson(
      `/api/tables/${enc(table)}/history` +
      (chosen === null ? "" : `?board=${chosen}&states=true`), token);
    if (table !== page.table) return;
    options($("record-board"), boards.map(String), null);
    if (chosen === null) { // no state read yet: the board the history ends with
      if (boards.length) readRecord(boards[boards.length - 1]);
      else show("record", null);
      return;
    }
    $("record-board").value = String(chosen);
    const thinks = thinksByOffset(times);
    $("record").replaceChildren(...history.map((entry) => el("li", { "data-offset":
      String(entry.offset) }, recordStep(entry, thinks.get(entry.offset)))));
    $("record-times").textContent = thinkSummary(times, chosen) || "";
    answer("record-error", "");
  } catch (error) {
    answer("record-error", `The record could not be read: ${error.message}`, true);
  }
}

/** A step of the record: a play event in words (play_record.js), else as steps.js says;
 * its think time after it (think_times.js). */
function recordStep(entry, think) {
  const said = entry.event && playEventParts(entry.event, entry.state || {});
  const step = stepNode(said ? { ...entry, event: null } : entry);
  if (said) step.firstChild.replaceChildren(...said);
  const thought = thinkNode(think);
  if (thought) step.firstChild.append(thought);
  return step;
}

/** The record of the board in progress read again as its state moves (an event that raises
 * no alert, a ruling, moves it too): one read at a time, at most two a second (a token's
 * history reads), and the last state always read. */
const RECORD_EVERY_MS = 500;
const recordFollow = { wanted: false, reading: false };
async function followRecord() {
  recordFollow.wanted = true;
  if (recordFollow.reading) return;
  recordFollow.reading = true;
  try {
    while (recordFollow.wanted) {
      recordFollow.wanted = false;
      // (unless another board's record was chosen meanwhile)
      if (page.board && $("record-board").value === String(page.board.board)) await readRecord();
      await new Promise((resolve) => { window.setTimeout(resolve, RECORD_EVERY_MS); });
    }
  } finally {
    recordFollow.reading = false;
  }
}

$("record-load").addEventListener("click", () => readRecord(Number($("record-board").value)));

bindRulingForm(sendEvent);

$("board-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const body = { board: Number($("board-number").value) };
  for (const key of ["dealer", "vulnerability", "deal"]) {
    if ($(`board-${key}`).value.trim()) body[key] = $(`board-${key}`).value.trim();
  }
  act("board-result", () => postJson(`/api/tables/${enc(page.table)}/boards`, token, body),
    () => `Board ${body.board} started.`);
});

for (const [id, held] of [["hold", true], ["release", false]]) {
  $(id).addEventListener("click", () => act("board-result",
    () => postJson(`/api/tables/${enc(page.table)}/hold`, token, { held }),
    () => (held ? "The table is held: its next board waits." : "The table goes on.")));
}

for (const format of ["pbn", "lin"]) {
  $(`export-table-${format}`).addEventListener("click", () => act("record-error",
    () => download(`/api/tables/${enc(page.table)}/history?format=${format}`, token,
      `${page.table}.${format}`), () => ""));
}

function showLinks(title, node) {
  $("links-title").textContent = title;
  show("links", node);
  $("links-panel").hidden = false;
  $("links-panel").scrollIntoView({ block: "nearest" });
}

$("table-links").addEventListener("click", () => act("operator-result", async () => {
  const links = await getJson(`/api/tables/${enc(page.table)}/links`, token);
  showLinks(`Links to hand out: table ${page.table}`,
    tableSlips(links, (page.board && page.board.players) || {}));
}, () => ""));

$("operator-link").addEventListener("click", () => act("operator-result", async () => {
  const made = await postJson(`/api/tables/${enc(page.table)}/operator`, token, {});
  $("operator-result").replaceChildren(el("ul", { class: "link-list" },
    linkRow(`Capture of table ${page.table}`, made.link, "link-operator")));
}, () => null));

const robots = bindRobots({ token, table: () => page.table, act,
  visible: () => !$("tab-table").hidden });

// --- a tournament -------------------------------------------------------------------------

function overviewNode(view) {
  return el("table", { class: "tables" },
    el("caption", { class: "sr-only", text: `The tables of ${view.tournament}` }),
    el("thead", {}, el("tr", {}, ["Table", "Board", "Status", "Turn", "Done", "Alerts", "Open",
      "Idle", "Robots", "Live to the public"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, view.tables.map((t) => el("tr", { "data-table": t.table,
      class: `${t.open_alerts ? "has-open" : ""} ${t.behind ? "behind" : ""}`.trim() },
    el("th", { scope: "row" }, el("button", { type: "button", class: "table-link",
      onclick: () => openTable(t.table) }, t.table)),
    el("td", { text: t.board ?? "—" }), el("td", { text: STATUS[t.status] || t.status }),
    el("td", { text: t.turn ? SEAT_NAMES[t.turn] : "—" }),
    el("td", { text: String(t.boards_finished) }), el("td", { text: String(t.alerts) }),
    el("td", { text: String(t.open_alerts) }),
    el("td", { text: t.idle_s === null ? "—" : `${t.idle_s} s` }),
    el("td", { class: Object.values(t.robots || {}).includes("stalled") ? "robots stalled"
      : "robots", text: robotsLine(t.robots, t.substitutes) }),
    el("td", {}, matchBox(t))))));
}

/** A table's vugraph match: ticked, the public sees its boards as they are played (after the
 * delay), not once every table of the movement has played them. */
function matchBox(line) {
  return el("input", { type: "checkbox", class: "vugraph-match", checked: line.vugraph_match,
    disabled: line.vugraph_match === null,
    "aria-label": `Show table ${line.table} live to the public (a vugraph match)`,
    onchange: (event) => act("tournament-result", () => putJson(
      `/api/tournaments/${enc(page.tournament)}/tables/${enc(line.table)}/vugraph-match`,
      token, { on: event.target.checked }), (made) => made.on
      ? `Table ${made.table} is shown live to the public, after the delay.`
      : `Table ${made.table}: the public sees each board once every table has played it.`) });
}

async function readOverview() {
  if (!page.tournament || $("tab-tournament").hidden) return;
  try {
    const view = await getJson(`/api/tournaments/${enc(page.tournament)}`, token);
    const t = view.totals;
    $("tournament-title").textContent = `Tournament ${view.tournament}` +
      (view.name ? ` — ${view.name}` : "");
    $("tournament-totals").textContent = `${counted(t.tables, "table")} · ` +
      `${t.playing} playing · ${counted(t.boards_finished, "board")} done · ` +
      `${counted(t.alerts_raised, "alert")}, ${t.alerts_open} open`;
    show("tournament-clock", view.tables.some((t) => t.round) ? clockPanelNode(view, {
      tournament: page.tournament, token, act, then: readOverview }) : null);
    show("overview", overviewNode(view));
    show("standings", standingsNode(view.standings));
  } catch (error) {
    answer("tournament-result", `The overview could not be read: ${error.message}`, true);
  }
}

function pickTournament(name) {
  page.tournament = name;
  $("tournament-pick").value = name;
  $("results-link").href = `/results#${enc(name)}`;
  readOverview();
}

bindScoreForm((body) => act("score-result",
  () => postJson(`/api/tournaments/${enc(page.tournament)}/scores`, token, body),
  (made) => { readOverview(); return `Recorded (${body.kind}, board ${body.board}; offset ` +
    `${made.offset}).`; }), (text, error) => answer("score-result", text, error));
$("tournament-pick").addEventListener("change", () => pickTournament($("tournament-pick").value));

/** "1-3,5" → [1, 2, 3, 5]; null for text that is not a list of boards. */
function boardsOf(text) {
  const boards = [];
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return null;
    const [from, to] = [Number(m[1]), Number(m[2] || m[1])];
    for (let b = from; b <= to && boards.length <= 36; b += 1) boards.push(b);
  }
  return boards.length ? boards : null;
}

$("round-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const boards = boardsOf($("round-boards").value);
  if (!boards) {
    $("round-boards").setAttribute("aria-invalid", "true");
    answer("round-result", "Boards: numbers and ranges, e.g. 1-3 or 1,2,3", true);
    return;
  }
  const round = Number($("round-number").value);
  act("round-result", () => postJson(`/api/tournaments/${enc(page.tournament)}/rounds`, token,
    { round, boards }), (r) => `Round ${r.round} started at ${counted(r.tables, "table")}.`);
});

$("substitutes-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const given = $("substitutes-after").value.trim();
  act("substitutes-result", () => putJson(`/api/tournaments/${enc(page.tournament)}/substitutes`,
    token, { after_s: given ? Number(given) : null }), (r) => (r.after_s === null
    ? "No substitutes: the tables wait for their players."
    : `A robot sits in for a player with no open page at his turn after ${r.after_s} s.`));
});

$("tournament-links").addEventListener("click", () => act("tournament-result", async () => {
  const view = await getJson(`/api/tournaments/${enc(page.tournament)}/links`, token);
  showLinks(`Links to hand out: ${view.tournament}`, tournamentSlips(view));
}, () => ""));

for (const format of ["pbn", "lin", "json"]) {
  $(`export-${format}`).addEventListener("click", () => act("tournament-result",
    () => download(`/api/tournaments/${enc(page.tournament)}/export?format=${format}`, token,
      `${page.tournament}.${format}`), () => `Exported ${page.tournament}.${format}.`));
}

// --- creating -----------------------------------------------------------------------------

$("table-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const body = { table: $("new-table").value.trim(), ruleset: $("new-table-ruleset").value };
  act("table-result", async () => {
    const made = await postJson("/api/tables", token, body);
    showLinks(`Links to hand out: table ${made.table}`, tableSlips(made));
    await readTables();
    return made;
  }, (made) => `Table ${made.table} is ready.`);
});

$("tournament-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act("tournament-form-result", async () => {
    const file = $("new-deals-file").files[0];
    const body = { tournament: $("new-tournament").value.trim(),
      name: $("new-event").value.trim(), tables: Number($("new-tables").value),
      ruleset: $("new-ruleset").value, site: $("new-site").value.trim(),
      date: $("new-date").value.replace(/-/g, "."),
      deals: file ? await file.text() : $("new-deals").value };
    const made = await postJson("/api/tournaments", token, body);
    showLinks(`Links to hand out: ${made.tournament}`, tournamentSlips(made));
    await readTables();
    pickTournament(made.tournament);
    return made;
  }, (made) => `Tournament ${made.tournament}: ${counted(made.tables.length, "table")}` +
    (made.created ? " created." : " (it existed: the same tables)."));
});

$("print").addEventListener("click", () => window.print());

bindEntries({ token, act, visible: () => !$("tab-entries").hidden });
bindPlayers({ token, act, tournament: () => page.tournament });

// --- start --------------------------------------------------------------------------------

for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    showTab(tab.dataset.tab);
    readOverview();
  });
}

async function start() {
  if (!token) {
    $("connection").dataset.state = "refused";
    $("connection").textContent = "Not connected: open the console from the link with the "
      + "director's token";
    return;
  }
  try {
    await readTables();
    await followAlerts();
  } catch (error) {
    $("connection").dataset.state = "refused";
    $("connection").textContent = `Not connected: ${error.message}`;
    return;
  }
  window.setInterval(() => readTables().catch(() => {}), TABLES_EVERY_MS);
  window.setInterval(readOverview, OVERVIEW_EVERY_MS);
}

start();

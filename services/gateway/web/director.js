// The director's console (`/director#<director token>`): the alert queue across tables, live;
// a table's state with every hand, its record, rulings, boards and links; a tournament's
// overview, rounds, links and exports; creating tables and tournaments; a tournament's entries
// (entries_panel.js). Everything goes through the gateway's API with the director's token;
// nothing here works a Law out.

import { AlertQueue } from "./alert_queue.js";
import { download, getJson, postJson, putJson } from "./api.js";
import { prefsNode, t } from "./i18n.js";
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
import { auctionNode } from "./auction.js";
import { contractNode, el, SEAT_NAMES } from "./table.js";
import { tokenFromHash } from "./token.js";
import { previousNode, resultNode } from "./trick.js";
import { fieldWords, forPeople } from "./words.js";

const $ = (id) => document.getElementById(id);
const token = tokenFromHash();
const enc = encodeURIComponent;
const HANDLED_EVERY_MS = 5000; // other consoles' marks
const TABLES_EVERY_MS = 15000;
const OVERVIEW_EVERY_MS = 3000;
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
    answer(resultId, t("dir.sending"));
    const said = done(await work());
    if (said !== null) answer(resultId, said);
  } catch (error) {
    const field = error.field ? document.querySelector(`[name='${error.field}']`) : null;
    if (field) field.setAttribute("aria-invalid", "true");
    const where = fieldWords(field); // the field at fault by its label, not its name
    answer(resultId, t(where ? "dir.refusedAt" : "dir.refused",
      { message: forPeople(error.message), where }), true);
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
  $("queue-summary").textContent = t("dir.queueSummary", { count: open });
}

async function mark(alert, handled) {
  try {
    const mark = await postJson(`/api/alerts/${enc(alert.id)}/handled`, token, { handled });
    queue.marks({ [alert.id]: mark });
    renderQueue();
  } catch (error) {
    $("new-alert").textContent = t("dir.notMarked", { message: error.message });
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
        $("new-alert").textContent = t("dir.newAlert",
          { table: alert.table, message: alert.message || "" });
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
    ...values.map((v) => el("option", { value: v, text: v, "data-verbatim": "" })));
  if (values.includes(chosen) || (first && chosen === "")) select.value = chosen;
}

async function readTables() {
  page.tables = (await getJson("/api/tables", token)).tables;
  const tournaments = [...new Set(page.tables.map((one) => one.tournament).filter(Boolean))]
    .sort();
  options($("filter-tournament"), tournaments, t("dir.all"));
  options($("filter-table"), page.tables.map((one) => one.table), t("dir.all"));
  options($("tournament-pick"), tournaments, null);
  if (!page.tournament && tournaments.length) pickTournament(tournaments[0]);
  const groups = new Map();
  for (const one of page.tables) {
    const key = one.tournament || "";
    groups.set(key, [...(groups.get(key) || []), one]);
  }
  show("table-list", page.tables.length ? el("div", {}, ...[...groups].map(([name, tables]) =>
    el("div", { class: "table-group" },
      el("h3", { text: name ? t("dir.groupTournament", { name }) : t("dir.groupNone") }),
      el("ul", { class: "table-buttons" }, tables.map((one) => el("li", {},
        el("button", { type: "button", class: "table-link", "data-table": one.table,
          onclick: () => openTable(one.table) }, el("span", { "data-verbatim": "",
          text: one.table }), el("span", { class: "quiet",
          text: one.ruleset === "rubber" ? t("dir.rubberNote") : "" })))))))) :
    el("p", { class: "quiet", text: t("dir.noTable") }));
}

// --- one table ----------------------------------------------------------------------------

function renderTable() {
  const board = page.board;
  $("table-title").textContent = t("dir.tableTitle", { table: page.table });
  if (!board) {
    $("table-info").textContent = t("dir.noBoard");
    for (const id of ["compass", "auction", "explanations", "director", "play", "board-outcome",
      "previous"]) show(id, null);
    $("play-section").hidden = true;
    return;
  }
  const play = board.play || {};
  const turn = board.turn ? t("dir.turnCall", { seat: SEAT_NAMES[board.turn] })
    : board.result ? t("dir.turnPlayed")
      : play.claim ? t("dir.turnClaimed", { seat: SEAT_NAMES[play.claim.seat] })
        : play.turn ? t("dir.turnPlay", { seat: SEAT_NAMES[play.turn] }) : "";
  const status = ["auction", "closed", "passed_out"].includes(board.status)
    ? t(`dir.boardStatus.${board.status}`) : board.status;
  $("table-info").textContent = t("dir.tableInfo", { board: board.board,
    dealer: SEAT_NAMES[board.dealer], vul: t(`vul.${board.vulnerability}`), status, turn });
  show("compass", compassNode(board));
  markPlayed($("compass"), board);
  show("board-outcome", resultNode(board));
  show("previous", previousNode(board.previous));
  show("auction", auctionNode(board));
  const contract = contractNode(board);
  $("contract").replaceChildren(...(contract ? [t("cap.contract"), contract] : []));
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
    answer("record-error", t("dir.recordUnread", { message: error.message }), true);
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
    () => t("dir.boardStarted", { board: body.board }));
});

for (const [id, held] of [["hold", true], ["release", false]]) {
  $(id).addEventListener("click", () => act("board-result",
    () => postJson(`/api/tables/${enc(page.table)}/hold`, token, { held }),
    () => t(held ? "dir.held" : "dir.released")));
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
  showLinks(t("dir.linksTable", { table: page.table }),
    tableSlips(links, (page.board && page.board.players) || {}));
}, () => ""));

$("operator-link").addEventListener("click", () => act("operator-result", async () => {
  const made = await postJson(`/api/tables/${enc(page.table)}/operator`, token, {});
  $("operator-result").replaceChildren(el("ul", { class: "link-list" },
    linkRow(t("dir.captureOf", { table: page.table }), made.link, "link-operator")));
}, () => null));

const robots = bindRobots({ token, table: () => page.table, act,
  visible: () => !$("tab-table").hidden });

// --- a tournament -------------------------------------------------------------------------

const OVERVIEW_COLUMNS = ["table", "board", "status", "turn", "done", "alerts", "open", "idle",
  "robots", "live"];

/** The tournament's tables, a row each; on a phone each row's cells wrap under their heads'
 * words (style.css's `stacked`), as its ten columns are too wide for 375 px. */
function overviewNode(view) {
  const heads = OVERVIEW_COLUMNS.map((h) => t(`dir.col.${h}`));
  const rows = view.tables.map((row) => el("tr", { "data-table": row.table,
    class: `${row.open_alerts ? "has-open" : ""} ${row.behind ? "behind" : ""}`.trim() },
  el("th", { scope: "row" }, el("button", { type: "button", class: "table-link",
    onclick: () => openTable(row.table) }, el("span", { "data-verbatim": "", text: row.table })),
  row.behind ? el("span", { class: "behind-note", text: ` · ${t("dir.behindTime")}` }) : null),
  el("td", { text: row.board ?? "—" }), el("td", { text: STATUS[row.status] || row.status }),
  el("td", { text: row.turn ? SEAT_NAMES[row.turn] : "—" }),
  el("td", { text: String(row.boards_finished) }), el("td", { text: String(row.alerts) }),
  el("td", { text: String(row.open_alerts) }),
  el("td", { text: row.idle_s === null ? "—" : t("dir.idle", { seconds: row.idle_s }) }),
  el("td", { class: Object.values(row.robots || {}).includes("stalled") ? "robots stalled"
    : "robots", text: robotsLine(row.robots, row.substitutes) }),
  el("td", {}, matchBox(row))));
  for (const row of rows) {
    [...row.children].forEach((cell, i) => { cell.dataset.label = heads[i]; });
  }
  return el("table", { class: "tables stacked" },
    el("caption", { class: "sr-only", text: t("dir.overviewCaption",
      { tournament: view.tournament }) }),
    el("thead", {}, el("tr", {}, heads.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows));
}

/** A table's vugraph match: ticked, the public sees its boards as they are played (after the
 * delay), not once every table of the movement has played them. */
function matchBox(line) {
  return el("input", { type: "checkbox", class: "vugraph-match", checked: line.vugraph_match,
    disabled: line.vugraph_match === null,
    "aria-label": t("dir.matchBox", { table: line.table }),
    onchange: (event) => act("tournament-result", () => putJson(
      `/api/tournaments/${enc(page.tournament)}/tables/${enc(line.table)}/vugraph-match`,
      token, { on: event.target.checked }), (made) => made.on
      ? t("dir.matchOn", { table: made.table }) : t("dir.matchOff", { table: made.table })) });
}

async function readOverview() {
  if (!page.tournament || $("tab-tournament").hidden) return;
  try {
    const view = await getJson(`/api/tournaments/${enc(page.tournament)}`, token);
    const totals = view.totals;
    $("tournament-title").textContent = view.name
      ? t("dir.tournamentNamed", { tournament: view.tournament, name: view.name })
      : t("dir.groupTournament", { name: view.tournament });
    $("tournament-totals").textContent = [t("dir.totals.tables", { count: totals.tables }),
      t("dir.totals.playing", { count: totals.playing }),
      t("dir.totals.done", { count: totals.boards_finished }),
      t("dir.totals.alerts", { count: totals.alerts_raised, open: totals.alerts_open })]
      .join(" · ");
    show("tournament-clock", view.tables.some((one) => one.round) ? clockPanelNode(view, {
      tournament: page.tournament, token, act, then: readOverview }) : null);
    show("overview", overviewNode(view));
    show("standings", standingsNode(view.standings));
  } catch (error) {
    answer("tournament-result", t("dir.overviewUnread", { message: error.message }), true);
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
  (made) => { readOverview(); return t("dir.scoreRecorded", { kind: t(`dir.kind.${body.kind}`),
    board: body.board, offset: made.offset }); }), (text, error) => answer("score-result", text, error));
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
    answer("round-result", t("dir.boardsBad"), true);
    return;
  }
  const round = Number($("round-number").value);
  act("round-result", () => postJson(`/api/tournaments/${enc(page.tournament)}/rounds`, token,
    { round, boards }), (r) => t("dir.roundStarted", { round: r.round, count: r.tables }));
});

$("substitutes-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const given = $("substitutes-after").value.trim();
  act("substitutes-result", () => putJson(`/api/tournaments/${enc(page.tournament)}/substitutes`,
    token, { after_s: given ? Number(given) : null }), (r) => (r.after_s === null
    ? t("dir.noSubstitutes") : t("dir.substitutesAfter", { after: r.after_s })));
});

$("tournament-links").addEventListener("click", () => act("tournament-result", async () => {
  const view = await getJson(`/api/tournaments/${enc(page.tournament)}/links`, token);
  showLinks(t("dir.linksOf", { name: view.tournament }), tournamentSlips(view));
}, () => ""));

for (const format of ["pbn", "lin", "json"]) {
  $(`export-${format}`).addEventListener("click", () => act("tournament-result",
    () => download(`/api/tournaments/${enc(page.tournament)}/export?format=${format}`, token,
      `${page.tournament}.${format}`), () => t("dir.exported", { file: `${page.tournament}.${format}` })));
}

// --- creating -----------------------------------------------------------------------------

$("table-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const body = { table: $("new-table").value.trim(), ruleset: $("new-table-ruleset").value };
  act("table-result", async () => {
    const made = await postJson("/api/tables", token, body);
    showLinks(t("dir.linksTable", { table: made.table }), tableSlips(made));
    await readTables();
    return made;
  }, (made) => t("dir.tableReady", { table: made.table }));
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
    showLinks(t("dir.linksOf", { name: made.tournament }), tournamentSlips(made));
    await readTables();
    pickTournament(made.tournament);
    return made;
  }, (made) => t(made.created ? "dir.tournamentMade" : "dir.tournamentExisted",
    { tournament: made.tournament, count: made.tables.length }));
});

$("print").addEventListener("click", () => window.print());

bindEntries({ token, act, visible: () => !$("tab-entries").hidden });
bindPlayers({ token, act, tournament: () => page.tournament });

$("prefs").replaceChildren(prefsNode("director-prefs"));

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
    $("connection").textContent = t("dir.noToken");
    return;
  }
  try {
    await readTables();
    await followAlerts();
  } catch (error) {
    $("connection").dataset.state = "refused";
    $("connection").textContent = t("socket.refused", { detail: error.message });
    return;
  }
  window.setInterval(() => readTables().catch(() => {}), TABLES_EVERY_MS);
  window.setInterval(readOverview, OVERVIEW_EVERY_MS);
}

start();

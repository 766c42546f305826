// The vugraph page: a spectator's view of one table (`/vugraph#<spectator token>`), live over
// the table's socket, and any board of its history replayed event by event. It shows what the
// server sends a spectator: the table as it was the vugraph delay ago, and of a tournament's
// board other tables still play only that it is withheld (read again every `WITHHELD_MS`:
// no new state comes once the table has finished it). A timed round's time left is in the
// header, of the table's round or, on the tournament's list, of the tournament's round.

import { getJson } from "./api.js";
import { parts, prefsNode, t } from "./i18n.js";
import { clockNode, fromTournament } from "./clock.js";
import { compassNode } from "./compass.js";
import { followTables } from "./lobby.js";
import { directorNode, explanationsNode, turnWords } from "./panels.js";
import { Replay } from "./replay.js";
import { statusWords, TableSocket } from "./socket.js";
import { stepNode } from "./steps.js";
import { drawAuction } from "./auction.js";
import { contractNode, el, SEAT_NAMES, seatLabel } from "./table.js";
import { claimsOf, tokenFromHash } from "./token.js";
import { watchWaiting } from "./waiting.js";
import {
  middleNode, playWords, previousNode, remainingDeal, resultNode,
} from "./trick.js";

const $ = (id) => document.getElementById(id);
const token = tokenFromHash();
const claims = claimsOf(token);
const page = { live: null, version: -1, replaying: false, boards: [], again: null };
const WITHHELD_MS = 10000;

function show(id, node) { $(id).replaceChildren(...(node ? [node] : [])); }
function say(id, ...parts) { $(id).replaceChildren(...parts.flat().filter(Boolean)); }

function render() {
  const board = page.replaying ? replay.state : page.live;
  if (!board) return;
  const where = t(page.replaying ? "vg.replayOf" : "previous.board", { board: board.board });
  document.title = t("vg.tabAt", { table: claims.table, where });
  $("board-info").textContent = t("vg.boardInfo", { where, dealer: SEAT_NAMES[board.dealer],
    vul: ["None", "NS", "EW", "Both"].includes(board.vulnerability)
      ? t(`vul.${board.vulnerability}`) : board.vulnerability });
  if (page.live && page.live.clock) $("board-info").append(" · ", clockNode(page.live.clock));
  $("mode").textContent = page.replaying
    ? t("vg.replayEvent", { index: replay.index + 1, count: replay.count }) : t("vg.live");
  $("mode").dataset.mode = page.replaying ? "replay" : "live";
  if (board.withheld) {
    showWithheld(board.withheld);
    return;
  }
  show("compass", tableNode(board));
  drawAuction($("auction"), board);
  const contract = contractNode(board);
  say("contract", ...(contract ? parts("seat.contract", { contract }) : []));
  say("turn", board.play ? playWords(board, (seat) => seatLabel(board, seat))
    : turnWords(board));
  show("result", resultNode(board));
  show("previous", page.replaying ? null : previousNode(board.previous));
  show("explanations", explanationsNode(board));
  show("director", directorNode(board));
}

function sentence(text) { return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`; }

/** A tournament's board other tables still play: why nothing of it is shown. */
function showWithheld(why) {
  show("compass", el("p", { class: "withheld", role: "status", "data-verbatim": "",
    text: sentence(why) })); // the server's words
  for (const id of ["auction", "contract", "turn", "result", "explanations", "director"]) {
    show(id, null);
  }
}

/** The four hands as they stand (the cards played taken out), the trick in the middle. */
function tableNode(board) {
  const node = compassNode(board.play
    ? { ...board, deal: remainingDeal(board.deal, board.play) } : board);
  if (board.play) node.querySelector(".compass-centre").append(middleNode(board, "S"));
  return node;
}

function setBoards(numbers) {
  const picker = $("replay-board");
  const chosen = picker.value;
  for (const n of numbers) if (!page.boards.includes(n)) page.boards.push(n);
  picker.replaceChildren(...page.boards.map((n) => {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = t("previous.board", { board: n });
    return option;
  }));
  if (chosen && page.boards.includes(Number(chosen))) picker.value = chosen;
}

function onStep(entry, index, count) {
  const slider = $("replay-slider");
  slider.max = String(count - 1);
  slider.value = String(index);
  slider.setAttribute("aria-valuetext", t("vg.eventOf", { index: index + 1, count }));
  $("step-prev").disabled = index === 0;
  $("step-next").disabled = index === count - 1;
  $("step-count").textContent = t("vg.stepCount", { index: index + 1, count });
  show("step", stepNode(entry));
  render();
}

async function startReplay() {
  const board = Number($("replay-board").value || (page.live && page.live.board));
  if (!board) return;
  $("replay-error").textContent = "";
  $("replay-load").disabled = true;
  try {
    await replay.load(board);
    if (!replay.count) {
      $("replay-error").textContent = replay.withheld ? sentence(replay.withheld)
        : t("vg.nothingYet", { board });
      return;
    }
    page.replaying = true;
    $("replay-steps").hidden = false;
    $("replay-live").hidden = false;
    $("replay-board").value = String(board);
    render();
    $("replay-slider").focus();
  } catch (error) {
    $("replay-error").textContent = t("vg.unreadable", { error: error.message });
  } finally {
    $("replay-load").disabled = false;
  }
}

function backToLive() {
  page.replaying = false;
  $("replay-steps").hidden = true;
  $("replay-live").hidden = true;
  render();
}

function keyboard(event) { // ← → Home End step the replay, unless a control takes the key
  if (!page.replaying || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  if (replay.key(event.key)) event.preventDefault();
}

function onState(message) {
  if (message.version !== null && message.version !== undefined) {
    if (message.version < page.version) return; // an older state than the one shown
    page.version = message.version;
  }
  page.live = message.board;
  if (!page.live) {
    if (!page.replaying) say("turn", t("vg.noBoard"));
    return;
  }
  setBoards([page.live.board]);
  if (!page.replaying) render();
  window.clearTimeout(page.again);
  if (page.live.withheld) page.again = window.setTimeout(readAgain, WITHHELD_MS);
}

/** A withheld board, read again: shown once every table has played it. */
async function readAgain() {
  try {
    onState(await getJson(`/api/tables/${encodeURIComponent(claims.table)}/state`, token));
  } catch {
    page.again = window.setTimeout(readAgain, WITHHELD_MS); // the socket says what is wrong
  }
}

function onStatus(state, detail) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = statusWords(state, detail);
}

const spectator = claims && claims.role === "spectator" && claims.table;
const replay = new Replay({ table: claims && claims.table, token, onStep, onBoards: setBoards });

$("replay-load").addEventListener("click", startReplay);
$("replay-live").addEventListener("click", backToLive);
$("replay-board").addEventListener("change", () => { if (page.replaying) startReplay(); });
$("replay-slider").addEventListener("input", (e) => replay.go(Number(e.target.value)));
$("step-prev").addEventListener("click", () => replay.key("ArrowLeft"));
$("step-next").addEventListener("click", () => replay.key("ArrowRight"));
document.addEventListener("keydown", keyboard);
window.addEventListener("hashchange", () => window.location.reload());

function showTables(scope) { // a tournament's vugraph token: its list of tables
  const name = scope.replace(/^tournament:/, "");
  for (const id of ["table-panel", "replay-panel", "side"]) {
    $(id).hidden = true;
  }
  $("tables-panel").hidden = false;
  $("title").textContent = t("vg.titleOf", { name });
  followTables({ name, token, root: $("tables"),
    onRead: (view) => {
      onStatus("open");
      $("title").textContent = t("vg.titleOf", { name: view.name || name });
      document.title = t("vg.tabOf", { name: view.name || name });
      $("board-info").textContent = t("vg.tableCount", { count: view.tables.length });
      if (view.clock) $("board-info").append(" · ", clockNode(fromTournament(view.clock)));
    },
    onError: (message) => onStatus("refused", message) });
}

$("prefs").replaceChildren(prefsNode());
if (spectator) {
  $("title").textContent = t("vg.titleTable", { table: claims.table });
  new TableSocket({ table: claims.table, token, onState, onStatus }).start();
  watchWaiting($("waiting"), () => ({ table: claims.table, token }));
} else if (claims && claims.role === "vugraph" && /^tournament:/.test(claims.table || "")) {
  showTables(claims.table);
} else {
  onStatus("refused", t("vg.needsLink"));
  say("turn", t("vg.openWithLink"));
}

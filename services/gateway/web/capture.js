// The capture page (`/capture#<operator token>`): a table's operator, a vugraph operator or
// the recorder at a physical table, records every event of its four seats as he types them
// (capture-entry.js: `1h p 2s x`, `w:1s`, `2c!`, `decline`, `lead d2` …) and sees the whole
// board, with the Director's alerts at once. The events go on the table's socket, each with
// its seat; a line of calls is sent one call at a time, each by the seat the state says is in
// turn once the call before is folded. Once the auction has closed, a line is the play's
// (capture-play.js: `sa h4 4 w:d7 c10`), each card by the hand due to play once the card
// before is folded, and the play is shown trick by trick (play_record.js). No Law is worked
// out here. The page's words are the catalogue's (i18n.js, its switch in the bar); the
// commands typed stay English (`accept`, `lead`), as the keys' help on the seat page does.

import { DirectorCall, directorCallNode } from "./capture-alerts.js";
import { parseEntry } from "./capture-entry.js";
import { claimResponses, playEvent, playTurnWords, seatToPlay } from "./capture-play.js";
import { compassNode } from "./compass.js";
import { prefsNode, t } from "./i18n.js";
import { directorNode, explanationsNode, optionNode, turnWords } from "./panels.js";
import { statusWords, TableSocket } from "./socket.js";
import { markPlayed, playEventParts, playRecordNode } from "./play_record.js";
import { eventParts } from "./steps.js";
import { auctionNode } from "./auction.js";
import { contractNode, el, partnerOf, SEAT_NAMES, seatLabel } from "./table.js";
import { claimsOf, tokenFromHash } from "./token.js";

const $ = (id) => document.getElementById(id);
const FOLD_WAIT_MS = 10000;
const token = tokenFromHash();
const claims = claimsOf(token);
const page = { board: null, version: -1, busy: false, waiters: [], called: null };

function show(id, node) { $(id).replaceChildren(...(node ? [node] : [])); }
function say(id, ...parts) { $(id).replaceChildren(...parts.flat().filter(Boolean)); }
function error(text) { $("entry-error").textContent = text || ""; }
function short(text) { return text.length > 24 ? `${text.slice(0, 20)}…` : text; }

/** Whether a state with `offset` folded has arrived: true at once or when it does, false
 * after FOLD_WAIT_MS. */
function folded(offset) {
  if (page.version >= offset) return Promise.resolve(true);
  return new Promise((resolve) => {
    const waiter = { offset, resolve };
    page.waiters.push(waiter);
    window.setTimeout(() => {
      page.waiters = page.waiters.filter((w) => w !== waiter);
      resolve(false);
    }, FOLD_WAIT_MS);
  });
}

/** One event sent and its state awaited: `{recorded, error}`. A 429 (each seat's events at
 * a seat's pace) or a 503 is waited out by the socket (its `retry_after`). */
async function record(event) {
  const reply = await socket.send(event);
  if (reply.error) return { recorded: false, error: reply.error };
  const said = el("span", {}, ...(playEventParts(event, page.board || {}) ||
    eventParts(event, page.board || {})));
  $("entry-sent").replaceChildren(t("cap.recorded"), said);
  if (await folded(reply.offset)) return { recorded: true };
  return { recorded: true, error: t("cap.notCaughtUp") };
}

/** A line of calls, one at a time, each by its seat or the seat in turn: how many were
 * recorded, and why the next was not. */
async function recordCalls(calls) {
  for (let i = 0; i < calls.length; i += 1) {
    const { text, seat, call, alert, explanation } = calls[i];
    const board = page.board;
    const caller = seat || (board.status === "auction" ? board.turn : null);
    if (!caller) {
      return { done: i, error: t("cap.nobodyToCall", { text: short(text) }) };
    }
    const event = { type: "call", seat: caller, call };
    if (alert) event.alert = true;
    if (explanation) event.explanation = explanation;
    const outcome = await record(event);
    if (outcome.error) {
      const done = outcome.recorded ? i + 1 : i;
      return { done, error: outcome.recorded ? outcome.error
        : t("cap.callNotRecorded", { text: short(text), seat: SEAT_NAMES[caller],
          error: outcome.error }) };
    }
  }
  return { done: calls.length };
}

/** The play's words, one card (or claim) at a time, each read against the state the one
 * before left (the hand due to play, the suit led): how many were recorded, and why the next
 * was not. */
async function recordPlays(plays) {
  for (let i = 0; i < plays.length; i += 1) {
    const made = playEvent(plays[i], page.board);
    const outcome = made.error ? { recorded: false, error: made.error }
      : await record(made.event);
    if (outcome.error) {
      const done = outcome.recorded ? i + 1 : i;
      return { done, error: outcome.recorded || made.error ? outcome.error
        : t("cap.wordNotRecorded", { text: short(plays[i].text), error: outcome.error }) };
    }
  }
  return { done: plays.length };
}

/** A command's events in the play: a claim's answers (`agree` stands for both defenders'),
 * a result recorded (the table's, for no seat: it stands, Law 79A), an option over a lead
 * out of turn. */
function playCommand(event, board) {
  if (event.type === "claim_response") return claimResponses(event, board);
  if (event.type === "lead_option") return leadOptionEvents(event, board);
  if (event.type === "result_recorded") {
    return board.contract ? { events: [event] }
      : { error: t("cap.noContract") };
  }
  const lead = board.play && board.play.lead_out_of_turn;
  if (event.type === "option" && lead && !event.seat) {
    return lead.option_holders.length === 1
      ? { events: [{ ...event, seat: lead.option_holders[0] }] }
      : { error: t(event.accept ? "cap.nameAccept" : "cap.nameDecline", {
        holders: lead.option_holders.map((s) => SEAT_NAMES[s]).join(t("or")),
        example: `${event.accept ? "accept" : "decline"} ${lead.option_holders[0].toLowerCase()}`,
      }) };
  }
  return null;
}

/** Declarer's lead option (`require h`, `prohibit`, `free`), sent as declarer's: while one
 * awaits him (a penalty card, Law 50D2), or a withdrawn call's restriction applies (Law 26). */
function leadOptionEvents(event, board) {
  const play = board.play;
  const awaited = play && play.lead_options && play.lead_options.choice === null;
  const withdrawn = (board.lead_restrictions || []).some((r) => r.applies);
  if (!board.contract || !(awaited || withdrawn)) {
    return { error: t("cap.noLeadOption") };
  }
  return { events: [{ ...event, seat: board.contract.declarer }] };
}

/** A command's event, its seat from the state where the line left it out. */
function withSeat(event, board) {
  const play = playCommand(event, board);
  if (play) return play;
  if (event.seat) return { event };
  if (event.type === "option") {
    return board.pending ? { event: { ...event, seat: board.pending.option_holder } }
      : { error: t("cap.noOption") };
  }
  if (board.on_lead && !board.opening_lead) {
    return { event: { ...event, seat: board.on_lead } };
  }
  return { error: t(board.opening_lead ? "cap.leadFaced" : "cap.nobodyOnLead") };
}

async function enter(submitted) {
  submitted.preventDefault();
  const input = $("entry-line");
  const parsed = parseEntry(input.value, { play: inPlay(page.board) });
  if (page.busy || (!parsed.calls && !parsed.plays && !parsed.event && !parsed.error)) return;
  if (parsed.error || !page.board) {
    error(parsed.error || t("cap.noBoard"));
    return;
  }
  const resolved = parsed.event ? withSeat(parsed.event, page.board) : {};
  if (resolved.error) {
    error(resolved.error);
    return;
  }
  error("");
  page.busy = true;
  try {
    if (parsed.calls) {
      const { done, error: why } = await recordCalls(parsed.calls);
      input.value = parsed.calls.slice(done).map((c) => c.text).join(" ");
      error(why);
    } else if (parsed.plays) {
      const { done, error: why } = await recordPlays(parsed.plays);
      input.value = parsed.plays.slice(done).map((c) => c.text).join(" ");
      error(why);
    } else {
      let outcome = { recorded: true };
      for (const event of resolved.events || [resolved.event]) {
        outcome = await record(event);
        if (outcome.error) break;
      }
      if (outcome.recorded) input.value = "";
      error(outcome.error && (outcome.recorded ? outcome.error
        : t("cap.notRecorded", { error: outcome.error })));
    }
  } finally {
    page.busy = false;
  }
}

async function choose(accept) { // the option holder's choice, from the buttons
  if (page.busy || !page.board || !page.board.pending) return;
  page.busy = true;
  try {
    const outcome = await record({ type: "option", seat: page.board.pending.option_holder,
      accept });
    error(outcome.error && t("cap.notRecorded", { error: outcome.error }));
  } finally {
    page.busy = false;
  }
  $("entry-line").focus();
}

function fill(text) { // a click prepares a line; Enter records it
  const input = $("entry-line");
  input.value = text;
  input.focus();
  input.setSelectionRange(text.length, text.length);
}

/** Whether the auction has closed on a contract: a line is then the play's. */
function inPlay(board) { return Boolean(board && board.contract && board.status === "closed"); }

function onCard(seat, card) { // in the play, the card (with its seat when not due to play)
  if (inPlay(page.board)) {
    const named = seat === seatToPlay(page.board) ? "" : `${seat.toLowerCase()}:`;
    fill(`${named}${card.toLowerCase()}`);
  } else fill(`show ${seat.toLowerCase()} ${card.toLowerCase()}`);
}



function onCall(index) { // at the table, the caller's partner explains a call (Law 20F1)
  const entry = page.board.calls[index];
  fill(`explain ${partnerOf(entry.seat).toLowerCase()} ${index + 1} `);
}

function renderCall(board) {
  const fresh = director.fresh(board);
  const key = `${board.board}:${fresh.alerts.length}:${fresh.rectifications.length}:` +
    `${(board.alerts || []).length}`;
  if (key === page.called) return; // unchanged: not announced again
  page.called = key;
  show("call-director", directorCallNode(fresh, () => {
    director.acknowledge(page.board);
    renderCall(page.board);
    $("entry-line").focus();
  }));
}

function render() {
  const board = page.board;
  if (!board) return;
  document.title = t("cap.tabAt", { table: claims.table, board: board.board });
  $("board-info").textContent = t("cap.boardInfo", { board: board.board,
    dealer: SEAT_NAMES[board.dealer], vul: t(`vul.${board.vulnerability}`) });
  renderCall(board);
  say("turn", inPlay(board) ? playTurnWords(board) : turnWords(board));
  $("entry-line").placeholder = t(inPlay(board) ? "cap.placeholderPlay" : "cap.placeholderCalls");
  show("option", board.pending ? optionNode(board, choose,
    t("cap.optionOf", { seat: seatLabel(board, board.pending.option_holder) })) : null);
  show("auction", auctionNode(board, { onCall }));
  const contract = contractNode(board);
  say("contract", contract ? t("cap.contract") : null, contract);
  show("explanations", explanationsNode(board));
  const open = board.status !== "passed_out" && !board.result;
  show("compass", compassNode(board, { onCard: open ? onCard : null }));
  markPlayed($("compass"), board);
  const record = playRecordNode(board);
  $("play-panel").hidden = !record;
  show("play", record);
  show("director", directorNode(board));
}

function onState(message) {
  page.board = message.board;
  page.version = message.version;
  for (const waiter of page.waiters.filter((w) => w.offset <= page.version)) {
    waiter.resolve(true);
  }
  page.waiters = page.waiters.filter((w) => w.offset > page.version);
  if (page.board) render();
  else say("turn", t("seat.noBoard"));
}

function onStatus(state, detail) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = statusWords(state, detail);
}

function keyboard(event) { // a key typed anywhere goes to the entry line
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
  if (event.key === " " || target instanceof HTMLInputElement) return;
  $("entry-line").focus();
}

const operator = claims && claims.role === "operator" && claims.table;
const director = new DirectorCall(claims && claims.table);
const socket = operator ? new TableSocket({ table: claims.table, token, onState, onStatus })
  : null;

$("entry").addEventListener("submit", enter);
document.addEventListener("keydown", keyboard);

if (window.matchMedia("(max-width: 759px)").matches) $("entry-help").open = false; // a phone

$("prefs").replaceChildren(prefsNode("capture-prefs"));
if (socket) {
  $("title").textContent = t("cap.titleOf", { table: claims.table });
  socket.start();
  $("entry-line").focus();
} else {
  onStatus("refused", t("cap.needsLink"));
  say("turn", t("cap.openWithLink"));
}

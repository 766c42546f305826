// The seat page: one player's view of his table. It shows what the board's state says (the
// server's view for this seat: his own hand only, partner's self-alerts withheld) and sends
// this seat's events on the table's socket. No Law is worked out here.

import { BiddingBox, parseTyped, ALL_CALLS } from "./bidding.js";
import {
  callDetailNode, directorNode, explanationsNode, optionNode, questionsNode,
} from "./panels.js";
import { statusWords, TableSocket } from "./socket.js";
import {
  auctionNode, callNode, callWords, cardNode, cardWords, contractNode, el, handNode,
  parseDeal, SEAT_NAMES, seatLabel,
} from "./table.js";
import { claimsOf, tokenFromHash } from "./token.js";

const $ = (id) => document.getElementById(id);
const token = tokenFromHash();
const claims = claimsOf(token);
const page = { board: null, replacing: false, chosen: null, lead: null };

function show(id, node) { $(id).replaceChildren(...(node ? [node] : [])); }
function say(id, ...parts) { $(id).replaceChildren(...parts.filter(Boolean)); }
function error(text) { $("send-error").textContent = text || ""; }

async function send(event) {
  error("");
  const reply = await socket.send(event);
  if (reply.error) error(`Not taken: ${reply.error}`);
  return !reply.error;
}

async function call(chosen) {
  if (page.replacing) {
    page.replacing = false;
    render();
    await send({ type: "call_changed", call: chosen, inadvertent: true });
    return;
  }
  const alert = $("self-alert").checked;
  const explanation = $("self-explanation").value.trim();
  const event = { type: "call", call: chosen };
  if (alert) event.alert = true;
  if (explanation) event.explanation = explanation;
  box.enable([]); // one call per turn: the next state opens the box again
  if (await send(event)) {
    $("self-alert").checked = false;
    $("self-explanation").value = "";
  } else {
    render();
  }
}

function typed(event) {
  event.preventDefault();
  const input = $("typed-call");
  const chosen = parseTyped(input.value);
  if (!chosen) {
    error(`"${input.value}" is not a call: type e.g. 1h, 3nt, p, x or xx.`);
    return;
  }
  if (!box.isEnabled(chosen)) {
    error(`${callWords(chosen)} is not open to you now.`);
    return;
  }
  input.value = "";
  call(chosen);
}

function keyboard(event) { // a call typed anywhere goes to the call field
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
  if (/^[1-7pPxXrR]$/.test(event.key)) $("typed-call").focus();
}

function turnText(board) {
  const name = (seat) => seatLabel(board, seat);
  if (board.status === "passed_out") return "Passed out.";
  if (board.opening_lead) {
    const lead = board.opening_lead;
    return [`${name(lead.seat)} led `, cardNode(lead.card), "."];
  }
  if (board.status === "closed") {
    return board.on_lead === me ? "You are on lead: choose a card from your hand."
      : board.on_lead ? `${name(board.on_lead)} is on lead.` : "The auction is over.";
  }
  const pending = board.pending;
  if (pending) {
    return pending.option_holder === me
      ? ["Your option: accept ", callNode(pending.call), ` by ${name(pending.offender)}?`]
      : [`${name(pending.option_holder)} decides whether to accept `, callNode(pending.call),
        ` by ${name(pending.offender)}.`];
  }
  if (page.replacing) return "Choose the call you meant.";
  if (board.turn === me) {
    return (board.must_pass || {})[me] ? "Your call: you must pass." : "Your call.";
  }
  return board.turn ? `Waiting for ${name(board.turn)}.` : "";
}

function renderHand(board) {
  const hand = parseDeal(board.deal)[me];
  if (!hand) {
    show("hand", el("p", { class: "quiet", text: "No hand yet." }));
    $("lead").hidden = true;
    return;
  }
  const leading = board.status === "closed" && board.on_lead === me && !board.opening_lead;
  const played = board.opening_lead && board.opening_lead.seat === me
    ? board.opening_lead.card : null;
  if (!leading) page.lead = null;
  show("hand", handNode(hand, {
    label: `Your hand, ${SEAT_NAMES[me]}`,
    played: page.lead || played,
    onCard: leading ? (card) => { page.lead = card; render(); } : null,
  }));
  $("lead").hidden = !leading;
  const confirm = $("lead-confirm");
  confirm.disabled = !page.lead;
  confirm.replaceChildren(page.lead ? "Lead the " : "Face the lead",
    page.lead ? cardNode(page.lead) : "");
  if (page.lead) confirm.setAttribute("aria-label", `Lead the ${cardWords(page.lead)}`);
  else confirm.removeAttribute("aria-label");
}

function renderBox(board) {
  const mine = board.turn === me && !board.pending && board.status === "auction";
  box.enable(page.replacing ? ALL_CALLS : mine ? board.open_calls || [] : []);
  const replaceable = (board.replaceable || {})[me];
  const undo = $("undo");
  undo.hidden = !replaceable || page.replacing;
  if (replaceable) {
    undo.replaceChildren("Undo my ", callNode(replaceable), " (mis-click)");
    undo.setAttribute("aria-label", `Undo my ${callWords(replaceable)}: a mis-click (Law 25A)`);
  }
  $("undo-cancel").hidden = !page.replacing;
}

function render() {
  const board = page.board;
  if (!board) return;
  $("title").textContent = `Table ${claims.table} · ${SEAT_NAMES[me]}`;
  document.title = `${SEAT_NAMES[me]} at ${claims.table} — board ${board.board}`;
  $("board-info").textContent = `Board ${board.board} · Dealer ${SEAT_NAMES[board.dealer]} · ` +
    `Vulnerable: ${board.vulnerability}`;
  renderHand(board);
  show("auction", auctionNode(board, { onCall: (index) => { page.chosen = index; render(); } }));
  const contract = contractNode(board);
  say("contract", contract ? "Contract: " : null, contract);
  show("call-detail", page.chosen === null ? null : callDetailNode(board, page.chosen, me,
    (index) => send({ type: "question", index })));
  show("explanations", explanationsNode(board));
  const text = turnText(board);
  say("turn", ...(Array.isArray(text) ? text : [text]));
  show("option", board.pending && board.pending.option_holder === me
    ? optionNode(board, (accept) => send({ type: "option", accept })) : null);
  show("questions", questionsNode(board, me,
    (index, explanation) => send({ type: "explanation", index, explanation })));
  renderBox(board);
  show("director", directorNode(board));
}

function onState(message) {
  const board = message.board;
  if (page.board && board && page.board.board !== board.board) page.chosen = null; // new board
  page.board = board;
  if (!board) {
    say("turn", "No board in play yet.");
    return;
  }
  render();
}

function onStatus(state, detail) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = statusWords(state, detail);
}

const me = claims && claims.role === "seat" ? claims.seat : null;
const box = new BiddingBox($("bidding-box"), call);
const socket = me ? new TableSocket({ table: claims.table, token, onState, onStatus }) : null;

$("typed").addEventListener("submit", typed);
document.addEventListener("keydown", keyboard);
$("undo").addEventListener("click", () => { page.replacing = true; render(); });
$("undo-cancel").addEventListener("click", () => { page.replacing = false; render(); });
$("lead-confirm").addEventListener("click", () => {
  if (page.lead) send({ type: "opening_lead", card: page.lead });
});

if (socket) {
  socket.start();
} else {
  onStatus("refused", "this page needs a seat's link, /seat#<token>");
  say("turn", "Open this page with your seat's link.");
}

// The seat page: one player's view of his table. It shows what the board's state says (the
// server's view for this seat: his own hand only, partner's self-alerts withheld) and sends
// this seat's events on the table's socket. No Law is worked out here.

import { parts, prefsNode, t } from "./i18n.js";
import { BiddingBox, parseTyped, ALL_CALLS } from "./bidding.js";
import {
  callDetailNode, directorNode, explanationsNode, optionNode, questionsNode,
} from "./panels.js";
import { statusWords, TableSocket } from "./socket.js";
import { claimNode } from "./claim.js";
import {
  backsNode, callNode, callWords, cardWords, contractNode, el, fourColoursNode,
  handNode, parseDeal, SEAT_NAMES, seatLabel,
} from "./table.js";
import { drawAuction } from "./auction.js";
import { boardBoxNode, cardsLeft, lightPlate, plateNode, seatToAct } from "./seats.js";
import { claimsOf, tokenFromHash } from "./token.js";
import { arrowedCard, cardKey, forThePage, pointedCard, startsCall } from "./keys.js";
import { watchWaiting } from "./waiting.js";
import {
  awaitingChoice, awaitingPlayOption, leadOptionNode, leadOutOfTurnNode, penaltyCardsNode,
  playOptionNode,
} from "./lead_options.js";
import {
  handToPlay, lastCompleted, mayInspectLast, middleNode, placesFrom, playableCards,
  previousNode, remainingHand, resultNode, trickCardsNode,
} from "./trick.js";

const $ = (id) => document.getElementById(id);
let token = tokenFromHash(); // the play page moves it from seat to seat (`sitAt`)
let claims = claimsOf(token);
const page = { board: null, replacing: false, chosen: null, sending: false, lastShown: false,
  keys: false, touch: false, auctionShown: false, callTurn: false, cardKeys: [] };

function show(id, node) { $(id).replaceChildren(...(node ? [node] : [])); }
/** A node's text set only when it changes (the same text set again still costs the browser a
 * style and layout pass). */
function setText(node, text) { if (node.textContent !== text) node.textContent = text; }
/** An element hidden or shown, an attribute set: each only when it changes (the same value set
 * again still marks the element for the browser's style pass). */
function setHidden(node, hidden) { if (node.hidden !== hidden) node.hidden = hidden; }
function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}
/** `id`'s content drawn anew only when `key`, what it is drawn from, changes. */
const drawnFrom = new Map();
function showOnChange(id, key, build) {
  if (drawnFrom.get(id) === key) return;
  drawnFrom.set(id, key);
  show(id, build());
}
function say(id, ...parts) { $(id).replaceChildren(...parts.filter(Boolean)); }
function error(text) {
  setText($("send-error"), text || "");
  if (text) $("box-panel").classList.remove("folded"); // the error in sight
}

async function send(event) {
  error("");
  if (page.board && page.board.clock && page.board.clock.over) { // the round's end: the board
    error(t("seat.timeUp"));
    return false; // stays as it was left (the table's fold passes over what comes after)
  }
  const reply = await socket.send(event);
  if (reply.error) error(t("seat.notTaken", { error: reply.error })); // the server's words
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
    error(t("seat.notACall", { typed: input.value }));
    return;
  }
  if (!box.isEnabled(chosen)) {
    error(t("seat.notOpen", { call: callWords(chosen) }));
    return;
  }
  input.value = "";
  call(chosen);
}

function keyboard(event) { // the page's keys (seat.html's help lists them)
  if (!forThePage(event)) return;
  if (event.key === "?") {
    event.preventDefault();
    $("keys-help").open = true;
    $("keys-help").querySelector("summary").focus();
  } else if (!$("typed").hidden) {
    if (startsCall(event.key)) $("typed-call").focus(); // the key goes on into the field
  } else {
    cardKeys(event);
  }
}

/** The play by keys: a suit and a rank (either order) or an arrow move the focus to a card
 * enabled; Enter on it plays it, as a click does. */
function cardKeys(event) {
  const from = page.board && !page.sending ? handToPlay(page.board, me) : null;
  const buttons = [...$("play-table").querySelectorAll("button[data-card]:not(:disabled)")];
  const cards = buttons.map((b) => b.dataset.card);
  const active = document.activeElement;
  const current = active && active.dataset ? active.dataset.card || null : null;
  const onCards = Boolean(current) || !active || active === document.body;
  const key = cardKey(event.key);
  let card = from && onCards ? arrowedCard(event.key, cards, current) : null;
  if (!from || (!card && !key)) {
    page.cardKeys = [];
    return;
  }
  if (!card) {
    const keys = [...page.cardKeys, key];
    const complete = keys.length === 2 && Boolean(keys[0].suit) !== Boolean(keys[1].suit);
    page.cardKeys = complete ? [] : [key];
    card = pointedCard(complete ? keys : [key], cards);
    if (!card && complete) {
      const named = keys[0].suit ? keys[0].suit + keys[1].rank : keys[1].suit + keys[0].rank;
      error(t("seat.notYours", { card: cardWords(named) }));
    }
  }
  event.preventDefault();
  const button = buttons[cards.indexOf(card)];
  if (button) {
    error("");
    button.focus();
  }
}

/** At one's turn to call, the call box takes the keys (not from another field, nor on a
 * touch screen, where it would open the screen's keyboard). */
function focusAtTurn(board) {
  const turn = board.status === "auction" && board.turn === me && !board.pending;
  const arrived = turn && !page.callTurn;
  page.callTurn = turn;
  if (!arrived || page.touch) return;
  requestAnimationFrame(() => { // in the frame's own style and layout pass, not one forced
    // while the state is drawn
    const active = document.activeElement;
    if (page.callTurn && (!active || active === document.body ||
        (active instanceof HTMLButtonElement && $("box-panel").contains(active)))) {
      $("typed-call").focus();
    }
  });
}

function turnText(board) {
  const name = (seat) => seatLabel(board, seat);
  if (board.status === "passed_out") return t("turn.passedOut");
  if (board.play) return playTurnText(board);
  if (board.status === "closed") {
    return board.on_lead === me ? t("turn.youLead")
      : board.on_lead ? t("turn.onLead", { seat: name(board.on_lead) }) : t("turn.auctionOver");
  }
  const pending = board.pending;
  if (pending) {
    return pending.option_holder === me
      ? parts("turn.yourOption", { call: callNode(pending.call), seat: name(pending.offender) })
      : parts("turn.decides", { holder: name(pending.option_holder),
        call: callNode(pending.call), seat: name(pending.offender) });
  }
  if (page.replacing) return t("turn.chooseMeant");
  if (board.turn === me) {
    return (board.must_pass || {})[me] ? t("turn.mustPass") : t("turn.yourCall");
  }
  return board.turn ? t("turn.waiting", { seat: name(board.turn) }) : "";
}

function playTurnText(board) { // during the play: whose card, from which hand
  const play = board.play;
  const name = (seat) => seatLabel(board, seat);
  if (play.ended || board.result) return t("turn.playOver");
  if (play.claim) return play.claim.disputed ? t("turn.claimDisputed")
    : t("turn.claimed", { seat: name(play.claim.seat) });
  if (play.lead_out_of_turn) {
    return play.lead_out_of_turn.option_holders.includes(me)
      ? t("turn.leadOutMine") : t("turn.leadOut");
  }
  if (awaitingChoice(play)) { // Law 50D2: the partner leads once declarer has chosen
    return me === play.declarer ? t("turn.leadOptionMine")
      : t("turn.leadOption", { seat: name(play.declarer) });
  }
  if (awaitingPlayOption(play)) { // Law 57A: the partner plays once declarer has chosen
    return me === play.declarer ? t("turn.playOptionMine")
      : t("turn.playOption", { seat: name(play.declarer) });
  }
  const from = handToPlay(board, me);
  if (from === me) return t("turn.yourCard");
  if (from) return t("turn.dummyCard", { seat: SEAT_NAMES[from] });
  if (play.turn === play.dummy) {
    return me === play.dummy ? t("turn.declarerPlaysYours", { seat: name(play.declarer) })
      : t("turn.fromDummy", { seat: name(play.declarer) });
  }
  return play.turn ? t("turn.waiting", { seat: name(play.turn) }) : "";
}

async function playCard(from, card) { // one click sends the card: no undo (Law 45C4)
  if (page.sending) return;
  page.sending = true;
  render();
  const event = { type: "card_played", card };
  if (from !== me) event.seat = from; // dummy's card, from declarer's page (Law 45)
  if (!(await send(event))) {
    page.sending = false;
    render();
  }
}

function seatTitle(board, seat) {
  return plateNode(board, seat, { me, id: `seat-${seat}` });
}

/** A hand at the table: what is left of it; buttons when `me` plays from it (his own, or
 * dummy's for declarer), the cards that may go now enabled. */
function handAt(board, seat, hand) {
  const play = board.play;
  const from = page.sending ? null : handToPlay(board, me);
  const left = remainingHand(hand, play);
  const mine = seat === me || (play && seat === play.dummy && me === play.declarer);
  if (seat === me && board.result) {
    return handNode(hand, { label: t("hand.yours", { seat: SEAT_NAMES[me] }) });
  }
  const active = board.status === "closed" && !board.result && mine &&
    !(play && me === play.dummy);
  const whose = seat === me ? "hand.yours" : play && seat === play.dummy ? "hand.dummy"
    : board.result ? "hand.seats" : "hand.faced";
  return handNode(board.result ? hand : left, {
    label: t(whose, { seat: SEAT_NAMES[seat] }),
    onCard: active ? (card) => playCard(seat, card) : null,
    enabled: active ? (from === seat ? playableCards(board, seat) : []) : null,
  });
}

/** What a place's hand is drawn from (its cards, or its backs, its penalty cards, the cards
 * enabled in it): the hand is drawn anew only when this changes (a call changes none of it). */
function handKey(board, seat, hand) {
  const play = board.play;
  const from = page.sending ? null : handToPlay(board, me);
  return JSON.stringify([hand, hand ? remainingHand(hand, play) : cardsLeft(board, seat),
    board.status, Boolean(board.result), play && play.declarer, play && play.dummy, from,
    from === seat ? playableCards(board, seat) : null,
    (board.penalty_cards || []).filter((p) => p.seat === seat), board.opening_lead || null]);
}

/** What a place's plate is drawn from (seats.js's plateNode: the name, the badges), but for
 * whether it is lit (`lightPlate`). */
function plateKey(board) {
  const play = board.play;
  return JSON.stringify([board.status, board.players || null,
    board.vulnerability, board.dealer, board.contract || null, play && play.declarer,
    play && play.dummy]);
}

/** Draw a place's plate and hand, each only when what it shows has changed (the seat to act
 * moves at each call: its plate lit or put out, its thirteen cards kept). */
function drawPlace(node, board, seat, hand, lit, plate) {
  const cards = handKey(board, seat, hand);
  const title = node.firstElementChild;
  if (node.dataset.drawn === cards && title) {
    if (node.dataset.plate !== plate) title.replaceWith(seatTitle(board, seat));
    else if (title.classList.contains("lit") !== (lit === seat)) {
      lightPlate(title, board, lit === seat);
    }
  } else {
    node.replaceChildren(...[seatTitle(board, seat),
      hand ? handAt(board, seat, hand)
        : backsNode(cardsLeft(board, seat), t("hand.of", { seat: SEAT_NAMES[seat] })),
      penaltyCardsNode(board, seat)].filter(Boolean)); // public to all (Law 50)
  }
  if (node.dataset.drawn !== cards) node.dataset.drawn = cards;
  if (node.dataset.plate !== plate) node.dataset.plate = plate;
}

/** The table: the four seats along its sides seen from `me` (at the bottom), each hand seen
 * as its faces, the others as backs with their count; the seat to act lit. */
function renderHand(board) {
  const hands = parseDeal(board.deal);
  const play = board.play;
  $("play-table").classList.toggle("playing", Boolean(play));
  document.querySelector("main").classList.toggle("playing", Boolean(play));
  setText($("hand-title"), t("seat.table"));
  const lit = seatToAct(board);
  const places = placesFrom(me);
  const plate = plateKey(board); // the same for the four places
  for (const [seat, place] of Object.entries(places)) {
    const node = $(seat === me ? "hand" : `place-${place}`);
    if (seat !== me && node.dataset.seat !== seat) node.dataset.seat = seat; // one's own: #hand
    node.classList.toggle("to-act", seat === lit);
    if (seat === me && !hands[me]) {
      node.replaceChildren(el("p", { class: "quiet", text: t("seat.noHand") }));
      delete node.dataset.drawn;
      continue;
    }
    drawPlace(node, board, seat, hands[seat], lit, plate);
  }
  show("middle-box", play ? middleNode(board, me) : null);
}

function renderPlayPanel(board) {
  const play = board.play;
  const last = play ? lastCompleted(play) : null;
  const may = mayInspectLast(board, me);
  if (!may) page.lastShown = false;
  const button = $("last-trick-button");
  setHidden(button, !last);
  if (button.disabled !== !may) button.disabled = !may;
  setAttr(button, "aria-expanded", String(page.lastShown));
  setText(button, page.lastShown ? t("seat.hideLast") : t("seat.showLast"));
  show("last-trick", page.lastShown && last ? el("div", {}, trickCardsNode(last, me,
    { label: t("trick.last") }), el("p", { class: "trick-note",
    text: t("trick.wonBy", { seat: SEAT_NAMES[last.winner] }) })) : null);
  show("claim-box", claimNode(board, me, {
    onClaim: async (tricks, statement) => { // the claimer faces his hand (Law 68)
      if (await send({ type: "claim", tricks, ...(statement ? { statement } : {}) })) {
        await send({ type: "hand_faced" });
      }
    },
    onAnswer: (accept) => send({ type: "claim_response", accept }),
  }));
  show("lead-option-box", leadOptionNode(board, me, (choice, suit) => send({
    type: "lead_option", choice, ...(suit ? { suit } : {}) })));
  show("play-option-box", playOptionNode(board, me, (choice, suit) => send({
    type: "play_option", choice, ...(suit ? { suit } : {}) })));
  show("lead-out-box", leadOutOfTurnNode(board, me, (accept) => send({ type: "option",
    accept })));
  show("result", resultNode(board, me));
  show("previous", previousNode(board.previous, me, me));
}

function renderBox(board) {
  const bidding = board.status === "auction";
  for (const id of ["bidding-box", "typed", "self-alert-row"]) setHidden($(id), !bidding);
  setText($("box-title"), bidding ? t("seat.biddingBox") : t("seat.play"));
  const mine = board.turn === me && !board.pending && board.status === "auction";
  box.enable(page.replacing ? ALL_CALLS : mine ? board.open_calls || [] : []);
  const replaceable = (board.replaceable || {})[me];
  const undo = $("undo");
  setHidden(undo, !replaceable || page.replacing);
  if (replaceable) {
    undo.replaceChildren(...parts("seat.undoMine", { call: callNode(replaceable) }));
    undo.setAttribute("aria-label", t("seat.undoMineLabel", { call: callWords(replaceable) }));
  }
  setHidden($("undo-cancel"), !page.replacing);
  const said = $("option").children.length || $("questions").children.length ||
    $("send-error").textContent || !undo.hidden || !$("undo-cancel").hidden;
  $("box-panel").classList.toggle("folded", Boolean(board.play) && !said); // the lit seat
  // shows the turn; the sentence stays for screen readers
}

/** Keyboard play: the table is drawn anew at each state, so the focus, when it was on the
 * table (or lost with a card just played, or with the call box as the auction closed), goes
 * back to that card or the first one enabled. */
function keepFocus(draw) {
  const active = document.activeElement;
  const onTable = $("play-table").contains(active);
  const card = onTable && active.dataset ? active.dataset.card : null;
  draw();
  const lost = !active || active === document.body || !active.isConnected ||
    Boolean(active.closest("[hidden]")); // the call box, hidden as the auction closes
  if (!page.keys || !(onTable || lost)) return;
  const open = [...$("play-table").querySelectorAll("button[data-card]:not(:disabled)")];
  const target = open.find((b) => b.dataset.card === card) || open[0];
  if (target) target.focus();
}

function render() {
  keepFocus(draw);
}

/** The board's box, drawn anew only when what it shows changes (a call changes none of it
 * until the auction closes); a held round's clock each time, as it was. */
function drawBoardBox(board) {
  const clock = board.clock || null;
  const key = clock && clock.held ? "" : JSON.stringify([board.board, board.dealer,
    board.vulnerability, board.status === "passed_out", board.contract || null,
    board.play ? board.play.won : null, clock]);
  const node = $("board-info");
  if (key && node.dataset.drawn === key) return;
  node.dataset.drawn = key;
  show("board-info", boardBoxNode(board));
}

function chooseCall(index) { // a call of the auction, to read or ask about (Law 20F)
  page.chosen = index;
  render();
}

function draw() {
  const board = page.board;
  if (!board) return;
  setText($("title"), t("seat.heading", { table: claims.table, seat: SEAT_NAMES[me] }));
  const tab = t("seat.tabAt", { seat: SEAT_NAMES[me], table: claims.table,
    board: board.board });
  if (document.title !== tab) document.title = tab;
  drawBoardBox(board);
  renderHand(board);
  renderPlayPanel(board);
  const compact = Boolean(board.play) && !page.auctionShown; // the play: the contract alone
  const toggle = $("auction-toggle");
  setHidden(toggle, !board.play);
  setAttr(toggle, "aria-expanded", String(!compact));
  setText(toggle, compact ? t("seat.showAuction") : t("seat.hideAuction"));
  setHidden($("auction"), compact);
  if (compact) show("auction", null);
  else drawAuction($("auction"), board, { onCall: chooseCall }); // a new call: one new cell
  const contract = contractNode(board);
  say("contract", ...(contract ? parts("seat.contract", { contract }) : []));
  show("call-detail", page.chosen === null ? null : callDetailNode(board, page.chosen, me,
    (index) => send({ type: "question", index })));
  show("explanations", explanationsNode(board));
  const text = turnText(board);
  say("turn", ...(Array.isArray(text) ? text : [text]));
  setHidden($("play-turn"), !board.play); // the same words beside the table (#turn is read aloud)
  setText($("play-turn"), board.play ? $("turn").textContent : "");
  show("option", board.pending && board.pending.option_holder === me
    ? optionNode(board, (accept) => send({ type: "option", accept })) : null);
  show("questions", questionsNode(board, me,
    (index, explanation) => send({ type: "explanation", index, explanation })));
  renderBox(board);
  showOnChange("director", JSON.stringify([board.alerts, board.rectifications,
    board.lead_restrictions, board.rulings]), () => directorNode(board)); // panels.js reads these
  focusAtTurn(board);
}

function onState(message) {
  const board = message.board;
  if (page.board && board && page.board.board !== board.board) { // a new board
    page.chosen = null;
    page.lastShown = false;
  }
  if (board && board.withheld) return; // another round's board: the play page moves on
  page.board = board;
  page.sending = false;
  if (!board) {
    say("turn", t("seat.noBoard"));
    return;
  }
  render();
}

function onStatus(state, detail) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = statusWords(state, detail);
}

let me = claims && claims.role === "seat" ? claims.seat : null;
const box = new BiddingBox($("bidding-box"), call);
let socket = me ? new TableSocket({ table: claims.table, token, onState, onStatus }) : null;

/** The play page's (a player's link, `/play`): this page sat at his seat of a round, its
 * socket moved there from the seat before (none: `seatToken` null, the socket stopped). */
export function sitAt(seatToken) {
  if (socket) socket.stop();
  token = seatToken;
  claims = claimsOf(token);
  me = claims && claims.role === "seat" ? claims.seat : null;
  Object.assign(page, { board: null, chosen: null, replacing: false, lastShown: false });
  socket = me ? new TableSocket({ table: claims.table, token, onState, onStatus }) : null;
  if (socket) socket.start();
}

$("typed").addEventListener("submit", typed);
document.addEventListener("keydown", keyboard);
document.addEventListener("keydown", () => { page.keys = true; }, true);
document.addEventListener("pointerdown", (event) => {
  page.keys = false;
  page.touch = event.pointerType === "touch";
}, true);
$("undo").addEventListener("click", () => { page.replacing = true; render(); });
$("undo-cancel").addEventListener("click", () => { page.replacing = false; render(); });
$("auction-toggle").addEventListener("click", () => {
  page.auctionShown = !page.auctionShown;
  render();
});
$("deck").replaceChildren(fourColoursNode());
if (!document.querySelector(".prefs")) $("prefs").replaceChildren(prefsNode("seat-prefs"));
$("last-trick-button").addEventListener("click", () => {
  page.lastShown = !page.lastShown;
  render();
});

watchWaiting($("waiting"), () => (me ? { table: claims.table, token } : null));

if (socket) {
  socket.start();
} else if (!claims || claims.role !== "player") { // the play page seats it (`sitAt`)
  onStatus("refused", t("seat.needsLink"));
  say("turn", t("seat.openWithLink"));
}

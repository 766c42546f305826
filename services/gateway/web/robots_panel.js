// The robots at the table in view, on the director's console: which seats are robots'
// (connected; stalled: connected, but the table has waited for its call or card for long; or
// the seat waiting for its robot), and a control to seat our robots (the
// robot pool sits them through the Table Manager host) or take them away. Read again every
// few seconds while the table is in view: a robot's connection may drop and come back.

import { getJson, postJson } from "./api.js";
import { el, SEAT_NAMES } from "./table.js";

const SEATS = ["N", "E", "S", "W"];
const EVERY_MS = 2000;
const WORDS = { connected: "connected", stalled: "stalled", waiting: "waiting for its robot" };

/** The overview's words for a table's robots ({seat: status}): "E, W (waiting), S (stalled)";
 * a substitute's seat (`substitutes`) "W (substitute)". */
export function robotsLine(robots, substitutes) {
  const seats = Object.entries(robots || {});
  const subs = new Set(substitutes || []); // sitting in for a vanished player
  return seats.length ? seats.map(([seat, status]) =>
    (status === "connected" ? seat : `${seat} (${status})`) +
    (subs.has(seat) ? " (substitute)" : "")).join(", ") : "—";
}

/** "— stalled: its call or card awaited for 95 s" (how long the table has waited for it). */
function statusWords(robot) {
  const words = WORDS[robot.status] || robot.status;
  if (robot.status !== "stalled") return ` — ${words}`;
  const waited = robot.awaited_s === null ? "" : ` for ${robot.awaited_s} s`;
  return ` — ${words}: its call or card awaited${waited}`;
}

function statusNode(seats) {
  const held = Object.entries(seats);
  if (!held.length) return el("p", { class: "mode", text: "No robot at this table." });
  return el("ul", { class: "robot-seats", "aria-label": "Robots at the table" },
    held.map(([seat, robot]) => el("li", { "data-seat": seat, "data-status": robot.status,
      class: `robot-${robot.status}` }, el("strong", { text: SEAT_NAMES[seat] }),
    statusWords(robot),
    robot.label ? ` (${robot.label})` : "", robot.requested ? "" : " · not ours")));
}

/** Binds the robots' form; `table()` is the table in view (or null), `act` the console's
 * way to send a request and say its answer. */
export function bindRobots({ token, table, visible, act }) {
  const $ = (id) => document.getElementById(id);
  const path = () => `/api/tables/${encodeURIComponent(table())}/robots`;
  const render = (view) => {
    $("robot-status").replaceChildren(statusNode(view.seats));
    return view;
  };
  const check = (view) => {
    for (const seat of SEATS) {
      $(`robot-${seat}`).checked = Boolean(view.seats[seat] && view.seats[seat].requested);
    }
  };
  const read = async () => {
    if (!table() || !visible()) return;
    try { render(await getJson(path(), token)); } catch { /* said at the next answer */ }
  };
  const send = (seats) => act("robots-result", () => postJson(path(), token, { seats }),
    (view) => {
      render(view);
      check(view);
      return seats.length ? `Robots asked for at ${seats.map((s) => SEAT_NAMES[s])
        .join(", ")}` : "Every robot taken away";
    });
  $("robots-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send(SEATS.filter((seat) => $(`robot-${seat}`).checked));
  });
  $("robots-remove").addEventListener("click", () => send([]));
  window.setInterval(read, EVERY_MS);
  return {
    /** A new table in view: its robots read at once, its boxes as the director asked. */
    async open() {
      $("robot-status").replaceChildren();
      try { check(render(await getJson(path(), token))); } catch { /* read again soon */ }
    },
  };
}

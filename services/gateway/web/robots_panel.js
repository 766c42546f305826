// The robots at the table in view, on the director's console: which seats are robots'
// (connected; stalled: connected, but the table has waited for its call or card for long; or
// the seat waiting for its robot), and a control to seat our robots (the
// robot pool sits them through the Table Manager host) or take them away. Read again every
// few seconds while the table is in view: a robot's connection may drop and come back.

import { getJson, postJson } from "./api.js";
import { t } from "./i18n.js";
import { el, SEAT_NAMES } from "./table.js";

const SEATS = ["N", "E", "S", "W"];
const EVERY_MS = 2000;
// a robot's status: dr.status.<status> in the panel, dr.short.<status> in the overview
const WORDS = ["connected", "stalled", "waiting"];

/** The overview's words for a table's robots ({seat: status}): "E, W (waiting), S (stalled)";
 * a substitute's seat (`substitutes`) "W (substitute)". */
export function robotsLine(robots, substitutes) {
  const seats = Object.entries(robots || {});
  const subs = new Set(substitutes || []); // sitting in for a vanished player
  return seats.length ? seats.map(([seat, status]) =>
    (status === "connected" ? t(`seatShort.${seat}`) : t("dr.seatStatus",
      { seat: t(`seatShort.${seat}`), status: WORDS.includes(status)
        ? t(`dr.short.${status}`) : status })) +
    (subs.has(seat) ? t("dr.substitute") : "")).join(", ") : "—";
}

/** A robot's status in words ("stalled"), else as sent. */
function statusName(status) {
  return WORDS.includes(status) ? t(`dr.status.${status}`) : status;
}

/** "— stalled: its call or card awaited for 95 s" (how long the table has waited for it). */
function statusWords(robot) {
  const words = statusName(robot.status);
  if (robot.status !== "stalled") return t("dr.line", { words });
  return robot.awaited_s === null ? t("dr.stalled", { words })
    : t("dr.stalledFor", { words, seconds: robot.awaited_s });
}

function statusNode(seats) {
  const held = Object.entries(seats);
  if (!held.length) return el("p", { class: "mode", text: t("dr.none") });
  return el("ul", { class: "robot-seats", "aria-label": t("dr.atTable") },
    held.map(([seat, robot]) => el("li", { "data-seat": seat, "data-status": robot.status,
      class: `robot-${robot.status}` }, el("strong", { text: SEAT_NAMES[seat] }),
    statusWords(robot),
    robot.label ? el("span", { "data-verbatim": "", text: ` (${robot.label})` }) : "",
    robot.requested ? "" : t("dr.notOurs"))));
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
      return seats.length ? t("dr.asked", { seats: seats.map((s) => SEAT_NAMES[s])
        .join(", ") }) : t("dr.removed");
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

// The Director's clock of a timed round, in the console's tournament panel: the time left,
// and the buttons that give more time, hold the clock or end the round now (which starts the
// movement's next round). `POST /api/tournaments/{t}/clock`; docs/scoring.md, "The clock".
// Drawn again with each overview; the answers go to the page's `#clock-result`, which stays.
import { postJson } from "./api.js";
import { minutesSeconds } from "./clock.js";
import { el } from "./table.js";

/** The panel for `view` (the tournament's overview); `act(id, request, words)` sends and says
 * the answer, `then()` reads the overview again. */
export function clockPanelNode(view, { tournament, token, act, then }) {
  const send = (body, words) => act("clock-result", () => postJson(
    `/api/tournaments/${encodeURIComponent(tournament)}/clock`, token, body),
  (made) => { then(); return words(made); });
  const behind = view.tables.filter((t) => t.behind).map((t) => t.table);
  const left = view.clock ? `${minutesSeconds(view.clock.ends_at - view.now)} left in the round`
    : "The round's clock is not running (untimed, held or over).";
  return el("div", { class: "clock-panel" },
    el("p", { id: "clock-left", class: "mode", text: left }),
    behind.length ? el("p", { id: "clock-behind",
      text: `Behind time: ${behind.join(", ")}` }) : null,
    el("div", { class: "clock-actions" },
      el("button", { type: "button", id: "clock-more",
        onclick: () => send({ action: "extend", minutes: 2 },
          (made) => `Round ${made.round}: two more minutes.`) }, "Two more minutes"),
      el("button", { type: "button", id: "clock-hold",
        onclick: () => send({ action: "hold" },
          (made) => `Round ${made.round}: clock held.`) }, "Hold the clock"),
      el("button", { type: "button", id: "clock-end",
        onclick: () => send({ action: "end" }, (made) => made.next
          ? `Round ${made.round} ended; round ${made.next} started.`
          : `Round ${made.round} ended: the last round.`) }, "End the round now")));
}

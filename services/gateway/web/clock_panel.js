// The Director's clock of a timed round, in the console's tournament panel: the time left,
// and the buttons that give more time, hold the clock or end the round now (which starts the
// movement's next round). `POST /api/tournaments/{t}/clock`; docs/scoring.md, "The clock".
// Drawn again with each overview; the answers go to the page's `#clock-result`, which stays.
import { postJson } from "./api.js";
import { minutesSeconds } from "./clock.js";
import { t } from "./i18n.js";
import { el } from "./table.js";

/** The panel for `view` (the tournament's overview); `act(id, request, words)` sends and says
 * the answer, `then()` reads the overview again. */
export function clockPanelNode(view, { tournament, token, act, then }) {
  const send = (body, words) => act("clock-result", () => postJson(
    `/api/tournaments/${encodeURIComponent(tournament)}/clock`, token, body),
  (made) => { then(); return words(made); });
  const behind = view.tables.filter((one) => one.behind).map((one) => one.table);
  const left = view.clock ? t("dc.left", { time: minutesSeconds(view.clock.ends_at - view.now) })
    : t("dc.notRunning");
  return el("div", { class: "clock-panel" },
    el("p", { id: "clock-left", class: "mode", text: left }),
    behind.length ? el("p", { id: "clock-behind",
      text: t("dc.behind", { tables: behind.join(", ") }) }) : null,
    el("div", { class: "clock-actions" },
      el("button", { type: "button", id: "clock-more",
        onclick: () => send({ action: "extend", minutes: 2 },
          (made) => t("dc.extended", { round: made.round })) }, t("dc.more")),
      el("button", { type: "button", id: "clock-hold",
        onclick: () => send({ action: "hold" },
          (made) => t("dc.held", { round: made.round })) }, t("dc.hold")),
      el("button", { type: "button", id: "clock-end",
        onclick: () => send({ action: "end" }, (made) => made.next
          ? t("dc.ended", { round: made.round, next: made.next })
          : t("dc.endedLast", { round: made.round })) }, t("dc.end"))));
}

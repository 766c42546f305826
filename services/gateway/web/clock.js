// The round's clock, as the table's state carries it (`clock`: round, ends_at, over, held):
// "Round 2 · 12:34 left", ticking each second; "time is up" once the round has ended; the time
// it had while the Director holds it. One timer for every clock on the page.
import { t } from "./i18n.js";
import { el } from "./table.js";

/** "12:34" for a number of milliseconds (not below zero). */
export function minutesSeconds(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The clock's words at `now` (ms). */
export function clockText(clock, now = Date.now()) {
  const round = clock.round;
  if (clock.over) return t("clock.over", { round });
  const left = minutesSeconds(clock.ends_at - (clock.held ? clock.held_at || now : now));
  return t(clock.held ? "clock.held" : "clock.left", { round, left });
}

/** "Round 3 starts in 1:20": the next round's start, the end of the clock of the round before
 * (held: the time it had, and that the Director holds it; over: it starts soon). */
export function nextRoundText(clock, now = Date.now()) {
  const next = clock.round + 1;
  if (clock.over) return t("clock.nextSoon", { round: next });
  const left = minutesSeconds(clock.ends_at - (clock.held ? clock.held_at || now : now));
  return t(clock.held ? "clock.nextHeld" : "clock.next", { round: next, left });
}

/** The tournament's clock as a player's page or the vugraph list has it (`left` while held)
 * in the table state's form: held, its end is the time it had from now. */
export function fromTournament(clock, now = Date.now()) {
  return clock.held ? { ...clock, ends_at: now + (clock.left || 0) } : clock;
}

/** A node showing the clock, kept up to date by the page's one timer; `words` (`clockText`
 * unless given) says it. */
export function clockNode(clock, words = clockText) {
  const node = el("span", { class: "round-clock", role: "timer", "aria-live": "off",
    text: words(clock) });
  node.roundClock = { ...clock, held_at: clock.held ? Date.now() : null };
  node.roundWords = words;
  if (!clock.over && clock.ends_at - Date.now() < 60_000) node.classList.add("clock-short");
  tick.start();
  return node;
}

const tick = {
  timer: null,
  start() {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const node of document.querySelectorAll(".round-clock")) {
        if (!node.roundClock) continue;
        node.textContent = (node.roundWords || clockText)(node.roundClock);
        const short = !node.roundClock.over && node.roundClock.ends_at - Date.now() < 60_000;
        node.classList.toggle("clock-short", short);
      }
    }, 1000);
  },
};

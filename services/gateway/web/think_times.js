// The think times of a board's record, the Director's alone (the history's `think_times`,
// which no other reader's history carries): each call's and card's think in seconds, a call
// after a break in tempo marked (Law 16B1: the Director decides), each side's sums. The words
// are the catalogue's (i18n.js).

import { t } from "./i18n.js";
import { el } from "./table.js";

const seconds = (ms) => t("think.seconds", { count: Math.round(ms / 1000) });

/** The thinks of a history by the offset of their event. */
export function thinksByOffset(times) {
  return new Map(((times && times.thinks) || []).map((think) => [think.offset, think]));
}

/** A step's think: "thought 26 s" ("the robot thought", a substitute's turn), and a break
 * in tempo's mark. */
export function thinkNode(think) {
  if (!think) return null;
  return el("span", { class: think.tempo ? "think tempo" : "think" },
    ` — ${t(think.robot ? "think.robot" : "think.thought", { time: seconds(think.think_ms) })}`,
    think.tempo ? el("strong", { text: ` ${t("think.tempo")}` }) : null);
}

/** Each side's thinking on board `number` and in its round, in words (null: none). */
export function thinkSummary(times, number) {
  const boards = ((times && times.boards) || []).filter((b) => b.board === number);
  if (!boards.length) return null;
  const board = boards[boards.length - 1];
  const round = (times.rounds || []).find((r) => board.round !== null && r.round === board.round);
  const onBoard = { ns: seconds(board.ns_ms), ew: seconds(board.ew_ms) };
  return round ? t("think.summaryRound", { ...onBoard, roundNs: seconds(round.ns_ms),
    roundEw: seconds(round.ew_ms), round: round.round }) : t("think.summary", onBoard);
}

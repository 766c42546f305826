// A board replayed event by event: one read of the table's history with `states=true` (the
// server folds each step), then a step at a time with a slider, buttons and the keys ← → Home
// End. The token goes in the request's Authorization header, never in its URL.

import { getJson } from "./api.js";

export class Replay {
  /** `onStep(entry, index, count)` for the step shown; `onBoards(numbers)` with the table's
   * boards each time a history is read. */
  constructor({ table, token, onStep, onBoards = () => {} }) {
    Object.assign(this, { table, token, onStep, onBoards });
    this.steps = [];
    this.index = 0;
    this.board = null;
  }

  /** Read board `board`'s history and show its first step. */
  async load(board) {
    const path = `/api/tables/${encodeURIComponent(this.table)}/history?board=` +
      `${encodeURIComponent(board)}&states=true&format=json`;
    const document = await getJson(path, this.token);
    this.onBoards([...new Set(document.boards || [])]);
    this.steps = (document.history || []).filter((entry) => entry.state);
    this.board = board;
    // a tournament's board other tables still play: why the public has no step of it
    this.withheld = (document.state && document.state.withheld) || null;
    this.go(0);
  }

  get count() { return this.steps.length; }

  get state() { return this.count ? this.steps[this.index].state : null; }

  go(index) {
    if (!this.count) return;
    this.index = Math.max(0, Math.min(this.count - 1, index));
    this.onStep(this.steps[this.index], this.index, this.count);
  }

  /** A key pressed while replaying: true when it moved the replay. */
  key(name) {
    const to = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0,
      End: this.count - 1 }[name];
    if (to === undefined || !this.count) return false;
    this.go(to);
    return true;
  }
}

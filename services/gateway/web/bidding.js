// The bidding box: every call as a button, enabled as the page says (the state's
// `open_calls` at this seat's turn), and calls typed on the keyboard ("1h", "3nt", "p", "x",
// "xx", then Enter).

import { t } from "./i18n.js";
import { callNode, callWords, el, STRAINS } from "./table.js";

export const ALL_CALLS = ["P", "X", "XX"];
for (let level = 1; level <= 7; level += 1) {
  for (const strain of STRAINS) ALL_CALLS.push(`${level}${strain}`);
}

/** A typed call in the server's spelling, or null: "1h" → "1H", "2n"/"2nt" → "2NT",
 * "p"/"pass" → "P", "x"/"d"/"dbl" → "X", "xx"/"r"/"rdbl" → "XX". */
export function parseTyped(text) {
  const t = text.trim().toUpperCase().replace(/\s+/g, "");
  if (["P", "PASS"].includes(t)) return "P";
  if (["X", "D", "DBL", "DOUBLE"].includes(t)) return "X";
  if (["XX", "R", "RDBL", "REDOUBLE"].includes(t)) return "XX";
  const m = /^([1-7])(C|D|H|S|N|NT)$/.exec(t);
  return m ? `${m[1]}${m[2] === "N" ? "NT" : m[2]}` : null;
}

export class BiddingBox {
  /** `root`: the box's container; `onCall(call)` when a call is chosen. */
  constructor(root, onCall) {
    this.onCall = onCall;
    this.buttons = new Map();
    const make = (call, cls) => {
      const button = el("button", { type: "button", class: `bid ${cls}`, "data-call": call,
        "aria-label": callWords(call), disabled: true, onclick: () => this.onCall(call) },
      callNode(call));
      this.buttons.set(call, button);
      return button;
    };
    const bids = el("div", { class: "bids", role: "group", "aria-label": t("box.bids") },
      ALL_CALLS.slice(3).map((call) => make(call, "level")));
    const others = el("div", { class: "others", role: "group", "aria-label": t("box.others") }, ["P", "X", "XX"].map((call) => make(call, `other other-${call}`)));
    root.replaceChildren(bids, others);
  }

  /** Enable exactly `calls` (an iterable), the others disabled. */
  enable(calls) {
    const open = new Set(calls);
    for (const [call, button] of this.buttons) { // unchanged: untouched (no style pass)
      const closed = !open.has(call);
      if (button.disabled !== closed) button.disabled = closed;
    }
  }

  isEnabled(call) {
    const button = this.buttons.get(call);
    return Boolean(button) && !button.disabled;
  }
}

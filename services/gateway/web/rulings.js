// The Director's rulings (the `ruling` event of the schema): what each does, in words, for the
// console's form and for every page that shows a ruling given. The server applies a ruling
// mechanically (shared/laws/rulings.py `on_ruling`); nothing here works a Law out.

import { SEAT_NAMES } from "./table.js";

const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

/** Each form: its label, the fields it takes (besides `law` and `note`), the Law the server
 * cites when none is given, and what it does; `action` when the form sends another form's
 * action (the play's `tricks`, for a claim and for a revoke). */
export const RULINGS = {
  cancel_call: { label: "Cancel a call", fields: ["seat", "index"], law: "17D",
    does: "Cancels the seat's last call (or the call at the index given) and every call after "
      + "it; the auction reverts to its caller, who calls again (Law 17D: a call made on cards "
      + "from a wrong board)." },
  allow_change: { label: "Allow a change of call", fields: ["seat"], law: "21B1",
    does: "Lets the seat change his last call after misinformation: it and any later call are "
      + "cancelled and the auction reverts to him; his left-hand opponent may then change his "
      + "call too (Law 21B1, 21B2)." },
  set_pass_obligation: { label: "Oblige a seat to pass", fields: ["seat", "obligation"],
    law: "", does: "The seat must pass at his next turn, or at every turn for the rest of the "
      + "auction (e.g. Laws 23, 27B2, 30, 31, 32 when the Director judges it)." },
  lift_pass_obligation: { label: "Lift an obligation to pass", fields: ["seat"], law: "",
    does: "Frees the seat from an obligation to pass (and from one not to double), whatever "
      + "imposed it: to correct an obligation applied in error. Not for Law 23, under which the "
      + "enforced pass stands and the Director may award an adjusted score afterwards." },
  lead_restriction: { label: "Restrict the opening lead", fields: ["seat", "suit",
    "restriction"], law: "26",
  does: "The seat must lead the suit, or must not lead it, at his first turn to lead "
      + "(Law 26)." },
  adjusted_score: { label: "Award an adjusted score", fields: ["score"], law: "12C",
    does: "Records the adjusted score for the board, e.g. \"NS 420\" or \"A-/A+\" (Laws 12C, "
      + "23, 27B1(b), 40C); the auction itself is unchanged." },
  tricks: { label: "Rule the tricks on a claim", fields: ["tricks"], law: "70",
    does: "Declarer wins this many tricks in all, those already won included, and the play "
      + "ends: a disputed claim or concession (Laws 68D, 70, 71), or an agreement withdrawn "
      + "(69B). The board's result and score follow from it." },
  tricks_revoke: { label: "Adjust the tricks after a revoke", action: "tricks",
    fields: ["tricks"], law: "64C",
    does: "Declarer wins this many tricks in all and the play ends: when the tricks the Laws "
      + "transfer for a revoke (64A) do not restore equity, the Director awards the tricks "
      + "the non-offending side would have won (Law 64C)." },
};

const seatName = (seat) => SEAT_NAMES[seat] || seat || "";

/** A ruling given (an entry of the state's `rulings`, or a `ruling` event) in words. */
export function rulingWords(r) {
  const law = r.law ? ` (Law ${r.law})` : "";
  const note = r.note ? ` — ${r.note}` : "";
  const what = {
    cancel_call: () => (r.index !== undefined && r.index !== null
      ? `call ${r.index + 1} and those after it cancelled` : `${seatName(r.seat)}'s last call `
      + "and those after it cancelled"),
    allow_change: () => `${seatName(r.seat)} may change his last call`,
    set_pass_obligation: () => `${seatName(r.seat)} must pass ` +
      (r.obligation === "every_turn" ? "at every turn" : "at his next turn"),
    lift_pass_obligation: () => `${seatName(r.seat)} is freed from passing`,
    lead_restriction: () => `${seatName(r.seat)} ${r.restriction === "require" ? "must" :
      "must not"} lead ${SUIT_NAMES[r.suit] || r.suit}`,
    adjusted_score: () => `adjusted score ${r.score}`,
    tricks: () => `declarer wins ${r.tricks} trick${r.tricks === 1 ? "" : "s"} in all; the play ` +
      "ends",
  }[r.action];
  return `The Director's ruling${law}: ${what ? what() : r.action}${note}.`;
}

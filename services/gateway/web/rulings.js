// The Director's rulings (the `ruling` event of the schema): what each does, in words, for the
// console's form and for every page that shows a ruling given. The server applies a ruling
// mechanically (shared/laws/rulings.py `on_ruling`); nothing here works a Law out.

import { SEAT_NAMES } from "./table.js";

const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

/** Each form: the fields it takes (besides `law` and `note`), the Law the server cites when
 * none is given; `action` when the form sends another form's action (the play's `tricks`, for
 * a claim and for a revoke). Its label and what it does are in the catalogues
 * (`rule.<form>.label`, `rule.<form>.does`). */
export const RULINGS = {
  cancel_call: { fields: ["seat", "index"], law: "17D" },
  allow_change: { fields: ["seat"], law: "21B1" },
  set_pass_obligation: { fields: ["seat", "obligation"], law: "" },
  lift_pass_obligation: { fields: ["seat"], law: "" },
  lead_restriction: { fields: ["seat", "suit", "restriction"], law: "26" },
  adjusted_score: { fields: ["score"], law: "12C" },
  tricks: { fields: ["tricks"], law: "70" },
  tricks_revoke: { action: "tricks", fields: ["tricks"], law: "64C" },
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

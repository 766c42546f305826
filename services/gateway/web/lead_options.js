// The options the Laws give in the play, as the pages show them: declarer's option on the lead
// of the partner of a defender with a major penalty card (Laws 50D2, 51B; the state's
// `play.lead_options`), a withdrawn call's lead restriction kept the same way (Law 26), the
// penalty cards face up (Law 50: they are public), and the option over a lead out of turn
// (Laws 53–56, `play.lead_out_of_turn.option_holders`), and declarer's option on the play of
// the partner of a defender who played prematurely (Law 57A, `play.partner_option`). The
// server applies the Laws: a page reads the state and says it in words; the cards it enables
// are the view's `playable` (trick.js).

import { cardNode, el, lhoOf, partnerOf, SEAT_NAMES, SUITS } from "./table.js";
import { trickInProgress } from "./trick.js";

const SUIT_NAMES = Object.fromEntries(SUITS.map((s) => [s.key, s.name]));
const suitsWords = (suits) => suits.map((s) => SUIT_NAMES[s] || s).join(" or ");

/** The Law of the options on `options.seat`'s lead: Law 26's section for a withdrawn call
 * (the state's `lead_restrictions`), else 51B for penalty cards in several suits, 50D2 for
 * one. */
export function optionLaw(board, options) {
  const withdrawn = (board.lead_restrictions || []).find((r) => r.applies &&
    r.player === options.seat);
  if (withdrawn) return withdrawn.law;
  return options.suits.length > 1 ? "51B" : "50D2";
}

/** Declarer's choice awaited: the partner on lead may not lead before it (Law 50D2). */
export function awaitingChoice(play) {
  return Boolean(play && play.lead_options && play.lead_options.choice === null);
}

/** Declarer's choice stated, in words with its Law. */
export function choiceWords(board, options, name = (seat) => SEAT_NAMES[seat]) {
  const law = optionLaw(board, options);
  const section = law === "50D2" ? "50D2(a)" : law;
  const leader = name(options.seat);
  return options.choice === "require"
    ? `Declarer's option: ${leader} must lead ${suitsWords(options.chosen)} (Law ${section}; ` +
      "Law 59: any card if he has none)."
    : `Declarer's option: ${leader} may not lead ${suitsWords(options.chosen)} while he keeps ` +
      `the lead (Law ${section}; Law 59: unless he has nothing else).`;
}

/** The option awaited, in words: who waits for whom, and on what. */
export function awaitedWords(board, options, name = (seat) => SEAT_NAMES[seat]) {
  return `${name(options.seat)} waits to lead until declarer ${name(board.play.declarer)} has ` +
    `stated his option (Law ${optionLaw(board, options)}): ${name(partnerOf(options.seat))} ` +
    `has a major penalty card in ${suitsWords(options.suits)}; declarer may require or ` +
    "prohibit its lead (the penalty card then picked up) or leave the lead free.";
}

/** The buttons of declarer's choice, each said in words with its Law: `onChoose(choice,
 * suit)`, `suit` null for a prohibition of every suit or for `free`. */
function choiceButtons(board, options, onChoose) {
  const leader = SEAT_NAMES[options.seat];
  const law = options.suits.length > 1 ? "51B" : "50D2(a)";
  const buttons = [];
  for (const suit of options.suits) {
    const named = SUIT_NAMES[suit];
    buttons.push(
      el("button", { type: "button", class: "primary", "data-choice": "require",
        "data-suit": suit, onclick: () => onChoose("require", suit) },
      `Require a ${named.replace(/s$/, "")} lead (Law ${law})`),
      el("button", { type: "button", "data-choice": "prohibit", "data-suit": suit,
        onclick: () => onChoose("prohibit", suit) },
      `Prohibit ${named} while ${leader} keeps the lead (Law ${law})`));
  }
  if (options.suits.length > 1) {
    buttons.push(el("button", { type: "button", "data-choice": "prohibit", "data-suit": "",
      onclick: () => onChoose("prohibit", null) },
    `Prohibit ${suitsWords(options.suits)} while ${leader} keeps the lead (Law 51B2)`));
  }
  buttons.push(el("button", { type: "button", "data-choice": "free",
    onclick: () => onChoose("free", null) },
  "Free: any lead, the penalty card stays (Law 50D2(b))"));
  return el("div", { class: "option-buttons lead-option-buttons" }, buttons);
}

/** The lead option box for `me`'s page: declarer's choice (buttons) while it is awaited,
 * the leader's and others' wait, then the choice in words; null when none stands. `title`:
 * the heading (the director's console records declarer's choice with declarer's buttons). */
export function leadOptionNode(board, me, onChoose, { title: heading = null } = {}) {
  const play = board && board.play;
  const options = play && play.lead_options;
  if (!options || play.ended) return null;
  const title = el("h3", { id: "lead-option-title", text: heading || (awaitingChoice(play)
    ? (me === play.declarer ? "Your option on the lead" : "Declarer's option on the lead")
    : "Declarer's option stated") });
  const box = (...parts) => el("div", { class: "option-box lead-option", id: "lead-option",
    role: "group", "aria-labelledby": "lead-option-title" }, title, ...parts);
  if (!awaitingChoice(play)) {
    return box(el("p", { id: "lead-option-words", text: choiceWords(board, options) }));
  }
  const words = el("p", { id: "lead-option-words", text: awaitedWords(board, options) });
  if (me === play.declarer) return box(words, choiceButtons(board, options, onChoose));
  return box(words, me === options.seat ? el("p", { class: "quiet",
    text: "You lead once declarer has chosen: your cards are enabled then." }) : null);
}

/** `seat`'s penalty cards face up (Law 50: public to all), or null. */
export function penaltyCardsNode(board, seat) {
  const mine = (board.penalty_cards || []).filter((p) => p.seat === seat);
  if (!mine.length) return null;
  return el("p", { class: "penalty-cards", "data-seat": seat },
    `Penalty card${mine.length > 1 ? "s" : ""} (Law 50): `,
    ...mine.flatMap((p, i) => [i ? " " : "", el("span", { class: "penalty",
      "data-card": p.card }, cardNode(p.card)), p.minor ? " (minor, Law 50C)" : ""]));
}

/** Law 55A's answer held, in words: the defender not next in turn has answered; the player
 * next in turn to the lead may still choose otherwise, and his option prevails. Or null. */
export function heldAnswerWords(lead) {
  const held = lead && lead.held;
  if (!held) return null;
  return `${SEAT_NAMES[held.seat]} ${held.accept ? "accepts" : "does not accept"} the lead; ` +
    `${SEAT_NAMES[lhoOf(lead.seat)]}, next in turn, may still choose otherwise, and his ` +
    "option prevails (Law 55A).";
}

/** The option over a lead out of turn for one of its holders (Laws 53–56): accept or decline,
 * `onAnswer(accept)`; null for anyone else. Both defenders hold Law 55A's: the answer of the
 * one not next in turn is shown held (he may still change it; the fold takes his last). */
export function leadOutOfTurnNode(board, me, onAnswer) {
  const lead = board && board.play && board.play.lead_out_of_turn;
  if (!lead || !(lead.option_holders || []).includes(me)) return null;
  const held = heldAnswerWords(lead);
  return el("div", { class: "option-box", id: "lead-out-of-turn", role: "group",
    "aria-labelledby": "lead-out-of-turn-title" },
  el("h3", { id: "lead-out-of-turn-title", text: `Your option (Law ${lead.law})` }),
  el("p", {}, `${SEAT_NAMES[lead.seat]} led `, cardNode(lead.card), " out of turn."),
  held ? el("p", { id: "lead-out-held", text: held }) : null,
  el("div", { class: "option-buttons" },
    el("button", { type: "button", class: "primary", id: "accept-lead",
      onclick: () => onAnswer(true) }, "Accept the lead: it stands (Law 53A)"),
    el("button", { type: "button", id: "decline-lead", onclick: () => onAnswer(false) },
      "Decline: the lead is made from the right hand (Laws 53–56)")));
}

/** Each defender's penalty cards and what the Laws let declarer do about them, in words (for
 * the director's board view and the capture page's record). A major card is played at the
 * first legal opportunity (Law 50D1) and gives declarer the option on partner's lead (50D2);
 * a minor one only bars lower cards of its suit until played (50C). */
export function penaltyWords(board) {
  const bySeat = {};
  for (const p of board.penalty_cards || []) (bySeat[p.seat] ||= []).push(p);
  return Object.entries(bySeat).map(([seat, cards]) => {
    const major = cards.filter((p) => !p.minor);
    const minor = cards.filter((p) => p.minor);
    const name = SEAT_NAMES[seat];
    const parts = [`${name}'s penalty card${cards.length > 1 ? "s" : ""} `,
      ...cards.flatMap((p, i) => [i ? ", " : "", cardNode(p.card)]), ": "];
    if (major.length) {
      parts.push(`major, played at ${name}'s first legal opportunity (Law 50D1); when ` +
        `${SEAT_NAMES[partnerOf(seat)]} is on lead, declarer may require or prohibit ` +
        `${suitsWords([...new Set(major.map((p) => p.card[0]))])} or leave the lead free ` +
        `(Law ${major.length > 1 ? "51B" : "50D2"})`);
    }
    if (minor.length) {
      parts.push(`${major.length ? "; " : ""}minor: ${name} may not play a lower card of its ` +
        "suit below an honour before it; no restriction on partner's lead (Law 50C)");
    }
    parts.push(".");
    return parts;
  });
}

/** The lead option awaited or stated, in words, or null. */
export function leadOptionWords(board) {
  const play = board && board.play;
  const options = play && play.lead_options;
  if (!options || play.ended) return null;
  return awaitingChoice(play) ? awaitedWords(board, options) : choiceWords(board, options);
}

/** Declarer's Law 57A option awaited on `play.partner_option.seat`'s card. */
export function awaitingPlayOption(play) {
  return Boolean(play && !play.ended && play.partner_option &&
    play.partner_option.choice === null);
}

const PLAY_CHOICES = {
  highest: ["57A1", (partner, led) => `${partner} plays the highest ${SUIT_ONE[led]} he holds`],
  lowest: ["57A2", (partner, led) => `${partner} plays the lowest ${SUIT_ONE[led]} he holds`],
  require: ["57A3", (partner, _led, suit) => `${partner} plays a ${SUIT_ONE[suit]}`],
  prohibit: ["57A4", (partner, _led, suit) => `${partner} plays no ${SUIT_ONE[suit]}`],
};
const SUIT_ONE = Object.fromEntries(SUITS.map((s) => [s.key, s.name.replace(/s$/, "")
  .toLowerCase()]));

/** Declarer's Law 57A option in words: the choice stated, or awaited. */
export function playOptionWords(board, name = (seat) => SEAT_NAMES[seat]) {
  const play = board && board.play;
  const option = play && !play.ended && play.partner_option;
  if (!option) return null;
  const partner = name(option.seat);
  if (option.choice === null) {
    return `${partner} plays once declarer ${name(play.declarer)} has selected his option ` +
      `(Law 57A: ${name(partnerOf(option.seat))} played before him): the highest or the ` +
      "lowest card of the suit led, a card of a suit he names, or none of a suit he names.";
  }
  const trick = trickInProgress(play);
  const led = trick && trick.cards.length ? trick.cards[0].card[0] : null;
  const [law, words] = PLAY_CHOICES[option.choice];
  return `Declarer's option: ${words(partner, led, option.suit)} to this trick (Law ${law}; ` +
    "unable to comply, any card: Laws 57B, 59).";
}

/** Declarer's buttons for the Law 57A option: `onChoose(choice, suit)`. 57A3–4 name a suit
 * other than the suit led. */
function playOptionButtons(board, onChoose) {
  const trick = trickInProgress(board.play);
  const led = trick && trick.cards.length ? trick.cards[0].card[0] : null;
  const button = (choice, suit, text) => el("button", { type: "button", "data-choice": choice,
    "data-suit": suit || "", onclick: () => onChoose(choice, suit) }, text);
  const buttons = [button("highest", null, "The highest of the suit led (Law 57A1)"),
    button("lowest", null, "The lowest of the suit led (Law 57A2)")];
  for (const suit of SUITS.filter((s) => s.key !== led)) {
    buttons.push(button("require", suit.key, `Require a ${SUIT_ONE[suit.key]} (Law 57A3)`),
      button("prohibit", suit.key, `Prohibit ${suit.name.toLowerCase()} (Law 57A4)`));
  }
  return el("div", { class: "option-buttons play-option-buttons" }, buttons);
}

/** The Law 57A option box for `me`'s page: declarer's buttons while it is awaited, the
 * others' wait, then the choice in words; null when none stands. */
export function playOptionNode(board, me, onChoose) {
  const play = board && board.play;
  const words = playOptionWords(board);
  if (!words) return null;
  const awaited = awaitingPlayOption(play);
  const title = el("h3", { id: "play-option-title", text: awaited ? (me === play.declarer
    ? "Your option on the premature play" : "Declarer's option on the premature play")
    : "Declarer's option stated" });
  return el("div", { class: "option-box play-option", id: "play-option", role: "group",
    "aria-labelledby": "play-option-title" }, title,
  el("p", { id: "play-option-words", text: words }),
  awaited && me === play.declarer ? playOptionButtons(board, onChoose) : null,
  awaited && me === play.partner_option.seat ? el("p", { class: "quiet",
    text: "You play once declarer has chosen: your cards are enabled then." }) : null);
}

// The options the Laws give in the play, as the pages show them: declarer's option on the lead
// of the partner of a defender with a major penalty card (Laws 50D2, 51B; the state's
// `play.lead_options`), a withdrawn call's lead restriction kept the same way (Law 26), the
// penalty cards face up (Law 50: they are public), and the option over a lead out of turn
// (Laws 53–56, `play.lead_out_of_turn.option_holders`), and declarer's option on the play of
// the partner of a defender who played prematurely (Law 57A, `play.partner_option`). The
// server applies the Laws: a page reads the state and says it in words; the cards it enables
// are the view's `playable` (trick.js).

import { parts, t } from "./i18n.js";
import { cardNode, el, lhoOf, partnerOf, SEAT_NAMES, SUITS } from "./table.js";
import { trickInProgress } from "./trick.js";

const suitName = (key) => (SUITS.find((s) => s.key === key) || { name: key }).name;
const suitsWords = (suits) => suits.map(suitName).join(t("or"));
const suitOne = (key) => t(`suitOne.${key}`); // "heart": one card of the suit

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
  return t(options.choice === "require" ? "leadOption.required" : "leadOption.prohibited",
    { seat: leader, suits: suitsWords(options.chosen), law: section });
}

/** The option awaited, in words: who waits for whom, and on what. */
export function awaitedWords(board, options, name = (seat) => SEAT_NAMES[seat]) {
  return t("leadOption.awaited", { seat: name(options.seat), declarer: name(board.play.declarer),
    law: optionLaw(board, options), partner: name(partnerOf(options.seat)),
    suits: suitsWords(options.suits) });
}

/** The buttons of declarer's choice, each said in words with its Law: `onChoose(choice,
 * suit)`, `suit` null for a prohibition of every suit or for `free`. */
function choiceButtons(board, options, onChoose) {
  const leader = SEAT_NAMES[options.seat];
  const law = options.suits.length > 1 ? "51B" : "50D2(a)";
  const buttons = [];
  for (const suit of options.suits) {
    buttons.push(
      el("button", { type: "button", class: "primary", "data-choice": "require",
        "data-suit": suit, onclick: () => onChoose("require", suit) },
      t("leadOption.require", { suit: suitOne(suit), law })),
      el("button", { type: "button", "data-choice": "prohibit", "data-suit": suit,
        onclick: () => onChoose("prohibit", suit) },
      t("leadOption.prohibit", { suits: suitName(suit), seat: leader, law })));
  }
  if (options.suits.length > 1) {
    buttons.push(el("button", { type: "button", "data-choice": "prohibit", "data-suit": "",
      onclick: () => onChoose("prohibit", null) },
    t("leadOption.prohibit", { suits: suitsWords(options.suits), seat: leader, law: "51B2" })));
  }
  buttons.push(el("button", { type: "button", "data-choice": "free",
    onclick: () => onChoose("free", null) }, t("leadOption.free")));
  return el("div", { class: "option-buttons lead-option-buttons" }, buttons);
}

/** The lead option box for `me`'s page: declarer's choice (buttons) while it is awaited,
 * the leader's and others' wait, then the choice in words; null when none stands. `title`:
 * the heading (the director's console records declarer's choice with declarer's buttons). */
export function leadOptionNode(board, me, onChoose, { title: heading = null } = {}) {
  const play = board && board.play;
  const options = play && play.lead_options;
  if (!options || play.ended) return null;
  const title = el("h3", { id: "lead-option-title", text: heading || t(awaitingChoice(play)
    ? (me === play.declarer ? "leadOption.titleMine" : "leadOption.title")
    : "option.stated") });
  const box = (...parts) => el("div", { class: "option-box lead-option", id: "lead-option",
    role: "group", "aria-labelledby": "lead-option-title" }, title, ...parts);
  if (!awaitingChoice(play)) {
    return box(el("p", { id: "lead-option-words", text: choiceWords(board, options) }));
  }
  const words = el("p", { id: "lead-option-words", text: awaitedWords(board, options) });
  if (me === play.declarer) return box(words, choiceButtons(board, options, onChoose));
  return box(words, me === options.seat ? el("p", { class: "quiet",
    text: t("leadOption.youLead") }) : null);
}

/** `seat`'s penalty cards face up (Law 50: public to all), or null. */
export function penaltyCardsNode(board, seat) {
  const mine = (board.penalty_cards || []).filter((p) => p.seat === seat);
  if (!mine.length) return null;
  return el("p", { class: "penalty-cards", "data-seat": seat },
    t("penalty.cards", { count: mine.length }),
    ...mine.flatMap((p, i) => [i ? " " : "", el("span", { class: "penalty",
      "data-card": p.card }, cardNode(p.card)), p.minor ? t("penalty.minor") : ""]));
}

/** Law 55A's answer held, in words: the defender not next in turn has answered; the player
 * next in turn to the lead may still choose otherwise, and his option prevails. Or null. */
export function heldAnswerWords(lead) {
  const held = lead && lead.held;
  if (!held) return null;
  return t(held.accept ? "leadOut.heldAccepts" : "leadOut.heldDeclines",
    { seat: SEAT_NAMES[held.seat], next: SEAT_NAMES[lhoOf(lead.seat)] });
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
  el("h3", { id: "lead-out-of-turn-title", text: t("leadOut.title", { law: lead.law }) }),
  el("p", {}, ...parts("leadOut.led", { seat: SEAT_NAMES[lead.seat], card: cardNode(lead.card) })),
  held ? el("p", { id: "lead-out-held", text: held }) : null,
  el("div", { class: "option-buttons" },
    el("button", { type: "button", class: "primary", id: "accept-lead",
      onclick: () => onAnswer(true) }, t("leadOut.accept")),
    el("button", { type: "button", id: "decline-lead", onclick: () => onAnswer(false) },
      t("leadOut.decline"))));
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
    const parts = [t("pr.penalty.cards", { seat: name, count: cards.length }),
      ...cards.flatMap((p, i) => [i ? ", " : "", cardNode(p.card)]), ": "];
    if (major.length) {
      parts.push(t("pr.penalty.major", { seat: name, partner: SEAT_NAMES[partnerOf(seat)],
        suits: suitsWords([...new Set(major.map((p) => p.card[0]))]),
        law: major.length > 1 ? "51B" : "50D2" }));
    }
    if (minor.length) {
      parts.push(`${major.length ? "; " : ""}${t("pr.penalty.minor", { seat: name })}`);
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

const PLAY_CHOICES = { highest: "57A1", lowest: "57A2", require: "57A3", prohibit: "57A4" };

/** Declarer's Law 57A option in words: the choice stated, or awaited. */
export function playOptionWords(board, name = (seat) => SEAT_NAMES[seat]) {
  const play = board && board.play;
  const option = play && !play.ended && play.partner_option;
  if (!option) return null;
  const partner = name(option.seat);
  if (option.choice === null) {
    return t("playOption.awaited", { seat: partner, declarer: name(play.declarer),
      partner: name(partnerOf(option.seat)) });
  }
  const trick = trickInProgress(play);
  const led = trick && trick.cards.length ? trick.cards[0].card[0] : null;
  const suit = ["highest", "lowest"].includes(option.choice) ? led : option.suit;
  const words = t(`playOption.${option.choice}`, { seat: partner, suit: suitOne(suit) });
  return t("playOption.stated", { words, law: PLAY_CHOICES[option.choice] });
}

/** Declarer's buttons for the Law 57A option: `onChoose(choice, suit)`. 57A3–4 name a suit
 * other than the suit led. */
function playOptionButtons(board, onChoose) {
  const trick = trickInProgress(board.play);
  const led = trick && trick.cards.length ? trick.cards[0].card[0] : null;
  const button = (choice, suit, text) => el("button", { type: "button", "data-choice": choice,
    "data-suit": suit || "", onclick: () => onChoose(choice, suit) }, text);
  const buttons = [button("highest", null, t("playOption.buttonHighest")),
    button("lowest", null, t("playOption.buttonLowest"))];
  for (const suit of SUITS.filter((s) => s.key !== led)) {
    buttons.push(button("require", suit.key, t("playOption.buttonRequire",
      { suit: suitOne(suit.key) })),
    button("prohibit", suit.key, t("playOption.buttonProhibit", { suits: suit.name })));
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
  const title = el("h3", { id: "play-option-title", text: t(awaited ? (me === play.declarer
    ? "playOption.titleMine" : "playOption.title") : "option.stated") });
  return el("div", { class: "option-box play-option", id: "play-option", role: "group",
    "aria-labelledby": "play-option-title" }, title,
  el("p", { id: "play-option-words", text: words }),
  awaited && me === play.declarer ? playOptionButtons(board, onChoose) : null,
  awaited && me === play.partner_option.seat ? el("p", { class: "quiet",
    text: t("playOption.youPlay") }) : null);
}

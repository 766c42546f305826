// The seat page's keyboard: a card named by two keys (suit then rank, "h" "k" → ♥K, or rank
// then suit), the arrows through the cards enabled, and which keys take a call. Only focus
// moves here: Enter (or Space) on the focused card plays it, as a click does, so a key
// mistyped never plays a card (Law 45C4: a card named is played).

const SUIT_KEYS = new Set(["S", "H", "D", "C"]);
const RANK_KEYS = { A: "A", K: "K", Q: "Q", J: "J", T: "T", 1: "T", 0: "T", 9: "9", 8: "8",
  7: "7", 6: "6", 5: "5", 4: "4", 3: "3", 2: "2" };

/** Whether a key starts a typed call in the auction: a level, pass, double, redouble. */
export function startsCall(key) {
  return /^[1-7pPxXrRdD]$/.test(key);
}

/** A card key's meaning: { suit } or { rank } (the server's spelling: "H", "T"), or null. */
export function cardKey(key) {
  if (key.length !== 1) return null;
  const k = key.toUpperCase();
  if (SUIT_KEYS.has(k)) return { suit: k };
  return RANK_KEYS[k] ? { rank: RANK_KEYS[k] } : null;
}

/** The card `keys` (one or two card keys, in either order) point to among `cards` (the
 * enabled ones, "HK"): the card itself once suit and rank are given; with one key, the only
 * card of that rank, or the first of that suit; null if none. */
export function pointedCard(keys, cards) {
  const suit = keys.map((k) => k.suit).find(Boolean);
  const rank = keys.map((k) => k.rank).find(Boolean);
  if (suit && rank) return cards.includes(suit + rank) ? suit + rank : null;
  if (rank) {
    const found = cards.filter((card) => card[1] === rank);
    return found.length === 1 ? found[0] : null;
  }
  return cards.find((card) => card[0] === suit) || null;
}

/** The card an arrow (or Home, End) moves to among `cards` from `current`, or null when the
 * key is no such move. */
export function arrowedCard(key, cards, current) {
  if (!cards.length) return null;
  const at = cards.indexOf(current);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[key];
  if (step) return cards[at < 0 ? 0 : (at + step + cards.length) % cards.length];
  if (key === "Home") return cards[0];
  if (key === "End") return cards.at(-1);
  return null;
}

/** Whether the key goes to the page rather than to the control it was typed in: no
 * modifier, and not typed into a field or a list. */
export function forThePage(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  const target = event.target;
  return !(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement || (target && target.isContentEditable));
}

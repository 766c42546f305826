// Counts in words for the pages: "1 board", "2 boards", "1 match" (as services/cli/words.py
// writes them on the command line).

const PLURALS = { match: "matches", entry: "entries" }; // the nouns not made plural by an "s"

/** `count` and `noun`, made plural unless the count is one: counted(1, "board") is
 * "1 board", counted(0, "board") "0 boards". */
export function counted(count, noun) {
  return `${count} ${count === 1 ? noun : PLURALS[noun] || `${noun}s`}`;
}

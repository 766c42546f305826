// Words for the pages: counts ("1 board", "2 boards", "1 match", as services/cli/words.py
// writes them on the command line), the server's messages without its field names, and a
// form's field by its label.

const PLURALS = { match: "matches", entry: "entries" }; // the nouns not made plural by an "s"

/** `count` and `noun`, made plural unless the count is one: counted(1, "board") is
 * "1 board", counted(0, "board") "0 boards". */
export function counted(count, noun) {
  return `${count} ${count === 1 ? noun : PLURALS[noun] || `${noun}s`}`;
}

/** The server's message (written for programs: "field 'score_ns': …", `name`) in words for
 * people: no backtick, no field's name in quotes, no word joined by underscores. */
export function forPeople(message) {
  return String(message).replaceAll("`", "")
    .replace(/\b(?:missing )?field '([^']+)'/g, (found, name) =>
      `${found.startsWith("missing") ? "missing " : ""}the ${name.replace(/[._[\]]+/g, " ")
        .trim()}`)
    .replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, (name) => name.replaceAll("_", " "))
    .replace(/\b([Aa]) (?=[aeio])/g, "$1n ");
}

/** A form's field (an input, a list) by its label's words, or "" without one. */
export function fieldWords(input) {
  const label = input && input.labels && input.labels[0];
  if (!label) return "";
  const own = [...label.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
    .map((n) => n.textContent).join(" ");
  return own.replace(/\s+/g, " ").trim();
}

"""Whether a page's words all come from its catalogue: opened in the pseudo-language ("qps":
English with each catalogue text wrapped ⟦…⟧, web/i18n.js), every text node of the page
(shown or not) and every aria-label, title, placeholder and alt, and the tab's title, must
have no letter outside a wrapped text. Allowed unwrapped: what is not the page's words
(`data-verbatim`: a player's name, an explanation, the server's message, a ruling), the keys
of the keyboard's help (<kbd>) and the card faces' ranks (A K Q J, drawn like the suits'
symbols); digits and symbols need no wrapping."""

from __future__ import annotations

from playwright.sync_api import Page

PSEUDO = "qps"

_UNWRAPPED = """() => {
  const LETTER = /\\p{L}/u;
  const ALLOWED = "[data-verbatim], kbd, .face-rank, .ranks";
  const found = [];
  const where = (el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}` +
    `${el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : ""}`;
  let depth = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style")) continue;
    let outside = "";
    for (const ch of node.data) {
      if (ch === "⟦") depth += 1;
      else if (ch === "⟧") depth = Math.max(0, depth - 1);
      else if (depth === 0) outside += ch;
    }
    if (LETTER.test(outside) && !parent.closest(ALLOWED)) {
      found.push(`${where(parent)}: ${outside.trim()}`);
    }
  }
  const strip = (text) => {
    let left = text;
    for (let before = ""; before !== left;) {
      before = left;
      left = left.replace(/⟦[^⟦⟧]*⟧/g, "");
    }
    return left;
  };
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (el.closest("[data-verbatim]")) continue;
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value !== null && LETTER.test(strip(value))) {
        found.push(`${where(el)} [${name}]: ${value}`);
      }
    }
  }
  if (LETTER.test(strip(document.title))) found.push(`title: ${document.title}`);
  return found;
}"""


def unwrapped_words(page: Page) -> list[str]:
    """The page's texts (and labels) not taken from its catalogue, each with where it is."""
    found: list[str] = page.evaluate(_UNWRAPPED)
    return found


def wrapped_share(page: Page) -> int:
    """How many of the page's texts are wrapped: that the pseudo-language is on at all."""
    count: int = page.evaluate("() => (document.body.innerText.match(/⟦/g) || []).length")
    return count

// The pages' words: one catalogue per language (web/lang/<code>.json, a flat map of keys to
// texts; a text with a count is {"one": …, "other": …}, chosen by the language's plural
// rules), `t(key, params)` with `{name}` placeholders, and `parts(key, params)` when a
// placeholder is a node (a call's symbol, a card). The language is the reader's choice kept in
// this browser (the switch, `prefsNode`), else the browser's (`navigator.language`), else
// English; "qps" is a pseudo-language (English, each text wrapped ⟦…⟧) by which a test finds
// any text not taken from the catalogue. The catalogue is fetched once, before any page
// module runs (a top-level await: every module importing this one waits for it).

export const LANGUAGES = { en: "English", fr: "Français" }; // each in its own words
const PSEUDO = "qps";
const CHOSEN = "tableserver.lang";
const CONTRAST = "tableserver.high-contrast";

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; } // private mode
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private mode: this page only */ }
}

/** The language the page speaks: `?lang=` (a link's), the reader's choice, the browser's. */
export function chosenLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang") || stored(CHOSEN);
  if (asked && (asked in LANGUAGES || asked === PSEUDO)) return asked;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return "en";
}

async function load(code) {
  const reply = await fetch(`/web/lang/${code}.json`);
  if (!reply.ok) throw new Error(`the ${code} catalogue: ${reply.status}`);
  return reply.json();
}

export const lang = chosenLanguage();
const [english, own] = await Promise.all([load("en"), // English fills any text not translated
  lang === "en" || lang === PSEUDO ? {} : load(lang)]);
const catalogue = { ...english, ...own };
const plurals = new Intl.PluralRules(lang === PSEUDO ? "en" : lang);
document.documentElement.lang = lang === PSEUDO ? "en" : lang;

function wrap(text) { return lang === PSEUDO ? `⟦${text}⟧` : text; }

function template(key, params) {
  let entry = catalogue[key];
  if (entry === undefined) {
    console.warn(`no text for "${key}"`);
    return key;
  }
  if (typeof entry === "object") {
    entry = entry[plurals.select(Number(params.count))] || entry.other;
  }
  return wrap(entry);
}

/** The text of `key` with its `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  return template(key, params).replace(/\{(\w+)\}/g, (found, name) =>
    (name in params ? String(params[name]) : found));
}

/** The text of `key` as parts of a paragraph: strings, and the nodes among `params` in their
 * places ("Your option: accept {call}?" with a call's node). */
export function parts(key, params = {}) {
  return template(key, params).split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    if (!m || !(m[1] in params)) return part;
    const value = params[m[1]];
    return value instanceof Node ? value : String(value);
  });
}

/** The page's own markup in the page's language: `data-i18n="key"` fills an element's text
 * (its child elements, e.g. <kbd>, kept as the `{0}`, `{1}`… of the text); `data-i18n-attr=
 * "aria-label:key; placeholder:key"` fills attributes; `<title data-i18n>` the tab's name. */
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const children = Object.fromEntries([...node.children].map((child, i) => [i, child]));
    node.replaceChildren(...parts(node.dataset.i18n, children));
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [name, key] = pair.split(":").map((s) => s.trim());
      if (name && key) node.setAttribute(name, t(key));
    }
  }
}

/** Whether the reader chose the high-contrast look (kept in this browser). */
export function highContrast() { return stored(CONTRAST) === "1"; }

function applyContrast(on) { document.documentElement.classList.toggle("high-contrast", on); }

/** The page's switches: its language (the page is read anew in it) and the high-contrast
 * look. Ids made from `prefix`, for a page showing two sets. */
export function prefsNode(prefix = "prefs") {
  const make = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    node.append(...children);
    return node;
  };
  const select = make("select", { id: `${prefix}-lang` }, ...Object.entries(LANGUAGES).map(
    ([code, name]) => {
      const option = make("option", { value: code, lang: code, "data-verbatim": "" }, name);
      option.selected = code === lang;
      return option;
    }));
  select.addEventListener("change", () => {
    store(CHOSEN, select.value);
    const url = new URL(window.location.href);
    url.searchParams.delete("lang");
    if (url.href !== window.location.href) window.location.replace(url.href); // hash kept
    else window.location.reload(); // the page read anew in its language
  });
  const box = make("input", { type: "checkbox", id: `${prefix}-contrast` });
  box.checked = highContrast();
  box.addEventListener("change", () => {
    store(CONTRAST, box.checked ? "1" : "0");
    applyContrast(box.checked);
  });
  return make("div", { class: "prefs", role: "group", "aria-label": t("prefs.label") },
    make("label", { for: `${prefix}-lang` }, t("prefs.language")), select,
    make("label", { class: "contrast-switch", for: `${prefix}-contrast` }, box,
      ` ${t("prefs.contrast")}`));
}

applyContrast(highContrast());
translate();

// A public page's reading of one tournament (`/results#<t>`, `/hand-records#<t>`): the
// tournament named in the `#`, read without a token and read again every `everyMs` while the
// page wants more; another tournament in the `#` (a link followed, the address edited) is
// followed at once, and a read still under way for the one before is dropped. The page says
// what it reads (`url`), what to do when a tournament is followed (`start`: empty what it
// showed) and with each answer (`answer`: show it; whether to read again). The page's words
// are the catalogue's (i18n.js); the server's message on a refusal is shown as sent.

import { t } from "./i18n.js";

/** The tournament in the page's `#`, decoded ("" for none). */
export function tournamentInHash() {
  const text = window.location.hash.replace(/^#/, "");
  try {
    return decodeURIComponent(text).trim();
  } catch { // a malformed %-escape: the name as written
    return text.trim();
  }
}

function connection(state, text, { verbatim = false } = {}) {
  const node = document.getElementById("connection");
  node.dataset.state = state;
  node.toggleAttribute("data-verbatim", verbatim);
  node.textContent = text;
}

/** Follows the `#`'s tournament: `url(tournament)` read every `everyMs`; `start(tournament)`
 * when one is followed (the page emptied; the hint of `page` when the `#` names none);
 * `answer(doc, changed, current)` with each answer read (`changed`: its text differs from the
 * last; `current()`: whether this tournament is still the one followed), which says the
 * connection's word (`label(doc)`, the catalogue's "Live" by default) and returns whether to read again. */
export function followTournament({
  url, everyMs, start, answer, page, label = () => t("pub.live"),
}) {
  const reader = { tournament: "", text: "", reading: 0, timer: null };

  async function poll(reading) {
    const current = () => reading === reader.reading;
    let next = true;
    try {
      const response = await fetch(url(reader.tournament),
        { headers: { Accept: "application/json" }, cache: "no-store" });
      const text = await response.text();
      if (!current()) return; // the page follows another tournament now
      if (!response.ok) {
        let message = `${response.status}`;
        try { message = JSON.parse(text).error || message; } catch { /* not JSON */ }
        const refused = response.status === 404 || response.status === 400; // none such
        connection(refused ? "refused" : "reconnecting", message, { verbatim: true });
        next = !refused;
      } else {
        const doc = JSON.parse(text);
        const changed = text !== reader.text;
        reader.text = text;
        connection("open", label(doc));
        next = await answer(doc, changed, current);
      }
    } catch {
      if (!current()) return;
      connection("reconnecting", t("pub.reconnecting"));
    }
    if (next && current()) reader.timer = window.setTimeout(() => poll(reading), everyMs);
  }

  function follow() {
    window.clearTimeout(reader.timer);
    reader.reading += 1;
    Object.assign(reader, { tournament: tournamentInHash(), text: "" });
    start(reader.tournament);
    if (!reader.tournament) {
      connection("refused", t("pub.noTournament", { page }));
      return;
    }
    connection("connecting", t("socket.connecting"));
    poll(reader.reading);
  }

  window.addEventListener("hashchange", follow);
  follow();
}

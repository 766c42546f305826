// The entry page (`/enter#<entry token>`, the link the Director publishes): a player gives his
// name and optional ID, and his partner's (pairs) or his team-mates' (teams), or his alone (an
// individual's entries, the form's kind `player`), and gets his entrant number and each
// player's own link for the evening (`/play#<player token>`, with a copy button: the lobby
// now, his seat each round). The token names the tournament; the
// gateway checks it and every field. The page's words are the catalogue's (i18n.js, its switch
// in the bar); the server's messages and the players' names as sent.

import { ApiError, getJson, postJson } from "./api.js";
import { entryBody, entryWords, playerRows } from "./entry_form.js";
import { prefsNode, t } from "./i18n.js";
import { linkRow } from "./links.js";
import { el } from "./table.js";
import { claimsOf, tokenFromHash } from "./token.js";

const $ = (id) => document.getElementById(id);
const token = tokenFromHash();
const claims = claimsOf(token);
const tournament = claims && claims.role === "entry" ?
  String(claims.table).replace(/^tournament:/, "") : null;
const path = tournament && `/api/tournaments/${encodeURIComponent(tournament)}/entries`;
let teams = false;

function say(text, error = false, done = false) {
  $("entry-result").textContent = text;
  $("entry-result").classList.toggle("error", error);
  $("entry-result").classList.toggle("done", done);
}

function render(count) {
  $("players").replaceChildren(...playerRows(count, teams));
  $("add-player").hidden = !teams || count >= 6;
  $("team-line").hidden = !teams;
}

async function send(event) {
  event.preventDefault();
  for (const invalid of document.querySelectorAll("[aria-invalid='true']")) {
    invalid.removeAttribute("aria-invalid");
  }
  say(t("enter.sending"));
  $("send").disabled = true;
  try {
    const answer = await postJson(path, token, entryBody($("entry-form")));
    say(entryWords(answer), false, true);
    showLinks(answer);
  } catch (error) {
    const named = (name) => document.querySelector(`[name='${CSS.escape(name)}']`);
    const field = error instanceof ApiError && error.field ?
      named(error.field) || named(`${error.field}.name`) : null; // a player: his name
    if (field) {
      field.setAttribute("aria-invalid", "true");
      field.focus();
    }
    say(t("enter.notEntered", { error: error.message }), true);
  } finally {
    $("send").disabled = false;
  }
}

/** Each player's own link of the entry, to keep: the answer gives them once. */
function showLinks(answer) {
  const links = answer.links || [];
  $("entry-links").hidden = !links.length;
  $("entry-link-list").replaceChildren(...links.map((link) => {
    const row = linkRow(link.name, link.link, `entry-link-${link.place}`, { verbatim: true });
    row.append(el("a", { href: link.link, class: "open", id: `entry-open-${link.place}`,
      "aria-label": t("enter.openLabel", { name: link.name }), text: t("enter.open") }));
    return row;
  }));
}

async function start() {
  if (!tournament) {
    say(t("enter.noToken"), true);
    $("send").disabled = true;
    return;
  }
  let form;
  try {
    form = await getJson(`${path}/open`, token);
  } catch (error) {
    say(t("enter.unreadable", { error: error.message }), true);
    $("send").disabled = true;
    return;
  }
  teams = form.teams;
  const alone = form.kind === "player"; // an individual: each player enters alone
  const name = form.name || tournament;
  $("title").textContent = t("enter.titleOf", { name });
  document.title = t("enter.tabOf", { name });
  const summary = teams ? "enter.summaryTeams" : alone ? "enter.summaryPlayers" :
    "enter.summaryPairs";
  $("summary").textContent = t(summary, { count: form.entrants });
  render(teams ? 4 : alone ? 1 : 2);
  $("add-player").addEventListener("click", () => {
    render(document.querySelectorAll(".entry-player").length + 1);
  });
  $("entry-form").addEventListener("submit", send);
  if (form.closed) {
    say(t("enter.closed"), true);
    $("send").disabled = true;
  }
}

$("prefs").replaceChildren(prefsNode("enter-prefs"));
start();

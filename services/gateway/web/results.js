// The public results page (`/results#<tournament>`): the rankings, each board's traveller, each
// entrant's scorecard and the Director's scores, read without a token and read again every
// POLL_MS, so that a result or an adjustment shows within a second. The server decides what
// the public sees: a board's traveller only once every table that plays it has finished it.
// Another tournament in the `#` (a link followed, the address edited) is followed at once:
// the page is emptied and reads the new one's results; a read still under way for the one
// before is dropped. Each complete board's hand record (its deal, double-dummy table and par)
// is read beside (GET …/hand-records, every HANDS_MS while a complete board has none yet) and
// shown with its traveller. The page's words are the catalogue's (i18n.js, its switch in the
// bar); the names of the event, its sessions and its players, and the Director's reasons, as
// sent.

import {
  directorNode, isTeams, namesOf, rankingsNode, scorecardsNode, travellersNode,
} from "./results_view.js";
import { prefsNode, t } from "./i18n.js";
import { individualsNode, isIndividual } from "./individuals_view.js";
import { followTournament } from "./public_reader.js";
import { sectionsNode } from "./sections_view.js";
import { overallNode } from "./sessions_view.js";
import { swissMatchesNode } from "./swiss_pairs_view.js";
import { el } from "./table.js";

const POLL_MS = 250;
const HANDS_MS = 1000;
const SECTIONS = ["rankings", "director", "travellers", "scorecards", "scorecard-pick"];
const $ = (id) => document.getElementById(id);
const page = { tournament: "", doc: null, picked: null, hands: {}, handsText: "", handsAt: 0 };

function show(id, node) { $(id).replaceChildren(node); }

/** A word of the server's vocabulary (a movement's kind, a scoring) in the page's language:
 * the catalogue's `group.value`, or the value as sent for one the catalogue does not know. */
function vocabulary(group, value) {
  const known = { kind: ["mitchell", "howell", "teams", "swiss"],
    scoring: ["matchpoints", "cross_imps", "butler"],
    teams: ["vp", "board_a_match", "aggregate"] };
  return known[group].includes(value) ? t(`res.${group}.${value}`) : value;
}

/** The movement as a scorer names it: a Mitchell's arrow switch (one winner) said. */
function movementText(movement) {
  const kind = vocabulary("kind", movement.kind);
  if (movement.team_scoring) {
    return t("res.movementTeams", { kind, scoring: vocabulary("teams", movement.team_scoring) });
  }
  const n = movement.arrow_switch || 0;
  if (movement.sections) {
    return t("res.movementSections", { kind, count: movement.sections });
  }
  if (movement.kind === "individual") return t("res.movementIndividual");
  if (movement.kind === "swiss_pairs") {
    return t("res.movementSwissPairs", { scoring: vocabulary("scoring", movement.scoring) });
  }
  if (movement.imps_to_vp) {
    return t("res.movementVp", { kind, scoring: vocabulary("scoring", movement.scoring) });
  }
  if (!n) return kind;
  return t("res.arrowSwitched", { kind, count: n });
}

const entrantWord = (doc) => (isIndividual(doc) ? "count.player" : "count.pair");

function render() {
  const doc = page.doc;
  const name = doc.name || doc.tournament;
  $("title").textContent = t("res.titleOf", { name });
  document.title = t("res.tabOf", { name });
  const entrants = t(isTeams(doc) ? "count.team" : entrantWord(doc),
    { count: doc.entrants.length });
  const summary = t(isTeams(doc) ? "res.summaryTeams" : "res.summary", {
    entrants, movement: movementText(doc.movement), round: doc.rounds,
    rounds: doc.movement.rounds,
    complete: t("count.boardComplete", { count: doc.complete.length }) });
  $("summary").textContent = doc.session
    ? t("res.session", { session: doc.session, summary }) : summary;
  show("rankings", el("div", {}, overallNode(doc),
    isIndividual(doc) ? individualsNode(doc) : rankingsNode(doc), swissMatchesNode(doc),
    sectionsNode(doc)));
  show("director", directorNode(doc));
  show("travellers", travellersNode(doc, page.hands));
  $("travellers-note").textContent = t("res.travellersNote");
  const names = namesOf(doc);
  const pick = $("scorecard-pick");
  if (pick.options.length !== doc.entrants.length) {
    pick.replaceChildren(...doc.entrants.map((e) => el("option", { value: e.number,
      text: `${e.number} ${names[e.number]}` })));
    page.picked = page.picked ?? doc.entrants[0]?.number;
    pick.value = String(page.picked);
  }
  show("scorecards", scorecardsNode(doc, page.picked));
}

$("scorecard-pick").addEventListener("change", () => {
  page.picked = Number($("scorecard-pick").value);
  if (page.doc) render();
});
$("print").addEventListener("click", () => window.print());

/** Whether a complete board still lacks its solved hand record. */
function handsMissing() {
  return page.doc && !isTeams(page.doc)
    && page.doc.complete.some((b) => !["ready", "failed"].includes(page.hands[b]?.status));
}

async function readHands(current) {
  page.handsAt = Date.now();
  try {
    const response = await fetch(
      `/api/tournaments/${encodeURIComponent(page.tournament)}/hand-records`,
      { headers: { Accept: "application/json" }, cache: "no-store" });
    const text = await response.text();
    if (!current() || !response.ok || text === page.handsText) return;
    page.handsText = text;
    page.hands = Object.fromEntries(JSON.parse(text).boards.map((b) => [b.board, b]));
    if (page.doc) render();
  } catch { /* read again at the next poll */ }
}

/** The tournament in the `#`, from nothing: what the page showed of another one is gone. */
function start(tournament) {
  Object.assign(page, { tournament, doc: null, picked: null, hands: {}, handsText: "",
    handsAt: 0 });
  $("hand-records").href = `/hand-records#${encodeURIComponent(tournament)}`;
  $("title").textContent = t("res.title");
  document.title = t("res.tab");
  $("summary").textContent = "";
  $("travellers-note").textContent = "";
  for (const id of SECTIONS) $(id).replaceChildren();
}

$("prefs").replaceChildren(prefsNode("results-prefs"));
followTournament({
  page: "results",
  everyMs: POLL_MS,
  url: (t) => `/api/tournaments/${encodeURIComponent(t)}/results`,
  start,
  async answer(doc, changed, current) {
    if (changed) {
      page.doc = doc;
      render();
    }
    if (handsMissing() && Date.now() - page.handsAt >= HANDS_MS) await readHands(current);
    return true;
  },
});

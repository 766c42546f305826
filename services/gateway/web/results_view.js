// The results page's parts, drawn from the results document (GET /api/tournaments/{t}/results,
// docs/api.md): rankings, each board's traveller, an entrant's scorecard, the Director's
// scores with their reasons. Rendering only: the scores are the server's.

import { handRecordNode } from "./hand_record_view.js";
import { el } from "./table.js";
import { counted } from "./words.js";

const FAULT = { not_at_fault: "A+", partly_at_fault: "A", directly_at_fault: "A−" };
const KIND = { corrected: "corrected", assigned: "assigned (Law 12C1(b))",
  weighted: "weighted (Law 12C1(c))", split: "split (Law 12C1)",
  artificial: "artificial (Law 12C2)" };

const WORDS = new Set(["Pair", "Team", "Director", "Contract"]); // left-aligned columns
// the rule that broke a tie on VPs (shared/scores/tie_breaks.py)
// and a pairs event's tie for first (shared/scores/pair_tie_breaks.py, the EBU's §143)
const TIE_BREAK = { head_to_head: "the boards between them", tie_break_points:
  "tie-break points", point_a_board: "point-a-board count-back",
  head_to_head_vp: "VPs between them", head_to_head_imps:
  "IMPs between them", imp_quotient: "IMP quotient" };
// a teams event's forms besides IMPs to VPs: the unit of their points
const FORM_UNIT = { board_a_match: "boards", aggregate: "points" };
/** Whether the document is a teams event's (IMPs to VPs, board-a-match or aggregate). */
export const isTeams = (doc) => doc.scoring === "vp" || doc.teams === true;
const minus = (n) => (n < 0 ? `−${-n}` : String(n));
/** A number to `places` decimals ("33.33", "−0.50"), "—" for none. */
export function fixed(n, places = 2) {
  if (n === null || n === undefined) return "—";
  const text = Math.abs(Number(n)).toFixed(places);
  return Number(n) < 0 ? `−${text}` : text;
}

function part(p) {
  return `${p.percent}% ${p.score_ns >= 0 ? "NS" : "EW"} ${Math.abs(p.score_ns)}`;
}

function sideScore(s) {
  return s.parts ? s.parts.map(part).join(" + ") : `${minus(s.score_ns)}`;
}

/** A line's score, as the traveller prints it (NS's side). */
export function scoreText(line) {
  if (line.kind === "artificial") return `${FAULT[line.ns_fault]} / ${FAULT[line.ew_fault]}`;
  if (line.kind === "split") {
    return `NS ${sideScore(line.ns_score)}; EW ${sideScore(line.ew_score)}`;
  }
  if (line.kind === "weighted") return line.parts.map(part).join(" + ");
  return minus(line.score_ns);
}

export function namesOf(doc) {
  return Object.fromEntries(doc.entrants.map((e) => [e.number, e.players.length
    ? `${e.name} (${e.players.join(", ")})` : e.name]));
}

/** A table of scores; `stacked`: on a phone each row's cells wrap under their heads' words
 * (results.css), as a traveller's eleven columns are too wide for 375 px. */
export function table(caption, head, rows, { stacked = false } = {}) {
  if (stacked) {
    for (const row of rows) {
      [...row.children].forEach((cell, i) => { cell.dataset.label = head[i]; });
    }
  }
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": caption },
    el("table", { class: `scores${stacked ? " stacked" : ""}` },
    el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col", text: h,
      class: WORDS.has(h) ? "name" : null })))),
    el("tbody", {}, rows)));
}

/** The rankings: a pairs event per direction (a Mitchell) or in one field; a teams event by
 * VPs. */
export function rankingsNode(doc) {
  const names = namesOf(doc);
  if (FORM_UNIT[doc.scoring]) {
    const title = doc.scoring === "board_a_match" ? "Teams by boards won (board-a-match)"
      : "Teams by total points (aggregate, Law 78C)";
    return table(title, ["Rank", "Team", "Matches", doc.scoring === "board_a_match" ? "Boards"
      : "Points"],
    doc.rankings.map((r) => el("tr", { "data-entrant": r.entrant, "data-rank": r.rank },
      el("td", { text: String(r.rank) }), el("td", { class: "name", text: names[r.entrant] }),
      el("td", { text: String(r.matches) }),
      el("td", { "data-points": "", text: fixed(r.points, doc.scoring === "aggregate" ? 0
        : 2) }))));
  }
  if (doc.scoring === "vp") {
    const ties = doc.rankings.some((r) => r.tie_break);
    return table("Teams by victory points", ["Rank", "Team", "Matches", "VP", "IMPs",
      ...(ties ? ["Tie broken by"] : [])],
    doc.rankings.map((r) => el("tr", { "data-entrant": r.entrant, "data-rank": r.rank },
      el("td", { text: String(r.rank) }), el("td", { class: "name", text: names[r.entrant] }),
      el("td", { text: String(r.matches) }), el("td", { text: fixed(r.vp) }),
      el("td", { text: fixed(r.imps) }),
      ...(ties ? [el("td", { "data-tie-break": r.tie_break || "",
        text: TIE_BREAK[r.tie_break] || "" })] : []))));
  }
  const mp = doc.scoring === "matchpoints";
  const vp = doc.movement.imps_to_vp === true; // a pairs event's IMPs to VPs, round by round
  const fields = [...new Set(doc.rankings.map((r) => r.direction))];
  // the public's rankings count the boards every table has played (Law 16C1): say so
  const done = doc.complete.length;
  const note = doc.counted === "complete" ? [el("p", { id: "rankings-counted", text:
    `The rankings count the boards every table has played: ${done ? counted(done, "board")
      : "none yet"}.` })] : [];
  const ties = doc.rankings.some((r) => r.tie_break);
  return el("div", {}, [...note, ...fields.map((d) => table(
    d ? `${d === "NS" ? "North–South" : "East–West"} pairs` : "Pairs",
    ["Rank", "Pair", "Boards", mp ? "MP" : "IMPs", ...(mp ? ["%"] : []), ...(vp ? ["VP"] : []),
      ...(ties ? ["Tie broken by"] : [])],
    doc.rankings.filter((r) => r.direction === d).map((r) => el("tr", {
      "data-entrant": r.entrant, "data-rank": r.rank },
    el("td", { text: String(r.rank) }),
    el("td", { class: "name", text: `${r.entrant} ${names[r.entrant]}` }),
    el("td", { text: String(r.boards) }), el("td", { text: fixed(r.points) }),
    ...(mp ? [el("td", { "data-percent": "", text: fixed(r.percent) })] : []),
    ...(vp ? [el("td", { "data-vp": "", text: fixed(r.vp) })] : []),
    ...(ties ? [el("td", { "data-tie-break": r.tie_break || "",
      text: TIE_BREAK[r.tie_break] || "" })] : [])))))]);
}

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The contract and declarer ("4♠X N"; "robot for W" where a substitute sat in for a
 * vanished player), the opening lead ("♥K") and declarer's tricks of a line the table
 * played; "—" where none (an adjusted score, a board passed out). */
export function playCells(line) {
  const contract = line.contract
    ? `${line.contract.replace(/^(\d)([CDHS])/, (_, l, s) => l + SUIT[s])}` +
      `${line.declarer ? ` ${line.declarer}` : ""}` : "—";
  const lead = line.lead ? SUIT[line.lead[0]] + line.lead.slice(1) : "—";
  const subs = line.substitutes ? ` (robot for ${line.substitutes.split("").join(", ")})` : "";
  return [el("td", { class: "name", "data-contract": "", text: contract + subs }),
    el("td", { "data-lead": "", class: /^[HD]/.test(line.lead || "") ? "red" : null,
      text: lead }),
    el("td", { text: line.tricks === undefined ? "—" : String(line.tricks) })];
}

/** A fouled board's line (Law 87B): the form it played, its group. */
function formText(line) {
  if (line.group === undefined) return "";
  return line.group ? `changed form ${line.group}` : "correct form";
}

function lineRow(line, mp) {
  return el("tr", { class: line.kind === "played" ? "" : "adjusted", "data-ns": line.ns,
    "data-ew": line.ew, "data-kind": line.kind,
    "data-group": line.group === undefined ? null : line.group },
  el("td", { text: String(line.ns) }), el("td", { text: String(line.ew) }),
  ...playCells(line),
  el("td", { "data-score": "", text: scoreText(line) }),
  el("td", { text: fixed(line.ns_points) }), el("td", { text: fixed(line.ew_points) }),
  ...(mp ? [el("td", { text: fixed(line.ns_percent) }), el("td", { text: fixed(line.ew_percent) })]
    : []),
  el("td", { class: "reason", text: [formText(line), line.reason || ""]
    .filter(Boolean).join("; ") }));
}

/** A traveller's caption: a fouled board's (Law 87) says so, its groups scored apart. */
function boardCaption(t) {
  if (!t.fouled) return `Board ${t.board}`;
  const forms = t.fouled.forms + 1;
  return `Board ${t.board} — fouled (Law 87): ${forms} groups scored apart` +
    (t.fouled.reason ? ` — ${t.fouled.reason}` : "");
}

/** Each board's traveller (pairs), or each match's boards (teams); with its hand record
 * (`hands`: board → record) when the page has it. */
export function travellersNode(doc, hands = {}) {
  if (isTeams(doc)) {
    return el("div", { class: "boards" }, doc.matches.map((m) => matchNode(doc, m)));
  }
  const mp = doc.scoring === "matchpoints";
  const unit = mp ? "MP" : "IMPs";
  return el("div", { class: "boards" }, doc.travellers.map((t) => el("div", {
    class: "board-record" }, el("div", { class: "traveller", "data-board": t.board,
    "data-fouled": t.fouled ? t.fouled.forms : null },
    table(boardCaption(t), ["NS", "EW", "Contract", "Lead", "Tricks", "Score (NS)",
      `NS ${unit}`, `EW ${unit}`, ...(mp ? ["NS %", "EW %"] : []), "Director"],
    t.lines.map((line) => lineRow(line, mp)), { stacked: true })),
  hands[t.board] ? handRecordNode(hands[t.board]) : null)));
}

function matchNode(doc, m) {
  const names = namesOf(doc);
  const unit = FORM_UNIT[doc.scoring];
  if (unit) { // board-a-match or aggregate: each board's points to each team
    const places = doc.scoring === "aggregate" ? 0 : 2;
    return el("div", { class: "traveller", "data-match": `${m.home}-${m.away}` }, table(
      `${names[m.home]} ${fixed(m.home_points, places)} – ${fixed(m.away_points, places)} `
      + `${names[m.away]} (${unit})`,
      ["Board", "Open room (NS)", "Closed room (NS)", "Home", "Away"],
      m.boards.map((b) => el("tr", { "data-board": b.board },
        el("td", { text: String(b.board) }),
        el("td", { text: scoreText(b.open) }), el("td", { text: scoreText(b.closed) }),
        el("td", { text: fixed(b.home_points, places) }),
        el("td", { text: fixed(b.away_points, places) }))),
      { stacked: true }));
  }
  return el("div", { class: "traveller", "data-match": `${m.home}-${m.away}` }, table(
    `${names[m.home]} ${fixed(m.home_imps)} – ${fixed(m.away_imps)} ${names[m.away]}: ` +
    `${fixed(m.home_vp)} – ${fixed(m.away_vp)} VP`,
    ["Board", "Open room (NS)", "Closed room (NS)", "Home IMPs", "Away IMPs"],
    m.boards.map((b) => el("tr", { "data-board": b.board }, el("td", { text: String(b.board) }),
      el("td", { text: scoreText(b.open) }), el("td", { text: scoreText(b.closed) }),
      el("td", { text: fixed(b.home_imps) }), el("td", { text: fixed(b.away_imps) }))),
    { stacked: true }));
}

/** Every entrant's scorecard; only `picked`'s is on the screen (every one printed). */
export function scorecardsNode(doc, picked) {
  const names = namesOf(doc);
  if (isTeams(doc)) {
    return el("div", {}, doc.entrants.map((e) => el("div", {
      class: `scorecard${e.number === picked ? "" : " others"}`, "data-entrant": e.number },
    el("h3", { text: `${e.number} ${names[e.number]}` }),
    doc.matches.filter((m) => [m.home, m.away].includes(e.number))
      .map((m) => matchNode(doc, m)))));
  }
  const mp = doc.scoring === "matchpoints";
  return el("div", {}, doc.entrants.map((e) => el("div", {
    class: `scorecard${e.number === picked ? "" : " others"}`, "data-entrant": e.number },
  table(`${e.number} ${names[e.number]}`, ["Board", "Sat", "Against", "Score (NS)",
    mp ? "MP" : "IMPs", ...(mp ? ["%"] : []), "Director"],
  (doc.scorecards[e.number] || []).map((c) => el("tr", { "data-board": c.board,
    class: c.kind === "played" ? "" : "adjusted" },
  el("td", { text: String(c.board) }), el("td", { text: c.direction }),
  el("td", { text: String(c.opponent) }), el("td", { text: scoreText(c) }),
  el("td", { text: fixed(c.points) }), ...(mp ? [el("td", { text: fixed(c.percent) })] : []),
  el("td", { class: "reason", text: c.reason || "" })))))));
}

/** The Director's scores with their reasons: adjusted scores and procedural penalties. */
export function directorNode(doc) {
  const items = [
    ...doc.adjustments.map((a) => el("li", { "data-board": a.board, "data-kind": a.kind },
      `Board ${a.board}, ${a.ns} (NS) v ${a.ew} (EW): ${KIND[a.kind]} ${scoreText(a)}`,
      a.reason ? ` — ${a.reason}` : "")),
    ...doc.penalties.map((p) => el("li", { "data-board": p.board, "data-kind": "penalty" },
      `Board ${p.board}: ${p.entrant} penalised ${p.amount}` +
      `${p.unit === "percent" ? " % of a top" : " IMPs"} (Law 90)`,
      p.reason ? ` — ${p.reason}` : ""))];
  return items.length ? el("ul", { class: "director-list" }, items)
    : el("p", { class: "quiet", text: "None." });
}

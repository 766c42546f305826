// The results page's parts, drawn from the results document (GET /api/tournaments/{t}/results,
// docs/api.md): rankings, each board's traveller, an entrant's scorecard, the Director's
// scores with their reasons. Rendering only: the scores are the server's. The words are the
// catalogue's (i18n.js); the entrants' names and the Director's reasons as sent
// (`data-verbatim`), the cards' ranks as the cards print them (A K Q J, `.ranks`).

import { handRecordNode } from "./hand_record_view.js";
import { t } from "./i18n.js";
import { el } from "./table.js";

const FAULTS = ["not_at_fault", "partly_at_fault", "directly_at_fault"];
const KINDS = ["corrected", "assigned", "weighted", "split", "artificial"];
// the rule that broke a tie on VPs (shared/scores/tie_breaks.py)
// and a pairs event's tie for first (shared/scores/pair_tie_breaks.py, the EBU's §143)
const TIE_BREAKS = ["head_to_head", "tie_break_points", "point_a_board", "head_to_head_vp",
  "head_to_head_imps", "imp_quotient"];
// a teams event's forms besides IMPs to VPs: the unit of their points
const FORM_UNIT = { board_a_match: "res.unit.boards", aggregate: "res.unit.points" };
/** A value of the server's vocabulary in words (`prefix.value`), else as sent. */
const said = (known, prefix, value) => (known.includes(value) ? t(`${prefix}.${value}`)
  : value || "");
/** A column's head whose cells are words (a name, a contract): left-aligned. */
export const words = (text) => ({ text, name: true });
const side = (s) => t(`res.side.${s}`);
/** Whether the document is a teams event's (IMPs to VPs, board-a-match or aggregate). */
export const isTeams = (doc) => doc.scoring === "vp" || doc.teams === true;
const minus = (n) => (n < 0 ? `−${-n}` : String(n));

/** A side's number as a scorer writes it: an individual's partnership (10000 × a + b, at or
 * above 10000) as its two players' numbers, "a–b"; a pair's or team's as it is. */
export const sideNumber = (n) => (n >= 10000 ? `${Math.floor(n / 10000)}–${n % 10000}`
  : String(n));
/** A number to `places` decimals ("33.33", "−0.50"), "—" for none. */
export function fixed(n, places = 2) {
  if (n === null || n === undefined) return "—";
  const text = Math.abs(Number(n)).toFixed(places);
  return Number(n) < 0 ? `−${text}` : text;
}

function part(p) {
  return `${p.percent}% ${side(p.score_ns >= 0 ? "NS" : "EW")} ${Math.abs(p.score_ns)}`;
}

function sideScore(s) {
  return s.parts ? s.parts.map(part).join(" + ") : `${minus(s.score_ns)}`;
}

/** A line's score, as the traveller prints it (NS's side). */
export function scoreText(line) {
  if (line.kind === "artificial") {
    return `${said(FAULTS, "res.fault", line.ns_fault)} / ${said(FAULTS, "res.fault",
      line.ew_fault)}`;
  }
  if (line.kind === "split") {
    return t("res.split", { ns: sideScore(line.ns_score), ew: sideScore(line.ew_score) });
  }
  if (line.kind === "weighted") return line.parts.map(part).join(" + ");
  return minus(line.score_ns);
}

export function namesOf(doc) {
  return Object.fromEntries(doc.entrants.map((e) => [e.number, e.players.length
    ? `${e.name} (${e.players.join(", ")})` : e.name]));
}

/** A table of scores, each head a text or `{ text, name }` (`name`: a column of words,
 * left-aligned); `stacked`: on a phone each row's cells wrap under their heads' words
 * (results.css), as a traveller's eleven columns are too wide for 375 px. */
export function table(caption, heads, rows, { stacked = false } = {}) {
  const head = heads.map((h) => (typeof h === "string" ? { text: h } : h));
  if (stacked) {
    for (const row of rows) {
      [...row.children].forEach((cell, i) => { cell.dataset.label = head[i].text; });
    }
  }
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": caption },
    el("table", { class: `scores${stacked ? " stacked" : ""}` },
    el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col", text: h.text,
      class: h.name ? "name" : null, "data-verbatim": h.verbatim })))),
    el("tbody", {}, rows)));
}

/** An entrant's cell: its number and names, as sent. */
export const entrantCell = (text) => el("td", { class: "name", "data-verbatim": "", text });
const tieCell = (r) => el("td", { "data-tie-break": r.tie_break || "",
  text: said(TIE_BREAKS, "res.tie", r.tie_break) });

/** The rankings: a pairs event per direction (a Mitchell) or in one field; a teams event by
 * VPs. */
export function rankingsNode(doc) {
  const names = namesOf(doc);
  if (FORM_UNIT[doc.scoring]) {
    const bam = doc.scoring === "board_a_match";
    return table(t(bam ? "res.teamsByBoards" : "res.teamsByPoints"),
      [t("res.col.rank"), words(t("res.col.team")), t("res.col.matches"),
        t(bam ? "res.col.boards" : "res.col.points")],
      doc.rankings.map((r) => el("tr", { "data-entrant": r.entrant, "data-rank": r.rank },
        el("td", { text: String(r.rank) }), entrantCell(names[r.entrant]),
        el("td", { text: String(r.matches) }),
        el("td", { "data-points": "", text: fixed(r.points, doc.scoring === "aggregate" ? 0
          : 2) }))));
  }
  if (doc.scoring === "vp") {
    const ties = doc.rankings.some((r) => r.tie_break);
    return table(t("res.teamsByVp"), [t("res.col.rank"), words(t("res.col.team")),
      t("res.col.matches"), t("res.col.vp"), t("res.col.imps"),
      ...(ties ? [t("res.col.tieBreak")] : [])],
    doc.rankings.map((r) => el("tr", { "data-entrant": r.entrant, "data-rank": r.rank },
      el("td", { text: String(r.rank) }), entrantCell(names[r.entrant]),
      el("td", { text: String(r.matches) }), el("td", { text: fixed(r.vp) }),
      el("td", { text: fixed(r.imps) }), ...(ties ? [tieCell(r)] : []))));
  }
  const mp = doc.scoring === "matchpoints";
  const vp = doc.movement.imps_to_vp === true; // a pairs event's IMPs to VPs, round by round
  const fields = [...new Set(doc.rankings.map((r) => r.direction))];
  // the public's rankings count the boards every table has played (Law 16C1): say so
  const done = doc.complete.length;
  const note = doc.counted === "complete" ? [el("p", { id: "rankings-counted", text:
    t("res.counted", { boards: done ? t("count.board", { count: done })
      : t("res.noneYet") }) })] : [];
  const ties = doc.rankings.some((r) => r.tie_break);
  return el("div", {}, [...note, ...fields.map((d) => table(
    d ? t(`res.pairs.${d}`) : t("res.pairs"),
    [t("res.col.rank"), words(t("res.col.pair")), t("res.col.boards"),
      t(mp ? "res.col.mp" : "res.col.imps"), ...(mp ? ["%"] : []),
      ...(vp ? [t("res.col.vp")] : []), ...(ties ? [t("res.col.tieBreak")] : [])],
    doc.rankings.filter((r) => r.direction === d).map((r) => el("tr", {
      "data-entrant": r.entrant, "data-rank": r.rank },
    el("td", { text: String(r.rank) }),
    entrantCell(`${r.entrant} ${names[r.entrant]}`),
    el("td", { text: String(r.boards) }), el("td", { text: fixed(r.points) }),
    ...(mp ? [el("td", { "data-percent": "", text: fixed(r.percent) })] : []),
    ...(vp ? [el("td", { "data-vp": "", text: fixed(r.vp) })] : []),
    ...(ties ? [tieCell(r)] : [])))))]);
}

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** A contract in the page's words: "4♠X" ("1NT", "1SA" in French), "Passed out" for the
 * document's `PASS`. */
function contractText(contract) {
  if (contract === "PASS") return t("passedOut");
  const m = /^(\d)(NT|[CDHS])(X{0,2})$/.exec(contract);
  if (!m) return contract;
  return m[1] + (m[2] === "NT" ? t("call.NT") : SUIT[m[2]]) + (m[3] ? t(`risk.${m[3]}`) : "");
}

/** The contract and declarer ("4♠X N"; "robot for W" where a substitute sat in for a
 * vanished player), the opening lead ("♥K") and declarer's tricks of a line the table
 * played; "—" where none (an adjusted score, a board passed out). */
export function playCells(line) {
  const short = (s) => t(`seatShort.${s}`);
  const contract = line.contract ? contractText(line.contract) +
      `${line.declarer ? ` ${short(line.declarer)}` : ""}` : "—";
  const subs = line.substitutes ? ` ${t("res.robotFor", { seats: line.substitutes.split("")
    .map(short).join(", ") })}` : "";
  return [el("td", { class: "name", "data-contract": "", text: contract + subs }),
    el("td", { "data-lead": "", class: /^[HD]/.test(line.lead || "") ? "red" : null },
      line.lead ? [SUIT[line.lead[0]], el("span", { class: "ranks", text: line.lead.slice(1) })]
        : "—"),
    el("td", { text: line.tricks === undefined ? "—" : String(line.tricks) })];
}

/** A fouled board's line (Law 87B): the form it played, its group. */
function formText(line) {
  if (line.group === undefined) return "";
  return line.group ? t("res.formChanged", { group: line.group }) : t("res.formCorrect");
}

/** The Director's column: a fouled board's form (the page's words), the reason (as sent). */
function reasonCell(form, reason) {
  return el("td", { class: "reason" }, form ? el("span", { text: form }) : null,
    form && reason ? "; " : null,
    reason ? el("span", { "data-verbatim": "", text: reason }) : null);
}

function lineRow(line, mp) {
  return el("tr", { class: line.kind === "played" ? "" : "adjusted", "data-ns": line.ns,
    "data-ew": line.ew, "data-kind": line.kind,
    "data-group": line.group === undefined ? null : line.group },
  el("td", { text: sideNumber(line.ns) }), el("td", { text: sideNumber(line.ew) }),
  ...playCells(line),
  el("td", { "data-score": "", text: scoreText(line) }),
  el("td", { text: fixed(line.ns_points) }), el("td", { text: fixed(line.ew_points) }),
  ...(mp ? [el("td", { text: fixed(line.ns_percent) }), el("td", { text: fixed(line.ew_percent) })]
    : []),
  reasonCell(formText(line), line.reason || ""));
}

/** A traveller's caption: a fouled board's (Law 87) says so, its groups scored apart. */
function boardCaption(tr) {
  if (!tr.fouled) return t("res.board", { board: tr.board });
  const forms = tr.fouled.forms + 1;
  return tr.fouled.reason
    ? t("res.boardFouledWhy", { board: tr.board, count: forms, reason: tr.fouled.reason })
    : t("res.boardFouled", { board: tr.board, count: forms });
}

/** Each board's traveller (pairs), or each match's boards (teams); with its hand record
 * (`hands`: board → record) when the page has it. */
export function travellersNode(doc, hands = {}) {
  if (isTeams(doc)) {
    return el("div", { class: "boards" }, doc.matches.map((m) => matchNode(doc, m)));
  }
  const mp = doc.scoring === "matchpoints";
  const unit = t(mp ? "res.col.mp" : "res.col.imps");
  return el("div", { class: "boards" }, doc.travellers.map((tr) => el("div", {
    class: "board-record" }, el("div", { class: "traveller", "data-board": tr.board,
    "data-fouled": tr.fouled ? tr.fouled.forms : null },
    table(boardCaption(tr), [side("NS"), side("EW"), words(t("res.col.contract")),
      t("res.col.lead"), t("res.col.tricks"), t("res.col.scoreNs"),
      t("res.col.sided", { side: side("NS"), unit }),
      t("res.col.sided", { side: side("EW"), unit }),
      ...(mp ? [`${side("NS")} %`, `${side("EW")} %`] : []), words(t("res.col.director"))],
    tr.lines.map((line) => lineRow(line, mp)), { stacked: true })),
  hands[tr.board] ? handRecordNode(hands[tr.board]) : null)));
}

function matchNode(doc, m) {
  const names = namesOf(doc);
  const unit = FORM_UNIT[doc.scoring];
  const rooms = [t("res.col.board"), t("res.col.open"), t("res.col.closed")];
  if (unit) { // board-a-match or aggregate: each board's points to each team
    const places = doc.scoring === "aggregate" ? 0 : 2;
    return el("div", { class: "traveller", "data-match": `${m.home}-${m.away}` }, table(
      t("res.matchForm", { home: names[m.home], away: names[m.away], unit: t(unit),
        homePoints: fixed(m.home_points, places), awayPoints: fixed(m.away_points, places) }),
      [...rooms, t("res.col.home"), t("res.col.away")],
      m.boards.map((b) => el("tr", { "data-board": b.board },
        el("td", { text: String(b.board) }),
        el("td", { text: scoreText(b.open) }), el("td", { text: scoreText(b.closed) }),
        el("td", { text: fixed(b.home_points, places) }),
        el("td", { text: fixed(b.away_points, places) }))),
      { stacked: true }));
  }
  return el("div", { class: "traveller", "data-match": `${m.home}-${m.away}` }, table(
    t("res.matchVp", { home: names[m.home], away: names[m.away], homeImps: fixed(m.home_imps),
      awayImps: fixed(m.away_imps), homeVp: fixed(m.home_vp), awayVp: fixed(m.away_vp) }),
    [...rooms, t("res.col.homeImps"), t("res.col.awayImps")],
    m.boards.map((b) => el("tr", { "data-board": b.board }, el("td", { text: String(b.board) }),
      el("td", { text: scoreText(b.open) }), el("td", { text: scoreText(b.closed) }),
      el("td", { text: fixed(b.home_imps) }), el("td", { text: fixed(b.away_imps) }))),
    { stacked: true }));
}

/** Every entrant's scorecard; only `picked`'s is on the screen (every one printed). */
export function scorecardsNode(doc, picked) {
  const names = namesOf(doc);
  const title = (e) => t("res.numbered", { number: e.number, name: names[e.number] });
  if (isTeams(doc)) {
    return el("div", {}, doc.entrants.map((e) => el("div", {
      class: `scorecard${e.number === picked ? "" : " others"}`, "data-entrant": e.number },
    el("h3", { text: title(e) }),
    doc.matches.filter((m) => [m.home, m.away].includes(e.number))
      .map((m) => matchNode(doc, m)))));
  }
  const mp = doc.scoring === "matchpoints";
  return el("div", {}, doc.entrants.map((e) => el("div", {
    class: `scorecard${e.number === picked ? "" : " others"}`, "data-entrant": e.number },
  table(title(e), [t("res.col.board"), t("res.col.sat"), t("res.col.against"),
    t("res.col.scoreNs"), t(mp ? "res.col.mp" : "res.col.imps"), ...(mp ? ["%"] : []),
    words(t("res.col.director"))],
  (doc.scorecards[e.number] || []).map((c) => el("tr", { "data-board": c.board,
    class: c.kind === "played" ? "" : "adjusted" },
  el("td", { text: String(c.board) }), el("td", { text: side(c.direction) }),
  el("td", { text: sideNumber(c.opponent) }), el("td", { text: scoreText(c) }),
  el("td", { text: fixed(c.points) }), ...(mp ? [el("td", { text: fixed(c.percent) })] : []),
  reasonCell("", c.reason || "")))))));
}

/** A reason as sent, after the page's words. */
const because = (reason) => (reason ? [" — ", el("span", { "data-verbatim": "",
  text: reason })] : []);

/** The Director's scores with their reasons: adjusted scores and procedural penalties. */
export function directorNode(doc) {
  const items = [
    ...doc.adjustments.map((a) => el("li", { "data-board": a.board, "data-kind": a.kind },
      t("res.adjusted", { board: a.board, ns: sideNumber(a.ns), ew: sideNumber(a.ew),
        kind: said(KINDS, "res.adj", a.kind), score: scoreText(a) }), ...because(a.reason))),
    ...doc.penalties.map((p) => el("li", { "data-board": p.board, "data-kind": "penalty" },
      t(p.unit === "percent" ? "res.penaltyPercent" : "res.penaltyImps", { board: p.board,
        entrant: sideNumber(p.entrant), amount: p.amount }), ...because(p.reason)))];
  return items.length ? el("ul", { class: "director-list" }, items)
    : el("p", { class: "quiet", text: t("res.none") });
}

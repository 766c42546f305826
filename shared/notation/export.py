"""Writing a table's boards as PBN 2.1 (export format) and as BBO LIN, for a tournament's record.

The writers take a table's log (event maps), fold it, and write every board the table played,
the boards a round started by itself included: its deal, the players' names, the calls that
stand with their alerts and explanations (PBN notes; LIN `!` and `an`), the contract and
declarer, the play (PBN's `[Play]` section, LIN's `pc`), the result (`[Result]`, `[Score]`;
LIN's `mc` when the play ended before the thirteenth trick), and what the Director's record
holds (alerts, rectifications, cancelled calls, rulings, lead restrictions) in words, as PBN
commentary (`{ … }`, PBN 2.1 section 3.8) and LIN `nt` lines: the Law, who, the call, and what
was done, for a scorer or an appeals committee. A call accepted out of rotation writes PBN's
`^S` for each player it skipped, an accepted insufficient bid `^I` (PBN 2.1 section 3.9). An
`ExportHeader` gives what the log does not hold: the event, the site, the date, the table's
name, the room, the scoring. A player's record (`players`) leaves out, while a board's play
lasts, what the fold knows from hands he may not see (`shared.table.hidden_holdings`: a revoke, a
lead or play against a restriction), as his state does.

What reading the export back (`pbn_events`, `lin_events`) and folding it gives again:

- PBN: every board's number, dealer, vulnerability, deal, players' names, the calls that stand
  with their alerts and explanations (the last one the table was told, Law 20F), the accepted
  insufficient bids (`^I`, Law 27A) and calls out of rotation (`^S`, Laws 29A, 31), the
  contract, declarer, status, the tricks (cards, leaders, winners), the tricks won and the
  result and score (a claim, a ruling or a recorded result reads back as
  `shared.notation.play_record` says: the same tricks and result).
- LIN: the same but the names (the LIN reader does not read `pn`) and the calls out of
  rotation (LIN has no mark for a skipped player: read back, the calls are in rotation from
  the dealer, so an accepted call out of rotation is given to the wrong seat).
- Neither: the Director's record itself (the alerts, rectifications, rulings and the calls
  cancelled are commentary, which readers skip: they are there for people), the questions and
  who explained a call, the ruleset (a rubber board reads back as duplicate), the times, and
  the event, site, date, table, room and scoring, which are not board state.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.codec import from_map
from shared.deal import parse_deal
from shared.events import RulingAction
from shared.notation.claim_note import claim_words
from shared.notation.play_export import lin_play, pbn_play
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Alert, StandingCall
from shared.table.board_result import result_view
from shared.table.board_view import RulingView
from shared.table.engine import fold
from shared.table.hidden_holdings import as_players_know
from shared.vocabulary import BoardStatus, LeadRestriction, PassObligation

PBN_VULNERABLE = {"None": "None", "NS": "NS", "EW": "EW", "Both": "All"}
_PBN_CALL = {"P": "Pass", "X": "X", "XX": "XX"}
_LIN_DEALER = {Seat.S: "1", Seat.W: "2", Seat.N: "3", Seat.E: "4"}
_LIN_VUL = {"None": "o", "NS": "n", "EW": "e", "Both": "b"}
_LIN_SEATS = ((Seat.S, "South"), (Seat.W, "West"), (Seat.N, "North"), (Seat.E, "East"))
_LIN_SCORING = {"IMP": "I", "IMPS": "I", "MP": "P", "MPS": "P", "BAM": "B"}
_SEAT_TAGS = (("West", Seat.W), ("North", Seat.N), ("East", Seat.E), ("South", Seat.S))
_DATE = re.compile(r"(\d{4}|\?{4})[.-](\d{2}|\?\?)[.-](\d{2}|\?\?)")
_UNKNOWN = "?"  # PBN export format: a mandatory tag whose value is not known
_COMMENT_WIDTH = 100  # commentary is wrapped: PBN export lines stay short
HEADER = "% PBN 2.1\n% EXPORT\n"


@dataclass(frozen=True, slots=True)
class ExportHeader:
    """What a record says of a table that its log does not hold. `date` is `YYYY-MM-DD` or
    PBN's `YYYY.MM.DD` (`??` for an unknown part, `1998.??.??`); `room` is e.g. `Open` or
    `Closed`; `scoring` a PBN scoring such as `MP` or `IMP`. What is None is unknown (PBN
    writes `?`) or, for the table and the room, left out."""

    event: str | None = None
    site: str | None = None
    date: str | None = None
    table: str | None = None
    room: str | None = None
    scoring: str | None = None

    def __post_init__(self) -> None:
        if self.date is not None and not _DATE.fullmatch(self.date):
            raise ValueError(f"date {self.date!r}: expected YYYY-MM-DD or YYYY.MM.DD")

    @property
    def pbn_date(self) -> str:
        """The date in PBN's form, `YYYY.MM.DD`, or `?` if unknown."""
        return _UNKNOWN if self.date is None else self.date.replace("-", ".")


# --- what every writer needs ----------------------------------------------------------------


def _boards(events: Iterable[dict[str, Any]], only: int | None = None, players: bool = False
            ) -> tuple[Board, ...]:
    """The boards of a table's log, or those numbered `only`; as the players may know them
    (`players`). A board a round started has no `board_started` of its own: its record needs
    the table's log up to it, not its events."""
    boards = fold(from_map(e) for e in events).boards
    chosen = boards if only is None else tuple(b for b in boards if b.board == only)
    return tuple(map(as_players_know, chosen)) if players else chosen


def _explanations(board: Board) -> list[str | None]:
    """Each standing call's explanation: the caller's own, or the last given when asked (Law
    20F), so that a record keeps what the table was told."""
    texts = [entry.explanation for entry in board.calls]
    for answer in board.explanations:
        if answer["index"] < len(texts):
            texts[answer["index"]] = answer["explanation"]
    return texts


def _one_line(text: str) -> str:
    """`text` on one line: a record's values and notes never span lines."""
    return " ".join(text.split()) if "\n" in text or "\r" in text else text


def _who(board: Board, seat: str | Seat | None) -> str:
    """A seat with the player's name, if known: `S (Bob)`."""
    if seat is None:
        return "nobody"
    found = Seat.parse(seat) if isinstance(seat, str) else seat
    name = dict(board.players).get(found)
    return f"{found.name} ({name})" if name else found.name


def _call_words(call: str) -> str:
    """A call as a record writes it: `Pass`, `X`, `XX`, `1NT`."""
    return _PBN_CALL.get(call, call)


def _alert_words(board: Board, alert: Alert) -> str:
    call = f", {_call_words(str(alert.call))}" if alert.call is not None else ""
    options = f" Options: {'; '.join(alert.options)}." if alert.options else ""
    return (f"Director called, Law {alert.law} ({alert.kind.replace('_', ' ')}), "
            f"{_who(board, alert.seat)}{call}: {alert.message}{options}")


def _ruling_words(board: Board, ruling: RulingView) -> str:
    """A ruling (`shared.events.RulingGiven`, as the board records it) in words."""
    who, action = _who(board, ruling.get("seat")), ruling["action"]
    if action == RulingAction.CANCEL_CALL:
        target = (f"the call at position {ruling['index'] + 1} of the auction"
                  if "index" in ruling else f"{who}'s last call")
        done = f"{target} and every call after it are cancelled"
    elif action == RulingAction.ALLOW_CHANGE:
        done = f"{who} may change his last call; it and every call after it are cancelled"
    elif action == RulingAction.SET_PASS_OBLIGATION:
        turns = "every turn" if ruling.get("obligation") == PassObligation.EVERY_TURN \
            else "his next turn"
        done = f"{who} must pass at {turns}"
    elif action == RulingAction.LIFT_PASS_OBLIGATION:
        done = f"{who} is freed from an obligation to pass"
    elif action == RulingAction.LEAD_RESTRICTION:
        verb = "must not lead" if ruling.get("restriction") == LeadRestriction.PROHIBIT \
            else "must lead"
        done = f"{who} {verb} {ruling.get('suit', '?')} at his first turn to lead"
    else:
        done = f"adjusted score {ruling.get('score', '?')}"
    law = f", Law {ruling['law']}" if ruling.get("law") else ""
    note = f" ({ruling['note']})" if ruling.get("note") else ""
    return f"Director's ruling{law}: {done}{note}."


def _director_record(board: Board) -> list[str]:
    """The Director's record of a board in words, in the order it happened: alerts (the
    irregularity, the Law, the options), rulings, cancelled calls, rectifications, then the
    lead restrictions that stand (Law 26)."""
    dated: list[tuple[int, int, str]] = []
    dated += [(a.event, 0, _alert_words(board, a)) for a in board.alerts]
    dated += [(r["event"], 1, _ruling_words(board, r)) for r in board.rulings]
    dated += [(c["event"], 2, f"Call cancelled, Law {c['law']}: {_who(board, c['seat'])}'s "
               f"{_call_words(c['call'])} ({c['reason']}).") for c in board.cancelled]
    dated += [(r["event"], 3, f"Rectification, Law {r['law']}, {_who(board, r['seat'])}: "
               f"{r['message']}") for r in board.rectifications]
    texts = [text for _, _, text in sorted(dated, key=lambda item: item[:2])]
    for penalty in board.lead_penalties:
        d = penalty.to_dict(board)
        may = f"; declarer may {d['declarer_may']}" if d.get("declarer_may") else ""
        texts.append(f"Lead restriction, Law {d['law']} (from Law {d['source']}): "
                     f"{_who(board, d['player'])}, partner of {_who(board, d['offender'])} "
                     f"whose {d['withdrawn']} was withdrawn{may}.")
    return [_one_line(text) for text in texts]


# --- PBN ------------------------------------------------------------------------------------


def _escape(text: str) -> str:
    """A PBN tag value: `\\` and `"` escaped (PBN 2.1 section 3.1), on one line."""
    return _one_line(text).replace("\\", "\\\\").replace('"', '\\"')


def _commentary(text: str) -> list[str]:
    """A PBN comment block, wrapped. A comment cannot hold `}` (it would end the comment:
    PBN has no escape there), nor begin a line with `[` or `%`: braces become parentheses."""
    text = text.replace("{", "(").replace("}", ")")
    lines = textwrap.wrap(text, _COMMENT_WIDTH, break_long_words=False,
                          break_on_hyphens=False) or [""]
    lines = [line if line[:1] not in ("[", "%", ";") else " " + line for line in lines]
    lines[0] = "{" + lines[0]
    lines[-1] += "}"
    return lines


def _contract_tags(board: Board) -> list[tuple[str, str]]:
    """Declarer, Contract, Result: unknown (`?`) while the auction goes on; a passed-out
    board has no declarer and no result; the result is declarer's tricks once the play has
    ended (unknown until then)."""
    contract = board.contract()
    if contract is not None:
        text = f"{contract['level']}{contract['strain']}{contract['risk']}"
        play = board.play
        tricks = None if play is None or play.ended is None else play.declarer_tricks
        return [("Declarer", contract["declarer"]), ("Contract", text),
                ("Result", _UNKNOWN if tricks is None else str(tricks))]
    if board.status == BoardStatus.PASSED_OUT:
        return [("Declarer", ""), ("Contract", "Pass"), ("Result", "")]
    return [("Declarer", _UNKNOWN), ("Contract", _UNKNOWN), ("Result", _UNKNOWN)]


def seat_id_tags(board: Board) -> list[tuple[str, str]]:
    """The IDs of the players at the seats, where the Director gave them: `[NorthId]`,
    `[EastId]`, … (no tag for a player's ID was found in PBN 2.1 or in the PBN files read:
    these are named after the seat tags, and a reader skips a tag it does not know;
    docs/scoring.md)."""
    ids = dict(board.player_ids)
    return [(f"{tag}Id", ids[seat]) for tag, seat in _SEAT_TAGS if ids.get(seat)]


def _mandatory_tags(board: Board, header: ExportHeader) -> list[tuple[str, str]]:
    """The 15 tags of PBN's Mandatory Tag Set, in the order export format requires."""
    names = dict(board.players)
    return [("Event", header.event or _UNKNOWN), ("Site", header.site or _UNKNOWN),
            ("Date", header.pbn_date), ("Board", str(board.board)),
            *((tag, names.get(seat, _UNKNOWN)) for tag, seat in _SEAT_TAGS),
            ("Dealer", board.dealer.name), ("Vulnerable", PBN_VULNERABLE[str(board.vulnerability)]),
            ("Deal", board.deal or f"{board.dealer.name}:- - - -"),
            ("Scoring", header.scoring or _UNKNOWN), *_contract_tags(board)]


def _auction(board: Board) -> tuple[list[str], list[str]]:
    """The auction section's lines (four calls a line) and its notes: `^S` for each player
    an accepted call out of rotation skipped, `^I` before an accepted insufficient bid, `!`
    for an alert, `=n=` for an explanation."""
    tokens: list[str] = []
    notes: list[str] = []
    for entry, explanation in zip(board.calls, _explanations(board), strict=True):
        prefix = ""
        if isinstance(entry, StandingCall):
            tokens += ["^S"] * len(entry.skipped)
            prefix = "^I" if entry.accepted in ("27A", "27") else ""
        text = str(entry.call)
        token = prefix + _PBN_CALL.get(text, text) + ("!" if entry.alert else "")
        if explanation:
            notes.append(explanation)
            token += f" ={len(notes)}="
        tokens.append(token)
    lines = [" ".join(tokens[start:start + 4]) for start in range(0, len(tokens), 4)]
    return lines, notes


def _pbn_game(board: Board, header: ExportHeader, tags: Sequence[str] = ()) -> str:
    lines = [f'[{name} "{_escape(value)}"]' for name, value in _mandatory_tags(board, header)]
    lines.append(f'[Auction "{board.dealer.name}"]')
    auction, notes = _auction(board)
    lines += auction
    lines += [f'[Note "{i}:{_escape(note)}"]' for i, note in enumerate(notes, start=1)]
    for text in _director_record(board):
        lines += _commentary(text)
    lines += pbn_play(board)
    if board.play is not None and board.play.agreed is not None:
        lines += _commentary(claim_words(board.play.agreed))
    supplemental = seat_id_tags(board)
    if header.room:
        supplemental.append(("Room", header.room))
    result = result_view(board)
    if result is not None and result["declarer_tricks"] is not None:
        supplemental.append(("Score", f"NS {result['score_ns']}"))
    if header.table:
        supplemental.append(("Table", header.table))
    # the supplemental tags, in alphabetical order (export format)
    lines += [f'[{name} "{_escape(value)}"]' for name, value in sorted(supplemental)]
    lines += tags  # the board's own tags, given (a hand record's: its tables come last)
    return "\n".join(lines)


def pbn_games(events: Iterable[dict[str, Any]], header: ExportHeader | None = None,
              only: int | None = None, players: bool = False,
              tags: Mapping[int, Sequence[str]] | None = None) -> list[str]:
    """One PBN 2.1 game per board of a table's log (`events`, event maps), in the order the
    table played them (or of the boards numbered `only`), with `header`'s event, site, date,
    scoring, table and room; as the players may know them (`players`); each with `tags`'
    lines of its board number, last."""
    header = header or ExportHeader()
    given = tags or {}
    return [_pbn_game(board, header, given.get(board.board, ()))
            for board in _boards(events, only, players)]


def pbn_document(games: Iterable[str]) -> str:
    """One PBN 2.1 export document of `games` (of one table or of many): the `% PBN 2.1` and
    `% EXPORT` lines once, then the games, separated by empty lines."""
    return HEADER + "\n\n".join(games) + "\n"


def to_pbn(events: Iterable[dict[str, Any]], header: ExportHeader | None = None,
           only: int | None = None, players: bool = False) -> str:
    """A table's log as a PBN 2.1 export document: one game per board (or per board numbered
    `only`); as the players may know them (`players`)."""
    return pbn_document(pbn_games(events, header, only, players))


# --- LIN ------------------------------------------------------------------------------------


def _lin_text(text: str, also: str = "") -> str:
    """A LIN value: no `|` (it ends the value), no line break, nor any of `also`."""
    text = _one_line(text).replace("|", "/")
    for char in also:
        text = text.replace(char, " ")
    return text


def _lin_hand(hand: str) -> str:
    return "".join(suit + cards for suit, cards in zip("SHDC", hand.split("."), strict=True))


def _vugraph(boards: tuple[Board, ...], header: ExportHeader) -> str:
    """BBO's `vg` line: the event, the segment (here the table and room), the scoring (I, P
    or B), the first and last boards; teams and carry-overs left empty."""
    scoring = _LIN_SCORING.get((header.scoring or "").upper().replace("-", ""), "")
    segment = " ".join(filter(None, (header.table, header.room)))
    numbers = [b.board for b in boards] or [0]
    fields = [_lin_text(header.event or "", ","), _lin_text(segment, ","), scoring,
              str(min(numbers)), str(max(numbers)), "", "0", "", "0"]
    return f"vg|{','.join(fields)}|"


def _lin_board(board: Board, header: ExportHeader) -> str:
    """A board on one line: `qx` (room and number, if the room is open or closed), `pn`, `md`,
    `ah`, `sv`, the calls (`mb`, `!`, `an`), the Director's record (`nt`), the lead (`pc`)."""
    hands = parse_deal(board.deal) if board.deal else {}
    md = _LIN_DEALER[board.dealer] + ",".join(
        _lin_hand(hands[s]) if s in hands else "" for s in (Seat.S, Seat.W, Seat.N, Seat.E))
    names = dict(board.players)
    pn = ",".join(_lin_text(names.get(seat, word), ",") for seat, word in _LIN_SEATS)
    room = (header.room or "")[:1].lower()
    parts = [f"qx|{room}{board.board}|" if room in ("o", "c") else "",
             f"pn|{pn}|st||md|{md}|rh||ah|Board {board.board}|"
             f"sv|{_LIN_VUL[str(board.vulnerability)]}|"]
    for entry, explanation in zip(board.calls, _explanations(board), strict=True):
        text = {"P": "p", "X": "d", "XX": "r"}.get(str(entry.call), str(entry.call))
        parts.append(f"mb|{text}{'!' if entry.alert else ''}|")
        if explanation:
            parts.append(f"an|{_lin_text(explanation)}|")
    parts += [f"nt|{_lin_text(text)}|" for text in _director_record(board)]
    parts += lin_play(board)
    return "".join(parts)


def to_lin(events: Iterable[dict[str, Any]], header: ExportHeader | None = None,
           only: int | None = None, players: bool = False) -> str:
    """A table's log as BBO LIN, one board a line (or the boards numbered `only`), as the
    players may know them (`players`); with a `header`, a `vg` line first names the event and
    the table."""
    boards = _boards(events, only, players)
    lines = [_vugraph(boards, header)] if header is not None else []
    lines += [_lin_board(board, header or ExportHeader()) for board in boards]
    return "\n".join(lines) + "\n"

"""What each reader may see of a board, on every channel: its state (the seat's view, the
feed), each entry of its history, and, by `hides_holdings`, the exports (PBN, LIN). Pure:
the gateway (`services.gateway.tables.views`) names the reader from his token (`Reader`).

- Hands: a seat sees its own hand, and dummy's once the opening lead is faced (Law 41D: dummy
  spreads his hand for all to see; not while an opening lead out of turn awaits declarer's
  option, Law 54), and a hand faced in the play (Law 54A's spread, a claim: Law 68A); a
  defender never sees his partner's or declarer's hand, declarer never a defender's,
  otherwise; the cards played are in the state for all; all four once the board has its
  result at the table, Law 66D: `ended_at_table`), spectators every hand once the
  board has been under way for the delay the settings ask for (vugraph delay), the
  director everything. So does a table's operator (a vugraph operator or the recorder at a
  physical table): he sits at that table and sees every hand, every call and every
  explanation as they happen, so he is shown the whole board, with no delay, as the
  director is (his token reads that table only), but not a round's boards to come before
  they start.
- The public (spectators): the table as it was `TABLESERVER_SPECTATOR_DELAY` seconds ago,
  everything in it delayed, not only the deal (its calls, cards and result too: the readers
  pick that state, `public_feeds`, `history_reads.appended_by`; the deal's rule above is a
  second guard). A tournament's board the public sees only once every table of the movement
  has finished it (Laws 80B, 16C1: `shared.tournament.public_boards`), unless the Director shows the
  table live (a vugraph match): until then it is `withheld`, its number, dealer,
  vulnerability and players alone, and why.
- The cards a hand may play now (`playable`, `shared.table.playable`): a seat's view carries them
  for a hand he plays from (his own, dummy's for declarer, Law 45), no other seat's; the
  director's and the operator's views always, a spectator's with the deal.
- The players' IDs (`players_named`'s `ids`: a federation number or an email) are the
  Director's and his operator's (the record, the exports he reads); every other reader gets
  the names alone.
- Alerts and explanations (Law 20F, online self-alerting): what a player says of his own call
  (its alert, its explanation) is told to the opponents, not to his partner, who must not learn
  from it (Law 16). Whom a seat's free text is kept from follows its sender (the event's
  seat), never the call its index points at now: an explanation sent from a seat (`own`)
  never reaches the sender's partner, even one the gateway let through against a stale state
  and the fold then ignored. An explanation his partner gives at the table (recorded by the
  table's operator, not `own`) is heard by all.
- A revoke (Law 61) the fold found from the deal is the Director's, not the table's, while the
  play lasts: no seat learns that a player still holds the suit he failed to follow (its alert,
  its entry in the play, its establishment, Law 63) until someone draws attention to it as the
  Laws let him (Law 61B: he asks; the Director is then called). A corrected revoke is public:
  its withdrawn card is faced (Law 62B). At the end of play the seats see it all (Law 64's
  tricks are part of the result). So with the alerts for a lead or a play against a
  restriction (Laws 26, 50D2, 57A): `shared.table.hidden_holdings`, on every channel: the state,
  each history entry's alerts (as the reader's state of its board, as the history ends, shows
  them: `in_play`), the PBN and LIN records.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from shared.deal import format_deal, parse_deal
from shared.seats import Seat
from shared.table.board_view import BoardEndView, BoardView, WithheldView
from shared.table.hidden_holdings import play_lasts, tells_establishment, told_by_hands
from shared.table.history_view import HistoryEntryView, HistoryView
from shared.table.play_checks import dummy_spread

Map = dict[str, Any]
"""An event of a history's entry, as read back (JSON)."""
M = TypeVar("M", bound=Mapping[str, Any])


class Role(enum.StrEnum):
    """Who reads (a token's role, the string it stands for)."""

    SEAT = "seat"  # a player at a seat of a table
    SPECTATOR = "spectator"  # the public
    OPERATOR = "operator"  # a table's vugraph operator or recorder
    DIRECTOR = "director"  # every table
    VUGRAPH = "vugraph"  # a tournament's list of tables: no table's state


@dataclass(frozen=True, slots=True)
class Reader:
    """A reader of a table: his role and, for a player, his seat."""

    role: Role
    seat: Seat | None = None


SELF_DISCLOSURE = ("alert", "explanation")
SENDERS_STAMPS = ("id", "client_seq")
SEES_ALL = (Role.DIRECTOR, Role.OPERATOR)  # the board in progress whole: director, operator


def _deal_for(reader: Reader, deal: str | None, started: int | None, spectator_delay_s: int,
              now_ms: int, shown: tuple[Seat, ...] = (), ended: bool = False) -> str | None:
    if deal is None or reader.role in SEES_ALL:
        return deal
    if reader.role == Role.SPECTATOR:
        delayed = spectator_delay_s > 0 and (
            started is None or now_ms - started < spectator_delay_s * 1000)
        return None if delayed else deal
    if reader.role != Role.SEAT:  # no other role reads a table (Gateway.reads): no hand
        return None
    if reader.seat is None:
        return None
    if ended:  # Law 66D: the board's play over at his table, its cards may be inspected
        return deal
    return _hands_shown(deal, reader.seat, shown)


@functools.lru_cache(maxsize=4096)
def _hands_shown(deal: str, seat: Seat, shown: tuple[Seat, ...]) -> str:
    """The deal with only `seat`'s hand and those `shown`: a board's deal is the same at each
    of its events, so each seat's split is made once, not at every update of every view."""
    hands = parse_deal(deal)
    return format_deal({s: hands[s] for s in (seat, *shown) if s in hands})


WITHHELD_KEEPS = ("board", "dealer", "vulnerability", "ruleset", "players", "clock")


def withheld(board: BoardView | WithheldView) -> WithheldView:
    """What the public sees of a tournament's board some table of the movement has still to
    finish (Laws 80B, 16C1: `shared.tournament.public_boards`): what is on its tray and the table's
    names (its number, dealer, vulnerability, ruleset, players), the round's clock and
    `withheld`, why; nothing
    of its deal, calls, play, alerts or result, nor where the table stands in it."""
    view = {k: v for k, v in board.items() if k in WITHHELD_KEEPS}
    view["withheld"] = (f"board {board.get('board')} is still being played at other tables "
                        "of the tournament: it is shown once every table has played it")
    return cast(WithheldView, view)


def for_public(reader: Reader, board: BoardView, hides: Callable[[int | None], bool],
               spectator_delay_s: int, now_ms: int) -> BoardView | WithheldView:
    """A board as the public (a spectator) sees it: `withheld` while some table of the
    movement has still to play it (`hides`), else as `board_for` gives it, but without the
    board before (`previous`, its result and last trick) while that one is withheld."""
    if hides(board.get("board")):
        return withheld(board)
    view = board_for(reader, board, spectator_delay_s, now_ms)
    previous = view.get("previous")
    if previous is not None and hides(previous.get("board")):
        view = cast(BoardView, {k: v for k, v in view.items() if k != "previous"})
    return view


def without_withheld(document: HistoryView, hides: Callable[[int], bool]
                     ) -> HistoryView:
    """A history (`services.replay.history`) as the public may see it: the entries of a board
    `hides` (every event folded into it: its deal, calls, cards, the event that ends it) left
    out, and its `state` `withheld`; a new document."""
    state = document["state"]
    return {**document,
            "history": [e for e in document["history"]
                        if e["board"] is None or not hides(e["board"])],
            "state": withheld(state) if state is not None and hides(state["board"]) else state}


def dummy_of(board: BoardView) -> Seat | None:
    """Dummy, once the opening lead is faced (Law 41D: his hand is then shown to all); not
    while an opening lead out of turn awaits declarer's option (Law 54: dummy spreads once
    it is accepted, or once the right defender has led). The contract's declarer is the
    play's (Law 54A: the presumed declarer who spread his hand is dummy)."""
    contract = board.get("contract")
    if not contract or not dummy_spread(board):
        return None
    return Seat.parse(contract["declarer"]).partner


def ended_at_table(board: BoardView) -> bool:
    """Whether the board's play has ended at this table, its result known (the last trick
    played, a claim agreed, the Director's score, or passed out): Law 66D, \"after play
    ceases, the played and unplayed cards may be inspected\", so each seat then sees all four
    hands, the result beside them. Never before: a hand seen while a card is still to be
    played would be information from the cards, not the play (Law 16)."""
    return board.get("result") is not None


def shown_hands(board: BoardView) -> tuple[Seat, ...]:
    """The hands every seat sees besides its own: dummy's (`dummy_of`) and those faced in
    the play (Laws 54A, 68A: `play.faced`)."""
    dummy = dummy_of(board)
    play = board.get("play")
    faced = tuple(Seat.parse(s) for s in play["faced"]) if play is not None else ()
    return faced if dummy is None or dummy in faced else (dummy, *faced)


def _partner_of(reader: Reader) -> str | None:
    return reader.seat.partner.name if reader.role == Role.SEAT and reader.seat is not None \
        else None


def _without(entry: M, keys: tuple[str, ...]) -> M:
    """`entry` without `keys`: `entry` itself when it has none of them."""
    if not any(k in entry for k in keys):
        return entry
    return cast(M, {k: v for k, v in entry.items() if k not in keys})


def _same(items: list[Any] | None, kept: list[Any]) -> list[Any]:
    """`items` itself when `kept` (made from it) is the same items, else `kept`: a view then
    shares what it does not change with the board (`feed_frames` encodes that part once)."""
    if items is not None and len(kept) == len(items) and all(map(operator.is_, kept, items)):
        return items
    return kept


def board_for(reader: Reader, board: BoardView, spectator_delay_s: int, now_ms: int
              ) -> BoardView:
    """The board state as `reader` may see it."""
    if reader.role in SEES_ALL:
        return board
    deal = _deal_for(reader, board.get("deal"), board.get("started_ts"), spectator_delay_s,
                     now_ms, shown_hands(board), ended_at_table(board))
    partner = _partner_of(reader)
    if partner is None and "deal" in board and deal is board["deal"]:
        return board  # a spectator after the delay: the whole board
    view: BoardView = {**board, "deal": deal}
    previous = board.get("previous")
    if previous is not None and "deal" in previous and partner is None:
        # a seat's board before ended at his table; another reader who does not see this
        # board's deal sees not the one before either
        view["previous"] = cast(BoardEndView, {k: v for k, v in previous.items()
                                                if k != "deal"})
    if partner is not None and play_lasts(board.get("play"), board.get("result")):
        _hide_holdings(view)
    if partner is not None:
        calls, alerted = board.get("calls"), board.get("alerted_calls")
        explanations = board.get("explanations")
        view["calls"] = _same(calls, [_without(c, SELF_DISCLOSURE) if c["seat"] == partner
                                      else c for c in calls or ()])
        view["alerted_calls"] = _same(alerted, [c for c in alerted or ()
                                                if c["seat"] != partner])
        view["explanations"] = _same(explanations, [
            e for e in explanations or () if not e["seat"] == e["caller"] == partner])
    due = board.get("playable")
    if due is not None and not _plays_from(reader, board, due["seat"], deal):
        del view["playable"]
    return view


def _plays_from(reader: Reader, board: BoardView, hand: str, deal: str | None) -> bool:
    """Whether `reader` may see what `hand` may play now (`playable`): a seat for the hand he
    plays from, his own (not dummy's, whose cards declarer plays) or, declarer, dummy's (Law
    45); a spectator when he sees the deal."""
    if reader.role != Role.SEAT or reader.seat is None:
        return deal is not None and deal is board.get("deal")
    contract = board.get("contract")
    dummy = Seat.parse(contract["declarer"]).partner.name if contract else None
    me = reader.seat.name
    return hand == me != dummy or (hand == dummy and reader.seat.partner.name == dummy
                                   and me != dummy)


def _hide_holdings(view: BoardView) -> None:
    """A seat's view while the play lasts: what the fold knows from a hand not seen is the
    Director's (`shared.table.hidden_holdings`): the revokes not corrected (Law 61), and a lead
    contrary to a lead restriction (Laws 26, 50D2) or a play contrary to Law 57A's option,
    whose alert tells that the player held the card or suit required (or another than those
    prohibited)."""
    play = view["play"]
    if play is None:  # `play_lasts`: not so
        return
    revokes, alerts = play.get("revokes"), view.get("alerts")
    rectifications = view.get("rectifications")
    kept = _same(revokes, [r for r in revokes or () if r["corrected"]])
    if kept is not revokes:
        view["play"] = {**play, "revokes": kept}
    view["alerts"] = _same(alerts, [a for a in alerts or () if not told_by_hands(a["kind"])])
    view["rectifications"] = _same(rectifications, [r for r in rectifications or ()
                                                    if not tells_establishment(r["law"])])


def hides_holdings(reader: Reader) -> bool:
    """Whether `reader` reads as a player (a seat), from whom what the fold knows from hands
    he may not see is kept while the play lasts; his PBN and LIN records too."""
    return _partner_of(reader) is not None


def entry_for(reader: Reader, entry: HistoryEntryView, spectator_delay_s: int, now_ms: int
              ) -> HistoryEntryView:
    """One entry of a table's history (`services.replay.history`) as `reader` may see it: its
    `event`, for an explanation the `caller` whose call it explains, and the board's `state`
    after it when the history was asked with `states`."""
    seen = _event_for(reader, entry, spectator_delay_s, now_ms)
    if hides_holdings(reader):
        seen = _alerts_seen(seen)
    if seen.get("state") is not None:
        seen = {**seen, "state": board_for(reader, seen["state"], spectator_delay_s, now_ms)}
    return seen


def _alerts_seen(entry: HistoryEntryView) -> HistoryEntryView:
    """A player's part of the alerts an entry raised: as his state of their board (as the
    history ends) shows them (`_hide_holdings`): those of a board whose play lasts (`in_play`,
    `services.replay.history`) told by hands he may not see are the Director's."""
    alerts = entry.get("alerts") or []
    kept = [a for a in alerts if not (a.get("in_play") and told_by_hands(a.get("kind", "")))]
    return entry if len(kept) == len(alerts) else {**entry, "alerts": kept}


def _event_for(reader: Reader, entry: HistoryEntryView, spectator_delay_s: int, now_ms: int
               ) -> HistoryEntryView:
    event = entry["event"]
    if event is None:  # a record that is not an event: nothing in it to keep from anyone
        return entry
    kind = event.get("type")
    if reader.role == Role.DIRECTOR or (reader.role == Role.OPERATOR and kind != "round_started"):
        return entry  # an operator, as the players, sees a board's cards when it comes
    sender = event.get("by") or event.get("seat")  # `by`: declarer, for dummy's card
    if sender is not None and (reader.seat is None or sender != reader.seat.name):
        # another seat's own stamps: numbers and tokens it chose, so a channel to partner
        event = {k: v for k, v in event.items() if k not in SENDERS_STAMPS}
        entry = {**entry, "event": event}
    if kind == "board_started" and event.get("deal") is not None:
        deal = _deal_for(reader, event["deal"], event.get("ts"), spectator_delay_s, now_ms)
        return {**entry, "event": {**event, "deal": deal}}
    if kind == "round_started":  # boards to come: their hands are the director's alone
        boards = [_without(board, ("deal",)) for board in event.get("boards", [])]
        return {**entry, "event": {**event, "boards": boards}}
    if kind == "players_named":  # the players' IDs (an email, a federation number): the
        return {**entry, "event": _without(event, ("ids",))}  # Director's and his exports'
    partner = _partner_of(reader)
    if partner is None or event.get("seat") != partner:
        return entry
    if kind == "call":
        return {**entry, "event": _without(event, SELF_DISCLOSURE)}
    if kind == "explanation" and (event.get("own") or entry.get("caller") in (partner, None)):
        # Sent by the partner himself (`own`: from his seat), whatever call now sits at its
        # index and whatever the fold made of it; or, recorded at the table, of his own call
        # or one the fold ignored: not for his partner's eyes
        return {**entry, "event": _without(event, ("explanation",))}
    return entry


THINK_TIMES = "think_times"


def think_times_for(reader: Reader, document: HistoryView) -> HistoryView:
    """A history as `reader` may see it of its think times (`shared.table.think_times`): the
    Director's alone (Law 16B: a break in tempo is his to judge, and the time a player took
    tells his partner what his hand held); a new document without them for anyone else."""
    if reader.role == Role.DIRECTOR or THINK_TIMES not in document:
        return document
    return cast(HistoryView, {k: v for k, v in document.items() if k != THINK_TIMES})

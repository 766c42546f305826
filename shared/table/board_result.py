"""A board's play and result as a reader gets them (`play`, `result` in
`shared.table.board_view.BoardView`), the rubber as a deal leaves it, and a table's rubber total."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from shared.cards import Card
from shared.deal import parse_deal
from shared.scoring import (
    Contract,
    RubberState,
    duplicate_score,
    honours,
    rubber_score,
    unfinished_rubber,
)
from shared.seats import Seat, Vulnerability
from shared.table.board_view import ClaimView, LeadOutOfTurnView, PlayView, ResultView, TrickView
from shared.table.claim_answers import awaited, may_object
from shared.table.last_trick import may_inspect_last
from shared.table.play import Claim, IrregularLead, Play
from shared.table.substitutes import substitute_seats
from shared.vocabulary import BoardStatus

if TYPE_CHECKING:  # the board calls this module for its `to_dict`
    from shared.table.board import Board

_PASSED_OUT = BoardStatus.PASSED_OUT  # a module global: an enum class's attribute is slow to read
_VULNERABLE = {Vulnerability.NONE: (False, False), Vulnerability.NS: (True, False),
               Vulnerability.EW: (False, True), Vulnerability.BOTH: (True, True)}


# the seats' letters clockwise from each seat's (N: N E S W, E: E S W N …)
_CLOCKWISE_LETTERS = tuple(tuple("NESW"[(first + i) % 4] for i in range(4)) for first in range(4))


def lead_view(lead: IrregularLead) -> LeadOutOfTurnView:
    """A lead out of turn awaiting its option (Laws 53–56), with Law 55A's answer held."""
    view: LeadOutOfTurnView = {"seat": lead.seat.letter, "card": str(lead.card),
                               "law": lead.law,
                               "option_holders": [s.letter for s in lead.holders]}
    if lead.held is not None:
        view["held"] = {"seat": lead.held[0].letter, "accept": lead.held[1]}
    return view


def play_view(play: Play) -> PlayView:
    """The play as a reader gets it (docs/api.md). Built from the play's flat lists, card by
    card: this runs for every event of the play, in the processor."""
    cards, leaders, winners = play.cards, play.leaders, play.winners
    tricks: list[TrickView] = []
    for k, leader in enumerate(leaders):
        seats = _CLOCKWISE_LETTERS[leader.index]
        first = 4 * k
        tricks.append({"leader": seats[0], "cards": [
            {"seat": seats[0], "card": cards[first].text},
            {"seat": seats[1], "card": cards[first + 1].text},
            {"seat": seats[2], "card": cards[first + 2].text},
            {"seat": seats[3], "card": cards[first + 3].text}], "winner": winners[k].letter})
    if play.in_trick:
        seats, first = _CLOCKWISE_LETTERS[play.leader.index], len(cards) - play.in_trick
        tricks.append({"leader": seats[0],
                       "cards": [{"seat": seats[i], "card": cards[first + i].text}
                                 for i in range(play.in_trick)],
                       "winner": None})
    claim, lead, options = play.claim, play.lead, play.lead_options
    return {
        "declarer": play.declarer.letter,
        "dummy": play.dummy.letter,
        "trump": play.trump,
        "tricks": tricks,
        "turn": play.turn.letter if play.turn is not None else None,
        "won": {"NS": play.won_ns, "EW": play.won_ew},
        "claim": None if claim is None else claim_view(play, claim),
        "lead_out_of_turn": None if lead is None else lead_view(lead),
        "lead_options": None if options is None else {
            "seat": options.seat.letter, "suits": list(options.suits),
            "choice": options.choice, "chosen": list(options.chosen)},
        "revokes": [{"seat": r.seat.letter, "trick": r.trick + 1, "card": str(r.card),
                     "established": r.established, "corrected": r.corrected}
                    for r in play.revokes],
        "ended": play.ended,
        "faced": [s.letter for s in play.faced],
        "partner_option": None if (o := play.partner_option) is None else {
            "seat": o[0].letter, "choice": o[1], "suit": o[2]},
        "designated": None if play.designated is None else {
            "seat": play.designated[0].letter, "card": str(play.designated[1])},
        "waiting": [{"seat": s.letter, "card": c.text} for s, c in play.waiting],
        "inspect_last": [s.letter for s in may_inspect_last(play)],
    }


def claim_view(play: Play, claim: Claim) -> ClaimView:
    """The claim standing, with the seats whose answer it awaits and the partner who may
    object to a concession (Laws 68B2, 69A: `shared.table.claim_answers`)."""
    objector = may_object(play)
    return {"seat": claim.seat.letter, "tricks": claim.tricks, "remaining": claim.remaining,
            "statement": claim.statement, "answers": {s.letter: a for s, a in claim.answers},
            "disputed": claim.disputed, "awaited": [s.letter for s in awaited(play)],
            "may_object": None if objector is None else objector.letter}


def _contract(board: Board) -> Contract | None:
    bid = board.last_bid
    if bid is None or bid.strain is None:
        return None
    return Contract(bid.level, bid.strain.name, board.risk)


def _honours(board: Board, strain: str) -> tuple[int, int]:
    """Rubber: the honours held in one hand, by side (NS, EW), from the deal when known."""
    if board.deal is None:
        return 0, 0
    ns = ew = 0
    for seat, hand in parse_deal(board.deal).items():
        cards = frozenset(Card(suit, rank) for suit, ranks in zip("SHDC", hand.split("."),
                                                                  strict=True)
                          for rank in ranks)
        points = honours(cards, strain)
        if seat.index % 2 == 0:
            ns += points
        else:
            ew += points
    return ns, ew


def rubber_deal(board: Board) -> tuple[int, RubberState]:
    """Rubber: the deal's score from NS's side and the rubber after it (rubber Laws 72–77),
    from the rubber as the deal began (a new rubber if the table does not say)."""
    before = board.rubber or RubberState()
    play, contract = board.play, _contract(board)
    if play is None or play.declarer_tricks is None or contract is None:
        return 0, before
    honours_ns, honours_ew = _honours(board, contract.strain)
    return rubber_score(before, contract, play.declarer.index % 2 == 0, play.declarer_tricks,
                        honours_ns, honours_ew)


def rubber_total(boards: Sequence[Board]) -> int | None:
    """Rubber: a table's points from NS's side over its deals (`boards`, in the order
    played): each deal's score (`rubber_deal`: the games and the rubbers won in it), and the
    rubber the last deal leaves unfinished scored as rubber Law 80 says (300 for a game, 50
    for a part-score: `unfinished_rubber`). None if no deal was played at rubber."""
    deals = [board for board in boards if not board.duplicate]
    if not deals:
        return None
    return sum(rubber_deal(board)[0] for board in deals) \
        + unfinished_rubber(rubber_deal(deals[-1])[1])


def result_view(board: Board) -> ResultView | None:
    """`null` until the play ends; then declarer's tricks and the score from NS's side;
    a passed-out board: no tricks, 0 (Law 22A)."""
    if board.status is _PASSED_OUT:
        return {"declarer_tricks": None, "score_ns": 0}
    play, contract = board.play, _contract(board)
    if play is None or play.declarer_tricks is None or contract is None:
        return None
    tricks = play.declarer_tricks
    if not board.duplicate:
        return {"declarer_tricks": tricks, "score_ns": rubber_deal(board)[0]}
    declarer: Seat = play.declarer
    ns = declarer.index % 2 == 0
    vulnerable = _VULNERABLE[board.vulnerability][0 if ns else 1]
    score = duplicate_score(contract, vulnerable, tricks)
    return {"declarer_tricks": tricks, "score_ns": score if ns else -score}


def contract_line(board: Board) -> dict[str, str | int] | None:
    """What a traveller's line says of the play, once the board has a result: the contract
    (`4S`, `3NTX`), declarer (`N`), the opening lead (`HK`) and declarer's tricks, and the
    seats where a substitute played (`W`); a passed-out board: `PASS`. None before its
    result."""
    out: dict[str, str | int]
    play, contract = board.play, _contract(board)
    if board.status is _PASSED_OUT:
        out = {"contract": "PASS"}
    elif play is None or play.declarer_tricks is None or contract is None:
        return None
    else:
        out = {"contract": f"{contract.level}{contract.strain}{contract.risk}",
               "declarer": play.declarer.name, "tricks": play.declarer_tricks}
    if board.opening_lead is not None and board.status is not _PASSED_OUT:
        out["lead"] = str(board.opening_lead[1])
    if subs := substitute_seats(board.players):
        out["substitutes"] = subs  # a robot sat in for its player there (a vanished player)
    return out

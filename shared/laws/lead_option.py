"""Declarer's lead option (a `lead_option` event) on the partner of a defender with major
penalty cards (Laws 50D2, 51B), or on the partner of the offender whose call was withdrawn
(Law 26); enforced at that lead by `shared.laws.penalty_cards`."""

from __future__ import annotations

from dataclasses import replace

from shared.events import LeadOptionChosen, PenaltyCardNamed
from shared.laws.citations import cite
from shared.laws.penalty_cards import settle_majors
from shared.laws.play import begin_play
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import LeadOptions
from shared.vocabulary import BoardStatus, LeadOption


def on_lead_option(board: Board, event: LeadOptionChosen) -> None:
    """Declarer states his option on the lead of the partner of a defender with major penalty
    cards (Law 50D2):
    - `require` (50D2(a)): that lead in the suit; with penalty cards in several suits, the
      suit named (51B2); every penalty card of that suit is picked up (51B1(a));
    - `prohibit` (50D2(a)): no lead of the suit named, or of every suit in which the offender
      has a penalty card (51B2), for as long as the leader retains the lead; those penalty
      cards are picked up (51B1(b));
    - `free` (50D2(b)): any lead; the penalty cards stay, and Law 50D goes on applying.
    Only declarer states it, and only while it awaits him."""
    play = board.play
    if play is None and board.exposed:  # before the opening lead: the auction's penalty cards
        play = begin_play(board)
    options = play.lead_options if play is not None else None
    if play is None or play.ended is not None or options is None \
            or options.choice is not None:
        if not withdrawn_call_option(board, event):
            board.note_ignored("no lead option awaits declarer's choice (Law 50D2)")
        return
    if event.seat is not play.declarer:
        board.note_ignored(f"only declarer ({play.declarer}) states his lead option (Law 50D2)")
        return
    offender, choice, suit = options.seat.partner, event.choice, event.suit
    if suit is not None and suit not in options.suits:
        board.note_ignored(f"{offender} has no major penalty card in {suit}")
        return
    if choice is LeadOption.FREE:
        play.lead_options = None
        play.recheck()
        board.rectify(cite(board, "50D2(b)"), options.seat, f"declarer lets {options.seat} "
                      f"lead any card: {offender}'s penalty cards stay (Law 50D applies while "
                      "they remain).")
        return
    if suit is None and choice is LeadOption.REQUIRE and len(options.suits) > 1:
        board.note_ignored(f"name the suit required: one of {', '.join(options.suits)} "
                           "(Law 51B2)")
        return
    chosen = (suit,) if suit is not None else options.suits
    settle_majors(play)
    picked = [c for s, c in play.penalty if s is offender and c.suit in chosen]
    play.penalty = tuple(p for p in play.penalty
                         if not (p[0] is offender and p[1].suit in chosen))
    play.lead_options = replace(options, choice=choice, chosen=chosen)
    play.recheck()
    law = "51B" if len(options.suits) > 1 or len(picked) > 1 else "50D2(a)"
    what = f"{options.seat} must lead {chosen[0]}" if choice is LeadOption.REQUIRE else \
        f"{options.seat} may not lead {' or '.join(chosen)} while he retains the lead"
    board.rectify(cite(board, law), options.seat, f"declarer's option: {what}; "
                  f"{', '.join(map(str, picked))} picked up, no longer a penalty card.")


def withdrawn_call_option(board: Board, event: LeadOptionChosen) -> bool:
    """Law 26 (rubber 26): the offender's partner, a defender, at his first turn to lead
    (the opening lead included). A2 (rubber (a)): declarer may require or prohibit the lead
    of the suit of the withdrawn call; B (rubber (b)): he may prohibit the lead of any one suit
    he names (`suit`). A prohibition holds for as long as the partner retains the lead.
    Declarer states it before that first lead; it is then kept as his lead options, the
    requirement for that lead, the prohibition while he keeps the lead (a lead against it
    alerts the Director). Returns whether a Law 26 penalty took the event."""
    declarer = board.declarer
    play = board.play
    if declarer is None or board.status is not BoardStatus.CLOSED or (
            play is not None and play.ended is not None):
        return False
    for view in (p.to_dict(board) for p in board.lead_penalties):
        partner = Seat.parse(view["player"])
        if not view["applies"] or partner in (play.leaders if play is not None else ()) or (
                play is not None and play.in_trick and play.leader is partner):
            continue  # no penalty, or his first turn to lead has come and gone
        if event.seat is not declarer:
            board.note_ignored(f"only declarer ({declarer}) states his lead option (Law 26)")
            return True
        suit, law = view.get("suit"), view["law"]
        if play is not None and play.lead_options is not None \
                and play.lead_options.choice is not None:
            board.note_ignored("declarer has stated his lead option")
            return True
        if event.choice is LeadOption.FREE:
            board.rectify(law, partner, f"declarer puts no restriction on {partner}'s lead "
                          f"(Law {law}).")
            return True
        if suit is None and (event.choice is not LeadOption.PROHIBIT or event.suit is None):
            board.note_ignored(f"Law {law}: declarer may prohibit the lead of one suit he "
                               "names")
            return True
        if suit is not None and event.suit not in (None, suit):
            board.note_ignored(f"Law {law}: declarer may require or prohibit {suit} only")
            return True
        chosen = (suit or event.suit or "",)
        play = play or begin_play(board)
        if play is None:
            return False
        play.lead_options = LeadOptions(partner, chosen, event.choice, chosen, law,
                                        before_first_lead=True)
        play.plain = False
        what = "must lead" if event.choice is LeadOption.REQUIRE else \
            "may not lead, for as long as he retains the lead,"
        board.rectify(law, partner, f"declarer's option: at his first turn to lead {partner} "
                      f"{what} {chosen[0]} (Law {law}).")
        return True
    return False


def on_penalty_card_named(board: Board, event: PenaltyCardNamed) -> None:
    """Law 51A: when it is a defender's turn to play and he has two or more penalty cards that
    can legally be played, declarer designates which is played at that turn (`play.designated`;
    another of them played instead alerts the Director, `penalty_cards.penalty_card_played`).
    Only declarer names it, only at that defender's turn, a card among those he may play."""
    play = board.play
    if play is None or play.ended is not None or play.claim is not None:
        board.note_ignored("no penalty card is to be played")
        return
    if event.seat is not play.declarer:
        board.note_ignored(f"only declarer ({play.declarer}) names the penalty card (Law 51A)")
        return
    holder, card = play.turn, event.card
    if holder is None or not holder.is_opponent_of(play.declarer) or play.lead is not None:
        board.note_ignored("no defender with penalty cards is to play")
        return
    led = play.cards[-play.in_trick].suit if play.in_trick else None
    playable = [c for s, c in play.penalty if s is holder
                and (led is None or c.suit == led or not play.can_follow(holder, led))]
    if len(playable) < 2 or card not in playable:
        board.note_ignored(f"{card} is not one of two or more penalty cards {holder} may "
                           "legally play (Law 51A)")
        return
    play.designated = (holder, card)
    board.rectify(cite(board, "51A"), holder, f"declarer designates {card}: {holder} plays it "
                  "at this turn.")

"""Declarer's lead option (a `lead_option` event) on the partner of a defender with major
penalty cards (Laws 50D2, 51B); enforced at that lead by `shared.laws.penalty_cards`."""

from __future__ import annotations

from dataclasses import replace

from shared.board import Board
from shared.events import LeadOptionChosen
from shared.laws.citations import cite
from shared.laws.penalty_cards import settle_majors
from shared.laws.play import begin_play
from shared.vocabulary import LeadOption


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

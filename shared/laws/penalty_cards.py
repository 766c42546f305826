"""Penalty cards (Laws 50–52): major and minor (50B), the minor card's restriction (50C), the
major card played at the first legal opportunity (50D1, 52), and declarer's options on the
lead of the offender's partner (50D2, 51B), stated with a `lead_option` event and enforced at
that lead.

A defender's penalty cards are `Play.penalty`; those exposed inadvertently (two cards played
to a trick, a card dropped: Law 58B's second card, a `card_exposed` not led) are marked in
`Play.inadvertent`, from which Law 50B tells a minor one. Declarer's options wait in
`Play.lead_options` for his `lead_option` (the partner on lead may not lead before it), then
hold for that lead (a suit required) or while the partner retains the lead (prohibited).
"""

from __future__ import annotations

from dataclasses import replace

from shared.cards import SUITS, Card
from shared.laws.citations import cite
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import LeadOptions, Play, is_minor
from shared.vocabulary import Irregularity, LeadOption


def settle_majors(play: Play) -> None:
    """Law 50B: "when one defender has two or more penalty cards, all such cards become major
    penalty cards", and stay so: their marks of inadvertence go (and those of cards gone)."""
    if play.inadvertent:
        counts = {seat: sum(1 for s, _ in play.penalty if s is seat) for seat, _ in
                  play.inadvertent}
        play.inadvertent = tuple(p for p in play.inadvertent
                                 if counts[p[0]] == 1 and p in play.penalty)


def penalty_card_played(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """A card played by a defender with penalty cards; a penalty card played leaves the table.
    - Law 50D1: a major penalty card must be played at the first legal opportunity (leading,
      following suit, discarding or trumping); Law 52: one not played when it could be lets
      declarer accept the card played or require the penalty card (the Director's alert; the
      card played stands until he rules). Law 59: one he cannot legally play (he must follow
      another suit) binds him not: any legal card.
    - Law 51A: with two or more he may legally play, the one declarer designated
      (`play.designated`); another of them played instead: the Director's alert, Law 52.
    - Law 50C: with a minor penalty card he may not play another card of its suit below the
      rank of an honour until he has played it (an honour he may); another suit is free."""
    settle_majors(play)
    mine = [c for s, c in play.penalty if s is seat]
    named, play.designated = play.designated, None
    if named is not None and named[0] is seat and card != named[1] and card in mine:
        board.alert(Irregularity.PENALTY_CARD_NOT_PLAYED, cite(board, "51A"), seat,
                    f"{seat} played his penalty card {card}, not {named[1]}, which declarer "
                    "designated (Law 51A).",
                    (f"declarer ({play.declarer}) may accept {card} or require {named[1]} to "
                     "be played (Law 52A–B)",))
    if mine and card not in mine:
        led = play.cards[-play.in_trick].suit if play.in_trick else None
        major = [c for c in mine if not is_minor(play, seat, c)]
        playable = [c for c in major
                    if led is None or c.suit == led or not play.can_follow(seat, led)]
        minor = [c for c in mine if c not in major and c.suit == card.suit]
        if playable and (led is None or card.suit != led or playable[0].suit == led):
            board.alert(Irregularity.PENALTY_CARD_NOT_PLAYED, cite(board, "52"), seat,
                        f"{seat} played {card}, not his penalty card {playable[0]}, which he "
                        "could legally play (Law 50D1).",
                        (f"declarer ({play.declarer}) may accept {card} or require the penalty "
                         f"card to be played (Law 52A–B)",))
        elif minor and not card.is_honour:
            board.alert(Irregularity.PENALTY_CARD_NOT_PLAYED, cite(board, "50C"), seat,
                        f"{seat} played {card}, below honour rank in the suit of his minor "
                        f"penalty card {minor[0]}, before playing it (Law 50C).",
                        (f"declarer ({play.declarer}) may accept {card} or require the penalty "
                         f"card to be played (Law 52A–B)",))
    play.penalty = tuple(p for p in play.penalty if p[1] != card)


def lead_after_penalty_card(board: Board, play: Play) -> None:
    """Law 50D2: when a defender has the lead while his partner has a major penalty card, he
    may not lead until declarer has stated his option: require or prohibit the lead of its
    suit (50D2(a), the card then picked up; Law 51B for two or more), or let the lead be free
    (50D2(b)). Law 50C: a minor penalty card puts no restriction on the partner's lead.
    Options on a defender who has lost the lead lapse; a prohibition holds while he keeps it."""
    leader, options = play.turn, play.lead_options
    if options is not None and options.seat is not leader and not options.before_first_lead:
        play.lead_options = options = None
    if leader is None or not leader.is_opponent_of(play.declarer) or (
            options is not None and options.choice is not None):
        return
    settle_majors(play)
    partner = leader.partner
    cards = [c for s, c in play.penalty if s is partner and not is_minor(play, s, c)]
    suits = tuple(sorted({c.suit for c in cards}, key=SUITS.index))
    if not cards or (options is not None and options.suits == suits):
        return
    play.lead_options = LeadOptions(leader, suits)
    play.plain = False
    board.rectify(cite(board, "50D2"), leader, f"{leader} is on lead while {partner} has a "
                  f"major penalty card ({', '.join(map(str, cards))}): he leads once declarer "
                  f"has stated his option (`lead_option`): require or forbid a lead of "
                  f"{', '.join(suits)} (the penalty card then picked up), or let the lead be "
                  "free, the penalty card staying.")


def check_lead_option(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """A lead in turn while declarer's lead options are open or in force (Law 50D2):
    - before declarer has stated his option: the defender "may not lead until" he has; the
      lead is an irregularity (Law 49 applies, the Director rules), the lead stands meanwhile
      and the option lapses, the penalty cards staying;
    - contrary to the suit required or prohibited: an irregularity for the Director; the
      lead stands until he rules. Law 59: void in the suit required, or holding only the
      suits prohibited, he leads any card.
    A requirement holds for one lead; a prohibition while he retains the lead."""
    options = play.lead_options
    if options is None:
        return
    if seat is not options.seat:  # he lost the lead: the options lapse (Law 26's wait)
        if not options.before_first_lead:
            play.lead_options = None
        return
    offender = seat.partner
    if options.choice is None:
        play.lead_options = None
        board.alert(Irregularity.LEAD_BEFORE_OPTION, cite(board, "50D2"), seat,
                    f"{seat} led {card} before declarer stated his option on the lead "
                    f"({offender} has a major penalty card in {', '.join(options.suits)}).",
                    ("the Director rules (Laws 50D2, 49); the lead stands meanwhile and "
                     f"{offender}'s penalty cards stay",))
        return
    if options.choice is LeadOption.REQUIRE:
        play.lead_options = None
        suit = options.chosen[0]
        if card.suit == suit or not play.can_follow(seat, suit):
            return
        broken = f"{seat} was required to lead {suit} and led {card}"
    else:
        if options.before_first_lead:  # Law 26: from his first lead, while he keeps the lead
            play.lead_options = replace(options, before_first_lead=False)
        if card.suit not in options.chosen or not any(
                play.can_follow(seat, other) for other in SUITS if other not in options.chosen):
            return
        broken = f"{seat} was forbidden to lead {' or '.join(options.chosen)} and led {card}"
    law = cite(board, options.law)
    board.alert(Irregularity.LEAD_RESTRICTION_NOT_FOLLOWED, law, seat,
                f"{broken} (declarer's option, Law {law}).",
                (f"the Director rules (Laws {law}, 12); the lead stands meanwhile",))

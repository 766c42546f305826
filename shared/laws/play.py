"""The Laws of play applied to a board: a card played (Laws 41, 44, 45), the opening lead and
leads out of turn (Laws 53–56), premature plays (Law 57), and the option to accept a lead out
of turn. Revokes are `shared.laws.revoke`'s; penalty cards `shared.laws.penalty_cards`';
claims `shared.laws.claims`'.

A card not dealt to the hand it comes from, or already played, is bad input the gateway
refuses (400); one that reaches the fold anyway (a state the gateway read before the card
was folded) is noted as ignored and changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

from shared.calls import Strain
from shared.cards import Card
from shared.deal import parse_deal
from shared.events import CardExposed, CardPlayed, OpeningLeadFaced, OptionExercised, RulingAction
from shared.laws.cards import attempted_opening_lead, on_card_exposed
from shared.laws.citations import cite
from shared.laws.misplaced import misplaced
from shared.laws.options import on_option as on_call_option
from shared.laws.penalty_cards import (
    check_lead_option,
    lead_after_penalty_card,
    penalty_card_played,
)
from shared.laws.premature import check_partner_play, premature_play
from shared.laws.revoke import correct_revoke, establish, find_revoke, settle_revokes
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import NO_HANDS, Hands, IrregularLead, Play, Suits, last_trick_winner
from shared.vocabulary import BoardStatus, Irregularity, LeadRestriction

_AUCTION = BoardStatus.AUCTION


def begin_play(board: Board) -> Play | None:
    """The play as the auction left it: declarer's LHO on lead (Law 41A), the trump suit the
    contract's; None without a contract (passed out, or the auction still on)."""
    declarer, bid = board.declarer, board.last_bid
    if declarer is None or bid is None or bid.strain is None:
        return None
    hands = NO_HANDS if board.deal is None else _hands(board.deal)
    lead = declarer.lho
    play = board.play = Play.start(declarer, _TRUMP[bid.strain], hands, lead)
    exposed = board.exposed
    if exposed:
        # Law 24 (rubber 23): a defender's card exposed during the auction is a penalty card
        play.penalty = tuple((s, c) for s, c, _ in exposed if s.is_opponent_of(declarer))
        # Law 50B: a card exposed in the auction not as a lead was exposed inadvertently
        play.inadvertent = tuple((s, c) for s, c, led in exposed
                                 if s.is_opponent_of(declarer) and not led)
        play.recheck()
        if play.penalty:
            lead_after_penalty_card(board, play)
    return play


# The trump suit of a contract's strain (an enum's `name` is slow to read: once a board here)
_TRUMP = {Strain.C: "C", Strain.D: "D", Strain.H: "H", Strain.S: "S", Strain.NT: None}
_FIRST = {"N": 0, "E": 1, "S": 2, "W": 3}


def _hands(deal: str) -> Hands:
    """The known hands of a deal, suit by suit (the event schema has checked the deal: in the
    usual case, four hands of four suits, its sixteen suits are only split here, at once)."""
    first, parts = _FIRST.get(deal[:1].upper()), deal[2:].upper().replace(" ", ".").split(".")
    if first is None or len(parts) != 16 or deal[1:2] != ":":
        return _any_hands(deal)
    if first:  # the hands from the first seat's, clockwise: turned to start at North's
        cut = 16 - 4 * first
        parts = parts[cut:] + parts[:cut]
    p = parts
    return (p[0], p[1], p[2], p[3]), (p[4], p[5], p[6], p[7]), \
        (p[8], p[9], p[10], p[11]), (p[12], p[13], p[14], p[15])


def _any_hands(deal: str) -> Hands:
    """`_hands` of a deal that leaves hands out (`-`) or is spaced unusually."""
    first, hands = _FIRST.get(deal[:1].upper()), deal[2:].upper().split()
    if first is None or len(hands) != 4 or deal[1:2] != ":":
        parsed = parse_deal(deal)
        return (_suits(parsed.get(Seat.N, "-")), _suits(parsed.get(Seat.E, "-")),
                _suits(parsed.get(Seat.S, "-")), _suits(parsed.get(Seat.W, "-")))
    if first:
        hands = hands[4 - first:] + hands[:4 - first]
    return _suits(hands[0]), _suits(hands[1]), _suits(hands[2]), _suits(hands[3])


def _suits(hand: str) -> Suits | None:
    """A hand `S.H.D.C` suit by suit; None for an unknown hand (`-`)."""
    if hand == "-":
        return None
    spades, hearts, diamonds, clubs = hand.split(".")
    return spades, hearts, diamonds, clubs


def on_card_played(board: Board, event: CardPlayed) -> None:
    """Law 45: a card is played from the hand it comes from, declarer playing dummy's. During
    the auction a card faced is a card prematurely led (Law 24B; rubber 23). The first card
    after the auction from a defender is the opening lead (Law 41A), which ends the auction
    period (2017 Law 17D1); dummy's hand is then faced (Law 41D). One from declarer's side
    before it is no lead (Law 54E: `cards.attempted_opening_lead`)."""
    seat, card = event.seat, event.card
    play = board.play
    if play is not None and seat is play.turn and play.plain:
        # The usual card, in turn, held, following suit (or unable to), with nothing irregular
        # on the board: `play_card` and `Play.add` inlined, as this runs for most events.
        index, gone = card.index, play.gone
        suits = play.hands[seat.index]
        if not gone[index] and (suits is None or card.rank in suits[card.number]):
            in_trick, cards = play.in_trick, play.cards
            if in_trick:
                led = cards[-in_trick]
                if card.suit == led.suit or suits is None or not play.can_follow(seat,
                                                                                 led.suit):
                    cards.append(card)
                    gone[index] = 1
                    if in_trick < 3:
                        play.in_trick, play.turn = in_trick + 1, seat.lho
                    else:
                        play.in_trick = 0
                        play.complete(last_trick_winner(play.leader, cards, play.trump))
                    return
            elif play.winners:
                cards.append(card)
                gone[index] = 1
                play.in_trick, play.turn = 1, seat.lho
                return
    irregular_card(board, event)
    if board.play is not None:
        board.play.recheck()


def irregular_card(board: Board, event: CardPlayed) -> None:
    """`on_card_played` past its fast path: the auction's card, the first card, a card that is
    refused, and everything irregular."""
    seat, card = event.seat, event.card
    if board.status is _AUCTION:
        on_card_exposed(board, CardExposed(seat, card, led=True))
        return
    play = board.play or begin_play(board)
    if play is None:
        board.note_ignored("no contract: no card is played")
        return
    if play.ended is not None:
        board.note_ignored("the play is over")
        return
    if play.gone[card.index]:
        board.note_ignored(f"{card} has been played already")
        return
    if play.holds(seat, card) is False:
        board.note_ignored(f"{card} is not in {seat}'s hand")
        return
    if play.claim is not None:
        board.note_ignored("play ceases once a claim is made (Law 68D)")
        return
    if board.opening_lead is None and not play.cards and not seat.is_opponent_of(play.declarer):
        attempted_opening_lead(board, seat, card)  # Law 54E: no lead, Law 24 applies
        return
    lead = play.lead
    if lead is not None:
        by_play = seat is lead.next_in_turn  # Law 53A: his play to it accepts it
        accept = by_play or (lead.held is not None and lead.held[1])  # else 55A's answer held
        settle_lead(board, play, lead, accept=accept, by_play=by_play)
    if seat is not play.turn:
        if play.revokes and correct_revoke(board, play, seat, card):
            if play.penalty and not play.in_trick:  # a defender's card withdrawn: Law 50D2
                lead_after_penalty_card(board, play)
            return
        if not misplaced(board, play, seat, card):
            out_of_turn(board, play, seat, card)
        return
    play_card(board, play, seat, card)


def on_opening_lead(board: Board, event: OpeningLeadFaced) -> None:
    """An older log's `opening_lead`: the first card played (Law 41A), as `card_played`."""
    on_card_played(board, CardPlayed(event.seat, event.card))


def play_card(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """A card in turn: it goes to the trick (Laws 44B–G); failing to follow suit when able is
    a revoke (Law 61A)."""
    if play.revokes:
        establish(board, play, seat)
    if play.in_trick:
        led = play.cards[-play.in_trick].suit
        if card.suit != led and play.can_follow(seat, led):
            find_revoke(board, play, seat, card, led)
    else:
        if not play.winners:
            board.opening_lead = (seat, card)
            if board.rulings:
                check_lead_restriction(board, play, seat, card)
        if play.lead_options is not None:
            check_lead_option(board, play, seat, card)
    if play.partner_option is not None:
        check_partner_play(board, play, seat, card)
    if play.penalty:
        penalty_card_played(board, play, seat, card)
    play.add(seat, card)
    if (play.penalty or play.lead_options is not None) and not play.in_trick \
            and play.ended is None:
        lead_after_penalty_card(board, play)
    if play.ended is not None:
        settle_revokes(board, play)
    elif play.waiting and play.in_trick:
        play_waiting(board, play)


def play_waiting(board: Board, play: Play) -> None:
    """The premature card that stands for the hand now in turn (Laws 57C3, 57D, 54B2) goes to
    the trick, as if played now (`play_card`: his card in turn)."""
    turn = play.turn
    for seat, card in play.waiting:
        if seat is turn:
            play.waiting = tuple(w for w in play.waiting if w[0] is not seat)
            play_card(board, play, seat, card)
            return


def check_lead_restriction(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """Law 26: the Director's lead restriction on the offender's partner at his first turn to
    lead (`ruling` `lead_restriction`): a lead in a suit prohibited, or not in the suit
    required while he holds it, alerts the Director (the lead stands until he rules). Law
    59: void in the suit required, or holding only the suit prohibited, he leads any card."""
    for ruling in board.rulings:
        suit = ruling.get("suit")
        if ruling["action"] != RulingAction.LEAD_RESTRICTION or ruling.get("seat") != seat.letter \
                or suit is None:
            continue
        required = ruling.get("restriction") == LeadRestriction.REQUIRE
        if required and card.suit != suit and play.can_follow(seat, suit):
            broken = f"{seat} was required to lead {suit} and led {card}"
        elif not required and card.suit == suit and any(
                play.can_follow(seat, other) for other in "SHDC" if other != suit):
            broken = f"{seat} was forbidden to lead {suit} and led {card}"
        else:
            continue
        board.alert(Irregularity.LEAD_RESTRICTION_NOT_FOLLOWED, cite(board, "26"), seat,
                    f"{broken} (Law 26).", ("the Director rules (Laws 26, 12)",))


def out_of_turn(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """A card from a hand whose turn it is not.
    - A lead (no card yet to the trick): a defender's, the opening lead out of turn (Law 54)
      or a later one (Law 56), declarer may accept; declarer's from the wrong hand or before a
      defender's turn (Law 55A), either defender may (declarer's side has no opening lead,
      Law 54E: `irregular_card`). It waits, faced, for the option (Law 53A: accepted when the
      player next in rotation plays to it; Law 55A: the option of the defender next in turn
      prevails, `on_option`).
    - A play to the trick in progress before one's turn: Law 57's (`premature_play`): a
      defender's before his partner, a penalty card with declarer's options on the partner
      (57A); at his RHO's turn, or after declarer has played from both hands, a legal card
      stands and waits for his turn (57D, 57C1); declarer's from either hand stands if legal
      (57C3; 54B2 dummy's, to an opening lead out of turn accepted)."""
    declarer = play.declarer
    defender = seat.is_opponent_of(declarer)
    if play.revokes:
        establish(board, play, seat)  # Law 63A1: any play, legal or illegal
    if not play.in_trick:
        opening = not play.winners
        if defender:
            law = "54" if opening else "56"
            holders: tuple[Seat, ...] = (declarer,)
            kind = Irregularity.OPENING_LEAD_OUT_OF_TURN if opening \
                else Irregularity.LEAD_OUT_OF_TURN
            options = (f"declarer ({declarer}) may accept the lead (Law 53A) or require it "
                       f"withdrawn: it becomes a major penalty card and Law 50D's lead options "
                       f"follow (Law {law})",)
        else:
            law, holders, kind = "55A", (declarer.lho, declarer.rho), \
                Irregularity.LEAD_OUT_OF_TURN
            options = ("either defender may accept the lead (Law 53A) or require it "
                       "withdrawn, with no further rectification (Law 55A); if they choose "
                       f"differently, {seat.lho}'s option, next in turn, prevails",)
        play.lead = IrregularLead(seat, card, law, holders)
        if opening:
            board.opening_lead = (seat, card)  # faced: the auction period ends (17D1)
        board.alert(kind, cite(board, law), seat,
                    f"{seat} led {card} out of turn; {play.turn} is on lead.", options)
        return
    premature_play(board, play, seat, card)


def settle_lead(board: Board, play: Play, lead: IrregularLead, accept: bool,
                by_play: bool = False) -> None:
    """The lead out of turn accepted (Law 53A: it becomes a correct lead, and the player next
    in rotation plays to it) or not: it is withdrawn; a defender's becomes a major penalty
    card (Laws 54D, 56, 50), declarer's is restored without rectification (Law 55A). Law
    60A1–2: a play by the offender's LHO before rectification forfeits it, and the lead is
    treated as in turn (`by_play`). Declarer's withdrawn lead with his own side to lead again
    opens Law 60B's window (`Play.retracted_at`, `shared.laws.misplaced`)."""
    play.lead = None
    seat, card = lead.seat, lead.card
    if accept:
        play.leader = play.turn = seat
        how = f"{seat.lho} played to it" if by_play else "accepted"
        board.rectify(cite(board, "53A"), seat, f"the lead of {card} out of turn stands: "
                      f"{how}.")
        play_card(board, play, seat, card)
        return
    if seat.is_opponent_of(play.declarer):
        play.penalty += ((seat, card),)
        board.rectify(cite(board, lead.law), seat, f"{card} led out of turn is withdrawn: a "
                      f"major penalty card (Law 50); {play.turn} leads, declarer has Law 50D's "
                      "lead options.")
        lead_after_penalty_card(board, play)
    else:
        board.rectify(cite(board, "55A"), seat, f"{card} led out of turn is withdrawn, "
                      f"without rectification; {play.turn} leads.")
        if play.turn is not None and not play.turn.is_opponent_of(play.declarer):
            play.retracted_at = len(play.cards)  # Law 60B until declarer leads


def on_option(board: Board, event: OptionExercised) -> None:
    """An `option` decides the lead out of turn that waits for it (Laws 53A, 54, 55A, 56), by
    one entitled to accept it; otherwise the irregular call pending (Laws 25–32).

    Law 55A, declarer's lead: "If the defenders choose differently the option expressed by the
    player next in turn [to the irregular lead] shall prevail". His answer settles the lead
    at once, whatever his partner said. His partner's answer is held (`IrregularLead.held`;
    a later one of his replaces it) and the lead waits: the player next in turn may still
    choose otherwise, by his answer or by playing to the lead (53A). It applies when another
    card comes first (`irregular_card`): accepted, that card is judged against the lead;
    declined, the lead is withdrawn as before."""
    play = board.play
    lead = play.lead if play is not None else None
    if play is None or lead is None:
        on_call_option(board, event)
    elif event.seat not in lead.holders:
        board.note_ignored(f"only {' or '.join(s.name for s in lead.holders)} may accept the "
                           "lead out of turn")
    elif len(lead.holders) > 1 and event.seat is not lead.next_in_turn:
        play.lead = replace(lead, held=(event.seat, event.accept))
        board.rectify(cite(board, "55A"), event.seat, f"{event.seat} "
                      f"{'accepts' if event.accept else 'does not accept'} the lead of "
                      f"{lead.card} out of turn; {lead.next_in_turn}, next in turn, may still "
                      "choose otherwise, and his option prevails (Law 55A).")
    else:
        held = lead.held
        if held is not None and held[1] is not event.accept:
            board.rectify(cite(board, "55A"), event.seat, f"the defenders choose differently: "
                          f"{event.seat}'s option, next in turn, prevails over {held[0]}'s "
                          "(Law 55A).")
        settle_lead(board, play, lead, event.accept)
        play.recheck()

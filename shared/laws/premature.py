"""Law 57: a card played to the trick in progress before its hand's turn (`premature_play`,
from `shared.laws.play.out_of_turn`).

- 57A: a defender's premature play (a lead to the next trick before his partner has played to
  the current one, or a play out of turn before his partner has played) is a major penalty
  card, and declarer selects an option on the partner's play to the trick, a `play_option`
  event, checked when the partner plays.
- 57C1: a defender is not subject to rectification for playing before his partner once
  declarer has played from both hands; 57D: a defender's card at his RHO's turn (his partner
  has played) "must be played at his proper turn" if it can legally be played, else it is a
  major penalty card.
- 57C3: "a premature play (not a lead) by declarer from either hand is a played card and if
  legal may not be withdrawn"; 54B2: after declarer accepts an opening lead out of turn,
  dummy's card played second "may not be withdrawn except to correct a revoke". An illegal
  one is a revoke, found when the card joins the trick (Laws 61–62, `shared.laws.revoke`).

A card that stands waits in `Play.waiting` and goes to the trick at its hand's turn (the fold
plays it then, `shared.laws.play.play_card`): the trick's cards stay in clockwise order.

The 2017 text: declarer may (1) require the offender's partner to play the highest card he
holds of the suit led, (2) the lowest, (3) a card of another suit declarer specifies, or (4)
forbid him a card of another suit declarer specifies. 57B: unable to comply, he plays any
card (Law 59). The option waits in `Play.partner_option` until the partner plays; a card he
plays before declarer has selected lets it lapse (the Director's, as the alert says).
"""

from __future__ import annotations

from shared.cards import RANKS, SUITS, Card
from shared.events import PlayOptionChosen
from shared.laws.citations import cite
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import Play
from shared.vocabulary import Irregularity, PlayOption


def premature_play(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """`card` from `seat`'s hand to the trick in progress (cards in it), before his turn: a
    defender's first card to the trick or a second one (a lead to the next trick), or a card
    from declarer's or dummy's hand (the cases of the module's docstring)."""
    if not seat.is_opponent_of(play.declarer):
        _declarers(board, play, seat, card)
        return
    led = play.cards[-play.in_trick].suit
    legal = card.suit == led or not play.can_follow(seat, led)
    second = play.card_in_trick(seat) is not None  # a lead to the next trick
    partner_played = play.card_in_trick(seat.partner) is not None
    if not partner_played and (second or not _both_hands_played(play)):
        _before_partner(board, play, seat, card, second)
        return
    law = "57D" if partner_played else "57C1"
    why = (f"at his RHO's turn ({play.turn}), after his partner had played" if partner_played
           else "before his partner, after declarer had played from both hands")
    if legal:
        _wait(play, seat, card)
        board.alert(Irregularity.PLAY_OUT_OF_TURN, cite(board, law), seat,
                    f"{seat} played {card} {why}: a legal card, it stands and goes to the "
                    f"trick at his turn, without rectification (Law {cite(board, law)}).",
                    ("Law 16 may apply (the Director's): information from the early card",))
        return
    play.penalty += ((seat, card),)
    board.alert(Irregularity.PLAY_OUT_OF_TURN, cite(board, law), seat,
                f"{seat} played {card} {why}, and it cannot legally be played to the trick "
                f"({led} led): a major penalty card (Laws {cite(board, law)}, 50).",
                (f"declarer ({play.declarer}) has Law 50D's options when {seat.partner} is next "
                 "on lead",))


def _both_hands_played(play: Play) -> bool:
    """Law 57C1: declarer has played to the trick from both his hand and dummy's."""
    return play.card_in_trick(play.declarer) is not None \
        and play.card_in_trick(play.dummy) is not None


def _wait(play: Play, seat: Seat, card: Card) -> None:
    """A premature card that stands: played (no hand plays it again), it goes to the trick at
    `seat`'s turn."""
    play.gone[card.index] = 1
    play.waiting += ((seat, card),)


def _before_partner(board: Board, play: Play, seat: Seat, card: Card, second: bool) -> None:
    """Law 57A: the card is a major penalty card, and declarer's option on the partner's
    play to the trick waits (`Play.partner_option`). `second`: his second card to the trick,
    logged after another player's card (the log's order rules out Law 58B's simultaneity), a
    lead to the next trick."""
    play.penalty += ((seat, card),)
    play.partner_option = (seat.partner, None, None)
    what = (f"led {card} to the next trick before {seat.partner}, his partner, had played to "
            "this one" if second else
            f"played {card} before his turn ({play.turn} is to play) and before his partner")
    board.alert(Irregularity.PLAY_OUT_OF_TURN, cite(board, "57A"), seat,
                f"{seat} {what}: it is a major penalty card (Law 50).",
                (f"declarer ({play.declarer}) may require {seat.partner} to play the highest or "
                 "the lowest card of the suit led, or a card of another suit he names, or "
                 "forbid him a suit he names (Law 57A; a `play_option`)",))


def _declarers(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """Law 57C3 (54B2 for dummy's card to an opening lead out of turn accepted, declarer to
    play second): declarer's premature card from either hand is a played card, put into the
    trick at its hand's turn. One that does not follow suit when the hand could is then a
    revoke like any other (Law 61: found when it joins the trick, shown to no seat until the
    play ends; corrected under Law 62, 54B2's "except to correct a revoke")."""
    law = "54B2" if seat is play.dummy and play.turn is play.declarer and not play.winners \
        and play.in_trick == 1 and play.leader is play.declarer.rho else "57C3"
    hand = "dummy's hand" if seat is play.dummy else "his own hand"
    _wait(play, seat, card)
    board.rectify(cite(board, law), seat, f"declarer played {card} from {hand} before "
                  f"{play.turn} had played: a played card, it stands and goes to the trick at "
                  f"{seat}'s turn (Law {cite(board, law)}).")


def on_play_option(board: Board, event: PlayOptionChosen) -> None:
    """Law 57A: declarer alone selects one option, while the offender's partner has not yet
    played to the trick."""
    play = board.play
    pending = play.partner_option if play is not None else None
    if play is None or pending is None or pending[1] is not None:
        board.note_ignored("no option on a premature play awaits declarer (Law 57A)")
        return
    if event.seat is not play.declarer:
        board.note_ignored(f"only declarer ({play.declarer}) selects the option (Law 57A)")
        return
    partner, choice, suit = pending[0], event.choice, event.suit
    led = play.cards[-play.in_trick].suit if play.in_trick else None
    if suit is not None and suit == led:
        board.note_ignored(f"{suit} is the suit led: Law 57A3–4 name another suit")
        return
    play.partner_option = (partner, choice, suit)
    what = {PlayOption.HIGHEST: "play the highest card he holds of the suit led",
            PlayOption.LOWEST: "play the lowest card he holds of the suit led",
            PlayOption.REQUIRE: f"play a {suit}", PlayOption.PROHIBIT: f"play no {suit}"}
    board.rectify(cite(board, "57A"), partner, f"declarer's option: {partner} must "
                  f"{what[choice]} to this trick (unable to, any card: Law 59).")


def check_partner_play(board: Board, play: Play, seat: Seat, card: Card) -> None:
    """The offender's partner plays to the trick (in turn): against declarer's option, an
    alert for the Director (the card stands until he rules); Law 59: unable to comply, any
    card. The option ends with his card, or lapses when it comes before declarer's choice."""
    pending = play.partner_option
    if pending is None or seat is not pending[0]:
        return
    play.partner_option = None
    _, choice, suit = pending
    led = play.cards[-play.in_trick].suit if play.in_trick else None
    if choice is None or led is None:
        return
    held = _held(play, seat)
    if held is None:
        return  # the deal leaves his hand out: the fold cannot tell
    of_led = [c for c in held if c.suit == led]
    if choice in (PlayOption.HIGHEST, PlayOption.LOWEST):
        if not of_led:
            return
        due = max(of_led, key=_rank) if choice is PlayOption.HIGHEST else min(of_led, key=_rank)
        if card == due:
            return
        broken = f"the {choice} {led} ({due})"
    elif of_led:  # 57A3–4 name another suit: following suit, he complies or cannot
        return
    elif choice is PlayOption.REQUIRE:
        if card.suit == suit or not any(c.suit == suit for c in held):
            return
        broken = f"a {suit}"
    else:
        if card.suit != suit or all(c.suit == suit for c in held):
            return
        broken = f"no {suit}"
    board.alert(Irregularity.PLAY_RESTRICTION_NOT_FOLLOWED, cite(board, "57A"), seat,
                f"{seat} was to play {broken} after his partner's premature play, and played "
                f"{card} (declarer's option, Law 57A).",
                ("the Director rules (Laws 57A, 12); the card stands meanwhile",))


def _rank(card: Card) -> int:
    return RANKS.index(card.rank)


def _held(play: Play, seat: Seat) -> list[Card] | None:
    """The cards `seat` still holds, from the deal (None when the deal leaves his hand out)."""
    hand = play.hands[seat.index]
    if hand is None:
        return None
    cards = (Card(suit, rank) for suit, ranks in zip(SUITS, hand, strict=True) for rank in ranks)
    return [c for c in cards if not play.gone[c.index]]

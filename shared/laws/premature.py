"""Law 57A: a defender's premature play (a lead to the next trick before his partner has
played to the current one, or a play out of turn before his partner has played) is a major
penalty card (`shared.laws.play.out_of_turn`), and declarer selects an option on the
partner's play to the trick, a `play_option` event, checked when the partner plays.

The 2017 text: declarer may (1) require the offender's partner to play the highest card he
holds of the suit led, (2) the lowest, (3) a card of another suit declarer specifies, or (4)
forbid him a card of another suit declarer specifies. 57B: unable to comply, he plays any
card (Law 59). The option waits in `Play.partner_option` until the partner plays; a card he
plays before declarer has selected lets it lapse (the Director's, as the alert says).
"""

from __future__ import annotations

from shared.board import Board
from shared.cards import RANKS, SUITS, Card
from shared.events import PlayOptionChosen
from shared.laws.citations import cite
from shared.play import Play
from shared.seats import Seat
from shared.vocabulary import Irregularity, PlayOption


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

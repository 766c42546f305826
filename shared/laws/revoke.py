"""The revoke (Laws 61–64): a failure to follow suit when able, its correction before it is
established, its establishment, and the tricks transferred at the end of play.

The fold knows a revoke when it knows the offender's hand (the deal): a card of another suit
played while a card of the suit led is still held (Law 61A).
"""

from __future__ import annotations

from dataclasses import replace

from shared.cards import Card
from shared.laws.citations import cite
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import Play, Revoke, winner_of
from shared.vocabulary import Irregularity


def find_revoke(board: Board, play: Play, seat: Seat, card: Card, led: str) -> None:
    """Law 61A: failure to follow suit when able is a revoke. Law 62A: the offender must
    correct it if attention is drawn to it before it is established (Law 63A: when the
    offender or his partner leads or plays to the following trick)."""
    trick = play.done
    play.revokes += (Revoke(seat, trick, card, led),)
    player = "declarer" if seat is play.dummy else str(seat)
    board.alert(Irregularity.REVOKE, cite(board, "61A"), seat,
                f"{seat} played {card} on trick {trick + 1}, holding a card of the suit led "
                f"({led}): a revoke.",
                (f"until it is established {player} corrects it by playing a {led} from "
                 f"{seat}'s hand (Law 62A); a defender's withdrawn card becomes a penalty "
                 "card (Law 62B1)",
                 "established once the offending side plays to the next trick (Law 63A1); "
                 "tricks are transferred at the end of play (Law 64A)"))


def establish(board: Board, play: Play, seat: Seat, claim: bool = False,
              agreement: bool = False) -> None:
    """Law 63A: a revoke of `seat`'s side becomes established when the offender or his
    partner leads or plays to the following trick, legally or not (63A1); when a member of
    the offending side makes a claim or concession (63A3, `claim`); "when agreement is
    established (as per Law 69A) to an opponent's claim or concession" (2017 63A4; rubber
    63A3: he "makes or agrees to a claim or concession"), `agreement`."""
    trick = play.done
    revokes = play.revokes
    law = "63A4" if agreement else "63A3" if claim else "63A1"
    for i, revoke in enumerate(revokes):
        if revoke.established or revoke.corrected or revoke.seat.is_opponent_of(seat):
            continue
        if claim or agreement or trick > revoke.trick:
            play.revokes = revokes = (*revokes[:i], replace(revoke, established=True),
                                      *revokes[i + 1:])
            board.rectify(cite(board, law), revoke.seat,
                          f"the revoke on trick {revoke.trick + 1} is established.")


def correct_revoke(board: Board, play: Play, seat: Seat, card: Card) -> bool:
    """Law 62A–B: before it is established the offender corrects his revoke by substituting
    a card that follows suit, from the same hand, while its trick is in progress or is the
    last completed (no card of the next yet). A defender's withdrawn card becomes a penalty
    card (62B1, Law 50); declarer's or dummy's goes back to the hand (62B2). Returns whether
    `card` was such a correction."""
    for i, revoke in enumerate(play.revokes):
        if revoke.seat is not seat or revoke.established or revoke.corrected \
                or card.suit != revoke.suit:
            continue
        in_progress = play.done == revoke.trick
        if not in_progress and (play.done != revoke.trick + 1 or play.in_trick):
            continue
        cards = play.cards
        leader = play.leader if in_progress else play.leaders[-1]
        later = (play.in_trick if in_progress else 4) - 1 - (seat.index - leader.index) % 4
        if in_progress:
            cards[len(cards) - play.in_trick + (seat.index - play.leader.index) % 4] = card
        else:
            leader, last = play.leaders.pop(), play.winners.pop()
            if last.index % 2 == 0:
                play.won_ns -= 1
            else:
                play.won_ew -= 1
            cards[len(cards) - 4 + (seat.index - leader.index) % 4] = card
            play.leader = leader
            play.complete(winner_of(leader, cards[-4:], play.trump))
        play.gone[revoke.card.index] = 0
        play.gone[card.index] = 1
        play.revokes = (*play.revokes[:i], replace(revoke, corrected=True),
                        *play.revokes[i + 1:])
        if seat.is_opponent_of(play.declarer):
            play.penalty += ((seat, revoke.card),)
            outcome = f"{revoke.card} is a penalty card (Law 50)"
        else:
            outcome = f"{revoke.card} goes back to the hand"
        if later:  # Law 62C: cards played to the trick after the revoke
            outcome += ("; each non-offender who played after the revoke may withdraw his card "
                        "(Law 62C1), then the offending side's player next in rotation his, a "
                        "defender's becoming a penalty card (62C2): the Director")
        board.rectify(cite(board, "62B1" if seat.is_opponent_of(play.declarer) else "62B2"),
                      seat, f"the revoke on trick {revoke.trick + 1} is corrected with {card}; "
                      f"{outcome}.")
        return True
    return False


def settle_revokes(board: Board, play: Play, claimed: tuple[Seat, int] | None = None) -> None:
    """Law 64, at the end of play, for each established revoke: the offending player won the
    revoke trick → that trick and one more of those his side won after it are transferred
    (64A1); he did not → one trick, if his side won that trick or a later one (64A2). None
    (64B): the offending side won no trick from the revoke on (64B1), a second revoke in the
    same suit by the same player (64B2), a revoke from dummy's hand, faced on the table
    (64B3), a revoke on the twelfth trick (64B6), both sides revoked (64B7: the Director
    restores equity, Law 64C). A trick is transferred once at most: a second revoke by the
    same side takes only tricks its first did not (Law 64A: the tricks the offending side
    won). `claimed`: a claim agreed, the claimer and the tricks his side wins of those not
    played; the rest are the other side's (Law 68B1: conceded)."""
    established = [r for r in play.revokes if r.established and not r.corrected]
    if not established:
        return
    sides = {r.seat.index % 2 for r in established}
    seen: set[tuple[Seat, str]] = set()
    taken: set[int] = set()  # the tricks transferred so far (trick indices)
    declarer_side = play.declarer.index % 2
    for revoke in established:
        offenders = revoke.seat.index % 2
        law, reason = "", ""
        if len(sides) > 1:
            law, reason = "64B7", "both sides revoked"
        elif (revoke.seat, revoke.suit) in seen:
            law, reason = "64B2", "a second revoke in the same suit by the same player"
        elif revoke.seat is play.dummy:
            law, reason = "64B3", "a revoke from dummy's hand, faced on the table"
        elif revoke.trick == 11:
            law, reason = "64B6", "a revoke on the twelfth trick"
            twelfth_trick_revoke(board, play, revoke)
        seen.add((revoke.seat, revoke.suit))
        if law:
            board.rectify(cite(board, law), revoke.seat, f"no trick is transferred for the "
                          f"revoke on trick {revoke.trick + 1}: {reason}.")
            continue
        # The offending side's tricks from the revoke on, each transferred once at most: two
        # revokes never give the same trick. A claim agreed: the tricks it gives the offending
        # side, claimed or conceded to it, count as won after the last played (Law 69A: "as
        # though the tricks claimed or conceded had been won or lost in play").
        won = [k for k, w in enumerate(play.winners) if w.index % 2 == offenders]
        if claimed is not None:
            seat, tricks = claimed
            theirs = tricks if seat.index % 2 == offenders else play.remaining - tricks
            won += range(play.done, play.done + theirs)
        pool = [k for k in won if k >= revoke.trick and k not in taken]
        if revoke.trick < play.done and play.winners[revoke.trick] is revoke.seat:
            law, wanted = "64A1", 2
        else:
            law, wanted = "64A2", 1
        transfer = min(wanted, len(pool))
        taken.update(pool[:transfer])
        if transfer == 0 and any(k >= revoke.trick for k in won):
            board.rectify(cite(board, law), revoke.seat, "no trick is transferred: the tricks "
                          "the offending side won from the revoke on were transferred for an "
                          "earlier revoke.")
            continue
        if transfer == 0:
            board.rectify(cite(board, "64B1"), revoke.seat, "no trick is transferred: the "
                          "offending side won neither the revoke trick nor a later one.")
            continue
        assert play.declarer_tricks is not None
        play.declarer_tricks += -transfer if offenders == declarer_side else transfer
        board.rectify(cite(board, law), revoke.seat, f"{transfer} trick"
                      f"{'s' if transfer > 1 else ''} transferred to the non-offending side for "
                      f"the revoke on trick {revoke.trick + 1}.")


def twelfth_trick_revoke(board: Board, play: Play, revoke: Revoke) -> None:
    """Law 62D1: on the twelfth trick a revoke, even if established, must be corrected if
    discovered before all four hands have been returned to the board (no trick is transferred,
    64B6). The fold knows it at the end of play; the last two tricks are the Director's to
    sort out: the offender's card of the suit led goes to trick twelve, each non-offender
    may withdraw a card played after the revoke (62C1), and a defender's partner who played
    after it may not choose a play the revoke card could have suggested (62D2, Law 16C); he
    rules the tricks (`tricks`). Until then the tricks as played stand."""
    if play.ended not in ("tricks", None):
        return  # a claim or a ruling ended the play: the Director has the tricks already
    board.alert(Irregularity.REVOKE, cite(board, "62D1"), revoke.seat,
                f"{revoke.seat} revoked on the twelfth trick ({revoke.card} on {revoke.suit} "
                "led): it must be corrected though established; declarer's "
                f"{play.declarer_tricks} tricks stand until the Director rules.",
                ("the Director corrects the last two tricks: the offender plays his card of the "
                 "suit led to trick twelve, non-offenders may withdraw cards played after the "
                 "revoke (Law 62C1), a defender's partner who played after it may not choose a "
                 "play the revoke card suggested (62D2, Law 16C); a `tricks` ruling",))

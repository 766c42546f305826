"""Claims and concessions (Laws 68–71), a result recorded at the table (Law 79A) and the
Director's ruling on the tricks (Laws 64C, 69B, 70, 71): the ways the play period ends
before the thirteenth trick is quitted."""

from __future__ import annotations

from dataclasses import replace

from shared.events import ClaimMade, ClaimResponded, ResultRecorded
from shared.laws.citations import cite
from shared.laws.play import begin_play
from shared.laws.revoke import establish, settle_revokes
from shared.seats import Seat
from shared.table.board import Board
from shared.table.claim_answers import may_object, needed
from shared.table.play import Claim, Play
from shared.vocabulary import Irregularity


def _play_of(board: Board) -> Play | None:
    play = board.play or begin_play(board)
    if play is None:
        board.note_ignored("no contract: there is no play")
    elif play.ended is not None:
        board.note_ignored("the play is over")
        return None
    return play


def on_claim(board: Board, event: ClaimMade) -> None:
    """Law 68A: a claim is a statement that the claimer's side will win a number of the
    tricks not yet completed; 68B: one that it will lose some is a concession; 68C: with a
    statement of the line of play; 68D: play ceases. Dummy may not claim (Law 43A). A claim
    by the offending side establishes its revoke (Law 63A3). A claim deemed from the hand its
    claimer faced (Law 68A, `shared.laws.faced_hand`) is replaced by his own before any
    answer: it states the number."""
    play = _play_of(board)
    if play is None:
        return
    seat = event.seat
    if seat is play.dummy:
        board.note_ignored("dummy may not claim (Law 43A)")
        return
    open_claim = play.claim
    if open_claim is not None and not (open_claim.deemed and open_claim.seat is seat
                                       and not open_claim.answers):
        board.note_ignored("a claim is already open")
        return
    if event.tricks > play.remaining:
        board.note_ignored(f"{event.tricks} tricks claimed, {play.remaining} remain")
        return
    # the play as the claim finds it (a deemed claim's: before the hand was faced), for 68B2
    revokes, lead = (open_claim.revokes, open_claim.lead) if open_claim is not None \
        else (play.revokes, play.lead)
    if play.revokes:
        establish(board, play, seat, claim=True)
    play.lead = None
    play.claim = Claim(seat, event.tricks, play.remaining, event.statement, revokes=revokes,
                       lead=lead)
    play.plain = False


def on_claim_response(board: Board, event: ClaimResponded) -> None:
    """Law 69A: a claim is agreed when the claimer's opponents acquiesce in it: both defenders
    in declarer's, declarer in a defender's (dummy takes no part, Law 43A). Law 68B2: a
    defender's concession (he claims fewer than all the remaining tricks) his partner objects
    to is neither a concession nor a claim: play continues (`concession_objected`). Any
    other objection disputes the claim: play stays suspended and the Director rules the
    tricks (Laws 68D, 70) with a `tricks` ruling. Law 68D2: a claim doubted by any player, so
    the claimer's own "no" (his claim withdrawn) and an acquiescence taken back before the
    claim is agreed dispute it too. After agreement, a "no" is an agreement withdrawn
    (`withdrawn`: Laws 69B, 71)."""
    play = board.play
    claim = play.claim if play is not None else None
    if play is not None and claim is None and play.agreed is not None and not event.accept:
        withdrawn(board, play, play.agreed, event.seat)
        return
    if play is None or claim is None:
        board.note_ignored("no claim awaits an answer")
        return
    seat, claimer = event.seat, claim.seat
    defending = claimer.is_opponent_of(play.declarer)
    if claim.disputed:
        board.note_ignored("the claim is disputed: the Director rules (Law 70)")
        return
    if seat is play.dummy or (seat is claimer and event.accept) or (
            seat is claimer.partner and not defending):
        board.note_ignored(f"{seat} does not answer this claim (Laws 43A, 69A)")
        return
    if not event.accept:
        if seat is may_object(play):
            concession_objected(board, play, claim)
            return
        play.claim = replace(claim, answers=(*claim.answers, (seat, False)), disputed=True)
        law = "68D"
        if seat is claimer:
            did = "withdraws his own claim"
        elif (seat, True) in claim.answers:
            did = "withdraws his acquiescence in"
        else:
            did = "disputes"
        board.alert(Irregularity.CLAIM_DISPUTED, cite(board, law), seat,
                    f"{seat} {did} {claimer}'s claim of {claim.tricks} of the "
                    f"{claim.remaining} remaining tricks: play ceases.",
                    ("the Director rules the tricks (Laws 70, 71): a `tricks` ruling; play "
                     "continues instead only if all four players agree (Law 68D2(b))",))
        return
    answers = (*claim.answers, (seat, True))
    play.claim = claim = replace(claim, answers=answers)
    accepted = {s for s, yes in answers if yes}
    if needed(play, claim) <= accepted:
        agreed(board, play, claim)


def concession_objected(board: Board, play: Play, claim: Claim) -> None:
    """Law 68B2: "if a defender attempts to concede one or more tricks and his partner
    immediately objects; neither a concession nor a claim has occurred. Unauthorized
    information may exist, so the Director should be summoned immediately. Play continues."
    The play is as the claim found it: no revoke established by it (Law 63A3 needs a claim or
    concession made), a lead out of turn awaiting its option again, the turn unchanged. "Any
    card that has been exposed by a defender in these circumstances is not a penalty card":
    a hand he faced goes back to his hand (no longer `faced`, seen by all), and "Law 16C
    applies to information arising from its exposure": his partner may not use it. The
    partner's objection counts as immediate while the concession awaits its answer (before
    it, the partner has not acquiesced; after declarer's acquiescence it is agreed, Law 69A)."""
    conceder, partner = claim.seat, claim.seat.partner
    for before, now in zip(claim.revokes, play.revokes, strict=False):
        if now.established and not before.established:
            board.rectify(cite(board, "63A3"), now.seat, f"the revoke on trick {now.trick + 1} "
                          "is not established: neither a concession nor a claim has occurred "
                          "(Law 68B2).")
    play.revokes = claim.revokes + play.revokes[len(claim.revokes):]
    play.claim, play.lead = None, claim.lead
    faced = conceder in play.faced
    play.faced = tuple(s for s in play.faced if s is not conceder)
    play.recheck()
    board.alert(Irregularity.CONCESSION_OBJECTED, cite(board, "68B2"), partner,
                f"{partner} objects to {conceder}'s concession of {claim.remaining - claim.tricks}"
                f" of the {claim.remaining} remaining tricks: neither a concession nor a claim "
                "has occurred; play continues.",
                ("unauthorized information may exist: the Director is summoned (Law 68B2); "
                 + (f"{conceder}'s cards exposed are no penalty cards and go back to his hand; "
                    if faced else "")
                 + f"Law 16C applies to the information: {partner} may not use it",))


def agreed(board: Board, play: Play, claim: Claim) -> None:
    """Law 69A: the claim agreed, the play ends with the tricks it gives each side, "as though
    the tricks claimed or conceded had been won or lost in play". Law 63A4 (rubber 63A3: a
    member of the offending side "makes or agrees to a claim or concession"): the agreement
    of the claimer's opponents establishes their revoke not yet established (the claimer's
    side's was, by the claim, 63A3). Law 64 then counts the tricks each side gets by the claim
    as won after the revoke (`settle_revokes`)."""
    side_tricks = claim.tricks if not claim.seat.is_opponent_of(play.declarer) \
        else claim.remaining - claim.tricks
    if play.revokes:
        establish(board, play, claim.seat.lho, agreement=True)
    play.end("claim", play.won_by(play.declarer) + side_tricks)
    play.agreed = claim
    board.rectify(cite(board, "69A"), claim.seat, f"the claim is agreed: declarer wins "
                  f"{side_tricks} of the {claim.remaining} remaining tricks.")
    settle_revokes(board, play, (claim.seat, claim.tricks))


def withdrawn(board: Board, play: Play, claim: Claim, seat: Seat) -> None:
    """An agreement withdrawn after the claim was agreed and the play ended, while the board
    is still the table's (in a round, the next board starts at once: a later answer reaches
    it and is ignored there).
    - Law 69B: a player who acquiesced withdraws his agreement: the Director awards a trick
      his side had won, or would likely have won had play continued.
    - Law 71: the claimer withdraws his concession (a claim concedes the rest, 68B1): the
      Director cancels it for a trick his side had won, or could not lose by any normal play.
    The agreed result stands until the Director's `tricks` ruling (Laws 69B, 71)."""
    if seat is claim.seat:
        law, who = "71", "withdraws his concession of the tricks not claimed"
    elif (seat, True) in claim.answers:
        law, who = "69B", "withdraws his acquiescence"
    else:
        board.note_ignored(f"{seat} did not agree to the claim: nothing to withdraw")
        return
    board.alert(Irregularity.AGREEMENT_WITHDRAWN, cite(board, law), seat,
                f"{seat} {who} in {claim.seat}'s claim of {claim.tricks} of the "
                f"{claim.remaining} remaining tricks, agreed; declarer's "
                f"{play.declarer_tricks} tricks stand until the Director rules.",
                (f"the Director awards a trick {seat}'s side had won, or "
                 + ("would likely have won had play continued (Law 69B)" if law == "69B"
                    else "could not lose by any normal play (Law 71)")
                 + ": a `tricks` ruling",))


def on_result_recorded(board: Board, event: ResultRecorded) -> None:
    """Law 79A: the number of tricks won is agreed by the four players before the hands go
    back to the board. Recorded by the table's operator or the Director (no `seat`: a table
    whose cards are not recorded one by one, or a record imported), the number stands as
    given. Sent from a seat it is only that seat's proposal: the claim (Law 68) of the tricks
    it leaves to be won, with the tricks already won counted, which the other side agrees to
    as to any claim (Law 69A: both defenders for declarer's side, declarer for a defender's;
    a dispute goes to the Director, Law 70). It never gives a side fewer tricks than it has
    won, nor more than it can still win; dummy, who may not claim (Law 43A), proposes none."""
    play = _play_of(board)
    if play is None:
        return
    seat = event.seat
    if seat is None:
        play.end("recorded", event.tricks)
        return
    declarers = play.won_by(play.declarer)
    rest = event.tricks - declarers
    if not 0 <= rest <= play.remaining:
        board.note_ignored(f"{event.tricks} tricks for declarer: his side has won {declarers} "
                           f"and {play.remaining} remain (Law 79A)")
        return
    tricks = play.remaining - rest if seat.is_opponent_of(play.declarer) else rest
    on_claim(board, ClaimMade(seat, tricks, f"the result: declarer {event.tricks} tricks in "
                              "all (Law 79A)"))


def rule_tricks(board: Board, tricks: int) -> None:
    """The Director's ruling on the tricks (Laws 64C, 69B, 70, 71): declarer wins `tricks` in
    all and the play period ends, whatever the play had reached."""
    play = board.play or begin_play(board)
    if play is None:
        board.note_ignored("no contract: there is no play")
        return
    play.end("ruling", tricks)

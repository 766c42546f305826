"""The play as the writers give it (`shared.notation.export`): PBN 2.1's `[Play]` section and
LIN's `pc|` cards, the tricks as the fold holds them (leaders, cards, winners)."""

from __future__ import annotations

from shared.cards import Card
from shared.notation.claim_note import claim_words
from shared.notation.play_record import clockwise
from shared.seats import Seat
from shared.table.board import Board


def tricks_of(board: Board) -> list[tuple[Seat, tuple[tuple[Seat, Card], ...]]]:
    """The tricks played, the one in progress included: (leader, the cards in order)."""
    play = board.play
    if play is None:
        return []
    tricks = [(t.leader, t.cards) for t in play.tricks]
    if play.current:
        tricks.append((play.leader, tuple(play.current)))
    return tricks


def pbn_play(board: Board) -> list[str]:
    """PBN 2.1 section 3.6: `[Play]` names the opening leader (export format: declarer's
    LHO, Law 41A); each trick on a line, its cards in columns from the opening leader's, `-`
    for a hand that did not play to it (the trick in progress, or the tricks a claim or a
    recorded result left unplayed are not written); `*` ends the section. Section 3.9's
    marks: `^L` before the lead of a trick led out of turn and accepted (Laws 53A, 54, 55A,
    56: not the hand the Laws call on, the winner of the trick before, Law 44G), whose
    cards are then played clockwise from it; `^R` before a revoke established (Law 63A)."""
    play = board.play
    tricks = tricks_of(board)
    if play is None or not tricks:
        return []
    columns = clockwise(play.declarer.lho)
    revoked = {(r.trick, r.seat) for r in play.revokes if r.established and not r.corrected}
    lines = [f'[Play "{columns[0].name}"]']
    expected = columns[0]
    for number, (leader, cards) in enumerate(tricks):
        by_seat = dict(cards)
        marks = {leader: "^L "} if leader is not expected else {}
        for seat in by_seat:
            if (number, seat) in revoked:
                marks[seat] = marks.get(seat, "") + "^R "
        lines.append(" ".join(f"{marks.get(s, '')}{by_seat[s]}" if s in by_seat else "- "
                              for s in columns).rstrip())
        if number < len(play.winners):
            expected = play.winners[number]
    lines.append("*")
    return lines


def lin_play(board: Board) -> list[str]:
    """Every card in the order played (`pc`), `pg||` after each trick, as BBO writes them;
    `mc|N|` (declarer's tricks, agreed) when the play ended before the thirteenth trick was
    played out: a claim, a ruling, a result recorded; before it, a claim agreed noted in
    words (`nt|`, `shared.notation.claim_note`): who claimed, and his statement."""
    parts = []
    for _, cards in tricks_of(board):
        parts.append("".join(f"pc|{card}|" for _, card in cards)
                     + ("pg||" if len(cards) == 4 else ""))
    play = board.play
    if play is not None and play.ended not in (None, "tricks") \
            and play.declarer_tricks is not None:
        if play.agreed is not None:
            parts.append(f"nt|{claim_words(play.agreed).replace('|', '/')}|")
        parts.append(f"mc|{play.declarer_tricks}|")
    return parts

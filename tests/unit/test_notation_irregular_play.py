"""The play's irregularities through the records (docs/cli.md): a lead out of turn
accepted (Laws 53A, 54, 56) and a revoke corrected (Laws 62A–B) are written so that reading
the export back folds to the same tricks (leaders, cards, winners), tricks won and result, in
PBN 2.1 (section 3.9's `^L`) and in LIN (cards in the order played, each from the hand dealt
it)."""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold, from_map
from shared.notation import lin_events, pbn_events
from shared.notation.export import to_lin, to_pbn
from shared.table.board import Board
from shared.table.board_result import play_view, result_view

# North 9876 9876 9876 4, East T T T AKQJT98765, South AKQJ AKQJ AKQJ 2, West 5432 5432 5432 3
HANDS = "3SAKQJHAKQJDAKQJC2,S5432H5432D5432C3,S9876H9876D9876C4,"
ONE_NT = "mb|1N|mb|p|mb|p|mb|p|"  # North declares 1NT; East leads (Law 41A)


def auction(bids: str = ONE_NT) -> list[dict[str, Any]]:
    return lin_events(f"md|{HANDS}|sv|o|{bids}")


def cards(*plays: str) -> list[dict[str, Any]]:
    """`"ES5"`: East plays the S5."""
    return [{"type": "card_played", "seat": p[0], "card": p[1:]} for p in plays]


def last_board(events: list[dict[str, Any]]) -> Board:
    return fold(from_map(e) for e in events).boards[-1]


def carried(board: Board) -> dict[str, Any]:
    """What a record carries of the play: the tricks, the tricks won, the result."""
    assert board.play is not None
    view = play_view(board.play)
    return {"tricks": view["tricks"], "won": view["won"], "result": result_view(board),
            "declarer_tricks": board.play.declarer_tricks}


def leaders(board: Board) -> list[str]:
    assert board.play is not None
    return [trick["leader"] for trick in play_view(board.play)["tricks"]]


def read_back(events: list[dict[str, Any]]) -> None:
    """Folded, written in PBN and in LIN, read and folded again: the same play."""
    before = carried(last_board(events))
    for writer, reader in ((to_pbn, pbn_events), (to_lin, lin_events)):
        assert carried(last_board(reader(writer(events)))) == before, writer.__name__


def test_a_lead_out_of_turn_accepted_mid_play_is_marked_and_read_back_from_its_leader() -> None:
    """Law 56: East leads the HT when South (dummy, who won the trick) is on lead; Law 53A:
    declarer accepts it by playing dummy's HA to it. PBN 2.1 section 3.9: `^L` before the
    card led out of turn, the trick's cards then played clockwise from it; the [Play] tag
    stays declarer's LHO (export format). Read back, East leads the second trick."""
    events = auction() + cards("EST", "SSA", "WS2", "NS6", "EHT", "SHA", "WH2", "NH6",
                               "SDA", "WD2", "ND6", "EDT")
    board = last_board(events)
    assert leaders(board) == ["E", "E", "S"]
    assert [a.law for a in board.alerts] == ["56"]
    pbn = to_pbn(events)
    assert '[Play "E"]\nST SA S2 S6\n^L HT HA H2 H6\nDT DA D2 D6\n*' in pbn
    assert leaders(last_board(pbn_events(pbn))) == ["E", "E", "S"]
    read_back(events)


def test_an_opening_lead_out_of_turn_accepted_is_marked_under_declarers_lho() -> None:
    """Law 54: West leads the S2 when East (declarer's LHO, Law 41A) should; declarer
    accepts it by playing to it (Law 53A). [Play "E"] (export format: the opening leader is
    declarer's LHO) and `^L` on West's card; read back, West leads the first trick."""
    events = auction() + cards("WS2", "NS6", "EST", "SSA", "SHA", "WH2", "NH6", "EHT")
    assert leaders(last_board(events)) == ["W", "S"]
    pbn = to_pbn(events)
    assert '[Play "E"]\nST SA ^L S2 S6\nHT HA H2 H6\n*' in pbn
    assert leaders(last_board(pbn_events(pbn))) == ["W", "S"]
    read_back(events)


def test_a_lead_out_of_turn_read_in_import_format_is_marked_either_way() -> None:
    """PBN 2.1 section 3.2: `^L` is a token of its own, with or without a space before the
    card (`^L HT`, `^LHT`)."""
    base = ('[Board "1"]\n[Deal "N:9876.9876.9876.4 T.T.T.AKQJT98765 AKQJ.AKQJ.AKQJ.2 '
            '5432.5432.5432.3"]\n[Auction "N"]\n1NT Pass Pass Pass\n[Play "E"]\n'
            'ST SA S2 S6\n{} HA H2 H6\n*\n')
    for mark in ("^L HT", "^LHT"):
        board = last_board(pbn_events(base.replace("{}", mark)))
        assert leaders(board) == ["E", "E"], mark


@pytest.mark.parametrize(("plays", "penalty_card"), [
    (("EST", "SSA", "WH2", "WS2", "NS6", "SHA", "WH3", "NH6", "EHT"), "H2"),
    (("EST", "SSA", "WH2", "WS2", "NS6", "SHA", "WH2", "NH6", "EHT"), None),
    (("EST", "SSA", "WH2", "NS6", "WS2", "SHA", "WH2", "NH6", "EHT"), None)])
@pytest.mark.parametrize("end", ["none", "claim", "recorded"])
def test_a_corrected_revoke_reads_back_to_the_same_tricks_and_result(
        plays: tuple[str, ...], penalty_card: str | None, end: str) -> None:
    """Law 61A: West discards the H2 on a spade; Law 62A: he corrects it with the S2 before
    it is established (in the trick, or the last trick quitted), and Law 62B1: the H2 is a
    penalty card, played later (Law 50D1) or not yet. The record holds the trick as
    corrected: read back, the same tricks and result, the play ended by a claim agreed (Laws
    68, 69A) or a result recorded (Law 79A) or not yet."""
    events = auction() + cards(*plays)
    board = last_board(events)
    assert board.play is not None
    assert [r.corrected for r in board.play.revokes] == [True]
    assert [c for _, c in board.play.penalty] == ([] if penalty_card is None else
                                                  [from_map(cards(f"W{penalty_card}")[0]).card])
    if end == "claim":
        events += [{"type": "claim", "seat": "N", "tricks": 8, "statement": "all high"},
                   {"type": "claim_response", "seat": "E", "accept": True},
                   {"type": "claim_response", "seat": "W", "accept": True}]
    elif end == "recorded":
        events.append({"type": "result_recorded", "tricks": 9})
    read_back(events)



def test_a_lead_out_of_turn_accepted_then_a_claim_keeps_the_lead_in_its_trick() -> None:
    """Law 56 and 53A: declarer accepts East's HT led out of turn (`option`); then claims
    the rest (Laws 68A, 69A) before anyone plays to it. The record's last card is that lead
    (LIN `pc` then `mc`; PBN's `^L`): read back, it stood, and the claim closes the play."""
    events = auction() + cards("EST", "SSA", "WS2", "NS6", "EHT") + [
        {"type": "option", "seat": "N", "accept": True},
        {"type": "claim", "seat": "N", "tricks": 12, "statement": ""},
        {"type": "claim_response", "seat": "E", "accept": True},
        {"type": "claim_response", "seat": "W", "accept": True}]
    board = last_board(events)
    assert board.play is not None and board.play.ended == "claim"
    assert leaders(board) == ["E", "E"]
    read_back(events)


def claimed(events: list[dict[str, Any]]) -> tuple[str, int, int, str] | None:
    """The claim agreed that ended the play: who, his side's tricks of those remaining, the
    statement."""
    play = last_board(events).play
    assert play is not None
    claim = play.agreed
    return None if claim is None else (claim.seat.name, claim.tricks, claim.remaining,
                                       claim.statement)


TWO_TRICKS = ("EST", "SSA", "WS2", "NS6", "SHA", "WH2", "NH6", "EHT")  # dummy wins both


def test_a_defenders_concession_reads_back_as_his_not_as_declarers_claim() -> None:
    """Law 68A–B: East claims 8 of the 11 remaining tricks for his side, conceding 3;
    Law 69A: declarer acquiesces. LIN's `mc|5|` and PBN's `[Result "5"]` are declarer's
    tricks: the writers note the claim in words (LIN `nt|`, a PBN comment after the play),
    and read back it is East's, agreed by declarer, with the same result."""
    events = auction() + cards(*TWO_TRICKS) + [
        {"type": "claim", "seat": "E", "tricks": 8, "statement": ""},
        {"type": "claim_response", "seat": "N", "accept": True}]
    assert claimed(events) == ("E", 8, 11, "")
    pbn, lin = to_pbn(events), to_lin(events)
    words = ("Claim by E (Laws 68A-B): E-W win 8 of the 11 remaining tricks, agreed "
             "(Law 69A).")
    assert f"*\n{{{words}}}\n" in pbn and '[Result "5"]' in pbn
    assert f"nt|{words}|mc|5|" in lin
    for text, reader in ((pbn, pbn_events), (lin, lin_events)):
        again = reader(text)
        assert claimed(again) == ("E", 8, 11, ""), reader.__name__
        assert [e for e in again if e["type"] == "claim_response"] == [
            {"type": "claim_response", "seat": "N", "accept": True}]
    read_back(events)


@pytest.mark.parametrize(("statement", "pbn_back", "lin_back"), [
    ("cash the hearts, then the diamonds", None, None),
    ("ruff a {club} | then\ndraw trumps", "ruff a (club) | then draw trumps",
     "ruff a {club} / then draw trumps")])
def test_a_claims_statement_is_written_and_read_back(statement: str, pbn_back: str | None,
                                                     lin_back: str | None) -> None:
    """Law 68C: a claim is accompanied by a statement of the line of play. Written after the
    play and read back with the claim: on one line (a record's notes do not span lines), a
    PBN comment's braces as parentheses (PBN 2.1 section 3.8: a comment cannot hold them),
    LIN's `|` as `/` (it ends a value)."""
    events = auction() + cards(*TWO_TRICKS) + [
        {"type": "claim", "seat": "N", "tricks": 9, "statement": statement},
        {"type": "claim_response", "seat": "E", "accept": True},
        {"type": "claim_response", "seat": "W", "accept": True}]
    for writer, reader, back in ((to_pbn, pbn_events, pbn_back), (to_lin, lin_events, lin_back)):
        assert claimed(reader(writer(events))) == ("N", 9, 11, back or statement), reader.__name__
    read_back(events)


def test_a_claim_after_an_established_revoke_reads_back_as_that_claim() -> None:
    """Law 63A1: the revoke (West's H2 on a spade, Law 61A) is established by the play to the
    next trick, and PBN marks it `^R`; the claim agreed settles it (Law 64A2: a trick
    transferred). Read back, the noted claim is folded again, the Laws transfer the same
    trick, the same result."""
    events = auction() + cards("EST", "SSA", "WH2", "NS6", "SHA", "WH3", "NH6", "EHT") + [
        {"type": "claim", "seat": "W", "tricks": 2, "statement": "one club each"},
        {"type": "claim_response", "seat": "N", "accept": True}]
    board = last_board(events)
    assert board.play is not None and [r.established for r in board.play.revokes] == [True]
    assert board.play.declarer_tricks == 2 + 9 + 1  # won, conceded, transferred (64A2)
    assert "\nST SA ^R H2 S6\n" in to_pbn(events)  # PBN 2.1 section 3.9: a revoke
    for writer, reader in ((to_pbn, pbn_events), (to_lin, lin_events)):
        assert claimed(reader(writer(events))) == ("W", 2, 11, "one club each")
    read_back(events)


def test_a_claim_noted_that_the_result_contradicts_is_not_taken() -> None:
    """A record's result is what was agreed at the table (Law 79A): a claim noted that does
    not give it is left aside, and the result closes the play as declarer's claim (Laws 68,
    69A)."""
    note = ("nt|Claim by E (Laws 68A-B): E-W win 8 of the 11 remaining tricks, agreed "
            "(Law 69A).|")
    events = lin_events(f"md|{HANDS}|sv|o|{ONE_NT}pc|ST|pc|SA|pc|S2|pc|S6|"
                        f"pc|HA|pc|H2|pc|H6|pc|HT|{note}mc|9|")
    assert claimed(events) == ("N", 7, 11, "")
    assert claimed(lin_events(f"md|{HANDS}|sv|o|{ONE_NT}pc|ST|pc|SA|pc|S2|pc|S6|"
                              f"pc|HA|pc|H2|pc|H6|pc|HT|{note}mc|5|")) == ("E", 8, 11, "")

"""The tournament export of a table (cli.md): PBN 2.1 and LIN, with the event's header, the
players' names, and the Director's record as commentary; read back and folded, the boards are
the table's, as far as each notation can carry them.

The table below plays a round of three boards that start by themselves (duplicate Law 17E:
each when the auction period of the one before ends), with the players named, an alert with an
explanation (Law 40B), an insufficient bid accepted (Law 27A), a bid out of rotation accepted
(Laws 29A, 31), and a ruling after misinformation (Law 21B1) that cancels a call.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from shared import fold, from_map
from shared.deal import parse_deal
from shared.notation import lin_events, pbn_boards, pbn_events
from shared.notation.export import ExportHeader, pbn_document, pbn_games, to_lin, to_pbn
from shared.table.board import Board
from shared.table.board_output import standing_to_dict
from shared.table.board_result import play_view, result_view

D4 = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
D5 = "N:AKQJ.AKQJ.AKQJ.2 5432.5432.5432.3 9876.9876.9876.4 T.T.T.AKQJT98765"
D6 = "E:AJ9754.J62.K62.6 32..A954.AQJ9875 KQ86.KQT843.QJ.K T.A975.T873.T432"
NAMES = {"N": "Ann", "E": "Di", "S": "Bob", "W": "Eve"}
HEADER = ExportHeader(event='Spring "Pairs" \\ heat 1', site="Club, Main St", date="2025-03-14",
                      table="Green", room="Open", scoring="MP")
NOTE = "2C was Landy {both majors}: misinformation"


def call(seat: str, text: str, **more: Any) -> dict[str, Any]:
    return {"type": "call", "seat": seat, "call": text, **more}


def table_log() -> list[dict[str, Any]]:
    """A round of boards 4, 5 and 6; only board 4 is started by the round itself, 5 and 6 by
    the end of the play before them (the opening lead faced, then the result recorded, Law
    79A)."""
    return [
        {"type": "players_named", "players": NAMES},
        {"type": "round_started", "round": 1,
         "boards": [{"board": 4, "deal": D4}, {"board": 5, "deal": D5}, {"board": 6, "deal": D6}]},
        # board 4, West deals: South's 1C over 1D is insufficient; West accepts it (Law 27A)
        call("W", "P"), call("N", "1C", alert=True, explanation="could be short"),
        call("E", "1D"), call("S", "1C"), {"type": "option", "seat": "W", "accept": True},
        call("W", "1S"), call("N", "P"), call("E", "P"), call("S", "P"),
        {"type": "opening_lead", "seat": "N", "card": "C3"}, {"type": "result_recorded",
                                                              "tricks": 7},
        # board 5, North deals: East bids at his RHO's turn (Law 31); South accepts by calling
        # (Law 29A) and North loses his turn
        call("E", "1H"), call("S", "P"), call("W", "2H"), call("N", "P"), call("E", "P"),
        call("S", "P"), {"type": "opening_lead", "seat": "S", "card": "D9"},
        {"type": "result_recorded", "tricks": 8},
        # board 6, East deals: West, misinformed, may change his pass (Law 21B1)
        call("E", "1NT"), call("S", "2C", alert=True, explanation="clubs"), call("W", "P"),
        {"type": "ruling", "action": "allow_change", "law": "21B1", "seat": "W", "note": NOTE},
        call("W", "X"), call("N", "P"), call("E", "P"), call("S", "P"),
        {"type": "opening_lead", "seat": "W", "card": "HK"},
    ]


def boards_of(events: list[dict[str, Any]]) -> tuple[Board, ...]:
    return fold(from_map(e) for e in events).boards


def play_of(board: Board) -> dict[str, Any] | None:
    """The play a record carries: the tricks, the tricks won, declarer's tricks."""
    if board.play is None:
        return None
    view = play_view(board.play)
    return {"tricks": view["tricks"], "won": view["won"],
            "declarer_tricks": board.play.declarer_tricks}


def carried(board: Board, names: bool = True) -> dict[str, Any]:
    """What a record can carry of a board, field by field (the deal as hands: a record may
    write it from another seat)."""
    fields = {"board": board.board, "dealer": board.dealer, "vulnerability": board.vulnerability,
              "deal": parse_deal(board.deal) if board.deal else None,
              "calls": [standing_to_dict(c) for c in board.calls],
              "contract": board.contract(), "declarer": board.declarer, "status": board.status,
              "opening_lead": board.opening_lead, "play": play_of(board),
              "result": result_view(board)}
    if names:
        fields["players"] = board.players
    return fields


_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


def tags_of(game: str) -> dict[str, str]:
    """The tag pairs of a PBN game, unescaped (a small reader, independent of `shared`)."""
    tags = {}
    for line in game.splitlines():
        match = _TAG.match(line)
        if match and match.group(1) != "Note":
            tags[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))
    return tags


def comments_of(game: str) -> list[str]:
    """The `{ … }` comments of a PBN game, each on one line."""
    return [" ".join(block.split()) for block in re.findall(r"\{([^}]*)\}", game)]


def test_the_round_reads_back_from_pbn_board_by_board() -> None:
    """PBN carries every board the table played, those the round started by itself too (Law
    17E), with what the Laws made of the calls that stand: the insufficient bid accepted
    (`^I`, Law 27A), the bid out of rotation accepted and the turn North lost to it (`^S`, Laws
    29A and 31), the alerts and explanations (Law 40B), the names, the contract, declarer and
    lead.

    What PBN does not carry, and is not compared: the Director's record (the alerts,
    rectifications, the ruling and the pass it cancelled, Law 21B1), which is commentary that
    readers skip; the board's event count and times."""
    log = table_log()
    before = boards_of(log)
    read = pbn_boards(to_pbn(log, HEADER))
    assert read.skipped == []
    after = boards_of(read.events)
    assert [b.board for b in before] == [4, 5, 6]
    assert [carried(b) for b in after] == [carried(b) for b in before]
    # the irregularities were carried, not lost on both sides alike
    assert standing_to_dict(after[0].calls[3]) == {"seat": "S", "call": "1C", "accepted": "27A"}
    assert standing_to_dict(after[1].calls[0]) == {"seat": "E", "call": "1H", "accepted": "29A",
                                                   "skipped": ["N"]}
    assert after[0].calls[1].explanation == "could be short" and after[0].calls[1].alert
    assert all({s.name: n for s, n in b.players} == NAMES for b in after)
    assert before[2].cancelled and not after[2].cancelled  # the ruling: commentary only


def auction_of(game: str) -> list[str]:
    """The tokens of a PBN game's auction section."""
    tokens: list[str] = []
    for line in game.split('[Auction "', 1)[1].splitlines()[1:]:
        if line.startswith(("[", "{")):  # the next tag, or a comment: the section has ended
            break
        tokens += line.split()
    return tokens


def test_the_auction_marks_the_irregular_calls_that_stand() -> None:
    """PBN 2.1 section 3.9: `^I` before the insufficient bid West accepted (Law 27A), `^S`
    for North, whose turn East's accepted bid out of rotation took (Laws 29A, 31); `!` and a
    note for the alerted call (Law 40B)."""
    first, second, _ = pbn_games(table_log(), HEADER)
    assert auction_of(first) == ["Pass", "1C!", "=1=", "1D", "^I1C", "1S", "Pass", "Pass",
                                 "Pass"]
    assert '[Note "1:could be short"]' in first.splitlines()
    assert auction_of(second) == ["^S", "1H", "Pass", "2H", "Pass", "Pass", "Pass"]


def test_the_pbn_tags_carry_the_header_and_each_board() -> None:
    """The 15 tags of the Mandatory Tag Set in order, then `[Room]` and `[Table]`; quotes and
    backslashes in values escaped (they read back as given)."""
    games = pbn_games(table_log(), HEADER)
    assert len(games) == 3
    tags = [tags_of(game) for game in games]
    for game in tags:
        assert game["Event"] == HEADER.event and game["Site"] == HEADER.site
        assert game["Date"] == "2025.03.14" and game["Scoring"] == "MP"
        assert game["Table"] == "Green" and game["Room"] == "Open"
        assert (game["North"], game["East"], game["South"], game["West"]) == (
            "Ann", "Di", "Bob", "Eve")
    assert [(t["Board"], t["Dealer"], t["Vulnerable"]) for t in tags] == [
        ("4", "W", "All"), ("5", "N", "NS"), ("6", "E", "EW")]
    assert [(t["Declarer"], t["Contract"], t["Result"]) for t in tags] == [
        ("W", "1S", "7"), ("E", "2H", "8"), ("S", "2CX", "?")]  # result_recorded (Law 79A)
    assert [t["Deal"] for t in tags] == [D4, D5, D6]
    mandatory = ["Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
                 "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
    assert list(tags[0])[:15] == mandatory
    assert list(tags[0])[15:] == ["Auction", "Play", "Room", "Score", "Table"]  # alphabetical
    assert tags[0]["Score"] == "NS -80" and "Score" not in tags[2]  # 1S by W made (Law 77)


def test_what_is_not_known_is_a_question_mark() -> None:
    """PBN export format: a mandatory tag whose value is unknown is `?`; a passed-out board
    (Law 22A) has the contract `Pass` and no declarer; a board in its auction has no
    contract yet. Without a header there is no `[Table]` nor `[Room]`."""
    log = [{"type": "board_started", "board": 1, "deal": D4},
           *(call(seat, "P") for seat in "NESW"),
           {"type": "board_started", "board": 2}, call("E", "1H")]
    games = [tags_of(game) for game in pbn_games(log)]
    for game in games:
        assert (game["Event"], game["Site"], game["Date"], game["Scoring"]) == ("?",) * 4
        assert game["North"] == "?" and "Table" not in game and "Room" not in game
    assert (games[0]["Declarer"], games[0]["Contract"], games[0]["Result"]) == ("", "Pass", "")
    assert (games[1]["Declarer"], games[1]["Contract"]) == ("?", "?")
    assert [b.status for b in boards_of(pbn_events(to_pbn(log)))] == ["passed_out", "auction"]


@pytest.mark.parametrize(("given", "written"), [
    ("2025-03-14", "2025.03.14"), ("2025.03.14", "2025.03.14"), ("1998.??.??", "1998.??.??"),
    (None, "?")])
def test_the_date_is_written_in_pbn_form(given: str | None, written: str) -> None:
    game = pbn_games(table_log()[:2], ExportHeader(date=given))[0]
    assert tags_of(game)["Date"] == written


@pytest.mark.parametrize("date", ["14/03/2025", "2025-3-14", "today"])
def test_a_date_in_another_form_is_refused(date: str) -> None:
    with pytest.raises(ValueError, match="date"):
        ExportHeader(date=date)


def test_the_directors_record_is_commentary_a_committee_can_read() -> None:
    """Each alert, rectification, ruling and cancelled call, in the order it happened, says the
    Law, who (seat and name), the call, and what was done: Law 27 (insufficient bid) and its
    acceptance (27A); Law 31 (bid out of rotation) and its acceptance (29A); the ruling of Law
    21B1 and the pass it cancelled. A `}` in the Director's note does not end the comment."""
    games = pbn_games(table_log(), HEADER)
    first, second, third = (comments_of(game) for game in games)
    assert len(first) == 2 and "Law 27 (insufficient bid), S (Bob), 1C:" in first[0]
    assert first[1].startswith("Rectification, Law 27A, W (Eve):")
    assert len(second) == 2 and "Law 31 (bid out of rotation), E (Di), 1H:" in second[0]
    assert "Law 29A, S (Bob)" in second[1]
    assert len(third) == 2
    assert third[0].startswith("Director's ruling, Law 21B1: W (Eve) may change his last call")
    assert "2C was Landy (both majors): misinformation" in third[0]  # braces: parentheses
    assert third[1].startswith("Call cancelled, Law 21B1: W (Eve)'s Pass")
    for game in games:  # every comment closes on its own line: nothing else is in it
        assert all(line.endswith("}") for line in game.splitlines()
                   if "}" in line and not line.startswith("["))


@pytest.mark.parametrize(("ruling", "words"), [
    ({"action": "set_pass_obligation", "seat": "N", "obligation": "every_turn", "law": "30B"},
     "Director's ruling, Law 30B: N (Ann) must pass at every turn."),
    ({"action": "lead_restriction", "seat": "W", "suit": "H", "restriction": "prohibit",
      "law": "26B"}, "Director's ruling, Law 26B: W (Eve) must not lead H at his first turn"),
    ({"action": "adjusted_score", "score": "NS 420", "law": "27B1(b)", "note": "damaged"},
     "Director's ruling, Law 27B1(b): adjusted score NS 420 (damaged)."),
    ({"action": "cancel_call", "index": 0, "law": "17D"},
     "Director's ruling, Law 17D: the call at position 1 of the auction and every call after"),
])
def test_each_ruling_says_what_it_does(ruling: dict[str, Any], words: str) -> None:
    """The Director's rulings (Laws 17D, 26, 27B1(b), 30B …) in words, with the Law, in the
    PBN commentary and in a LIN `nt` line alike."""
    log = [{"type": "players_named", "players": NAMES},
           {"type": "board_started", "board": 1, "deal": D4}, call("N", "1H"),
           {"type": "ruling", **ruling}]
    assert any(text.startswith(words) for text in comments_of(pbn_games(log)[0]))
    assert f"nt|{words}" in to_lin(log)


def test_commentary_and_new_tags_are_read_over() -> None:
    """The PBN reader skips the comments and the tags it does not use (`[Event]`, `[Table]`,
    `[Room]`): the export reads back as the same events as it does without them."""
    log = table_log()
    plain = pbn_events(to_pbn(log))
    with_header = pbn_events(to_pbn(log, HEADER))
    assert with_header == plain and len(plain) > 20
    bare = re.sub(r"\{[^}]*\}\n", "", to_pbn(log, HEADER))
    assert "{" not in bare and pbn_events(bare) == plain


def test_many_tables_in_one_document() -> None:
    """One PBN document of two tables: the `% PBN 2.1` and `% EXPORT` lines once, each game
    with its table; read back, the boards of both tables in order."""
    log = table_log()
    other = [{"type": "players_named", "players": {"N": "Cy"}},
             {"type": "board_started", "board": 4, "deal": D4}, call("W", "1S")]
    games = pbn_games(log, HEADER) + pbn_games(other, ExportHeader(table="Blue", room="Closed"))
    document = pbn_document(games)
    assert document.startswith("% PBN 2.1\n% EXPORT\n")
    assert document.count("% PBN 2.1") == 1 and document.count("% EXPORT") == 1
    assert [tags_of(game)["Table"] for game in games] == ["Green"] * 3 + ["Blue"]
    boards = boards_of(pbn_events(document))
    assert [b.board for b in boards] == [4, 5, 6, 4]
    assert {s.name: n for s, n in boards[3].players} == {"N": "Cy"}  # Ann & co. not carried


def test_values_that_would_break_a_record_are_escaped() -> None:
    """A quote or a backslash in a tag value is escaped (PBN 2.1 section 3.1); a line break in
    an explanation becomes a space (a tag is one line): the explanation reads back so."""
    log = [{"type": "players_named", "players": {"N": 'Ann "Ace" O\\Neil'}},
           {"type": "board_started", "board": 1, "deal": D4},
           call("N", "1H", alert=True, explanation='5+ "hearts"\nforcing')]
    events = pbn_events(to_pbn(log))
    assert events[1] == {"type": "players_named",
                         "players": {"N": 'Ann "Ace" O\\Neil', "E": "", "S": "", "W": ""}}
    assert events[2]["explanation"] == '5+ "hearts" forcing'


def test_the_pbn_reader_reads_the_names_at_the_seats() -> None:
    """`[North]` … become `players_named` after the board's start: `?` is nobody; a name is
    cut to 64 characters (the schema's limit); a board whose tags change nothing names
    nobody again, and one without names clears the names of the board before."""
    game = '[Board "{n}"]\n[Deal "N:- - - -"]\n{names}\n'
    named = '[North "Ann"]\n[East "?"]\n[South "' + "B" * 80 + '"]\n[West "Eve"]'
    text = "\n".join(game.format(n=n, names=names) for n, names in
                     ((1, named), (2, named), (3, "")))
    events = pbn_events(text)
    assert [e["type"] for e in events] == ["board_started", "players_named", "board_started",
                                          "board_started", "players_named"]
    assert events[1]["players"] == {"N": "Ann", "E": "", "S": "B" * 64, "W": "Eve"}
    boards = boards_of(events)
    assert [len(b.players) for b in boards] == [3, 3, 0]


def test_the_round_reads_back_from_lin_but_for_the_names_and_the_skipped_turn() -> None:
    """LIN carries the boards' numbers, deals, vulnerabilities, the calls with their alerts and
    explanations (`!`, `an`), the insufficient bid accepted (re-judged on reading: Law 27A,
    accepted by calling), the contract and the lead.

    What LIN does not carry: the names (the LIN reader does not read `pn`), and a call out of
    rotation (Law 31): LIN has no mark for a skipped player, and its reader gives the calls
    in rotation from the dealer, so East's 1H on board 5 reads back as North's. The event and
    the table are in the `vg` line, the Director's record in `nt` lines, for people."""
    log = table_log()
    text = to_lin(log, HEADER)
    before, after = boards_of(log), boards_of(lin_events(text))
    assert [b.board for b in after] == [4, 5, 6]
    for index in (0, 2):
        assert carried(after[index], names=False) == carried(before[index], names=False)
    assert standing_to_dict(after[0].calls[3]) == {"seat": "S", "call": "1C", "accepted": "27A"}
    assert [str(c.call) for c in after[1].calls] == [str(c.call) for c in before[1].calls]
    assert after[1].calls[0].seat.name == "N" != before[1].calls[0].seat.name
    assert all(not b.players for b in after)

    vg, *lines = text.splitlines()
    fields = vg.removeprefix("vg|").removesuffix("|").split(",")
    assert fields[:5] == ['Spring "Pairs" \\ heat 1', "Green Open", "P", "4", "6"]
    assert [line[:6] for line in lines] == ["qx|o4|", "qx|o5|", "qx|o6|"]
    notes = [re.findall(r"nt\|([^|]*)\|", line) for line in lines]
    assert [len(n) for n in notes] == [2, 2, 2]
    assert "Law 27 (insufficient bid), S (Bob), 1C" in notes[0][0]
    assert notes[2][0].startswith("Director's ruling, Law 21B1: W (Eve)")


def test_lin_without_a_header_is_as_before() -> None:
    """No header, no `vg` line nor `qx`: the first board's line starts with the names."""
    text = to_lin(table_log())
    assert text.startswith("pn|Bob,Eve,Ann,Di|") and "vg|" not in text and "qx|" not in text

"""PBN and LIN records as events (shared.notation), on the real files in tests/data: every
board converts, folds without a director alert, and gives the contract the file states."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared import fold, from_map
from shared.notation import RecordError, lin_events, pbn_events
from tests.cli import run_cli
from tests.records import DATA, expected_contract, lin_contract, read_lin, read_pbn


def text_of(name: str) -> str:
    return (DATA / name).read_bytes().decode("utf-8", errors="replace")


@pytest.mark.parametrize("name", ["realbridge-2021-online-qualifier.pbn",
                                  "pbn21-irregularities.pbn"])
def test_pbn_boards_fold_to_the_stated_contracts(name: str) -> None:
    """Laws 17–22 on real records: the contract of every board with an auction is the one of
    its [Contract] and [Declarer] tags (read by the independent test reader)."""
    state = fold(from_map(m) for m in pbn_events(text_of(name)))
    assert all(not b.alerts for b in state.boards)
    folded = [b.contract() for b in state.boards if b.calls]
    stated = [expected_contract(r) for r in read_pbn(DATA / name)
              if r.tags.get("Board", "").isdigit()]
    assert folded == stated and len(folded) in (279, 1)


def test_pbn_notes_become_explanations() -> None:
    """A note explains its call (Law 40B); `!` alerts it. RealBridge explains without `!`."""
    events = pbn_events(text_of("realbridge-2021-online-qualifier.pbn"))
    explained = [e for e in events if e.get("explanation")]
    assert len(explained) == 432
    assert explained[0] == {"type": "call", "seat": "S", "call": "1C",
                            "explanation": "11-13,17-19 or clubs"}
    alerted = pbn_events('[Board "1"]\n[Deal "N:- - - -"]\n[Auction "N"]\n1C! =1= Pass\n'
                         '[Note "1:strong \\"club\\""]\n')
    assert alerted[1] == {"type": "call", "seat": "N", "call": "1C", "alert": True,
                          "explanation": 'strong "club"'}


def test_pbn_play_comes_from_the_play_section() -> None:
    """Four tricks in columns from the opening leader (East), each played from its leader
    (Law 44G), then `*` and `[Result "NS 11"]`: North–South won 3 of the 4, so North claims
    8 of the 9 left, agreed (Laws 68, 69A)."""
    events = pbn_events(text_of("pbn21-irregularities.pbn"))
    cards = [(e["seat"], e["card"]) for e in events if e["type"] == "card_played"]
    assert cards[:4] == [("E", "SK"), ("S", "ST"), ("W", "S4"), ("N", "S2")]
    assert cards[4:8] == [("E", "HK"), ("S", "H5"), ("W", "H2"), ("N", "C7")]
    assert cards[8:] == [("N", "S3"), ("E", "S6"), ("S", "C2"), ("W", "S5"),  # N ruffed
                         ("S", "HA"), ("W", "H6"), ("N", "D4"), ("E", "H3")]  # S ruffed
    assert events[-3:] == [{"type": "claim", "seat": "N", "tricks": 8, "statement": ""},
                           {"type": "claim_response", "seat": "E", "accept": True},
                           {"type": "claim_response", "seat": "W", "accept": True}]


@pytest.mark.parametrize(("name", "boards"), [("usbf-2010-semifinal-vugraph.lin", 30),
                                              ("robot-match-with-alerts.lin", 8)])
def test_lin_boards_fold_to_the_results_list(name: str, boards: int) -> None:
    """LIN: calls in rotation from the dealer; the USBF file's `rs` list states each contract.
    The play: `shared.notation` tests (test_notation_play)."""
    events = lin_events(text_of(name))
    state = fold(from_map(m) for m in events)
    assert len(state.boards) == boards and all(not b.alerts for b in state.boards)
    assert sum(e["type"] == "card_played" for e in events) == sum(
        b.cards for b in read_lin(DATA / name)[0])  # every card, the opening lead's first
    _, results = read_lin(DATA / name)
    if results:
        assert [b.contract() for b in state.boards] == [lin_contract(r) for r in results]


def test_lin_alerts_and_explanations() -> None:
    events = lin_events(text_of("usbf-2010-semifinal-vugraph.lin"))
    first_alert = next(e for e in events if e.get("alert"))
    assert first_alert == {"type": "call", "seat": "W", "call": "3C", "alert": True,
                           "explanation": "jacoby 2N"}


def test_a_broken_pbn_file_names_the_line_and_the_problem() -> None:
    with pytest.raises(RecordError, match=r"line 7: tag OptimumScore: '100' is not a score"):
        pbn_events(text_of("pbn21-broken.pbn"))
    game = '[Board "1"]\n[Deal "N:- - - -"]\n[Auction "N"]\n'
    with pytest.raises(RecordError, match=r"line 4: note =1= has no \[Note\] tag"):
        pbn_events(game + "1C =1= Pass\n")
    with pytest.raises(RecordError, match="line 4: not a call: '1Z'"):
        pbn_events(game + "1Z\n")
    with pytest.raises(RecordError, match="line 1: not a tag pair"):
        pbn_events('[Board 1]\n')


def test_a_broken_lin_file_names_the_line() -> None:
    with pytest.raises(RecordError, match=r"line 2: md\|9"):
        lin_events("pn|a,b,c,d|\nmd|9SAK|\n")
    with pytest.raises(RecordError, match=r"line 5: mb\|1Z"):
        lin_events("pn|a,b,c,d|\r\nmd|1SAK,,,|sv|o|\r\nmb|1C|nt|a\r\ncomment|\r\nmb|1Z|")
    with pytest.raises(RecordError, match=r"line 1: md\|1SX"):
        lin_events("md|1SXHD,,,|")


def test_lin_hands_in_any_form_give_one_deal() -> None:
    """BBO writes every suit high to low and may leave the last hand out; other writers list
    suits low to high, out of order or in lower case: the deal is the same."""
    canonical = "md|3SAKQJHAKQJDAKQJC2,S5432H5432D5432C3,S9876H9876D9876C4,S T HT DT CAKQJT98765|"
    other = "md|3sjqkahjqkadjqkac2,C3S5432H5432D5432,S6789H6789D6789C4,|"
    deal = "N:9876.9876.9876.4 T.T.T.AKQJT98765 AKQJ.AKQJ.AKQJ.2 5432.5432.5432.3"
    assert lin_events(canonical.replace(" ", ""))[0]["deal"] == deal
    assert lin_events(other)[0]["deal"] == deal


def test_convert_command(tmp_path: Path) -> None:
    ok = run_cli("convert", str(DATA / "robot-match-with-alerts.lin"))
    assert ok.returncode == 0 and ok.stdout.count('"board_started"') == 8
    for strict in ([], ["--strict"]):  # no game of the file can be read
        bad = run_cli("convert", *strict, str(DATA / "pbn21-broken.pbn"))
        assert bad.returncode == 2 and bad.stdout == ""
        assert re.search(r"line 7\b.*: tag OptimumScore", bad.stderr)
        assert bad.stderr.splitlines()[-1].endswith("nothing converted")
    other = tmp_path / "record.txt"
    other.write_text("x")
    assert "give a .pbn or a .lin" in run_cli("convert", str(other)).stderr


RECORDS = ["realbridge-2021-online-qualifier.pbn", "pbn21-irregularities.pbn",
           "usbf-2010-semifinal-vugraph.lin", "robot-match-with-alerts.lin"]


@pytest.mark.parametrize("name", RECORDS)
@pytest.mark.parametrize("form", ["pbn", "lin"])
def test_convert_export_convert_folds_to_the_same_states(name: str, form: str) -> None:
    """The round trip of every record through PBN and through LIN keeps every board's state:
    deal, players' names, calls with their alerts and explanations, contract, declarer,
    opening lead. The LIN reader does not read the names (`pn`: a vugraph gives both rooms'
    eight), so through LIN the names are left out of the comparison."""
    from shared.notation.export import to_lin, to_pbn

    reader = pbn_events if name.endswith(".pbn") else lin_events
    events = reader(text_of(name))
    writer, back = (to_pbn, pbn_events) if form == "pbn" else (to_lin, lin_events)
    again = back(writer(events))
    before = fold(from_map(m) for m in events).to_dicts()
    after = fold(from_map(m) for m in again).to_dicts()
    if form == "lin":
        before, after = ([{k: v for k, v in b.items() if k != "players"} for b in boards]
                         for boards in (before, after))
    assert after == before
    assert len(before) >= 2


def test_export_command(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    converted = run_cli("convert", str(DATA / "pbn21-irregularities.pbn"))
    assert converted.returncode == 0
    log.write_text(converted.stdout)
    pbn = run_cli("export", str(log))
    assert pbn.returncode == 0
    assert '[Contract "5CX"]' in pbn.stdout and '[Declarer "N"]' in pbn.stdout
    assert "Pass Pass X Pass" in pbn.stdout
    lin = run_cli("export", str(log), "--format", "lin")
    assert lin.returncode == 0
    assert "mb|5C|mb|p|mb|p|mb|d|" in lin.stdout and "pc|SK|" in lin.stdout
    log.write_text('{"type":"call","seat":"N","call":"1C"}\n')
    bad = run_cli("export", str(log))
    assert bad.returncode == 2 and "before any board_started" in bad.stderr


PBN_GAME = '[Board "1"]\n[Dealer "N"]\n[Deal "N:- - - -"]\n[Auction "N"]\n1C Pass\n'


@pytest.mark.parametrize(("text", "line", "problem"), [
    ('[Event "x"]\n[Board "1"]\n[Site "a"b"]\n', 3, "not a tag pair"),  # any tag, used or not
    ('  [Board 1]\n', 1, "not a tag pair"),
    ('% a comment\nsome words\n[Board "1"]\n', 2, "text outside a game"),
    (PBN_GAME + "\n\n" + PBN_GAME.replace("1C", "1Z"), 12, "not a call: '1Z'"),
    ('{ a comment\n\nover lines }\n' + PBN_GAME.replace("1C", "1Z"), 8, "not a call"),
    (PBN_GAME.replace("\n", "\r\n").replace("1C", "1Z"), 5, "not a call"),
])
def test_pbn_errors_name_the_line(text: str, line: int, problem: str) -> None:
    with pytest.raises(RecordError, match=rf"line {line}: .*{problem}"):
        pbn_events(text)


def test_pbn_comments_indentation_escapes_and_repeated_values() -> None:
    """`%` lines and `{}` blocks inside a game do not end it; tags may be indented; `\\"`
    escapes a quote; `#` repeats the previous game's value (PBN 2.1 section 3.4)."""
    text = ('% header\n[Board "1"]\n% between tags\n  [Dealer "E"]\n{ note\nmore }\n'
            '[Event "the \\"open\\""]\n[Deal "N:- - - -"]\n[Auction "E"]\n1H =1= Pass\n'
            '[Note "1:5+ \\"hearts\\""]\n\n[Board "2"]\n[Dealer "#"]\n[Deal "N:- - - -"]\n')
    events = pbn_events(text)
    assert [e.get("dealer") for e in events if e["type"] == "board_started"] == ["E", "E"]
    assert events[1] == {"type": "call", "seat": "E", "call": "1H",
                         "explanation": '5+ "hearts"'}


def test_lin_values_that_read_like_tags_are_values() -> None:
    """Only tags are read: a commentary line `nt|mb|` or a player named `md` is a value. Tags
    are read in any case; cards after the opening lead are play, not leads."""
    deal = "3SAKQJHAKQJDAKQJC2,S2345H2345D2345C3,S6789H6789D6789C4,"
    text = (f"pn|md,mb,pc,an|nt|mb|MD|{deal}|SV|b|nt|pc|mb|1C|nt|an|mb|p|mb|p|mb|p|"
            "pc|ST|pc|SA|")
    events = lin_events(text)
    assert [e["type"] for e in events] == ["board_started", "call", "call", "call", "call",
                                          "card_played", "card_played"]
    assert events[0]["vulnerability"] == "Both" and events[1] == {"type": "call", "seat": "N",
                                                                  "call": "1C"}
    assert events[-2] == {"type": "card_played", "seat": "E", "card": "ST"}
    assert events[-1] == {"type": "card_played", "seat": "S", "card": "SA"}  # South held it


def test_a_lin_lead_is_by_the_player_who_held_the_card() -> None:
    """The record says which card was led and the deal who held it: a lead by the wrong
    defender stays a lead out of turn, for the engine to judge (Law 54). Where the deal leaves
    the hand out, declarer's LHO is the leader."""
    auction = "mb|1C|mb|p|mb|p|mb|p|"  # North declares: East is on lead
    deal = "3SAKQJHAKQJDAKQJC2,S5432H5432D5432C3,S9876H9876D9876C4,"  # S, W, N; E left out
    events = lin_events(f"md|{deal}|sv|o|{auction}pc|D2|")  # West held the D2
    assert events[-1] == {"type": "card_played", "seat": "W", "card": "D2"}
    board = fold(from_map(e) for e in events).board
    assert board is not None and [a.kind for a in board.alerts] == ["opening_lead_out_of_turn"]
    assert board.alerts[0].law == "54"
    partial = lin_events(f"md|3SAKQJHAKQJDAKQJC2,,,|sv|o|{auction}pc|D2|")
    assert partial[-1] == {"type": "card_played", "seat": "E", "card": "D2"}

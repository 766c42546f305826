"""Property tests: legal auctions against an independent derivation, incremental folding,
and the engine never crashing on any log of well-formed events."""

from __future__ import annotations

from functools import reduce
from typing import Any

from hypothesis import given, settings, strategies as st

from shared import TableState, evolve, fold, from_map
from tests.helpers import DEAL
from tests.strategies import play_events

SEATS = "NESW"
STRAINS = ["C", "D", "H", "S", "NT"]


@st.composite
def legal_auctions(draw: st.DrawFn) -> tuple[int, list[tuple[str, str]]]:
    """A board number and a complete legal auction, built by its own simple rules."""
    board = draw(st.integers(1, 16))
    seat = (board - 1) % 4
    auction: list[tuple[str, str]] = []
    last_rank, last_bidder, risk, risk_seat, passes = -1, -1, "", -1, 0
    while not (passes >= 4 or (passes == 3 and len(auction) > 3)):
        options = ["P", "P"]
        if last_rank < 34:
            options.append("bid")
        if last_bidder >= 0 and risk == "" and (seat - last_bidder) % 2:
            options.append("X")
        if risk == "X" and (seat - risk_seat) % 2:
            options.append("XX")
        choice = draw(st.sampled_from(options))
        if choice == "bid":
            last_rank = draw(st.integers(last_rank + 1, min(last_rank + 5, 34)))
            last_bidder, risk, passes = seat, "", 0
            choice = f"{last_rank // 5 + 1}{STRAINS[last_rank % 5]}"
        elif choice == "P":
            passes += 1
        else:
            risk, risk_seat, passes = choice, seat, 0
        auction.append((SEATS[seat], choice))
        seat = (seat + 1) % 4
    return board, auction


def derive_contract(auction: list[tuple[str, str]]) -> dict[str, Any] | None:
    """Law 22B read plainly: the last bid, its doubles, and the first of the side to name it."""
    bids = [(i, seat, call) for i, (seat, call) in enumerate(auction) if call[0].isdigit()]
    if not bids:
        return None
    index, bidder, bid = bids[-1]
    strain = bid[1:]
    later = [c for _, c in auction[index + 1:]]
    risk = "XX" if "XX" in later else "X" if "X" in later else ""
    side = SEATS.index(bidder) % 2
    declarer = next(s for s, c in auction if c[1:] == strain and SEATS.index(s) % 2 == side)
    return {"level": int(bid[0]), "strain": strain, "risk": risk, "declarer": declarer}


def events_of(board: int, auction: list[tuple[str, str]]) -> list[dict[str, Any]]:
    return [{"type": "board_started", "board": board},
            *({"type": "call", "seat": s, "call": c} for s, c in auction)]


@settings(max_examples=400, deadline=None)
@given(legal_auctions())
def test_every_legal_auction_gives_the_derived_contract(case: tuple[int, list]) -> None:  # type: ignore[type-arg]
    """Laws 17–22: a legal auction raises no alert and ends in the contract of Law 22B."""
    board, auction = case
    state = fold(from_map(m) for m in events_of(board, auction)).board
    assert state is not None
    d = state.to_dict()
    assert d["alerts"] == [] and d["turn"] is None
    assert d["contract"] == derive_contract(auction)
    assert d["status"] == ("passed_out" if d["contract"] is None else "closed")


CALL_TEXTS = ["P", "X", "XX", "8C", "9NT",
              *(f"{level}{s}" for level in range(1, 8) for s in STRAINS)]
seats = st.sampled_from(SEATS)
any_event = st.one_of(
    st.builds(lambda s, c: {"type": "call", "seat": s, "call": c}, seats,
              st.sampled_from(CALL_TEXTS)),
    st.builds(lambda s, c: {"type": "call", "seat": s, "call": c}, seats,
              st.sampled_from(["P", "1C", "1H", "2NT"])),
    st.builds(lambda s, a: {"type": "option", "seat": s, "accept": a}, seats, st.booleans()),
    st.builds(lambda s, c, led: {"type": "card_exposed", "seat": s, "card": c, "led": led},
              seats, st.sampled_from(["S2", "HK", "DT", "C9"]), st.booleans()),
    st.builds(lambda s, c, i: {"type": "call_changed", "seat": s, "call": c, "inadvertent": i},
              seats, st.sampled_from(CALL_TEXTS), st.booleans()),
    *play_events(["SA", "S4", "S2", "HA", "HT", "H4", "HQ", "D2", "DA", "D6", "C2", "CK", "C5",
                  "C3"]),
    st.builds(lambda s, i: {"type": "question", "seat": s, "index": i}, seats,
              st.integers(0, 6)),
    st.builds(lambda s, i: {"type": "explanation", "seat": s, "index": i,
                            "explanation": "natural"}, seats, st.integers(0, 6)),
    st.builds(lambda s: {"type": "ruling", "action": "cancel_call", "seat": s}, seats),
    st.builds(lambda s: {"type": "ruling", "action": "lift_pass_obligation", "seat": s}, seats),
    st.builds(lambda b, r: {"type": "board_started", "board": b, "ruleset": r},
              st.integers(1, 32), st.sampled_from(["duplicate", "rubber"])),
)
logs = st.builds(
    lambda first, rest: [first, *rest],
    st.builds(lambda b, r, deal: {"type": "board_started", "board": b, "ruleset": r,
                                  **({"deal": DEAL} if deal else {})},
              st.integers(1, 32), st.sampled_from(["duplicate", "rubber"]), st.booleans()),
    st.lists(any_event, max_size=40),
)


@settings(max_examples=300, deadline=None)
@given(logs, st.data())
def test_folding_incrementally_equals_folding_at_once(log: list, data: st.DataObject) -> None:  # type: ignore[type-arg]
    """The same log folds to the same state, however it is cut: at once, one event at a
    time with `evolve`, or in two parts."""
    events = [from_map(m) for m in log]
    at_once = fold(events).to_dicts()
    assert reduce(evolve, events, TableState()).to_dicts() == at_once
    cut = data.draw(st.integers(0, len(events)))
    assert fold(events[cut:], fold(events[:cut])).to_dicts() == at_once


@settings(max_examples=300, deadline=None)
@given(logs)
def test_evolve_leaves_the_old_state_alone(log: list) -> None:  # type: ignore[type-arg]
    """`evolve` is pure: the state it was given is the same afterwards."""
    events = [from_map(m) for m in log]
    state = TableState()
    for event in events:
        before = state.to_dicts()
        following = evolve(state, event)
        assert state.to_dicts() == before
        state = following


@settings(max_examples=1000, deadline=None)
@given(logs)
def test_any_log_folds_to_a_coherent_state(log: list) -> None:  # type: ignore[type-arg]
    """Whatever the players do, the fold never crashes and the state hangs together: an
    ended auction has no turn; a contract is the last standing bid; must_pass names seats."""
    for board in fold(from_map(m) for m in log).boards:
        d = board.to_dict()
        assert d["status"] in ("auction", "closed", "passed_out")
        assert (d["turn"] is None) == (d["status"] != "auction")
        bids = [c["call"] for c in d["calls"] if c["call"][0].isdigit()]
        if d["status"] == "closed":
            contract = d["contract"]
            assert bids and bids[-1] == f"{contract['level']}{contract['strain']}"
        assert set(d["must_pass"]) <= set(SEATS)
        assert all(int(b[:-1] if b[-1] != "T" else b[:-2]) <= 7 for b in bids)
        if d["pending"] is not None:  # the option holder is the one due to act
            assert d["turn"] == d["pending"]["option_holder"]
        assert doubles_are_legal(d["calls"])
        assert play_hangs_together(d)


def play_hangs_together(d: dict[str, Any]) -> bool:
    """Laws 44–45: tricks of four cards but the last, no card played twice, the tricks won
    those completed; a result of 0 to 13 tricks only once the play has ended (or passed
    out)."""
    play, result = d["play"], d["result"]
    if play is None:
        return result is None or d["status"] == "passed_out"
    cards = [c["card"] for t in play["tricks"] for c in t["cards"]]
    done = [t for t in play["tricks"] if t["winner"] is not None]
    return (len(cards) == len(set(cards)) and all(len(t["cards"]) == 4 for t in done)
            and all(len(t["cards"]) < 4 for t in play["tricks"] if t["winner"] is None)
            and play["won"]["NS"] + play["won"]["EW"] == len(done) <= 13
            and (result is None) == (play["ended"] is None)
            and (result is None or 0 <= result["declarer_tricks"] <= 13))


def doubles_are_legal(calls: list[dict[str, Any]]) -> bool:
    """Law 19, read plainly: every double or redouble that stands doubles an opponent's last
    bid, or redoubles an opponent's double, with no call but passes since (Laws 35A, 36: a
    double Law 19 does not permit never stands)."""
    bidder, risk, risk_seat = None, "", None
    for call in calls:
        seat, text = SEATS.index(call["seat"]), call["call"]
        if text[0].isdigit():
            bidder, risk, risk_seat = seat, "", None
        elif text in ("X", "XX"):
            opponent = risk_seat if text == "XX" else bidder
            if opponent is None or (opponent - seat) % 2 == 0 or risk != text[:-1]:
                return False
            risk, risk_seat = text, seat
    return True


def test_board_copy_copies_every_field_and_detaches_the_containers() -> None:
    """`Board.copy` is written out field by field: a field added to `Board` and forgotten there
    fails here (the copy would lack it)."""
    from dataclasses import fields

    from tests.script import board_of

    board = board_of("N 1C!, E asks 0, S 1S, W 2H, N decline, E P, S shows HK")
    board.seen.add(99)
    twin = board.copy()
    for f in fields(board):
        assert getattr(twin, f.name) == getattr(board, f.name), f.name
    for name in ("calls", "must_pass", "may_not_double", "seen"):
        assert getattr(twin, name) is not getattr(board, name), name
    played = board_of("N 1S, E P, S P, W P, E plays HQ, S plays HT")
    twin = played.copy()
    assert twin.play is not None and played.play is not None and twin.play == played.play
    for f in fields(played.play):
        assert getattr(twin.play, f.name) == getattr(played.play, f.name), f.name
    for name in ("played", "cards", "leaders", "winners"):
        assert getattr(twin.play, name) is not getattr(played.play, name), name

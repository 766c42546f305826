"""A board's history with `states`: each event carries the board's state just after it, the
same the Laws engine gives for the events so far; a spectator's view of those states hides
the hands until the vugraph delay has passed (services.gateway.tables.views)."""

from __future__ import annotations

from services.gateway.tables.views import entry_for
from services.gateway.tokens import Grant
from services.replay.history import build_history
from shared import fold, from_map
from shared.codec import encode
from tests.helpers import DEAL
from tests.script import log


def records() -> list[tuple[int, bytes]]:
    first = log("N 1S, E 1H, S decline, E 2H, S P, W P, N P", board=1)
    first[0].update(deal=DEAL, ts=1_000_000)
    second = log("E 1NT", board=2)
    return [(offset, encode(from_map(event))) for offset, event in enumerate(first + second)]


def test_each_step_carries_the_state_the_engine_gives_for_the_events_so_far() -> None:
    document = build_history("t", records(), board=1, states=True)
    steps = document["history"]
    assert document["boards"] == [1, 2]
    assert [s["event"]["type"] for s in steps][:3] == ["board_started", "call", "call"]
    events = [s["event"] for s in steps]
    for i, step in enumerate(steps):
        assert step["state"] == fold(from_map(e) for e in events[:i + 1]).to_dicts()[-1], i
    assert steps[2]["state"]["pending"]["call"] == "1H"  # E's insufficient bid, at that step
    assert steps[-1]["state"] == document["state"]
    assert steps[-1]["state"]["contract"]["declarer"] == "E"


def test_without_states_the_history_is_as_before() -> None:
    document = build_history("t", records(), board=2)
    assert all("state" not in s for s in document["history"])
    assert document["state"]["board"] == 2 and document["boards"] == [1, 2]


def test_a_spectator_sees_each_steps_hands_only_after_the_delay() -> None:
    steps = build_history("t", records(), board=1, states=True)["history"]
    spectator = Grant("t", None, "spectator")
    early = [entry_for(spectator, s, 60, 1_000_000 + 59_999) for s in steps]
    assert all(s["state"]["deal"] is None for s in early)
    assert early[0]["event"]["deal"] is None
    late = [entry_for(spectator, s, 60, 1_000_000 + 60_000) for s in steps]
    assert all(s["state"]["deal"] == DEAL for s in late)
    east = [entry_for(Grant("t", "E", "seat"), s, 0, 0) for s in steps]
    assert all(s["state"]["deal"] == "N:- JT987.Q876.AK5.2 - -" for s in east)


def test_a_board_replayed_to_any_card_shows_its_tricks() -> None:
    """`until` stops the history at any card; with `states`, each card's step carries the
    tricks so far (Law 44: the cards in order, the leader, the winner once complete)."""
    from pathlib import Path

    from shared.notation import lin_events

    record = Path(__file__).parent.parent / "data" / "robot-match-with-alerts.lin"
    events = lin_events(record.read_text().splitlines()[0])  # 5H by South, West leads
    played = [e for e in events if e["type"] == "card_played"]
    assert len(played) == 52
    everything = [(offset, encode(from_map(event))) for offset, event in enumerate(events)]
    for cards in (1, 4, 6, 52):
        until = 10 + cards  # board_started at 0, ten calls, then the cards
        document = build_history("t", everything[:until + 1], board=1, until=until,
                                 states=True)
        steps = document["history"]
        assert steps[-1]["event"] == played[cards - 1]
        tricks = steps[-1]["state"]["play"]["tricks"]
        assert [c for t in tricks for c in t["cards"]] == [
            {"seat": e["seat"], "card": e["card"]} for e in played[:cards]]
        assert steps[-1]["state"] == document["state"]
        assert len(tricks) == (cards + 3) // 4 and tricks[0]["leader"] == "W"
        assert (tricks[0]["winner"] == "S") == (cards >= 4)  # South's CK wins trick 1
    assert document["state"]["result"] == {"declarer_tricks": 12, "score_ns": 480}

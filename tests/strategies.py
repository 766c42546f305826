"""Hypothesis strategies of events that more than one property test draws from."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

seats = st.sampled_from("NESW")


def play_events(cards: list[str]) -> tuple[st.SearchStrategy[dict[str, Any]], ...]:
    """The play's events (Laws 41–71, 79A; cards exposed and declarer's lead options, 49–51),
    cards drawn from `cards`: legal, irregular or impossible, for the fold to take or
    ignore."""
    return (
        st.builds(lambda s: {"type": "opening_lead", "seat": s, "card": "SA"}, seats),
        st.builds(lambda s, c: {"type": "card_played", "seat": s, "card": c}, seats,
                  st.sampled_from(cards)),
        st.builds(lambda s, t: {"type": "claim", "seat": s, "tricks": t}, seats,
                  st.integers(0, 13)),
        st.builds(lambda s, a: {"type": "claim_response", "seat": s, "accept": a}, seats,
                  st.booleans()),
        st.builds(lambda s, c, u: {"type": "lead_option", "seat": s, "choice": c,
                                   **({"suit": u} if u else {})}, seats,
                  st.sampled_from(["require", "prohibit", "free"]),
                  st.sampled_from(["S", "H", "D", "C", ""])),
        st.builds(lambda s, c: {"type": "card_exposed", "seat": s, "card": c}, seats,
                  st.sampled_from(cards)),
        st.builds(lambda t: {"type": "result_recorded", "tricks": t}, st.integers(0, 13)),
        st.builds(lambda s, t: {"type": "result_recorded", "seat": s, "tricks": t}, seats,
                  st.integers(0, 13)),
        st.builds(lambda t: {"type": "ruling", "action": "tricks", "tricks": t},
                  st.integers(0, 13)),
    )

"""The paired bench's figures (bench/pair_figures.py): a ratio is taken round by round, so a
round's load, which falls on both sides alike, cancels out of it."""

from __future__ import annotations

from bench.pair_figures import pair_lines, ratios, spread


def test_ratios_are_taken_round_by_round_not_as_a_ratio_of_medians() -> None:
    ours, floor = [2.0, 4.0, 8.0], [1.0, 4.0, 4.0]  # rounds: 2×, 1×, 2×
    assert ratios(ours, floor) == [2.0, 1.0, 2.0]
    lines = pair_lines(400, {"ours": ours, "matched": floor})
    assert "  ours / matched  median 2.000 (min–max 1.000–2.000)" in lines
    # the ratio of the medians (4 / 4 = 1) would hide that two rounds of three cost twice
    assert not any("median 1.000 (min" in line for line in lines if "ours /" in line)


def test_each_side_and_the_floors_between_themselves_are_printed_with_their_spread() -> None:
    lines = pair_lines(1000, {"ours": [3.0, 1.0, 2.0], "matched": [1.5, 1.0, 1.0],
                              "bare": [1.0, 0.5, 1.0]})
    assert lines[0].startswith("1000 events/s")
    assert "  ours     median 2.000 (min–max 1.000–3.000)" in lines
    assert any(line.startswith("  ours / bare") for line in lines)
    assert "  matched / bare     median 1.500 (min–max 1.000–2.000)" in lines
    assert spread([5.0]) == "median 5.000 (min–max 5.000–5.000)"

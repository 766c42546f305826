"""Numbers as a scorer writes them (docs/scoring.md): rounded to the places shown, never a
negative zero (a Butler or cross-IMP score of nothing is 0, not −0), and a Director's weight
given as a fraction (100/3) kept exact in its text."""

from __future__ import annotations

from fractions import Fraction


def shown(value: float, places: int) -> float:
    """`value` rounded to `places` decimals, a negative zero made 0.0 (−0.0 + 0.0 is 0.0)."""
    return round(value, places) + 0.0


def percent_text(percent: Fraction) -> str:
    """A weight as the Director gave it: a decimal where it ends within two places (60,
    12.5, 33.3), else the fraction itself (100/3, not 33.333333333333336)."""
    if (percent * 100).denominator == 1:
        text = f"{float(percent):.2f}".rstrip("0").rstrip(".")
        return text
    return f"{percent.numerator}/{percent.denominator}"

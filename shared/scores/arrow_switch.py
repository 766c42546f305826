"""An arrow-switched Mitchell (one winner): in its last round(s) the pairs swap directions,
the stationary pair playing the EW cards and the moving pair the NS cards, so that each pair
plays some boards in each direction and all pairs are ranked as one field (Law 78A's
matchpoints compare a pair with those that held its cards on the board, whichever line they
came from).

Which rounds: the last ones, as the EBU's guidance has it (Gordon Rainsford, "Arrow
switching", EBU Club newsletter: "most clubs switch two rounds when they are playing two-board
rounds and one round when they are playing three-board or longer rounds", after J. R.
Manning's finding that about one round in eight is best; ACBL and EBU directors commonly
switch the last round). So by default the last round, the last two when a round has at most
two boards and the movement at least eight rounds (two of eight or more stays near Manning's
eighth); the Director may give another count (at least one round stays unswitched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from shared.scores.movements import MovementError, Round

SHORT_ROUND = 2  # boards a round at or under which two rounds are switched (Rainsford)
TWO_SWITCHES_FROM = 8  # rounds from which the second switch keeps near one in eight


def default_switches(rounds: int, boards_per_round: int) -> int:
    """How many of the last rounds are switched by default (the EBU's club practice)."""
    if boards_per_round <= SHORT_ROUND and rounds >= TWO_SWITCHES_FROM:
        return 2
    return 1


def arrow_switched(rounds: Sequence[Round], switches: int) -> list[Round]:
    """The rounds with the last `switches` of them arrow-switched: at every table the pair
    that sat NS sits EW and the other NS (the boards and tables unchanged). At least one
    round must stay as it is (else the two lines never meet on a board as one field)."""
    if not 1 <= switches < len(rounds):
        raise MovementError(f"a Mitchell of {len(rounds)} rounds switches 1 to "
                            f"{len(rounds) - 1} of its last rounds, not {switches}",
                            "arrow_switch")
    first = len(rounds) - switches
    return [r if i < first else replace(r, tables=tuple(
        replace(s, ns=s.ew, ew=s.ns) for s in r.tables)) for i, r in enumerate(rounds)]


def switched_rounds(rounds: int, switches: int) -> tuple[int, ...]:
    """The numbers of the switched rounds (from 1)."""
    return tuple(range(rounds - switches + 1, rounds + 1)) if switches else ()

"""Bridge records as tableserver events: PBN 2.1 (`pbn`) and BBO's LIN (`lin`).

The readers take text and give event maps (the engine's schema); they build no auction state
(the engine does). `pbn_boards` and `lin_boards` read every board they can and name each board
they skip (`ReadResult`), and what they pass over in a board they read (`PassedOver`);
`pbn_events` and `lin_events` read all or nothing, raising `RecordError` (the line and the
problem) for the first board that cannot be read.
"""

from shared.notation.errors import PassedOver, ReadResult, RecordError, SkippedBoard
from shared.notation.lin import lin_boards, lin_events
from shared.notation.pbn import pbn_boards, pbn_events

__all__ = ["PassedOver", "ReadResult", "RecordError", "SkippedBoard", "lin_boards", "lin_events",
           "pbn_boards", "pbn_events"]

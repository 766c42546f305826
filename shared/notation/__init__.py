"""Bridge records as tableserver events: PBN 2.1 (`pbn`) and BBO's LIN (`lin`).

The readers take text and give event maps (the engine's schema); they build no auction state
(the engine does). Bad records raise `RecordError`, naming the line and the problem.
"""

from shared.notation.errors import RecordError
from shared.notation.lin import lin_events
from shared.notation.pbn import pbn_events

__all__ = ["RecordError", "lin_events", "pbn_events"]

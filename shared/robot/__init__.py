"""Our own robot's decisions, pure: its bidding (`bidding.py`, a simple natural system written
down in docs/robots.md) and its play (`sampling.py` deals consistent with what its seat has
seen, the auction read by `auction_constraints.py`; `play.py` the card that wins most over
them, with a double-dummy solver passed in). It knows only what its seat was told through
the Table Manager protocol."""

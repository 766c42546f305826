"""Who may still look at the last completed trick (Law 66), read from the `Play` the fold
keeps: a reader's view carries them (`play.inspect_last`), and a page shows its last trick
to those only."""

from __future__ import annotations

from shared.seats import Seat
from shared.table.play import Play

_SEATS = tuple(Seat)


def may_inspect_last(play: Play) -> tuple[Seat, ...]:
    """The seats that may see the last completed trick now, in seat order: once play has
    ceased, all four (Law 66D: the played and unplayed cards may be inspected); until then
    declarer and each defender so long as his side has not led or played to the next trick
    (Law 66A), never dummy (Law 42: his rights are those of that Law, 66A names declarer and
    the defenders), and then no one (Law 66C: quitted tricks may not be inspected). None
    before the first trick is completed."""
    if not play.winners:
        return ()
    if play.ended is not None:
        return tuple(Seat)
    first = play.leader.index
    played = [_SEATS[(first + i) % 4] for i in range(play.in_trick)]
    return tuple(s for s in _SEATS if s is not play.dummy
                 and all(p.is_opponent_of(s) for p in played))

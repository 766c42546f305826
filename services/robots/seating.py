"""Who holds the Table Manager host's connections: one seated connection per seat (a new one
with the seat's token replaces the one before, which is told why and closed), and at most so
many connections at once from one address (`TABLESERVER_TM_PER_ADDRESS`)."""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from shared.table_manager import HostError, write

SeatKey = tuple[str, str]  # (table, seat letter)


class Closable(Protocol):
    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class Connection:
    """A robot's connection as the host holds it: it can be told a last line and closed."""

    def __init__(self, writer: Closable) -> None:
        self.writer = writer

    def close_with(self, reason: str) -> None:
        """`Error <reason>`, then the connection closed (what is written goes out first)."""
        self.writer.write((write(HostError(reason)) + "\r\n").encode())
        self.writer.close()


class Seats:
    """The connection seated at each seat: one."""

    def __init__(self) -> None:
        self.held: dict[SeatKey, Connection] = {}

    def sit(self, key: SeatKey, connection: Connection) -> Connection | None:
        """`connection` sits at `key`; the one it replaces, if any (for the caller to close)."""
        before = self.held.get(key)
        self.held[key] = connection
        return before if before is not connection else None

    def holds(self, key: SeatKey, connection: Connection) -> bool:
        return self.held.get(key) is connection

    def leave(self, key: SeatKey, connection: Connection) -> bool:
        """`connection` leaves `key`: whether it was the one seated there (a connection that
        was replaced leaves nothing: the seat is its successor's)."""
        if self.held.get(key) is not connection:
            return False
        del self.held[key]
        return True


class Addresses:
    """Connections at once from each address, at most `bound`."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.counts: Counter[str] = Counter()

    def admit(self, address: str) -> bool:
        if self.counts[address] >= self.bound:
            return False
        self.counts[address] += 1
        return True

    def release(self, address: str) -> None:
        self.counts[address] -= 1
        if self.counts[address] <= 0:
            del self.counts[address]

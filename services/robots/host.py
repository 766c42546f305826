"""The Table Manager host: an asyncio TCP server where robots sit at tables.

A connection's first line is `Connecting "<name> <seat token>" as <Seat> using protocol
version 18`. A robot without a valid seat token for that seat is told why (`Error …`) and
disconnected, never seated. A seated robot's lines go to its `RobotSession` (pure); the host
writes what it answers, sends the robot's calls and cards with the seat's token
(`GatewayLink.send`, the checks a person's go through), and feeds it each new state of the
table as the seat sees it. A robot that disconnects leaves its seat as it was: its turn waits,
and it may connect again and be told the board so far.

One connection sits at a seat: a new one with the seat's token replaces it (the old is told
so and closed). A seated robot that owes the host a line (it waits for nothing the table has
not yet given) and sends none for `TABLESERVER_TM_IDLE` is disconnected; an address has at
most `TABLESERVER_TM_PER_ADDRESS` connections at once (`seating.py`). The director is told how
long the table has waited for each robot (`presence.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from services.common.settings import Settings
from services.robots.credentials import (
    TOKEN_PREFIX,
    Credential,
    CredentialError,
    credential_from,
)
from services.robots.gateway_link import GatewayLink, Refusal, gateway_client
from services.robots.presence import NoPresence, Presence
from services.robots.round_ends import NoRoundEnds, RoundEnds
from services.robots.seating import Addresses, Connection, SeatKey, Seats
from services.robots.slots import Slots, parse_slot_line
from shared.table_manager import (
    PROTOCOL_VERSION,
    Connect,
    EndOfSession,
    HostError,
    HostMessage,
    ProtocolError,
    Seated,
    Timing,
    parse_client_line,
    write,
)
from shared.table_manager.awaited import Position, awaited, position
from shared.table_manager.lines import SEAT_WORDS
from shared.table_manager.session import RobotSession

log = logging.getLogger("tableserver.robots")
HELLO_TIMEOUT_S = 30  # for the first line
MAX_LINE = 4096

LinkMaker = Callable[[str, str], GatewayLink]  # (table, token) → link
Sender = Callable[[list[HostMessage]], Awaitable[None]]


@dataclass(frozen=True)
class HostLimits:
    idle_s: float = 300  # TABLESERVER_TM_IDLE
    per_address: int = 256  # TABLESERVER_TM_PER_ADDRESS
    slot_s: float = 120  # TABLESERVER_TM_SLOT

    @classmethod
    def of(cls, settings: Settings) -> HostLimits:
        return cls(settings.tm_idle_s, settings.tm_per_address, settings.tm_slot_s)


class Activity:
    """When the robot last sent a line or was sent one (monotonic seconds)."""

    def __init__(self) -> None:
        self.last = time.monotonic()

    def now(self) -> None:
        self.last = time.monotonic()


class TableManagerHost:
    def __init__(self, gateway_url: str, link_maker: LinkMaker | None = None,
                 presence: Presence | None = None, limits: HostLimits | None = None,
                 round_ends: RoundEnds | None = None):
        self.gateway_url = gateway_url
        self.presence = presence or NoPresence()
        self.round_ends = round_ends or NoRoundEnds()
        self.limits = limits or HostLimits()
        self.http = None if link_maker else gateway_client(gateway_url)  # every link's
        self.make_link = link_maker or (lambda table, token: GatewayLink(
            gateway_url, table, token, self.http))
        self.seats = Seats()
        self.addresses = Addresses(self.limits.per_address)
        self.waits: dict[SeatKey, tuple[Position, int]] = {}  # the table's wait for a robot
        self.slots = Slots(self.limits.slot_s)  # stock robots' seats, by their labels

    async def close(self) -> None:
        if self.http is not None:
            await self.http.aclose()

    async def serve(self, host: str, port: int) -> asyncio.Server:
        return await asyncio.start_server(self._until_stopped, host, port, limit=MAX_LINE)

    async def _until_stopped(self, reader: asyncio.StreamReader,
                             writer: asyncio.StreamWriter) -> None:
        """`connection`, ended by the host's stop (its task cancelled) as by any end: Python
        3.11's streams log a connection's cancelled task as an unhandled exception, with its
        traceback (256 of them at a busy evening's stop; 3.12 closes it quietly)."""
        with contextlib.suppress(asyncio.CancelledError):
            await self.connection(reader, writer)

    async def connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                         ) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if not self.addresses.admit(address):
            log.warning("robot connection from %s refused: %d at once already", address,
                        self.limits.per_address)
            Connection(writer).close_with(
                f"refused: too many connections from {address} (at most "
                f"{self.limits.per_address} at once)")
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
            return
        try:
            await self._converse(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            log.info("robot at %s went away", peer)
        except httpx.TransportError as exc:  # the gateway unanswering: the robot connects again
            log.warning("robot at %s: the table server did not answer (%r); its connection "
                        "closed, for it to connect again", peer, exc)
            with contextlib.suppress(ConnectionError):
                Connection(writer).close_with("the table server did not answer in time; "
                                              "connect again")
        finally:
            self.addresses.release(address)
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                        ) -> None:
        activity = Activity()

        async def send(messages: list[HostMessage]) -> None:
            for message in messages:
                writer.write((write(message) + "\r\n").encode())
            if messages:
                activity.now()
            await writer.drain()

        try:
            first = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT_S)
        except TimeoutError:
            await send([HostError("no Connecting line within 30 s")])
            return
        text = first.decode(errors="replace")
        slot = parse_slot_line(text)
        if slot is not None:
            await self._open_slot(*slot, send, writer)
            return
        admitted = await self._admit(text, send)
        if admitted is None:
            return
        credential, slotted = admitted
        link = self.make_link(credential.table, credential.token)
        try:
            try:
                await link.check()
            except Refusal as refusal:
                await send([HostError(f"refused: {refusal} (status {refusal.status})")])
                return
            await self._seated(credential, link, reader, send,
                               Connection(writer), activity, slotted)
        finally:
            await link.close()

    async def _open_slot(self, label: str, token: str, send: Sender,
                         writer: asyncio.StreamWriter) -> None:
        """`Robot slot "<label>" <seat token>`: the token checked with the gateway, a slot
        opened for the robot that connects with that name (`slots.py`)."""
        try:
            credential = self.slots.credential(label, token)
        except CredentialError as error:
            await send([HostError(f"refused: {error}")])
            return
        link = self.make_link(credential.table, credential.token)
        try:
            await link.check()
        except Refusal as refusal:
            await send([HostError(f"refused: {refusal} (status {refusal.status})")])
            return
        finally:
            await link.close()
        self.slots.add(credential)
        seat = SEAT_WORDS[credential.seat]
        log.info("robot slot open for %r at %s %s", label, credential.table, seat)
        writer_line = (f'Slot open: "{label}" sits at {seat} of {credential.table} if it '
                       f"connects within {self.limits.slot_s:g} s")
        writer.write((writer_line + "\r\n").encode())
        await writer.drain()

    async def _admit(self, line: str, send: Sender
                     ) -> tuple[Credential, bool] | None:
        """The robot's credential, and whether it took a slot; None once refused (told)."""
        try:
            hello = parse_client_line(line)
        except ProtocolError as error:
            await send([HostError(f"refused: {error}")])
            return None
        if not isinstance(hello, Connect):
            await send([HostError("refused: the first line is 'Connecting \"<name> <seat "
                                  "token>\" as <Seat> using protocol version 18'")])
            return None
        if hello.version != PROTOCOL_VERSION:
            await send([HostError(f"refused: protocol version {hello.version}; this host "
                                  f"speaks {PROTOCOL_VERSION}")])
            return None
        if not any(word.startswith(TOKEN_PREFIX) for word in hello.name.split()):
            taken = self.slots.take(hello.name.strip(), hello.seat)
            if taken is not None:
                return taken, True
        try:
            return credential_from(hello.name, hello.seat), False
        except CredentialError as error:
            await send([HostError(f"refused: {error}")])
            return None

    async def _seated(self, credential: Credential, link: GatewayLink,
                      reader: asyncio.StreamReader, send: Sender, me: Connection,
                      activity: Activity, slotted: bool = False) -> None:
        """The robot at its seat until it leaves; one that took a slot leaves it open again
        (`TABLESERVER_TM_SLOT`) to come back to by its name, as a robot with a token may."""
        session = RobotSession(credential.seat)
        key = (credential.table, credential.seat.name)
        replaced = self.seats.sit(key, me)
        if replaced is not None:
            replaced.close_with(f"replaced: another connection sat at "
                                f"{SEAT_WORDS[credential.seat]} with this seat's token")
            log.info("robot at %s %s replaced by a new connection", *key)
        log.info("robot %r seated at %s %s", credential.label, *key)
        await self.presence.seated(*key, credential.label)
        await send([Seated(credential.seat, credential.label)])
        lock = asyncio.Lock()  # one writer of the session at a time: lines and states

        async def tell(messages: list[HostMessage]) -> None:
            """Send; after a board's `Timing`, `End of session` if it ended the round."""
            await send(messages)
            if session.finished is not None and any(isinstance(m, Timing) for m in messages) \
                    and await self.round_ends.over(credential.table, session.finished[0]):
                await send([EndOfSession()])

        async def follow() -> None:
            try:
                async for board in link.states():
                    async with lock:
                        await tell(session.on_view(board))
                    if self.seats.holds(key, me):
                        await self._note_wait(key, credential.seat.name, board)
            except (ConnectionError, asyncio.CancelledError):
                raise
            except Exception:  # a bug: the robot would wait for ever; hang up, it may return
                log.exception("following %s %s failed: the robot is disconnected", *key)
                me.writer.close()

        async def watch() -> None:
            """Disconnect the robot once it has owed the host a line for the idle time."""
            idle_s = self.limits.idle_s
            while True:
                left = idle_s - (time.monotonic() - activity.last)
                if left > 0:
                    await asyncio.sleep(left)
                elif session.waiting:  # it waits for the table: the clock starts again
                    activity.now()
                else:
                    log.info("robot at %s %s idle for %g s: disconnected", *key, idle_s)
                    me.close_with(f"idle: no line for {idle_s:g} s while the host waited "
                                  "for one; the connection is closed")
                    return

        tasks = [asyncio.create_task(follow(), name=f"robot-feed-{key}"),
                 asyncio.create_task(watch(), name=f"robot-idle-{key}")]
        try:
            while True:
                raw = await reader.readline()
                if not raw:
                    return
                activity.now()
                text = raw.decode(errors="replace").strip()
                if not text:
                    continue
                try:
                    message = parse_client_line(text)
                except ProtocolError as error:
                    await send([HostError(str(error))])
                    continue
                async with lock:
                    outcome = session.on_line(message)
                    if outcome.event is not None:
                        try:
                            await link.send(outcome.event)
                        except Refusal as refusal:
                            session.undo(outcome.event)
                            await send([HostError(f"{refusal} (status {refusal.status})")])
                            continue
                    await tell(outcome.replies)
        finally:
            if slotted and self.seats.holds(key, me):  # open again at once, before any
                self.slots.add(credential, returning=True)  # wait: it may be back already
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if self.seats.leave(key, me):
                await self.presence.left(*key, credential.label)
                log.info("robot %r left %s %s: the seat waits for it", credential.label,
                         *key)

    async def _note_wait(self, key: SeatKey, seat: str, board: dict[str, Any] | None) -> None:
        """Since when the table waits for this seat's robot, as the director is told: from
        the first state that awaits it at a position, until one that does not."""
        due = board is not None and any(s.name == seat for s in awaited(board))
        known = self.waits.get(key)
        if not due:
            if known is not None:
                del self.waits[key]
                await self.presence.awaited(*key, None)
            return
        assert board is not None
        at = position(board)
        if known is None or known[0] != at:
            since = int(time.time() * 1000)
            self.waits[key] = (at, since)
            await self.presence.awaited(*key, since)

"""The Table Manager host: an asyncio TCP server where robots sit at tables.

A connection's first line is `Connecting "<name> <seat token>" as <Seat> using protocol
version 18`. A robot without a valid seat token for that seat is told why (`Error …`) and
disconnected, never seated. A seated robot's lines go to its `RobotSession` (pure); the host
writes what it answers, sends the robot's calls and cards with the seat's token
(`GatewayLink.send`, the checks a person's go through), and feeds it each new state of the
table as the seat sees it. A robot that disconnects leaves its seat as it was: its turn waits,
and it may connect again and be told the board so far.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from services.robots.credentials import Credential, CredentialError, credential_from
from services.robots.gateway_link import GatewayLink, Refusal
from services.robots.presence import NoPresence, Presence
from shared.table_manager import (
    PROTOCOL_VERSION,
    Connect,
    HostError,
    HostMessage,
    ProtocolError,
    Seated,
    parse_client_line,
    write,
)
from shared.table_manager.session import RobotSession

log = logging.getLogger("tableserver.robots")
HELLO_TIMEOUT_S = 30  # for the first line
MAX_LINE = 4096

LinkMaker = Callable[[str, str], GatewayLink]  # (table, token) → link
Sender = Callable[[list[HostMessage]], Awaitable[None]]


class TableManagerHost:
    def __init__(self, gateway_url: str, link_maker: LinkMaker | None = None,
                 presence: Presence | None = None):
        self.gateway_url = gateway_url
        self.presence = presence or NoPresence()
        self.make_link = link_maker or (lambda table, token: GatewayLink(gateway_url, table,
                                                                         token))
        self.seated: dict[tuple[str, str], int] = {}  # (table, seat) → robots connected

    async def serve(self, host: str, port: int) -> asyncio.Server:
        return await asyncio.start_server(self.connection, host, port, limit=MAX_LINE)

    async def connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                         ) -> None:
        peer = writer.get_extra_info("peername")
        try:
            await self._converse(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            log.info("robot at %s went away", peer)
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                        ) -> None:
        async def send(messages: list[HostMessage]) -> None:
            for message in messages:
                writer.write((write(message) + "\r\n").encode())
            await writer.drain()

        try:
            first = await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT_S)
        except TimeoutError:
            await send([HostError("no Connecting line within 30 s")])
            return
        credential = await self._admit(first.decode(errors="replace"), send)
        if credential is None:
            return
        link = self.make_link(credential.table, credential.token)
        try:
            try:
                await link.check()
            except Refusal as refusal:
                await send([HostError(f"refused: {refusal} (status {refusal.status})")])
                return
            await self._seated(credential, link, reader, send, writer.close)
        finally:
            await link.close()

    async def _admit(self, line: str, send: Sender
                     ) -> Credential | None:
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
        try:
            return credential_from(hello.name, hello.seat)
        except CredentialError as error:
            await send([HostError(f"refused: {error}")])
            return None

    async def _seated(self, credential: Credential, link: GatewayLink,
                      reader: asyncio.StreamReader, send: Sender,
                      hang_up: Callable[[], None]) -> None:
        session = RobotSession(credential.seat)
        key = (credential.table, credential.seat.name)
        self.seated[key] = self.seated.get(key, 0) + 1
        log.info("robot %r seated at %s %s", credential.label, *key)
        await self.presence.seated(*key, credential.label)
        await send([Seated(credential.seat, credential.label)])
        lock = asyncio.Lock()  # one writer of the session at a time: lines and states

        async def follow() -> None:
            try:
                async for board in link.states():
                    async with lock:
                        await send(session.on_view(board))
            except (ConnectionError, asyncio.CancelledError):
                raise
            except Exception:  # a bug: the robot would wait for ever; hang up, it may return
                log.exception("following %s %s failed: the robot is disconnected", *key)
                hang_up()

        follower = asyncio.create_task(follow(), name=f"robot-feed-{key}")
        try:
            while True:
                raw = await reader.readline()
                if not raw:
                    return
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
                    await send(outcome.replies)
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
            self.seated[key] -= 1
            if not self.seated[key]:
                await self.presence.left(*key, credential.label)
            log.info("robot %r left %s %s: the seat waits for it", credential.label, *key)

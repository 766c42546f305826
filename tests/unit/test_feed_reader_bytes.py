"""The hot table's pair (`bench/paired_bench.py hot`): the audience's reader (`feed_reader.c`)
counts the bytes of the updates' frames it is sent, header included, so that the kernel floor
can be given updates of the same size as ours (the ratio then our code's cost, not the
payload's)."""

from __future__ import annotations

import array
import asyncio
import fcntl
import shutil
import termios
import time
from pathlib import Path

import pytest

from bench.feed_bench import READER_SOURCE, CReader
from bench.stack_args import compiled
from services.gateway.feeds.fanout import Message
from tests.helpers import run, wait_for_async

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="no C compiler for bench/feed_reader.c")


def test_the_reader_counts_the_bytes_of_the_updates_it_is_sent(tmp_path: Path) -> None:
    updates = [Message(f'{{"board":{{"written":{time.time()},"pad":"{"x" * size}"}}}}').frame
               for size in (10, 200, 70000)]  # each length's header: 2, 4 and 10 bytes

    async def scenario() -> None:
        connected: asyncio.Queue[asyncio.StreamWriter] = asyncio.Queue()

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\n\r\n" + Message('{"board":{}}').frame)
            await connected.put(writer)
            await reader.read()  # until the reader goes

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader = CReader(compiled(READER_SOURCE, tmp_path / "feed_reader"))
        await reader.open([f"ws://127.0.0.1:{port}/api/tables/hot/feed"])
        writer = await connected.get()
        reader.start()
        assert reader.proc is not None and reader.proc.stdin is not None
        await reader.proc.stdin.drain()
        pipe = reader.proc.stdin.get_extra_info("pipe").fileno()

        async def started() -> bool:  # the reader took "start" off its stdin: counting
            waiting = array.array("i", [0])
            fcntl.ioctl(pipe, termios.FIONREAD, waiting)
            return waiting[0] == 0

        await wait_for_async(started, 10, "the reader counting")
        for frame in updates:
            writer.write(frame)
        await writer.drain()
        delivered = await reader.finish(len(updates))
        await reader.close()
        server.close()
        assert delivered.received == len(updates)
        assert delivered.frame_bytes == sum(len(frame) for frame in updates)

    run(scenario())

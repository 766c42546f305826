"""The gateway's side of one hot update, alone: where the microseconds a socket go.

`--sockets` loopback connections in this process, their server ends uvloop transports under
a stand-in for uvicorn's WebSocket protocol (the attributes `ws_frames.ConnectionSink` reads),
each a spectator's `Subscription` with that sink; an update of the bench's board offered to
them all by `fanout.fan_out`, `--updates` times, the client ends drained between updates (not
timed). Times are this process's CPU (`time.process_time`: a loaded machine's waits left
out). Printed: µs a socket of the whole fan-out; of the fan-out to sinks whose transports
write nowhere (the Python's share); of the same frame written by a bare loop of
`transport.write` (the transports' share); of `socket.send` from Python (the kernel's share,
no transport); then `--profile`: cProfile's top functions of the fan-outs.

    python bench/hot_fanout_profile.py [--sockets 2000] [--updates 50] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import socket
import sys
import time
from pathlib import Path
from typing import Any

import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository
from bench.feed_bench import board
from services.gateway.feeds.fanout import Audience, Subscription, _order, fan_out
from services.gateway.feeds.feed_frames import BoardFrames
from services.gateway.feeds.ws_frames import ConnectionSink, Watched


class Nowhere:
    """A transport that takes every frame and sends none."""

    write = staticmethod(len)

    def is_closing(self) -> bool:
        return False


class Stand(asyncio.Protocol, Watched):
    """What `ConnectionSink` reads of uvicorn's protocol, on a real transport; its sink told
    when it pauses, as `ws_frames.FrameProtocol` tells it."""

    def __init__(self) -> None:
        self.handshake_complete, self.close_sent, self.disconnected = True, False, False
        self.writable = asyncio.Event()
        self.writable.set()
        self.transport: Any = None
        self.sink: ConnectionSink | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def pause_writing(self) -> None:
        self.writable.clear()
        if self.sink is not None:
            self.sink.stop()

    def resume_writing(self) -> None:
        self.writable.set()


def drain(clients: list[socket.socket]) -> None:
    for c in clients:
        try:
            while c.recv(1 << 16):
                pass
        except BlockingIOError:
            pass


async def main(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    clients, stands, raws = [], [], []
    for _ in range(args.sockets):
        c = socket.create_connection(("127.0.0.1", port))
        s, _ = listener.accept()
        c.setblocking(False)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        raw = s.dup()
        raw.setblocking(False)
        _, stand = await loop.connect_accepted_socket(Stand, s)
        clients.append(c)
        stands.append(stand)
        raws.append(raw)
    frames = BoardFrames()
    subs = []
    for stand in stands:
        sub = Subscription("hot", "spectator",
                           lambda entry_id, fields: frames.frame(entry_id, fields, lambda b: b))
        sub.sink = stand.sink = ConnectionSink(stand)
        subs.append(sub)
    idle = []
    for _ in stands:
        stand = Stand()
        stand.transport = Nowhere()
        sub = Subscription("hot", "spectator",
                           lambda entry_id, fields: frames.frame(entry_id, fields, lambda b: b))
        sub.sink = stand.sink = ConnectionSink(stand)
        idle.append(sub)
    subs_audience, idle_audience = Audience(subs), Audience(idle)
    fanned, python, bare, kernel = [], [], [], []
    profile = cProfile.Profile() if args.profile else None
    for n in range(args.updates):
        entry = f"{1_700_000_000_000 + n}-0"
        fields = {b"version": str(n).encode(), b"board": board(12, time.time()).encode()}
        if profile is not None:
            profile.enable()
        t = time.process_time()
        fan_out(subs_audience, entry, _order(entry), fields)
        fanned.append(time.process_time() - t)
        if profile is not None:
            profile.disable()
        t = time.process_time()
        fan_out(idle_audience, entry, _order(entry), fields)
        python.append(time.process_time() - t)
        frame = subs[0].queue.qsize() == 0 and frames.frame(entry, fields, lambda b: b)
        await asyncio.sleep(0)
        drain(clients)
        assert all(s.queue.empty() for s in subs), "a socket's frame was queued, not written"
        data = (b"\x81\x7e" + len(str(frame)).to_bytes(2, "big") + str(frame).encode())
        t = time.process_time()
        for stand in stands:
            stand.transport.write(data)
        bare.append(time.process_time() - t)
        await asyncio.sleep(0)
        drain(clients)
        t = time.process_time()
        for raw in raws:
            raw.send(data)
        kernel.append(time.process_time() - t)
        drain(clients)
    size = len(data)
    for name, times in (("fan_out (ours)", fanned), ("fan_out, writing nowhere", python),
                        ("transport.write loop", bare),
                        ("socket.send loop", kernel)):
        times.sort()
        print(f"{name:24} median {1e6 * times[len(times) // 2] / args.sockets:6.2f} µs a "
              f"socket, min {1e6 * times[0] / args.sockets:6.2f} ({args.sockets} sockets, "
              f"{size} bytes a frame)")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(14)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--updates", type=int, default=50)
    parser.add_argument("--profile", action="store_true")
    uvloop.run(main(parser.parse_args()))

"""A request's body, whatever its framing (docs/api.md, 413): a body sent in chunks announces
no length, and was read whole before its token was checked (256 MiB with no token took the
gateway from 70 MB to 581 MB before its 401). The token is checked before a byte of the body
is read, and the bytes are counted as they come: the answer arrives while the client is still
sending, the gateway holds no more of it than its limit, and nothing is appended."""

from __future__ import annotations

import json
import select
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import new_table
from tests.integration.test_pipeline import end_offset
from tests.stack import Stack

CHUNK = 64 * 1024
MOST = 64 * 2**20  # sent at most, in chunks, without an answer: then the body was being read
TABLE = "bodies1"


def rss(stack: Stack) -> int:
    """The gateway's resident memory, in bytes."""
    assert stack.gateway is not None
    status = Path(f"/proc/{stack.gateway.pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS:"))
               .split()[1]) * 1024


def sent_before_the_answer(stack: Stack, path: str, token: str | None
                           ) -> tuple[int, int, int]:
    """POST `path` with a chunked body that never ends, 64 KiB a chunk, until the gateway
    answers or MOST bytes are sent: (the answer's status, bytes sent before it came, how much
    the gateway's memory grew meanwhile, measured as the answer came)."""
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\n"
            + (f"Authorization: Bearer {token}\r\n" if token else "") + "\r\n").encode()
    chunk = f"{CHUNK:x}\r\n".encode() + b'{"x": "' + b"x" * (CHUNK - 7) + b"\r\n"
    with socket.create_connection(("127.0.0.1", stack.gateway_port), timeout=30) as sock:
        before = rss(stack)
        sock.sendall(head)
        sent = 0
        while sent < MOST:
            if select.select([sock], [], [], 0)[0]:
                answer = sock.recv(65536)
                assert answer.startswith(b"HTTP/1.1 "), answer[:100]
                return int(answer.split()[1]), sent, rss(stack) - before
            sock.sendall(chunk)
            sent += CHUNK
        raise AssertionError(f"{path}: no answer after {sent} bytes of body: it is being read")


@pytest.fixture(scope="module")
def tokens(stack: Stack) -> dict[str, Any]:
    return new_table(stack, TABLE)


@pytest.mark.parametrize(("path", "who", "status", "most"), [
    (f"/api/tables/{TABLE}/players", None, 401, 0),  # the adversary's request
    (f"/api/tables/{TABLE}/players", "director", 413, 4096),
    (f"/api/tables/{TABLE}/events", None, 401, 0),
    (f"/api/tables/{TABLE}/events", "seat", 413, 4096),
    ("/api/tournaments", "seat", 403, 0),  # an upload is the director's: not read for a seat
    ("/api/tournaments", "director", 413, 4 * 2**20),
])
def test_a_chunked_body_is_answered_before_it_is_read_whole(
        stack: Stack, tokens: dict[str, Any], path: str, who: str | None, status: int,
        most: int) -> None:
    """Past the limit (4 KiB; 4 MiB for an upload), or before a byte of it without a token
    that allows it, the body is answered while the client sends it, and the gateway holds at
    most `most` bytes of it (with room for what else the process allocates meanwhile)."""
    token = {None: None, "director": stack.director, "seat": tokens["seats"]["N"]}[who]
    before = end_offset(stack, TABLE)
    answered, sent, grown = sent_before_the_answer(stack, path, token)
    print(f"\n{path} {who}: {answered} after {sent / 2**20:.1f} MiB sent; the gateway's "
          f"memory grew {grown / 2**20:.1f} MiB")
    assert answered == status
    assert grown < 2 * most + 8 * 2**20, grown
    assert end_offset(stack, TABLE) == before


def test_a_chunked_body_within_the_limit_reaches_its_route(stack: Stack,
                                                           tokens: dict[str, Any]) -> None:
    """The body the guard has read and counted is the one the route reads."""
    body = json.dumps({"players": {"N": "Ann", "S": "Bob"}}).encode()
    with stack.client(stack.director) as http:
        response = http.post(f"/api/tables/{TABLE}/players",
                             content=iter([body[:10], body[10:]]),
                             headers={"content-type": "application/json"})
    assert response.status_code == 202, response.text

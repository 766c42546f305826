"""Signed tokens are read strictly (docs/api.md, tokens): one spelling per token, and
claims of the types and values `sign` writes; anything else is a 401, never a 500."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

import pytest

from services.common.settings import Settings
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Grant, TokenError, sign, verify

KEY = b"k" * 32
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def signed(claims: Any, key: bytes = KEY) -> str:
    """A token over any claims, signed with the real key: what only a holder of the key, or
    a bug in the issuer, could make."""
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    mac = hmac.new(key, f"v1.{payload}".encode(), hashlib.sha256).digest()
    return f"v1.{payload}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def other_spelling(part: str) -> str:
    """The same bytes in base64url with other stray bits in the last character (a lenient
    decoder reads both alike)."""
    last = ALPHABET.index(part[-1])
    stray = {2: 0b1111, 3: 0b11}[len(part) % 4]  # bits past the data in the last character
    return part[:-1] + ALPHABET[(last & ~stray) | (~last & stray & 1)]


def gateway() -> Gateway:
    return Gateway(Settings(TABLESERVER_SIGNING_KEY=KEY.decode(),
                            TABLESERVER_DIRECTOR_TOKEN="d" * 32))


def test_a_token_has_one_spelling() -> None:
    token = sign(KEY, "t1", "N", "seat", expires=2**40)
    head, payload, signature = token.split(".")
    assert base64.urlsafe_b64decode(other_spelling(signature) + "=") == \
        base64.urlsafe_b64decode(signature + "=")  # the same signature, spelt otherwise
    spellings = [token + "!!", token + "=", token + "==", token + "~", f"{token[:-1]}!{token[-1]}",
                 f"{head}.{payload}.{other_spelling(signature)}",
                 f"{head}.{payload}=.{signature}", f"{head}. {payload}.{signature}",
                 f"{head}.{payload}.{signature}\n"]
    for spelling in spellings:
        with pytest.raises(TokenError):
            verify(KEY, spelling, now=0)
    assert verify(KEY, token, now=0) == Grant("t1", "N", "seat")


def test_another_spelling_takes_no_slot_in_the_verified_cache() -> None:
    gw = gateway()
    token = sign(KEY, "t1", "N", "seat", expires=2**40)
    assert gw.grant_of(token) == Grant("t1", "N", "seat")
    for junk in ("!!", "!!!!", "**", "%%"):
        with pytest.raises(Refused) as refused:
            gw.grant_of(token + junk)
        assert refused.value.kind == Kind.UNAUTHORIZED
    assert list(gw.verified) == [token]


GOOD = {"t": "t1", "s": "N", "r": "seat", "e": 2**40}


@pytest.mark.parametrize("claims", [
    {**GOOD, "s": None}, {**GOOD, "s": "Q"}, {**GOOD, "s": "n"}, {**GOOD, "s": 1},
    {**GOOD, "s": ["N"]}, {**GOOD, "r": "spectator"}, {**GOOD, "r": "operator"},
    {**GOOD, "r": "director", "s": None}, {**GOOD, "r": None},
    {**GOOD, "e": "soon"}, {**GOOD, "e": "99999999999"}, {**GOOD, "e": True},
    {**GOOD, "e": 1.5e12}, {**GOOD, "e": None}, {**GOOD, "e": -1}, {**GOOD, "e": 10**30},
    {**GOOD, "t": None}, {**GOOD, "t": 5}, {**GOOD, "t": ["t1"]}, {**GOOD, "t": "../t1"},
    {**GOOD, "t": ""}, {**GOOD, "t": "tournament:spring"},
    {"t": "spring", "s": None, "r": "vugraph", "e": 2**40},
    {"t": "tournament:", "s": None, "r": "vugraph", "e": 2**40},
    {"t": "tournament:a b", "s": None, "r": "vugraph", "e": 2**40},
    {k: v for k, v in GOOD.items() if k != "e"}, {k: v for k, v in GOOD.items() if k != "s"},
    {**GOOD, "x": 1}, ["t1", "N", "seat", 2**40], "t1", 7, None],
    ids=repr)
def test_claims_sign_never_writes_are_refused(claims: Any) -> None:
    token = signed(claims)
    with pytest.raises(TokenError, match="malformed"):
        verify(KEY, token, now=0)
    with pytest.raises(Refused) as refused:
        gateway().grant_of(token)
    assert refused.value.kind == Kind.UNAUTHORIZED


def test_the_claims_sign_writes_are_taken() -> None:
    assert verify(KEY, signed(GOOD), now=0) == Grant("t1", "N", "seat")
    for role in ("spectator", "operator"):
        assert verify(KEY, sign(KEY, "t-1_x", None, role, 2**40), now=0) == \
            Grant("t-1_x", None, role)
    assert verify(KEY, sign(KEY, "tournament:spring-24", None, "vugraph", 2**40), now=0) \
        == Grant("tournament:spring-24", None, "vugraph")


def test_a_payload_nested_past_pythons_limit_is_malformed() -> None:
    """json.loads raises RecursionError, not ValueError, on a payload nested this deep."""
    payload = base64.urlsafe_b64encode(b"[" * 100_000 + b"]" * 100_000).rstrip(b"=").decode()
    mac = hmac.new(KEY, f"v1.{payload}".encode(), hashlib.sha256).digest()
    token = f"v1.{payload}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"
    with pytest.raises(TokenError, match="malformed"):
        verify(KEY, token, now=0)

"""Every route behind the Director's dependency refuses anyone else: a seat's token (the
commonest token in players' hands), a player's evening link and no token at all get 403 or
401 from each, and nothing is appended anywhere. Found from the app's routes themselves, so a
route added later (the rounds' clock was one) is checked without a test of its own."""

from __future__ import annotations

import importlib
import pkgutil
import re
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.routing import APIRoute

from services.gateway.http import routes
from services.gateway.http.deps import director
from services.gateway.tokens import PlayerScope, Role, sign, sign_player
from tests.fakes import MemoryKafka

YEAR_S = 365 * 24 * 3600


def _needs(dependant: object, call: object) -> bool:
    found = getattr(dependant, "call", None) is call
    return found or any(_needs(d, call) for d in getattr(dependant, "dependencies", []))


def _director_routes() -> Iterator[tuple[str, str]]:
    """Each route module's router (`services.gateway.http.routes`: the app includes them all)."""
    for info in pkgutil.iter_modules(routes.__path__):
        router = getattr(importlib.import_module(f"{routes.__name__}.{info.name}"), "router",
                         None)
        for route in router.routes if router is not None else []:
            if isinstance(route, APIRoute) and _needs(route.dependant, director):
                path = re.sub(r"\{[^}]+\}", "club", route.path)
                for method in sorted(route.methods - {"HEAD"}):
                    yield method, path


ROUTES = sorted(set(_director_routes()))


def test_the_routes_found_include_the_clock_and_the_tournaments() -> None:
    assert ("POST", "/api/tournaments/club/clock") in ROUTES
    assert ("POST", "/api/tournaments") in ROUTES
    assert len(ROUTES) >= 20


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_a_director_route_refuses_a_seat_a_player_and_no_token(
        http: httpx.AsyncClient, kafka: MemoryKafka, method: str, path: str) -> None:
    key = b"k" * 32  # director_gateway's signing key
    expires = int(time.time()) + YEAR_S
    tokens = {"seat": sign(key, "club-1", "N", Role.SEAT, expires),
              "player": sign_player(key, PlayerScope("club", 1, 1, 1), expires)}
    before = {tp: len(log) for tp, log in kafka.partitions.items()}
    for whose, token in tokens.items():
        answer = await http.request(method, path, json={},
                                    headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 403, (whose, answer.text)
    anonymous = await http.request(method, path, json={}, headers={"Authorization": ""})
    assert anonymous.status_code in (401, 403), anonymous.text
    assert {tp: len(log) for tp, log in kafka.partitions.items()} == before


async def test_the_director_himself_gets_past_the_door(http: httpx.AsyncClient) -> None:
    """The refusals above are the door's: the Director's own request to the same route goes
    on to its answer (here: no such tournament)."""
    answer = await http.post("/api/tournaments/club/clock", json={"action": "hold"})
    assert answer.status_code == 404, answer.text

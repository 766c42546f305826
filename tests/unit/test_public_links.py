"""The public address (`TABLESERVER_PUBLIC_URL`, services/common/public_links.py): an origin
checked as a setting, and every link the gateway serves (tables, operators, tournaments, their
vugraph lists) or the command line prints (`tableserver tournament create`) made with it. The
same through the TLS front on the real stack: tests/integration/test_tls_front.py."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from services.cli.main import main
from services.common.public_links import public_link, public_origin
from services.common.settings import Settings
from services.gateway.tables.service import Gateway
from tests.fakes import (
    DIRECTOR,
    MemoryKafka,
    MemoryStore,
    director_client,
    gateway_adapters,
    memory_history,
)
from tests.helpers import DEALS

PUBLIC = "https://bridge.club.example"


@pytest.mark.parametrize(("given", "origin"), [
    ("https://bridge.club.example", PUBLIC),
    ("https://Bridge.Club.Example/", PUBLIC),  # a trailing slash, a host's capitals
    ("http://192.0.2.7:8080", "http://192.0.2.7:8080"),
])
def test_an_origin_is_taken_as_it_is_meant(given: str, origin: str) -> None:
    assert public_origin(given) == origin


@pytest.mark.parametrize(("given", "said"), [
    ("bridge.club.example", "give http:// or https:// and a host"),
    ("ftp://bridge.club.example", "give http:// or https:// and a host"),
    ("https://bridge.club.example/evening", "an origin only"),
    ("https://bridge.club.example/?a=1", "an origin only"),
    ("https://bridge.club.example:port", "is not a URL"),
])
def test_a_public_address_that_is_no_origin_stops_a_service_naming_the_setting(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, given: str, said: str) -> None:
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))
    monkeypatch.setenv("TABLESERVER_PUBLIC_URL", given)
    with pytest.raises(SystemExit) as stopped:
        Settings()
    assert str(stopped.value).startswith("setting TABLESERVER_PUBLIC_URL: ")
    assert said in str(stopped.value)


def test_a_link_is_at_the_public_address_or_stays_relative() -> None:
    assert public_link(PUBLIC, "/seat#v1.a") == f"{PUBLIC}/seat#v1.a"
    assert public_link("", "/seat#v1.a") == "/seat#v1.a"
    assert public_link("http://127.0.0.1:8000", f"{PUBLIC}/seat#v1.a") == f"{PUBLIC}/seat#v1.a"


def test_the_public_address_is_an_allowed_origin_beside_the_listed_ones(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))
    monkeypatch.setenv("TABLESERVER_ORIGINS", "https://a.example")
    monkeypatch.setenv("TABLESERVER_PUBLIC_URL", PUBLIC + "/")
    assert Settings().allowed_origins == {"https://a.example", PUBLIC}
    monkeypatch.delenv("TABLESERVER_ORIGINS")
    assert Settings().allowed_origins == set()  # no list: every origin, as before


@pytest.fixture
async def http(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The director's client of a gateway (on the fakes) whose public address is PUBLIC,
    asked at another address (as a club's director asks it on the club's own network)."""
    kafka = MemoryKafka(shards=8)
    gw = Gateway(Settings(TABLESERVER_DATA=tmp_path, TABLESERVER_SIGNING_KEY="k" * 32,
                          TABLESERVER_DIRECTOR_TOKEN=DIRECTOR, TABLESERVER_PUBLIC_URL=PUBLIC),
                 gateway_adapters(kafka, store=MemoryStore(), history=memory_history(kafka)))
    async with director_client(gw, "http://10.0.0.5:8000") as client:
        yield client


async def test_every_link_the_gateway_serves_is_at_the_public_address(
        http: httpx.AsyncClient) -> None:
    made = (await http.post("/api/tables", json={"table": "t1"})).json()
    assert made["links"] == {s: f"{PUBLIC}/seat#{made['seats'][s]}" for s in "NESW"}
    assert made["vugraph"] == f"{PUBLIC}/vugraph#{made['spectator']}"
    again = (await http.get("/api/tables/t1/links")).json()
    assert again["links"]["E"] == f"{PUBLIC}/seat#{again['seats']['E']}"
    operator = (await http.post("/api/tables/t1/operator", json={})).json()
    assert operator["link"] == f"{PUBLIC}/capture#{operator['token']}"
    tournament = await http.post("/api/tournaments", json={
        "tournament": "spring", "tables": 2, "deals": DEALS})
    assert tournament.status_code == 201, tournament.text
    view = tournament.json()
    assert view["vugraph"].startswith(f"{PUBLIC}/vugraph#v1.")
    assert view["results"] == f"{PUBLIC}/results#spring"
    assert [t["links"]["N"] for t in view["tables"]] == [
        f"{PUBLIC}/seat#{t['seats']['N']}" for t in view["tables"]]
    assert (await http.get("/api/tournaments/spring/links")).json()["results"] == \
        view["results"]
    lobby = (await http.get("/api/tournaments/spring/vugraph")).json()
    assert [line["link"][:len(PUBLIC) + 12] for line in lobby["tables"]] == [
        f"{PUBLIC}/vugraph#v1."] * 2


def test_the_command_line_prints_its_links_at_the_public_address(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """`tableserver tournament create` with the public address set, from a gateway that
    gives its links relative: each printed link is at the public address, not at the
    gateway the command asked."""
    def created(request: httpx.Request) -> httpx.Response:
        return httpx.Response(201, json={
            "tournament": "t9", "name": "t9", "created": True, "boards": [1],
            "tables": [{"table": "t9-1", "seats": {s: f"t9-1.{s}" for s in "NESW"},
                        "spectator": "t9-1.spectator",
                        "links": {s: f"/seat#t9-1.{s}" for s in "NESW"}}],
            "vugraph": "/vugraph#t9.vugraph", "results": "/results#t9"})

    def answer(method: str, url: str, **options: object) -> httpx.Response:
        with httpx.Client(transport=httpx.MockTransport(created)) as client:
            return client.request(method, url, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(httpx, "request", answer)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TABLESERVER_DIRECTOR_TOKEN", DIRECTOR)
    monkeypatch.setenv("TABLESERVER_GATEWAY", "http://127.0.0.1:23999")
    monkeypatch.setenv("TABLESERVER_PUBLIC_URL", PUBLIC)
    deals = Path(__file__).parent.parent / "data" / "deals-32.pbn"
    assert main(["tournament", "create", "t9", "--tables", "1", "--deals", str(deals)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines()[1:] == [
        f"vugraph, every table for spectators: {PUBLIC}/vugraph#t9.vugraph",
        f"results, for everyone: {PUBLIC}/results#t9"]
    assert json.loads(out)["t9-1"]["links"] == {s: f"{PUBLIC}/seat#t9-1.{s}" for s in "NESW"}

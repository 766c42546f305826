"""`tableserver tournament players|reissue|move` without a gateway: the requests they send (to a
fake transport) and what they print."""

from __future__ import annotations

import json

import httpx
import pytest

from services.cli.main import main
from tests.unit.test_tournament_cli import FakeGateway, gateway_env  # noqa: F401

LINKS = {"tournament": "spring", "name": "Spring", "players": [
    {"entrant": 1, "entrant_name": "A", "place": 1, "name": "Ann", "player_id": "",
     "generation": 1, "sits_as": [1, 1], "token": "tok-a", "link": "/play#tok-a"},
    {"entrant": 1, "entrant_name": "A", "place": 2, "name": "", "player_id": "",
     "generation": 2, "sits_as": [1, 2], "token": "tok-b", "link": "/play#tok-b"}]}


def answer(request: httpx.Request) -> httpx.Response:
    if request.url.path.endswith("/reissue"):
        return httpx.Response(201, json={"entrant": 1, "place": 2, "generation": 3,
                                         "token": "tok-c", "link": "/play#tok-c"})
    if request.url.path.endswith("/moves"):
        return httpx.Response(201, json=json.loads(request.content))
    return httpx.Response(200, json=LINKS)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeGateway:
    gateway = FakeGateway(answer)
    monkeypatch.setattr(httpx, "request", gateway)
    return gateway


@pytest.mark.usefixtures("gateway_env")
def test_players_prints_each_players_link_on_the_gateway(
        fake: FakeGateway, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "players", "spring"]) == 0
    sent = fake.requests[0]
    assert (sent.method, sent.url.path, sent.url.params["format"]) == (
        "GET", "/api/tournaments/spring/players", "json")
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["1.1", "Ann", "http://127.0.0.1:23999/play#tok-a"]
    assert out[2].split() == ["1.2", "player", "2", "http://127.0.0.1:23999/play#tok-b"]


@pytest.mark.usefixtures("gateway_env")
def test_reissue_and_move_send_the_directors_requests(
        fake: FakeGateway, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "players", "spring", "--reissue", "1.2"]) == 0
    assert main(["tournament", "players", "spring", "--move", "1.2=3.1"]) == 0
    reissue, move = fake.requests
    assert (reissue.method, reissue.url.path) == (
        "POST", "/api/tournaments/spring/players/1/2/reissue")
    assert (move.method, move.url.path) == ("POST", "/api/tournaments/spring/players/moves")
    assert json.loads(move.content) == {"entrant": 1, "place": 2, "to_entrant": 3,
                                        "to_place": 1}
    out = capsys.readouterr().out
    assert "http://127.0.0.1:23999/play#tok-c" in out and "link 3" in out


@pytest.mark.usefixtures("gateway_env")
def test_a_place_of_nought_is_refused_with_the_usage(
        fake: FakeGateway, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "players", "spring", "--reissue", "1.0"])
    assert exit_.value.code == 2 and "is not a player" in capsys.readouterr().err
    assert fake.requests == []

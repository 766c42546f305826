"""Retries (docs/api.md, "Retries"), without Kafka: a seat's event sent again with its
`client_seq` once it was appended gets the answer the first send got (202, its offset), whatever
its type and whatever the state has become; a retry is known by its sender (a card declarer
plays from dummy is declarer's, Law 45), so dummy's own `client_seq`s do not swallow it. The
gateway with its adapters in memory (tests/fakes.py); the state kept as the processor keeps it,
the table's log folded after each event."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from services.common.errors import Unavailable
from services.common.names import table_topic
from services.common.settings import Settings
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.retries import appended_at
from services.gateway.tables.service import Gateway
from services.gateway.tables.views import entry_for
from services.gateway.tokens import Grant, Role
from shared import fold, from_map
from shared.codec import decode, encode
from shared.events import CardPlayed
from shared.seats import Seat
from shared.table.engine import TableState
from tests.fakes import MemoryAppender, MemoryKafka, MemoryStore, gateway_adapters, memory_history
from tests.helpers import DEAL
from tests.script import lowest_legal

pytestmark = pytest.mark.unit

# N declares 1S: S is dummy, E leads; each seat numbers its own events from its own start
AUCTION = [("N", "1S"), ("E", "P"), ("S", "P"), ("W", "P")]
FIRST_SEQ = {"N": 100, "E": 200, "S": 300, "W": 400}
OTHER_DEAL = "N:JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6 4.KJ32.842.AQ743"


def seat(letter: str) -> Grant:
    return Grant("t", letter, Role.SEAT)


class Table:
    """Table `t` behind a gateway in memory; its state in the store is the fold of its whole
    topic, written after each event (a processor that is never behind)."""

    def __init__(self, kafka: MemoryKafka, store: MemoryStore, gw: Gateway) -> None:
        self.kafka, self.store, self.gw = kafka, store, gw
        self.seqs = {s: iter(range(first, first + 1000)) for s, first in FIRST_SEQ.items()}

    def records(self) -> list[bytes | None]:
        return [value for _, value in self.kafka.records(table_topic("t"))]

    def state(self) -> TableState:
        return fold(decode(value or b"") for value in self.records())

    def folded(self) -> None:
        state = self.state()
        assert state.board is not None
        self.store.states["t"] = (len(self.records()) - 1, dict(state.board.to_dict()))

    def director(self, event: dict[str, Any]) -> None:
        """A board or round the director starts (its own route, not a seat's events)."""
        self.kafka.call("t", encode(from_map(event)))
        self.folded()

    async def send(self, sender: str, body: dict[str, Any]) -> int:
        """A seat's event: its offset (the state folded after it)."""
        offset = (await self.gw.accept_event("t", seat(sender), body)).offset
        self.folded()
        return offset

    async def numbered(self, sender: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """`body` sent with the sender's next `client_seq`: its offset, and the body sent."""
        body = {**body, "client_seq": next(self.seqs[sender])}
        return await self.send(sender, body), body

    async def auction(self) -> None:
        for caller, call in AUCTION:
            await self.numbered(caller, {"type": "call", "call": call})

    async def play_out(self, deal: str = DEAL) -> list[tuple[str, dict[str, Any], int]]:
        """The board's 52 cards after its auction, each the lowest legal one (declarer sends
        dummy's): (sender, body, offset) of each."""
        sent = []
        for _ in range(52):
            card = lowest_legal(self.state(), deal)
            sender = "N" if card["seat"] == "S" else card["seat"]
            body = {"type": "card_played", "card": card["card"]}
            if sender != card["seat"]:
                body["seat"] = card["seat"]
            offset, body = await self.numbered(sender, body)
            sent.append((sender, body, offset))
        return sent

    def play(self) -> dict[str, Any]:
        play: dict[str, Any] = self.store.states["t"][1]["play"]
        return play


@pytest.fixture
async def table(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))
    kafka = MemoryKafka(shards=8)
    kafka.register("t")
    store = MemoryStore()
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate", "created": 1}})
    gw = Gateway(Settings(), gateway_adapters(kafka, store=store, producer=MemoryAppender(kafka),
                                              history=memory_history(kafka)))
    return Table(kafka, store, gw)


async def started(table: Table) -> Table:
    table.director({"type": "board_started", "board": 1, "deal": DEAL})
    await table.auction()
    return table


async def test_a_retried_card_gets_the_offset_its_first_send_got(table: Table) -> None:
    """A retry by its sender: E's opening lead and declarer's card from dummy (Law 45), each
    appended and folded, sent again with their `client_seq` (their 202 lost): each answered
    with its first offset, nothing appended. The same card with another `client_seq` is no
    retry: played already, a 400 naming `card`."""
    await started(table)
    lead, lead_body = await table.numbered("E", {"type": "card_played", "card": "DA"})
    dummys, dummys_body = await table.numbered(
        "N", {"type": "card_played", "card": "D6", "seat": "S"})
    appended = len(table.records())
    assert (await table.gw.accept_event("t", seat("E"), lead_body)).offset == lead
    assert (await table.gw.accept_event("t", seat("N"), dummys_body)).offset == dummys
    assert len(table.records()) == appended
    with pytest.raises(Refused) as refused:
        await table.gw.accept_event("t", seat("E"), {**lead_body, "client_seq": 299})
    assert (refused.value.kind, refused.value.field) == (Kind.BAD_INPUT, "card")
    assert "played already" in refused.value.reason


async def test_the_last_cards_retry_once_the_board_is_over(table: Table) -> None:
    """Item 7: the 52nd card ends the play (the thirteenth trick); its retry is not a card for
    a next board (a 409 to send it again, for ever): it gets its first offset."""
    await started(table)
    sender, body, offset = (await table.play_out())[-1]
    assert table.store.states["t"][1]["result"] is not None
    appended = len(table.records())
    assert (await table.gw.accept_event("t", seat(sender), body)).offset == offset
    assert len(table.records()) == appended


async def test_a_rounds_next_board_does_not_refuse_the_retries_of_the_board_before(
        table: Table) -> None:
    """Item 7, in a round: board 1's cards (its last one, which started board 2, and
    declarer's from dummy, Law 45) sent again once board 2 is under way are answered with
    their offsets: not judged against board 2's deal and dummy, nothing appended; board 2 is
    as it was."""
    table.director({"type": "round_started", "round": 1, "boards": [
        {"board": 1, "deal": DEAL}, {"board": 2, "deal": OTHER_DEAL}]})
    await table.auction()
    sent = await table.play_out()
    board = table.store.states["t"][1]
    assert board["board"] == 2 and board["status"] == "auction"
    appended = len(table.records())
    for sender, body, offset in sent:
        assert (await table.gw.accept_event("t", seat(sender), body)).offset == offset
    assert len(table.records()) == appended and table.store.states["t"][1] == board


async def test_an_explanation_retried_on_the_rounds_next_board(table: Table) -> None:
    """Item 7, whatever the event's type: N explains his own call (Law 20F, online), the board
    is passed out and the round's next one starts; N's explanation sent again is not judged
    against board 2, where no call stands at its index yet (a 409 for ever): its offset."""
    table.director({"type": "round_started", "round": 1, "boards": [
        {"board": 1, "deal": DEAL}, {"board": 2, "deal": OTHER_DEAL}]})
    await table.numbered("N", {"type": "call", "call": "P"})
    offset, body = await table.numbered("N", {"type": "explanation", "index": 0,
                                              "explanation": "nothing to open"})
    for caller in "ESW":
        await table.numbered(caller, {"type": "call", "call": "P"})
    assert table.store.states["t"][1]["board"] == 2
    assert (await table.gw.accept_event("t", seat("N"), body)).offset == offset


def test_a_retry_is_looked_for_within_the_board_the_fold_knows_it_on() -> None:
    """The fold folds a sender's `client_seq` once from the last `board_started` on: an event
    before it is not the one sent again (the same card on a new board is judged as new)."""
    card = from_map({"type": "card_played", "seat": "E", "card": "DA", "client_seq": 7})
    records = [(0, encode(from_map({"type": "board_started", "board": 1}))),
               (1, encode(from_map({"type": "card_played", "seat": "E", "card": "DA",
                                    "client_seq": 7, "ts": 5})))]
    assert appended_at(records, card) == 1
    assert appended_at([*records, (2, encode(from_map({"type": "board_started", "board": 2})))],
                       card) is None
    for other in ({"card": "DK"}, {"client_seq": 8}, {"seat": "W"}):
        assert appended_at(records, from_map({"type": "card_played", "seat": "E", "card": "DA",
                                              "client_seq": 7, **other})) is None


async def test_a_retry_whose_log_cannot_be_read_is_told_to_come_back(table: Table) -> None:
    """A refusal against the state is given once the log says the event is not a retry;
    with Kafka away that cannot be known: a 503 with Retry-After, not the refusal."""
    await started(table)
    _, body = await table.numbered("E", {"type": "card_played", "card": "DA"})
    table.kafka.down = True
    with pytest.raises(Unavailable) as unavailable:
        await table.gw.accept_event("t", seat("E"), body)
    assert unavailable.value.retry_after


async def test_law_45_declarers_card_from_dummy_is_known_by_its_sender(table: Table) -> None:
    """Whose client_seq: dummy (S) used `client_seq` 300 for his pass; declarer (N), whose own
    numbers are his own, plays dummy's D6 (Law 45) with 300 too. The card is declarer's
    (`by`), not a retry of dummy's pass: it is played (not dropped, not ignored). Its own retry
    gets its offset."""
    await started(table)
    await table.numbered("E", {"type": "card_played", "card": "DA"})
    body = {"type": "card_played", "card": "D6", "seat": "S", "client_seq": 300}
    offset = await table.send("N", body)
    assert [c["card"] for c in table.play()["tricks"][0]["cards"]] == ["DA", "D6"]
    assert table.store.states["t"][1]["ignored"] == []
    sent = decode(table.records()[offset] or b"")
    assert isinstance(sent, CardPlayed) and sent.by is Seat.N
    assert await table.send("N", body) == offset  # its retry


async def test_a_seat_does_not_name_the_sender(table: Table) -> None:
    """`by` comes from the token: a seat's body naming it is bad input (400 naming `by`)."""
    await started(table)
    with pytest.raises(Refused) as refused:
        await table.gw.accept_event("t", seat("E"), {"type": "card_played", "card": "DA",
                                                     "by": "W"})
    assert (refused.value.kind, refused.value.field) == (Kind.BAD_INPUT, "by")


def events(*maps: dict[str, Any], seqs: dict[str, int] | None = None) -> Iterator[Any]:
    """Board 1's auction (its calls numbered by `seqs`, caller → `client_seq`), then `maps`."""
    numbered = seqs or {}
    return (from_map(m) for m in [{"type": "board_started", "board": 1, "deal": DEAL},
                                  *({"type": "call", "seat": s, "call": c,
                                     "client_seq": numbered.get(s)} for s, c in AUCTION),
                                  *maps])


def cards(state: TableState) -> list[str]:
    assert state.board is not None and state.board.play is not None
    return [str(c) for c in state.board.play.cards]


def test_law_45_the_fold_keys_a_card_from_dummy_by_its_sender() -> None:
    """Item 8 in the fold: dummy's event and declarer's card from dummy with the same
    `client_seq` are two senders' (`by`); the card's retry (the same sender, the same
    number) is folded once."""
    state = fold(events({"type": "card_played", "seat": "E", "card": "DA"},
                        *[{"type": "card_played", "seat": "S", "card": "D6", "by": "N",
                           "client_seq": 9}] * 2, seqs={"S": 9}))
    assert cards(state) == ["DA", "D6"]
    assert state.board is not None and state.board.ignored == ()


def test_old_logs_fold_as_they_did() -> None:
    """A log written before `by` keys a card by its hand, as it did: declarer's own card and
    one from dummy with the same `client_seq` are both played; a card from dummy sent twice
    is folded once."""
    state = fold(events({"type": "card_played", "seat": "E", "card": "DA"},
                        *[{"type": "card_played", "seat": "S", "card": "D6",
                           "client_seq": 4}] * 2,
                        {"type": "card_played", "seat": "W", "card": "D3"},
                        {"type": "card_played", "seat": "N", "card": "D2", "client_seq": 4}))
    assert cards(state) == ["DA", "D6", "D3", "D2"]
    assert state.board is not None and state.board.ignored == ()


def test_the_stamps_of_a_card_from_dummy_are_declarers() -> None:
    """A seat's own stamps (`id`, `client_seq`) are kept from the others, his partner first
    (a channel, Law 16): a card declarer (N) plays from dummy is his, not dummy's."""
    entry = {"offset": 9, "event": {"type": "card_played", "seat": "S", "card": "D6",
                                    "by": "N", "client_seq": 301, "id": "n.7"}}
    assert entry_for(seat("N"), entry, 0, 0)["event"]["client_seq"] == 301
    for other in "ESW":
        assert "client_seq" not in entry_for(seat(other), entry, 0, 0)["event"], other

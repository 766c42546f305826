"""Our own robot: a Table Manager client that sits at a seat through the host, as any
third-party robot does, and decides with `shared.robot` (its bidding system; its card by
sampling and double-dummy solving). It knows only what the host tells its seat.

`python -m services.robots.player --seat S --token <seat token> [--boards N] [--seed 1]`
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import time
from dataclasses import dataclass, field
from typing import TypeVar

from services.common.settings import Settings
from services.robots.solving import Solving, ThreadSolving
from shared.calls import Call, Strain
from shared.cards import Card
from shared.robot.sampling import Seen, shown_out
from shared.robot.sayc import decide
from shared.seats import Seat
from shared.table.play import trick_winner
from shared.table_manager import (
    BoardInfo,
    CallMade,
    CardPlayed,
    ClientMessage,
    Connect,
    DummyCards,
    EndOfSession,
    HandCards,
    HostError,
    HostMessage,
    Ready,
    ReadyFor,
    ReadyForCall,
    ReadyForCard,
    Seated,
    StartOfBoard,
    Timing,
    ToLead,
    parse_host_line,
    write,
)

log = logging.getLogger("tableserver.robots.player")
# DDS is one solver per process: a robot run by hand takes turns at this thread with the
# others of its process; the robot pool's robots share its processes (`ProcessSolving`)
SOLVER = ThreadSolving()
T = TypeVar("T")


class HostRefused(Exception):
    """The host answered `Error …`."""


class BoardOver(Exception):
    """`Timing` came in the play before its last trick: the board is over (a claim)."""


class Stands(Exception):
    """The host answered the robot's last call or card with the one its seat made there
    before (`Error your call here was 1H: it stands`): the robot sits in for a player (a
    substitute) or comes back to a board where its seat acted otherwise. It takes that call or
    card as its own and is told the board again from its start."""


# the host's answers to a call or card of a turn its seat already took (shared/table_manager)
_CALL_STANDS = re.compile(r"your call here was (\S+): it stands")
_CARD_STANDS = re.compile(r"the card played here was (\S+): it stands")


@dataclass
class Decisions:
    """How long each decision took, in seconds (bench/robots_bench.py reads them)."""

    calls: list[float] = field(default_factory=list)
    cards: list[float] = field(default_factory=list)


class OurRobot:
    def __init__(self, seat: Seat, token: str, port: int, host: str = "127.0.0.1",
                 label: str = "tableserver-robot", seed: int = 1, samples: int = 20,
                 think_s: float = 0.0, solving: Solving = SOLVER):
        self.seat, self.token, self.port, self.host, self.label = seat, token, port, host, label
        self.seed = seed
        self.samples = samples
        self.think_s = think_s  # a pause before each card: a person's pace (the bench)
        self.solving = solving
        self.board = 0
        self.decisions = Decisions()
        # the calls and cards of this board its seat made before (told by the host's `it
        # stands`), by their place in the auction or the play: sent in place of its own
        self.stands: dict[tuple[str, int], Call | Card] = {}
        self.sent: tuple[str, int] | None = None  # its last call or card: its kind and place
        self.played = 0  # boards played to their end
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def _send(self, message: ClientMessage) -> None:
        assert self.writer is not None
        self.writer.write((write(message) + "\r\n").encode())
        await self.writer.drain()

    async def _receive(self) -> HostMessage:
        assert self.reader is not None
        raw = await self.reader.readline()
        if not raw:
            raise ConnectionError("the host closed the connection")
        message = parse_host_line(raw.decode())
        if isinstance(message, HostError):
            self._stands(message.reason)
            raise HostRefused(message.reason)
        return message

    def _stands(self, reason: str) -> None:
        """Raise `Stands` if the host told the call or card its seat made at the place of the
        robot's last one: that one is the robot's from now on (never decided again)."""
        call, card = _CALL_STANDS.fullmatch(reason), _CARD_STANDS.fullmatch(reason)
        if self.sent is None or (call is None and card is None):
            return
        kind, place = self.sent
        if kind == "call" and call is not None:
            self.stands[kind, place] = Call.parse(call.group(1))
        elif kind == "card" and card is not None:
            self.stands[kind, place] = Card.parse(card.group(1))
        else:
            return
        raise Stands(reason)

    async def _expect(self, kind: type[T]) -> T:
        message = await self._receive()
        if not isinstance(message, kind):
            raise HostRefused(f"expected {kind.__name__}, got {message!r}")
        return message

    async def _in_play(self, kind: type[T]) -> T:
        """`_expect` in the play, where `Timing` may come first: the board is over."""
        message = await self._receive()
        if isinstance(message, Timing):
            raise BoardOver()
        if not isinstance(message, kind):
            raise HostRefused(f"expected {kind.__name__}, got {message!r}")
        return message

    async def play(self, boards: int | None = 1) -> None:
        """Connect, and play `boards` boards (None: until cancelled or disconnected). Told
        that a call or card of its seat stands (`Stands`), it connects again at once and is
        told the board from its start, sending that one at its place: each time one more of
        its seat's earlier turns is known, so it comes to the board's point and goes on."""
        self.played = 0
        while True:
            try:
                await self._session(boards)
                return
            except Stands as stands:
                log.info("%s at board %d: %s; connecting again", self.seat.name, self.board,
                         stands)

    async def _session(self, boards: int | None) -> None:
        """One connection, playing boards until `boards` are played (`self.played`)."""
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.sent = None
        try:
            await self._send(Connect(f"{self.label} {self.token}", self.seat))
            await self._expect(Seated)
            await self._send(Ready(self.seat, ReadyFor.TEAMS))
            await self._receive()
            await self._send(Ready(self.seat, ReadyFor.START))
            while boards is None or self.played < boards:
                message = await self._receive()
                if isinstance(message, EndOfSession):
                    return  # the table's round is over
                if not isinstance(message, StartOfBoard):
                    raise HostRefused(f"expected StartOfBoard, got {message!r}")
                await self._board()
                self.played += 1
        finally:
            self.writer.close()

    async def _board(self) -> None:
        me = self.seat
        await self._send(Ready(me, ReadyFor.DEAL))
        info = await self._expect(BoardInfo)
        if info.number != self.board:
            self.stands = {}
        self.board = info.number
        await self._send(Ready(me, ReadyFor.CARDS))
        hand = (await self._expect(HandCards)).cards
        auction: list[Call] = []
        turn = info.dealer
        while not _auction_over(auction):
            stood = self.stands.get(("call", len(auction)))
            if turn is me and isinstance(stood, Call):
                call = stood  # made at the seat before: known to the host, not appended
                self.sent = None
                await self._send(CallMade(me, call))
            elif turn is me:
                started = time.perf_counter()
                decision = decide(hand, me, info.dealer, auction)
                self.decisions.calls.append(time.perf_counter() - started)
                # alerted or announced as the ACBL alert procedure says, with its meaning:
                # the seat page's alert and explanation (Law 20F, Law 40B)
                call = decision.call
                self.sent = ("call", len(auction))
                await self._send(CallMade(me, call, decision.rule.alert_text()))
            else:
                await self._send(ReadyForCall(me, turn))
                call = (await self._expect(CallMade)).call
            auction.append(call)
            turn = turn.lho
        contract = _contract(info.dealer, auction)
        if contract is None:
            await self._expect(Timing)
            return
        declarer, strain = contract
        try:
            await self._play(hand, declarer, strain, info.dealer, tuple(auction))
        except BoardOver:  # a claim agreed, or ruled, ended the play before its last trick
            return
        await self._expect(Timing)

    async def _play(self, hand: tuple[Card, ...], declarer: Seat, strain: Strain,
                    dealer: Seat, auction: tuple[Call, ...]) -> None:
        me, dummy = self.seat, declarer.partner
        trump = None if strain is Strain.NT else strain.name
        hands: dict[Seat, tuple[Card, ...]] = {me: hand}
        played: list[tuple[Seat, Card]] = []
        leader = declarer.lho
        for trick in range(1, 14):
            for i in range(4):
                seat = _seat_after(leader, i)
                if (seat is me and me is not dummy) or (seat is dummy and me is declarer):
                    if i == 0:
                        await self._in_play(ToLead)
                    stood = self.stands.get(("card", len(played)))
                    if isinstance(stood, Card):
                        card = stood  # played from that hand before: known to the host
                        self.sent = None
                    else:
                        card = await self._decide(hands, played, seat, strain, dealer,
                                                  auction)
                        self.sent = ("card", len(played))
                    await self._send(CardPlayed(seat, card))
                else:
                    await self._send(ReadyForCard(me, None if seat is dummy else seat, trick))
                    card = (await self._in_play(CardPlayed)).card
                played.append((seat, card))
                if trick == 1 and i == 0 and me is not dummy:
                    await self._send(Ready(me, ReadyFor.DUMMY))
                    hands[dummy] = (await self._expect(DummyCards)).cards
            leader = trick_winner(played[-4:], trump)

    async def _decide(self, hands: dict[Seat, tuple[Card, ...]], played: list[tuple[Seat, Card]],
                      seat: Seat, strain: Strain, dealer: Seat,
                      auction: tuple[Call, ...]) -> Card:
        # the auction as the seat was told it: its samples read the calls (Law 40B)
        seen = Seen(dict(hands), list(played), shown_out(played), dealer, auction)
        if self.think_s:
            await asyncio.sleep(self.think_s)
        # the same position, the same card: a robot that connects again is told the board
        # from its start, and a card it sends again must be the one it played (the host
        # refuses another)
        started = time.perf_counter()
        card = await self.solving.card(seen, seat, strain,
                                       f"{self.seed}:{self.board}:{len(played)}", self.samples)
        self.decisions.cards.append(time.perf_counter() - started)
        return card


def _seat_after(seat: Seat, steps: int) -> Seat:
    for _ in range(steps):
        seat = seat.lho
    return seat


def _auction_over(auction: list[Call]) -> bool:
    if len(auction) < 4 or not all(c.is_pass for c in auction[-3:]):
        return False
    return len(auction) == 4 or any(c.is_bid for c in auction)


def _contract(dealer: Seat, auction: list[Call]) -> tuple[Seat, Strain] | None:
    """The declarer and strain (Law 53A: the first of the side to name the strain)."""
    bids = [(_seat_after(dealer, i), c) for i, c in enumerate(auction) if c.is_bid]
    if not bids:
        return None
    last_seat, last = bids[-1]
    assert last.strain is not None
    declarer = next(s for s, c in bids if c.strain is last.strain
                    and not s.is_opponent_of(last_seat))
    return declarer, last.strain


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seat", required=True, help="N, E, S or W")
    parser.add_argument("--token", required=True, help="the seat's token from the director")
    parser.add_argument("--boards", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    robot = OurRobot(Seat.parse(args.seat), args.token, Settings().tm_port, args.host,
                     seed=args.seed)
    asyncio.run(robot.play(args.boards))


if __name__ == "__main__":
    main()

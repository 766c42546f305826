"""A robot client of the Blue Chip Table Manager protocol (version 18), written from the
protocol's text and what its clients send (OpenSpiel's bluechip_bridge.py, BEN's
table_manager_client.py), for the tests: it imports nothing of the host (services/robots) nor
of its protocol module (shared/table_manager), so that it checks them from outside.

It bids from a script (the calls it is given, in its turns, then passes) and plays the lowest
card that follows suit (else its lowest card), for itself and, as declarer, for dummy. It
records every line it receives, to check what it was told.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

SEATS = ["North", "East", "South", "West"]
SUITS = "SHDC"
RANKS = "23456789TJQKA"


def parse_hand(text: str) -> list[str]:
    """`S A K 2. H -. D Q. C …` (after the colon) → cards as suit then rank (`SA`)."""
    cards = []
    for part in text.strip().rstrip(".").split("."):
        words = part.split()
        cards += [words[0] + rank for rank in words[1:] if rank != "-"]
    return cards


@dataclass
class Robot:
    seat: str  # North, East, South or West
    name: str  # "<label> <seat token>"
    port: int
    calls: list[str] = field(default_factory=list)  # its calls, in its turns: "passes", …
    leave_after: int | None = None  # drop the connection after this many calls of its own
    leave_after_cards: int | None = None  # … or cards it played (dummy's too, as declarer)
    leave_before_action: int | None = None  # drop it when its nth call or card is due, unsent
    leave_waiting_for: str | None = None  # … or once it asked for this ("South's bid", …)
    leave_at_start: bool = False  # … or once told `Start of board`, before asking the deal
    acted: int = 0  # calls and cards it sent on this connection
    heard: list[str] = field(default_factory=list)
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None

    async def send(self, line: str) -> None:
        assert self.writer is not None
        self.writer.write((line + "\r\n").encode())
        await self.writer.drain()

    async def receive(self) -> str:
        assert self.reader is not None
        raw = await asyncio.wait_for(self.reader.readline(), 60)
        if not raw:
            raise ConnectionError("the host closed the connection")
        line = raw.decode().rstrip("\r\n")
        self.heard.append(line)
        return line

    async def connect(self) -> str:
        """Connect and say who it is: the host's answer (seated, or an error)."""
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        await self.send(f'Connecting "{self.name}" as {self.seat} using protocol version 18')
        return await self.receive()

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    async def play_board(self) -> None:
        """From `ready for teams` to the board's `Timing` line."""
        me = SEATS.index(self.seat)
        await self.send(f"{self.seat} ready for teams")
        assert (await self.receive()).startswith("Teams")
        await self.send(f"{self.seat} ready to start")
        assert (await self.receive()).lower() == "start of board"
        if self.leave_at_start:
            await self._leave()
        await self.send(f"{self.seat} ready for deal")
        deal = re.match(r"Board number (\d+)\. Dealer (\w+)\. (.+) vulnerable\.",
                        await self.receive())
        assert deal is not None
        dealer = SEATS.index(deal.group(2))
        await self.send(f"{self.seat} ready for cards")
        cards_line = await self.receive()
        assert cards_line.startswith(f"{self.seat}'s cards")
        hands: dict[int, list[str]] = {me: parse_hand(cards_line.split(":", 1)[1])}
        assert len(hands[me]) == 13

        # the auction
        auction: list[tuple[int, str]] = []
        mine = iter(self.calls)
        turn = dealer
        while not _auction_over([c for _, c in auction]):
            if turn == me:
                call = next(mine, "passes")
                await self._act(f"{self.seat} {call}")
                if self.leave_after is not None and sum(s == me for s, _ in auction) + 1 \
                        >= self.leave_after:
                    await self.close()
                    raise Left(self.seat)
            else:
                await self._ask(f"{self.seat} ready for {SEATS[turn]}'s bid")
                line = await self.receive()
                words = line.split()
                assert words[0] == SEATS[turn], line
                call = " ".join(words[1:3]) if words[1] == "bids" else words[1]
            auction.append((turn, call))
            turn = (turn + 1) % 4
        contract = _contract(auction)
        if contract is None:
            assert (await self.receive()).startswith("Timing")
            return
        declarer, strain = contract
        dummy = (declarer + 2) % 4

        # the play: a `Timing` line instead of the next card or lead ends it early (a claim
        # agreed); an `Error` there (its own card refused while a claim is open) is kept in
        # `heard` and passed over
        leader = (declarer + 1) % 4
        mine_played = 0
        for trick in range(1, 14):
            played: list[tuple[int, str]] = []
            for i in range(4):
                hand = (leader + i) % 4
                if (hand == me and me != dummy) or (hand == dummy and me == declarer):
                    if i == 0:  # the host tells the one on lead (declarer for dummy)
                        line = await self._next_in_play()
                        if line.startswith("Timing"):
                            return
                        assert line == f"{SEATS[hand]} to lead", line
                    card = _choose(hands[hand], played[0][1][0] if played else None)
                    await self._act(f"{SEATS[hand]} plays {card[1]}{card[0]}")
                    mine_played += 1
                    if mine_played == self.leave_after_cards:
                        await self.close()
                        raise Left(self.seat)
                else:
                    whose = "dummy" if hand == dummy else SEATS[hand]
                    await self._ask(f"{self.seat} ready for {whose}'s card to trick {trick}")
                    line = await self._next_in_play()
                    if line.startswith("Timing"):
                        return
                    match = re.fullmatch(r"(\w+) plays ([2-9TJQKA])([SHDC])", line)
                    assert match is not None and match.group(1) == SEATS[hand], line
                    card = match.group(3) + match.group(2)
                if card in hands.get(hand, []):
                    hands[hand].remove(card)
                played.append((hand, card))
                if trick == 1 and i == 0 and me != dummy:
                    await self.send(f"{self.seat} ready for dummy")
                    line = await self.receive()
                    assert line.startswith("Dummy's cards"), line
                    hands[dummy] = parse_hand(line.split(":", 1)[1])
            leader = _winner(played, strain)
        assert (await self.receive()).startswith("Timing")


    async def _leave(self) -> None:
        await self.close()
        raise Left(self.seat)

    async def _act(self, line: str) -> None:
        """Send its call or card, unless it is to leave as it falls due."""
        if self.leave_before_action == self.acted + 1:
            await self._leave()
        self.acted += 1
        await self.send(line)

    async def _ask(self, line: str) -> None:
        """Ask for another's call or card; leave then if told to."""
        await self.send(line)
        if self.leave_waiting_for is not None and self.leave_waiting_for in line:
            await self._leave()

    async def _next_in_play(self) -> str:
        while (line := await self.receive()).startswith("Error"):
            pass
        return line


class Left(Exception):
    """The robot dropped its connection on purpose (`leave_after`)."""


def _auction_over(calls: list[str]) -> bool:
    """Four passes, or three passes after a bid (Law 17E)."""
    if len(calls) < 4 or any(c != "passes" for c in calls[-3:]):
        return False
    return len(calls) == 4 or any(c.startswith("bids") for c in calls)


def _contract(auction: list[tuple[int, str]]) -> tuple[int, str] | None:
    bids = [(seat, call.split()[1]) for seat, call in auction if call.startswith("bids")]
    if not bids:
        return None
    last_seat, last_bid = bids[-1]
    strain = last_bid[1:]
    side = [s for s, b in bids if s % 2 == last_seat % 2 and b[1:] == strain]
    return side[0], strain


def _choose(hand: list[str], led: str | None) -> str:
    follow = [c for c in hand if c[0] == led] if led else []
    return min(follow or hand, key=lambda c: RANKS.index(c[1]))


def _winner(played: list[tuple[int, str]], strain: str) -> int:
    led = played[0][1][0]

    def power(card: str) -> int:
        rank = RANKS.index(card[1])
        return 100 + rank if card[0] == strain else 50 + rank if card[0] == led else rank

    return max(played, key=lambda p: power(p[1]))[0]

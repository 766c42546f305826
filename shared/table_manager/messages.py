"""The Table Manager protocol's messages (version 18), as typed values.

A client (the robot) sends `Connect`, the `Ready…` messages, and its own `CallMade` and
`CardPlayed` (declarer's also for dummy's cards). The host sends `Seated`, `Teams`,
`StartOfBoard`, `BoardInfo`, `HandCards`, the other seats' `CallMade` and `CardPlayed`,
`ToLead`, `DummyCards`, `Timing`, `EndOfSession`, and `HostError` when it refuses a line.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from shared.calls import Call
from shared.cards import Card
from shared.seats import Seat, Vulnerability

PROTOCOL_VERSION = 18


class ReadyFor(enum.StrEnum):
    """What a `<seat> ready …` line says its sender waits for (the words on the wire)."""

    TEAMS = "ready for teams"
    START = "ready to start"
    DEAL = "ready for deal"
    CARDS = "ready for cards"
    DUMMY = "ready for dummy"


@dataclass(frozen=True, slots=True)
class Connect:
    """`Connecting "<name>" as <SEAT> using protocol version 18`; `seat` None for `ANYPL`."""

    name: str
    seat: Seat | None
    version: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Ready:
    """`<seat> ready for teams` (to start, for deal, for cards, for dummy)."""

    seat: Seat
    what: ReadyFor


@dataclass(frozen=True, slots=True)
class ReadyForCall:
    """`<seat> ready for <other>'s bid`."""

    seat: Seat
    other: Seat


@dataclass(frozen=True, slots=True)
class ReadyForCard:
    """`<seat> ready for <other>'s card to trick <n>`; `other` None when it says `dummy`."""

    seat: Seat
    other: Seat | None
    trick: int


@dataclass(frozen=True, slots=True)
class CallMade:
    """`<seat> passes` / `doubles` / `redoubles` / `bids 1NT`, then maybe `Alert. <text>`
    (the caller's own explanation) or `Infos. <text>` (BEN's unalerted note). Both ways."""

    seat: Seat
    call: Call
    alert: str | None = None
    info: str | None = None


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """`<seat> plays <rank><suit>`: `seat` is the hand the card comes from (declarer names
    dummy for dummy's cards). Both ways."""

    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class Seated:
    """`<Seat> ("<name>") seated`: the host's answer to `Connect`."""

    seat: Seat
    name: str


@dataclass(frozen=True, slots=True)
class Teams:
    """`Teams : N/S : "<ns>" E/W : "<ew>"`."""

    ns: str
    ew: str


@dataclass(frozen=True, slots=True)
class StartOfBoard:
    """`Start of board`."""


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """`Board number 8. Dealer West. Neither vulnerable.`"""

    number: int
    dealer: Seat
    vulnerability: Vulnerability


@dataclass(frozen=True, slots=True)
class HandCards:
    """`<Seat>'s cards : S A K. H -. D Q J 8 7 6. C 7 5 4 3 2.`"""

    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DummyCards:
    """`Dummy's cards : S A Q T 8 2. H K 7. D K 5 2. C A 7 6.` (after the opening lead)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ToLead:
    """`<Seat> to lead`: sent to the seat on lead (to declarer when dummy leads)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Timing:
    """`Timing - …`: the end of a board; the text is the host's."""

    text: str


@dataclass(frozen=True, slots=True)
class EndOfSession:
    """`End of session`."""


@dataclass(frozen=True, slots=True)
class HostError:
    """`Error <reason>`: the host refuses the last line (and, at `Connect`, the robot)."""

    reason: str


ClientMessage = Connect | Ready | ReadyForCall | ReadyForCard | CallMade | CardPlayed
HostMessage = (Seated | Teams | StartOfBoard | BoardInfo | HandCards | DummyCards | CallMade
               | CardPlayed | ToLead | Timing | EndOfSession | HostError)

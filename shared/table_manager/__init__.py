"""The Blue Chip Bridge Table Manager protocol, version 18: its lines as typed values.

Robots (WBridge5, Jack, BEN's table-manager client, OpenSpiel's bridge bots) connect to a host
over TCP and exchange one ASCII line per message, ended by CRLF. `messages` holds the messages
as values; `lines` reads and writes each line, in both directions, as those clients send them.
Pure: no I/O (the host, `services/robots/`, does the sockets).
"""

from shared.table_manager.lines import (
    ProtocolError,
    format_hand,
    parse_client_line,
    parse_hand,
    parse_host_line,
    write,
)
from shared.table_manager.messages import (
    PROTOCOL_VERSION,
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
    Teams,
    Timing,
    ToLead,
)

__all__ = [
    "PROTOCOL_VERSION", "BoardInfo", "CallMade", "CardPlayed", "ClientMessage", "Connect",
    "DummyCards", "EndOfSession", "HandCards", "HostError", "HostMessage", "ProtocolError",
    "Ready", "ReadyFor", "ReadyForCall", "ReadyForCard", "Seated", "StartOfBoard", "Teams",
    "Timing", "ToLead", "format_hand", "parse_client_line", "parse_hand", "parse_host_line",
    "write",
]  # fmt: skip

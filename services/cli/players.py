"""`tableserver tournament players|reissue|move …`: the players' links (the player's evening)
for a director at a terminal.

    tableserver tournament players NAME [--format text|csv|json]
    tableserver tournament reissue NAME ENTRANT PLACE
    tableserver tournament move NAME ENTRANT PLACE TO_ENTRANT TO_PLACE

`players` prints each player's one link for the evening (`<gateway>/play#<token>`), by entrant
and place (CSV: a sheet to print and hand out); `reissue` gives a player a new link (his older
ones stop working); `move` seats a player as another place from now on (a late change of
partner). The gateway and the director's token are found as by the other tournament commands
(`services/cli/tournament.py`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from services.cli.gateway_requests import Gateway, request

Command = Callable[[argparse.Namespace, Gateway], int]
Subcommand = Callable[[Any, str, Command, str, float], argparse.ArgumentParser]


def whole(text: str) -> int:
    """A number from 1 (an entrant's, a place's)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 1")
    return int(text)


def _path(tournament: str, *more: str) -> str:
    return "/".join(["/api/tournaments", quote(tournament, safe=""), "players", *more])


def render_players(doc: dict[str, Any], gateway: str) -> str:
    """A line a player: entrant, place, name and his link on this gateway."""
    base = gateway.rstrip("/")
    lines = [f"{doc['tournament']}: {len(doc['players'])} players' links (one each, all "
             "evening)"]
    for p in doc["players"]:
        who = p["name"] or f"player {p['place']}"
        lines.append(f"{p['entrant']:>4}.{p['place']} {who:<24} {base}{p['link']}")
    return "\n".join(lines)


def cmd_players(args: argparse.Namespace, gateway: Gateway) -> int:
    fmt = "json" if args.format == "text" else args.format
    response = request(gateway, "GET", _path(args.name), args.timeout, params={"format": fmt})
    if args.format != "text":
        sys.stdout.write(response.text)
        return 0
    print(render_players(response.json(), gateway.url))
    return 0


def cmd_reissue(args: argparse.Namespace, gateway: Gateway) -> int:
    done = request(gateway, "POST", _path(args.name, str(args.entrant), str(args.place),
                                          "reissue"), args.timeout).json()
    print(f"tournament {args.name}: player {args.place} of entrant {args.entrant}, link "
          f"{done['generation']} (the older ones stop working): "
          f"{gateway.url.rstrip('/')}{done['link']}")
    return 0


def cmd_move(args: argparse.Namespace, gateway: Gateway) -> int:
    body = {"entrant": args.entrant, "place": args.place, "to_entrant": args.to_entrant,
            "to_place": args.to_place}
    request(gateway, "POST", _path(args.name, "moves"), args.timeout, json=body)
    print(f"tournament {args.name}: player {args.place} of entrant {args.entrant} sits as "
          f"player {args.to_place} of entrant {args.to_entrant} from now on")
    return 0


def add_players_commands(actions: Any, subcommand: Subcommand) -> None:
    """The players' links' commands, under `tableserver tournament`."""
    players = subcommand(actions, "players", cmd_players, "each player's one link for the "
                         "evening (/play#…); as CSV a sheet to print", 60)
    players.add_argument("--format", choices=["text", "csv", "json"], default="text")
    reissue = subcommand(actions, "reissue", cmd_reissue, "a new link for a player (his older "
                         "ones stop working)", 60)
    move = subcommand(actions, "move", cmd_move, "seat a player as another place from now on "
                      "(a late change of partner)", 60)
    for parser in (reissue, move):
        parser.add_argument("entrant", type=whole, help="his entrant's number")
        parser.add_argument("place", type=whole, help="his place in it (1, 2, …)")
    move.add_argument("to_entrant", type=whole, help="the entrant he sits for")
    move.add_argument("to_place", type=whole, help="the place he sits as")

"""`tableserver tournament players …`: the players' links (the player's evening) for a
director at a terminal.

    tableserver tournament players NAME [--format text|csv|json]
    tableserver tournament players NAME --reissue ENTRANT.PLACE
    tableserver tournament players NAME --move ENTRANT.PLACE=TO_ENTRANT.TO_PLACE

It prints each player's one link for the evening (`<gateway>/play#<token>`), by entrant and
place (CSV: a sheet to print and hand out); `--reissue` gives a player a new link (his older
ones stop working); `--move` seats a player as another place from now on (a late change of
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
from services.common.public_links import printed_link

Command = Callable[[argparse.Namespace, Gateway], int]
Subcommand = Callable[[Any, str, Command, str, float], argparse.ArgumentParser]


def player(text: str) -> tuple[int, int]:
    """A player as `ENTRANT.PLACE` (numbers from 1)."""
    entrant, _, place = text.partition(".")
    if not (entrant.isdigit() and place.isdigit() and int(entrant) >= 1 and int(place) >= 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not a player: ENTRANT.PLACE, e.g. 3.2")
    return int(entrant), int(place)


def move_of(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """A move as `ENTRANT.PLACE=TO_ENTRANT.TO_PLACE`."""
    moved, sign, to = text.partition("=")
    if not sign:
        raise argparse.ArgumentTypeError(f"{text!r} is not a move: ENTRANT.PLACE="
                                         "TO_ENTRANT.TO_PLACE, e.g. 3.2=5.1")
    return player(moved), player(to)


def _path(tournament: str, *more: str) -> str:
    return "/".join(["/api/tournaments", quote(tournament, safe=""), "players", *more])


def render_players(doc: dict[str, Any], gateway: str, public_url: str | None = None) -> str:
    """A line a player: entrant, place, name and his link (at the public address when it is
    set, else on this gateway)."""
    lines = [f"{doc['tournament']}: {len(doc['players'])} players' links (one each, all "
             "evening)"]
    for p in doc["players"]:
        who = p["name"] or f"player {p['place']}"
        lines.append(f"{p['entrant']:>4}.{p['place']} {who:<24} "
                     f"{printed_link(public_url, gateway, p['link'])}")
    return "\n".join(lines)


def cmd_players(args: argparse.Namespace, gateway: Gateway) -> int:
    if args.reissue is not None:
        return _reissue(args, gateway, *args.reissue)
    if args.move is not None:
        return _move(args, gateway, *args.move)
    fmt = "json" if args.format == "text" else args.format
    response = request(gateway, "GET", _path(args.name), args.timeout, params={"format": fmt})
    if args.format != "text":
        sys.stdout.write(response.text)
        return 0
    print(render_players(response.json(), gateway.url, gateway.public_url))
    return 0


def _reissue(args: argparse.Namespace, gateway: Gateway, entrant: int, place: int) -> int:
    done = request(gateway, "POST", _path(args.name, str(entrant), str(place), "reissue"),
                   args.timeout).json()
    print(f"tournament {args.name}: player {place} of entrant {entrant}, link "
          f"{done['generation']} (the older ones stop working): "
          f"{printed_link(gateway.public_url, gateway.url, done['link'])}")
    return 0


def _move(args: argparse.Namespace, gateway: Gateway, moved: tuple[int, int],
          to: tuple[int, int]) -> int:
    body = {"entrant": moved[0], "place": moved[1], "to_entrant": to[0], "to_place": to[1]}
    request(gateway, "POST", _path(args.name, "moves"), args.timeout, json=body)
    print(f"tournament {args.name}: player {moved[1]} of entrant {moved[0]} sits as player "
          f"{to[1]} of entrant {to[0]} from now on")
    return 0


def add_players_command(actions: Any, subcommand: Subcommand) -> None:
    """`tableserver tournament players`, under the tournament's commands."""
    players = subcommand(actions, "players", cmd_players, "each player's one link for the "
                         "evening (/play#…), as CSV a sheet to print; a player's new link; "
                         "a player moved by hand", 60)
    players.add_argument("--format", choices=["text", "csv", "json"], default="text")
    change = players.add_mutually_exclusive_group()
    change.add_argument("--reissue", type=player, metavar="ENTRANT.PLACE",
                        help="a new link for this player (his older ones stop working)")
    change.add_argument("--move", type=move_of, metavar="ENTRANT.PLACE=ENTRANT.PLACE",
                        help="seat this player as that place from now on (a late change "
                        "of partner)")

"""`tableserver robots TABLE --seats E,S,W`: the director seats our robots at a table's seats.

With `--via-service` (or `--remove`) it asks the gateway (`POST`/`DELETE
/api/tables/{t}/robots`): the robot pool that `make up` runs seats them, and they play until
taken away. Without, it runs them here: it asks the gateway for the table's seat tokens (`GET
/api/tables/{t}/links`, with the director's token) and runs one of our robots a seat
(services/robots/player.py), each connecting to the Table Manager host
(`TABLESERVER_TM_PORT`) with its seat's token, as any robot does. They play `--boards` boards
(or until Ctrl-C)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from services.cli.gateway_requests import Gateway, Refusal, director_token, request
from services.cli.words import counted
from shared.seats import NotationError, Seat


def _seats(text: str) -> list[Seat]:
    try:
        seats = [Seat.parse(word) for word in text.split(",") if word.strip()]
    except NotationError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not seats or len(set(seats)) != len(seats):
        raise argparse.ArgumentTypeError(f"{text!r}: seats such as E,S,W, each once")
    return seats


def cmd_robots(args: argparse.Namespace) -> int:
    import asyncio  # with the settings, imported by this command only: `fold` starts faster

    from services.common.settings import Settings
    from services.robots.player import HostRefused, OurRobot

    settings = Settings()
    if not args.remove and not args.seats:
        print("tableserver robots: --seats E,S,W (or --remove)", file=sys.stderr)
        return 2
    try:
        gateway = Gateway((args.gateway or settings.gateway_url).rstrip("/"),
                          director_token(settings))
        if args.via_service or args.remove:
            return _ask_the_pool(gateway, args)
        links = request(gateway, "GET", f"/api/tables/{args.table}/links", 10).json()
    except Refusal as exc:
        print(f"tableserver robots: {exc.message}", file=sys.stderr)
        return exc.code
    robots = [OurRobot(seat, links["seats"][seat.name], settings.tm_port, args.host,
                       label=f"robot-{seat.name}", seed=args.seed + seat.index,
                       samples=args.samples) for seat in args.seats]

    async def play() -> None:
        await asyncio.gather(*(robot.play(args.boards) for robot in robots))

    try:
        asyncio.run(play())
    except (HostRefused, ConnectionError, OSError) as error:
        print(f"tableserver robots: {error} (is the Table Manager host up on port "
              f"{settings.tm_port}? see TABLESERVER_TM_PORT)", file=sys.stderr)
        return 1
    print(f"robots at {', '.join(s.name for s in args.seats)} of {args.table}: "
          f"{counted(args.boards, 'board')} played")
    return 0


def _ask_the_pool(gateway: Gateway, args: argparse.Namespace) -> int:
    path = f"/api/tables/{args.table}/robots"
    if args.remove:
        seats = request(gateway, "DELETE", path, 10).json()["seats"]
    else:
        seats = request(gateway, "POST", path, 10,
                        json={"seats": [s.name for s in args.seats]}).json()["seats"]
    shown = ", ".join(f"{seat} {robot['status']}" for seat, robot in seats.items())
    print(f"robots at {args.table}: {shown or 'none'}")
    return 0


def add_robots_parser(commands: Any) -> None:
    parser = commands.add_parser("robots", help="seat our robots at a table's seats")
    parser.add_argument("table")
    parser.add_argument("--seats", type=_seats, help="e.g. E,S,W")
    parser.add_argument("--via-service", action="store_true", help="ask the robot pool that "
                        "`make up` runs (they play until --remove), instead of running them "
                        "here")
    parser.add_argument("--remove", action="store_true", help="the robot pool's robots at "
                        "the table stand up")
    parser.add_argument("--boards", type=int, default=1, help="boards to play (default 1)")
    parser.add_argument("--samples", type=int, default=20,
                        help="deals sampled for each card (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--host", default="127.0.0.1", help="the Table Manager host's address")
    parser.add_argument("--gateway", metavar="URL", help="the gateway (default: "
                        "TABLESERVER_GATEWAY, else http://127.0.0.1:$TABLESERVER_GATEWAY_PORT)")
    parser.set_defaults(run=cmd_robots)

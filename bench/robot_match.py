"""The robot match (docs/robots.md, "How well it plays"): our robots against (a) themselves
with another seed, (b) a simple rule robot (a lower bound: the reference system's natural
bidding, cards by rule: second hand low, third hand high, win as cheaply as it can, lead the
top of a sequence or the lowest of its longest suit), (c) a double-dummy player (an upper
bound: the same bidding, each card the best one seeing all four hands, DDS), (d) `plain`:
our robots whose samples ignore the auction (the sampler before it read the calls).

Pure and in-process (no stack): `--boards` deals from a seeded random, each played in two
rooms, our pair North-South in one and East-West in the other, the opponents the reference
robot; each board's difference scored in IMPs (shared/scores, Law 78B). Also: declarer's
tricks against the double-dummy tricks of the contract (mean, spread), and the share of the
games and slams our side bid that make double-dummy; a call's and a card's decision time.

`--system` chooses our robot's bidding (`natural`: shared/robot/bidding.py, the system before
SAYC; `sayc`: shared/robot/sayc.py); the references always bid the natural system, so that
two runs compare our systems against the same opponents.

    python bench/robot_match.py --boards 200 --samples 10 --system natural
    python bench/robot_match.py --boards 200 --samples 10 --system sayc
    python bench/robot_match.py --pace 1,8,32      # card time at 1, 8, 32 tables

A benchmark, not a test: it prints numbers and asserts nothing about them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from robots_bench import at_pace, quantile

from services.robots.solver import double_dummy, solve
from shared.calls import Call, CallKind, Strain
from shared.cards import RANKS, SUITS, Card
from shared.notation.double_dummy import DoubleDummy
from shared.robot import bidding as natural
from shared.robot.play import choose_card, legal_cards
from shared.robot.sampling import Seen, remaining, shown_out
from shared.scores.imps import imps
from shared.scoring import Contract, duplicate_score
from shared.seats import Seat, Vulnerability, board_dealer, board_vulnerability
from shared.table.play import trick_winner

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
Hands = dict[Seat, tuple[Card, ...]]
Bidder = Callable[[Sequence[Card], Seat, Seat, Sequence[Call]], Call]
# what the deciding seat sees, the hand to play from, the strain, the whole deal (for the
# double-dummy reference only), the board's random source → the card
Player = Callable[[Seen, Seat, Strain, Hands, random.Random], Card]


def _bidders() -> dict[str, Bidder]:
    bidders: dict[str, Bidder] = {"natural": natural.choose_call}
    try:
        from shared.robot import sayc
    except ImportError:  # the system before SAYC was written
        return bidders
    bidders["sayc"] = sayc.choose_call
    return bidders


def sampling_player(samples: int, auction: bool = True) -> Player:
    """Our robot's card (shared/robot/play.py): the best over `samples` sampled deals; with
    `auction` False, the samples are not shaped by the auction (the sampler before it read
    the calls: shown-out suits only)."""
    def play(seen: Seen, hand: Seat, strain: Strain, _deal: Hands, rng: random.Random) -> Card:
        if not auction:
            seen = replace(seen, auction=())
        return choose_card(seen, hand, strain, rng, solve, samples)
    return play


def double_dummy_player(seen: Seen, hand: Seat, strain: Strain, deal: Hands,
                        _rng: random.Random) -> Card:
    """The upper bound: the card that takes most tricks seeing all four hands (lowest of
    equals)."""
    count = len(seen.played)
    start = count - count % 4
    trick = [card for _, card in seen.played[start:]]
    leader = seen.played[start][0] if trick else hand
    gone = {card for _, card in seen.played[:start]}
    held = {s: [c for c in deal[s] if c not in gone] for s in SEATS}
    tricks = solve(held, strain, leader, trick)
    options = legal_cards([c for c in held[hand] if c not in trick], trick)
    return max(options, key=lambda c: (tricks.get(c, 0), -c.order))


def rule_player(seen: Seen, hand: Seat, strain: Strain, _deal: Hands,
                _rng: random.Random) -> Card:
    """The lower bound, cards by rule: lead the top of a sequence (two touching honours) or
    the lowest card of the longest side suit; second hand low; later, partner winning: low;
    else the cheapest card that wins (a ruff with the lowest trump), else the lowest."""
    count = len(seen.played)
    start = count - count % 4
    trick = seen.played[start:]
    held = remaining(seen)[hand]
    options = legal_cards(held, [c for _, c in trick])
    trump = None if strain is Strain.NT else strain.name
    if not trick:
        side = [c for c in options if c.suit != trump] or options
        by_suit: dict[str, list[Card]] = {}
        for card in side:
            by_suit.setdefault(card.suit, []).append(card)
        longest = max(by_suit.values(), key=lambda cs: (len(cs), max(c.order for c in cs)))
        ranked = sorted(longest, key=lambda c: -c.order)
        top = ranked[0]
        if (len(ranked) > 1 and top.rank in "AKQJ"
                and RANKS.index(ranked[1].rank) == RANKS.index(top.rank) + 1):
            return top
        return ranked[-1]
    lowest = min(options, key=lambda c: (c.suit == trump, c.order))
    if len(trick) == 1:
        return lowest
    winner = trick_winner(list(trick), trump)
    if winner is hand.partner:
        return lowest
    winning = [c for c in options
               if trick_winner([*trick, (hand, c)], trump) is hand]
    return min(winning, key=lambda c: (c.suit == trump, c.order)) if winning else lowest


@dataclass(frozen=True)
class Robot:
    name: str
    bid: Bidder
    play: Player
    seed: int


@dataclass
class Room:
    contract: str  # "4HX by S", "passed out"
    declarer: Seat | None
    level: int
    strain: Strain | None
    tricks: int
    score_ns: int


@dataclass
class Tally:
    """What one match measured, from our side's point of view."""

    imps: list[int] = field(default_factory=list)
    declarer_vs_dd: list[int] = field(default_factory=list)  # our declarers' tricks - DD
    their_vs_dd: list[int] = field(default_factory=list)  # the reference's declarers'
    games: list[bool] = field(default_factory=list)  # each game our side bid: makes DD?
    slams: list[bool] = field(default_factory=list)
    calls: list[float] = field(default_factory=list)
    cards: list[float] = field(default_factory=list)


def deal(rng: random.Random) -> Hands:
    deck = [Card.parse(s + r) for s in SUITS for r in RANKS]
    rng.shuffle(deck)
    return {seat: tuple(deck[13 * i:13 * i + 13]) for i, seat in enumerate(SEATS)}


def _over(auction: Sequence[Call]) -> bool:
    return (len(auction) >= 4 and all(c.is_pass for c in auction[-3:])
            and (len(auction) == 4 or any(c.is_bid for c in auction)))


def contract_of(dealer: Seat, auction: Sequence[Call]) -> tuple[Seat, Call, str] | None:
    """Declarer (Law 53A), the last bid and its risk ("", "X", "XX")."""
    callers = [SEATS[(SEATS.index(dealer) + i) % 4] for i in range(len(auction))]
    bids = [(s, c) for s, c in zip(callers, auction, strict=True) if c.is_bid]
    if not bids:
        return None
    last_seat, last = bids[-1]
    after = auction[max(i for i, c in enumerate(auction) if c.is_bid) + 1:]
    risk = ""
    for call in after:
        risk = "X" if call.kind is CallKind.DOUBLE else "XX" if call.kind is \
            CallKind.REDOUBLE else risk
    declarer = next(s for s, c in bids if c.strain is last.strain
                    and not s.is_opponent_of(last_seat))
    return declarer, last, risk


def play_room(hands: Hands, number: int, ns: Robot, ew: Robot, ours: Robot,
              tally: Tally) -> Room:
    dealer, vul = board_dealer(number), board_vulnerability(number)
    robot = {s: ns if s in (Seat.N, Seat.S) else ew for s in SEATS}
    auction: list[Call] = []
    seat = dealer
    while not _over(auction):
        started = time.perf_counter()
        auction.append(robot[seat].bid(hands[seat], seat, dealer, auction))
        if robot[seat] is ours:
            tally.calls.append(time.perf_counter() - started)
        seat = seat.lho
    found = contract_of(dealer, auction)
    if found is None:
        return Room("passed out", None, 0, None, 0, 0)
    declarer, last, risk = found
    assert last.strain is not None
    strain, dummy = last.strain, declarer.partner
    trump = None if strain is Strain.NT else strain.name
    played: list[tuple[Seat, Card]] = []
    leader = declarer.lho
    for _ in range(13):
        for i in range(4):
            hand = SEATS[(SEATS.index(leader) + i) % 4]
            decider = declarer if hand is dummy else hand
            seen = {decider: hands[decider]}
            if played or decider is declarer:  # dummy faced after the opening lead (Law 41D)
                seen[dummy] = hands[dummy]
            rng = random.Random(f"{robot[decider].seed}:{number}:{len(played)}")
            started = time.perf_counter()
            view = Seen(seen, list(played), shown_out(played), dealer, tuple(auction))
            card = robot[decider].play(view, hand, strain, hands, rng)
            if robot[decider] is ours:
                tally.cards.append(time.perf_counter() - started)
            played.append((hand, card))
        leader = trick_winner(played[-4:], trump)
    won = sum(1 for t in range(13)
              if trick_winner(played[4 * t:4 * t + 4], trump) in (declarer, dummy))
    vulnerable = vul is Vulnerability.BOTH or vul.value == declarer.side
    score = duplicate_score(Contract(last.level, strain.name, risk), vulnerable, won)
    score_ns = score if declarer in (Seat.N, Seat.S) else -score
    return Room(f"{last}{risk} by {declarer.name}", declarer, last.level, strain, won, score_ns)


def _measure(room: Room, table: DoubleDummy, our_seats: tuple[Seat, Seat], tally: Tally) -> None:
    if room.declarer is None or room.strain is None:
        return
    gap = room.tricks - table.of(room.declarer, room.strain)
    if room.declarer in our_seats:
        tally.declarer_vs_dd.append(gap)
        makes = table.of(room.declarer, room.strain) >= room.level + 6
        game = {Strain.NT: 3, Strain.S: 4, Strain.H: 4, Strain.D: 5, Strain.C: 5}[room.strain]
        if room.level >= 6:
            tally.slams.append(makes)
        elif room.level >= game:
            tally.games.append(makes)
    else:
        tally.their_vs_dd.append(gap)


def _pbn(hands: Hands) -> str:
    def hand(cards: tuple[Card, ...]) -> str:
        return ".".join("".join(c.rank for c in sorted((c for c in cards if c.suit == s),
                                                       key=lambda c: -c.order))
                        for s in SUITS)
    return "N:" + " ".join(hand(hands[s]) for s in SEATS)


def match(ours: Robot, them: Robot, boards: int, seed: int, verbose: bool,
          every: int = 0) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for number in range(1, boards + 1):
        hands = deal(rng)
        table, _ = double_dummy(_pbn(hands))
        open_room = play_room(hands, number, ours, them, ours, tally)
        closed_room = play_room(hands, number, them, ours, ours, tally)
        _measure(open_room, table, (Seat.N, Seat.S), tally)
        _measure(closed_room, table, (Seat.E, Seat.W), tally)
        won = imps(open_room.score_ns - closed_room.score_ns)
        tally.imps.append(won)
        if every and number % every == 0 and number < boards:
            report(f"{them.name}, the first {number} boards", tally)
        if verbose:
            print(f"  board {number}: {open_room.contract} {open_room.tricks} "
                  f"({open_room.score_ns:+d}) / {closed_room.contract} {closed_room.tricks} "
                  f"({closed_room.score_ns:+d}): {won:+d} IMPs")
    return tally


def _spread(values: list[int]) -> str:
    if not values:
        return "none"
    spread = statistics.pstdev(values)
    return f"mean {statistics.mean(values):+.2f}, sd {spread:.2f} ({len(values)})"


def _share(values: list[bool]) -> str:
    return f"{sum(values)}/{len(values)} ({sum(values) / len(values):.0%})" if values else "0/0"


def report(name: str, tally: Tally) -> None:
    per_board = statistics.mean(tally.imps)
    sd = statistics.pstdev(tally.imps) / len(tally.imps) ** 0.5
    print(f"against {name}: {per_board:+.2f} IMPs a board (± {sd:.2f} s.e.), "
          f"{sum(tally.imps):+d} in all")
    print(f"  our declarers' tricks - double dummy: {_spread(tally.declarer_vs_dd)}")
    print(f"  their declarers' tricks - double dummy: {_spread(tally.their_vs_dd)}")
    print(f"  our games that make double dummy: {_share(tally.games)}; "
          f"slams: {_share(tally.slams)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--samples", type=int, default=10, help="sampled deals a card (ours)")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed")
    parser.add_argument("--system", default="natural", help="our bidding: natural or sayc")
    parser.add_argument("--against", default="rule,dd,self",
                        help="the opponents: self (another seed), rule, dd, plain (our robots "
                        "whose samples ignore the auction)")
    parser.add_argument("--pace", metavar="TABLES", help="instead: card time p50/p95 at these "
                        "counts of tables (robots_bench's --pace), e.g. 1,8,32")
    parser.add_argument("--seconds", type=float, default=30.0, help="each --pace run")
    parser.add_argument("-v", "--verbose", action="store_true", help="each board's rooms")
    parser.add_argument("--every", type=int, default=0, metavar="BOARDS",
                        help="the figures so far every BOARDS boards")
    args = parser.parse_args()
    if args.pace:
        at_pace([int(n) for n in args.pace.split(",")], 3.0, args.seconds, args.samples)
        return
    bidders = _bidders()
    if args.system not in bidders:
        sys.exit(f"--system: one of {', '.join(bidders)}")
    ours = Robot(f"ours ({args.system})", bidders[args.system],
                 sampling_player(args.samples), 1)
    opponents = {
        "self": Robot(f"ours ({args.system}), seed 2", bidders[args.system],
                      sampling_player(args.samples), 2),
        "plain": Robot(f"ours ({args.system}), the samples not shaped by the auction",
                       bidders[args.system], sampling_player(args.samples, auction=False), 1),
        "rule": Robot("the rule robot (natural bidding, cards by rule)", natural.choose_call,
                      rule_player, 3),
        "dd": Robot("the double-dummy player (natural bidding)", natural.choose_call,
                    double_dummy_player, 4),
    }
    print(f"robot match: {args.boards} boards (seed {args.seed}), our robots bid "
          f"{args.system}, {args.samples} samples a card")
    calls: list[float] = []
    cards: list[float] = []
    started = time.perf_counter()
    for key in args.against.split(","):
        them = opponents[key]
        tally = match(ours, them, args.boards, args.seed, args.verbose, args.every)
        report(them.name, tally)
        calls += tally.calls
        cards += tally.cards
    for name, values in (("call", calls), ("card", cards)):
        if values:
            print(f"our {name}: p50 {quantile(values, 0.5) * 1000:.2f} ms, p95 "
                  f"{quantile(values, 0.95) * 1000:.2f} ms ({len(values)} {name}s)")
    print(f"in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

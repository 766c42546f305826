"""Where the written tables stop, the robot places the contract from what partner's calls
have shown (their points and lengths, read through the same rules): game with 25 or more
between the hands, slam with 33 (asking for aces first, Blackwood), an invitation when game
depends on partner's range, a fit's level in competition; else pass. Blackwood and its
answers are the booklet's ("Slam Bidding": 4NT asks for aces; 5C none or four, 5D one, 5H
two, 5S three)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from shared.calls import DOUBLE, PASS, Call, Strain
from shared.robot.meaning import MAJORS, MINORS, NO_LENGTHS, Convention, Hand, Rule, Test

BOOK = "ACBL SAYC booklet"
SLAM = f"{BOOK}, Slam Bidding (Blackwood)"
PLACE = "placement from partner's shown values (no table of the booklet's)"
NT = Strain.NT
GAME = {NT: 3, Strain.S: 4, Strain.H: 4, Strain.D: 5, Strain.C: 5}


def _bid(level: int, strain: Strain) -> Call:
    return Call.bid(level, strain)


@dataclass(frozen=True)
class Shown:
    """What a player's calls have shown: points (low, high) and lengths."""

    low: int = 0
    high: int = 37
    lengths: Mapping[Strain, int] = field(default_factory=lambda: NO_LENGTHS)


def _aces(counts: tuple[int, ...]) -> Test:
    return lambda h: h.aces in counts


BLACKWOOD_ANSWERS: tuple[Rule, ...] = tuple(
    Rule(_bid(5, strain), f"{words} (Blackwood answer)", SLAM,
         when=_aces(aces), convention=Convention.ACES)
    for strain, aces, words in ((Strain.C, (0, 4), "no ace or four"),
                                (Strain.D, (1,), "one ace"), (Strain.H, (2,), "two aces"),
                                (Strain.S, (3,), "three aces")))


def after_answer(answer: Call, trump: Strain) -> tuple[Rule, ...]:
    """The asker's call after partner's answer to 4NT: a small slam missing one ace at most,
    else five of the trump suit."""
    assert answer.strain is not None
    shown = {Strain.C: 0, Strain.D: 1, Strain.H: 2, Strain.S: 3}[answer.strain]
    # 5C is none or four: the asker, with an ace or more, knows it is none
    return (Rule(_bid(6, trump), "to play: at most one ace missing", SLAM,
                 when=lambda h: (h.aces + shown if h.aces or shown else 0) >= 3
                 or (answer.strain is Strain.C and h.aces == 0)),
            Rule(_bid(5, trump), "to play: two aces missing", SLAM),
            Rule(PASS, "to play", SLAM))


def _reached(ours: Call | None, level: int, strain: Strain) -> bool:
    return ours is not None and ours.rank >= Call.bid(level, strain).rank


def _game(strain: Strain, need: int, total: Callable[[Hand], int], partner: Shown,
          ours: Call | None) -> Test:
    return lambda h: (ours is not None and total(h) >= need and _fit(h, partner) is strain
                      and not _reached(ours, GAME[strain], strain))


def _invite(strain: Strain, total: Callable[[Hand], int], most: Callable[[Hand], int],
            partner: Shown, ours: Call | None) -> Test:
    # an invitation only when partner's range is narrow enough for him to judge it
    return lambda h: (ours is not None and partner.high - partner.low <= 6
                      and total(h) < 25 <= most(h) and _fit(h, partner) is strain
                      and not _reached(ours, GAME[strain] - 1, strain))


def _compete(strain: Strain, total: Callable[[Hand], int], partner: Shown) -> Test:
    return lambda h: total(h) >= 20 and _fit(h, partner) is strain


def _fit(h: Hand, partner: Shown) -> Strain:
    for strain in (*MAJORS, *MINORS):
        if h.length(strain) + partner.lengths.get(strain, 0) >= 8:
            return strain
    return NT


def placement(partner: Shown, ours: Call | None, last: Call | None, theirs_last: bool,
              asked: bool) -> tuple[Rule, ...]:
    """The rules when no table applies: `ours` our side's last bid, `last` the auction's,
    `theirs_last` whether the opponents bid it, `asked` whether our side asked for aces."""
    def total(h: Hand) -> int:
        return h.hcp + partner.low

    def most(h: Hand) -> int:
        return h.hcp + partner.high

    def at_or_above(level: int, strain: Strain) -> bool:
        return ours is not None and ours.rank >= _bid(level, strain).rank

    rules: list[Rule] = []
    if not asked:
        rules.append(Rule(_bid(4, NT), "Blackwood: asks for aces (a suit agreed)", SLAM,
                          (33 - partner.low, 37),
                          lambda h: ours is not None and total(h) >= 33
                          and _fit(h, partner) is not NT,
                          convention=Convention.BLACKWOOD))
    rules.append(Rule(_bid(6, NT), "to play", PLACE, (33 - partner.low, 37),
                      lambda h: ours is not None and total(h) >= 33 and _fit(h, partner) is NT
                      and not at_or_above(6, Strain.C)))
    for strain in (*MAJORS, NT, *MINORS):
        game = GAME[strain]
        need = 29 if strain in MINORS else 25
        rules.append(Rule(_bid(game, strain), "game", PLACE, (need - partner.low, 37),
                          _game(strain, need, total, partner, ours)))
    for strain in (*MAJORS, NT):
        level = GAME[strain] - 1
        rules.append(Rule(_bid(level, strain), "invitational", PLACE,
                          (25 - partner.high, 24 - partner.low),
                          _invite(strain, total, most, partner, ours)))
    if theirs_last and last is not None:
        for strain in (*MAJORS, *MINORS):
            for level in (2, 3):
                rules.append(Rule(_bid(level, strain), "competes: an eight-card fit", PLACE,
                                  (20 - partner.low, 37),
                                  _compete(strain, total, partner)))
        if last.level >= 2:
            rules.append(Rule(DOUBLE, "penalty", PLACE, (24 - partner.low, 37),
                              lambda h: total(h) >= 24 and _fit(h, partner) is NT,
                              convention=Convention.PENALTY_DOUBLE))
    rules.append(Rule(PASS, "no better contract", PLACE))
    return tuple(rules)

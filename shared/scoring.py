"""Scores: a contract's result under the duplicate scoring table (Law 77) and under the rubber
one (rubber Laws 72–77: trick score below the line, the rest above, honours, games and the
rubber; Law 80: a rubber left unfinished). Pure arithmetic: a contract, its vulnerability and
declarer's tricks in, points out.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.cards import Card

BOOK = 6


@dataclass(frozen=True, slots=True)
class Contract:
    level: int  # 1 to 7
    strain: str  # C, D, H, S or NT
    risk: str = ""  # "", "X" or "XX"


def _multiplier(risk: str) -> int:
    return 4 if risk == "XX" else 2 if risk == "X" else 1


def trick_score(contract: Contract, tricks: int | None = None) -> int:
    """Law 77: the trick score of the odd tricks bid and made (`tricks` of them, the level by
    default): clubs and diamonds 20 each, hearts and spades 30, no trump 40 for the first and
    30 for each after; doubled twice that, redoubled four times."""
    odd = contract.level if tricks is None else tricks
    if contract.strain == "NT":
        points = 40 + 30 * (odd - 1) if odd > 0 else 0
    else:
        points = (20 if contract.strain in ("C", "D") else 30) * odd
    return points * _multiplier(contract.risk)


def overtrick_score(contract: Contract, overtricks: int, vulnerable: bool) -> int:
    """Law 77: undoubled, each overtrick scores its trick value; doubled 100 (vulnerable
    200), redoubled 200 (vulnerable 400)."""
    if contract.risk == "":
        return trick_score(Contract(1, contract.strain), 1) * overtricks \
            if contract.strain != "NT" else 30 * overtricks
    return overtricks * (100 if contract.risk == "X" else 200) * (2 if vulnerable else 1)


def undertrick_score(contract: Contract, undertricks: int, vulnerable: bool) -> int:
    """Law 77, the defenders' premium: undoubled 50 a trick (vulnerable 100); doubled,
    not vulnerable 100 for the first, 200 each for the second and third, 300 each after;
    vulnerable 200 for the first, 300 each after; redoubled twice the doubled."""
    if contract.risk == "":
        return undertricks * (100 if vulnerable else 50)
    if vulnerable:
        points = 200 + 300 * (undertricks - 1)
    else:
        points = sum(100 if n == 1 else 200 if n <= 3 else 300
                     for n in range(1, undertricks + 1))
    return points * (2 if contract.risk == "XX" else 1)


def slam_bonus(contract: Contract, vulnerable: bool) -> int:
    """Law 77: a small slam bid and made 500 (vulnerable 750), a grand slam 1000 (1500)."""
    if contract.level == 6:
        return 750 if vulnerable else 500
    if contract.level == 7:
        return 1500 if vulnerable else 1000
    return 0


def insult(contract: Contract) -> int:
    """Law 77: making a doubled contract 50, a redoubled one 100."""
    return {"": 0, "X": 50, "XX": 100}[contract.risk]


def duplicate_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """The declaring side's score under Law 77 (negative when the contract fails): trick score,
    overtricks, the insult, a game (trick score of 100 or more: 300, vulnerable 500) or
    part-score (50) premium and a slam's; or the defenders' undertricks."""
    needed = BOOK + contract.level
    if tricks < needed:
        return -undertrick_score(contract, needed - tricks, vulnerable)
    below = trick_score(contract)
    game = (500 if vulnerable else 300) if below >= 100 else 50
    return below + overtrick_score(contract, tricks - needed, vulnerable) + insult(contract) \
        + game + slam_bonus(contract, vulnerable)


MAX_SCORE = 7600
"""The most points one board can score either side under Law 77: 7NT (or any grand slam)
redoubled, vulnerable, down 13 (200 + 12 × 300, redoubled: 7,600). The most a side can make
is less, 3,160: 1NT redoubled, vulnerable, with 13 tricks (160 + 500 game + 6 × 400 + 100);
7NT redoubled vulnerable with 13 tricks scores 2,980. A duplicate score from North–South's
side (a result, a Director's score: Law 12C1) is therefore between −7,600 and +7,600."""


def honours(hand: frozenset[Card], strain: str) -> int:
    """Rubber Law 77, honours (scored above the line by the side holding them, declarer's or
    the defenders'): four of the five trump honours in one hand 100, all five 150; at no trump
    the four aces in one hand 150."""
    if strain == "NT":
        return 150 if sum(1 for c in hand if c.rank == "A") == 4 else 0
    held = sum(1 for c in hand if c.suit == strain and c.rank in "AKQJT")
    return 150 if held == 5 else 100 if held == 4 else 0


@dataclass(frozen=True, slots=True)
class RubberState:
    """A rubber in progress: each side's part-score towards the current game, games won;
    a side that has won a game is vulnerable (rubber Law 77's note)."""

    part_ns: int = 0
    part_ew: int = 0
    games_ns: int = 0
    games_ew: int = 0

    @property
    def vulnerable_ns(self) -> bool:
        return self.games_ns > 0

    @property
    def vulnerable_ew(self) -> bool:
        return self.games_ew > 0


GAME = 100


def rubber_score(state: RubberState, contract: Contract | None, declarer_ns: bool,
                 tricks: int | None, honours_ns: int = 0, honours_ew: int = 0
                 ) -> tuple[int, RubberState]:
    """One deal at rubber, from NS's side, and the rubber after it. The trick score goes below
    the line; 100 or more there makes a game, and the side's and the opponents' part-scores
    toward it are wiped; a side's second game wins the rubber: 700 if the opponents have
    none, 500 if they have one, and a new rubber begins (rubber Law 77). A passed-out deal
    (no contract) scores nothing."""
    if contract is None or tricks is None:
        return 0, state
    vulnerable = state.vulnerable_ns if declarer_ns else state.vulnerable_ew
    needed = BOOK + contract.level
    if tricks < needed:
        under = undertrick_score(contract, needed - tricks, vulnerable)
        deal_ns = honours_ns - honours_ew + (-under if declarer_ns else under)
        return deal_ns, state
    below = trick_score(contract)
    above = overtrick_score(contract, tricks - needed, vulnerable) + insult(contract) \
        + slam_bonus(contract, vulnerable)
    sign = 1 if declarer_ns else -1
    deal_ns = sign * (below + above) + honours_ns - honours_ew
    part_ns, part_ew = state.part_ns, state.part_ew
    games_ns, games_ew = state.games_ns, state.games_ew
    if declarer_ns:
        part_ns += below
    else:
        part_ew += below
    if part_ns >= GAME or part_ew >= GAME:
        if part_ns >= GAME:
            games_ns += 1
        else:
            games_ew += 1
        part_ns = part_ew = 0
        if games_ns == 2 or games_ew == 2:
            bonus = 700 if min(games_ns, games_ew) == 0 else 500
            deal_ns += bonus if games_ns == 2 else -bonus
            return deal_ns, RubberState()
    return deal_ns, RubberState(part_ns, part_ew, games_ns, games_ew)


UNFINISHED_GAME = 300
UNFINISHED_PART_SCORE = 50


def unfinished_rubber(state: RubberState) -> int:
    """An unfinished rubber, from NS's side (rubber Law 80, incomplete rubber, with the
    scoring table of rubber Law 77): when play stops before a side has won two games, a side
    that has won a game scores 300, and a side with a part-score in the unfinished game 50.
    A finished rubber (a new one not begun: `RubberState()`) scores nothing here; its 500 or
    700 went to the deal that won it."""
    ns = UNFINISHED_GAME * state.games_ns + (UNFINISHED_PART_SCORE if state.part_ns else 0)
    ew = UNFINISHED_GAME * state.games_ew + (UNFINISHED_PART_SCORE if state.part_ew else 0)
    return ns - ew

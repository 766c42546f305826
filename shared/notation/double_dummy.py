"""A deal's double-dummy table (the tricks each declarer takes in each strain, every card seen
by every player and each played best) and its par (the result of best bidding by both sides,
each side knowing every card), as a hand record prints them and as PBN 2.1 writes them.

PBN 2.1: the `OptimumResultTable` section (5.7): the columns `Declarer`, `Denomination` (two
wide, right-aligned) and `Result` (two wide, right-aligned), a line a declarer and strain,
declarers N, S, E, W and strains NT, S, H, D, C; the `OptimumScore` tag (4.2): North–South's
par score, `NS <score>`; the `ParContract` tag: each par contract by its side (`NS 4S`), or one
seat where only that seat makes it (`N 3NT`), doubled `X`; `Pass` when the par is to pass the
board out. The published files' form (RealBridge's 2021 Online Qualifier,
tests/data/realbridge-2021-online-qualifier.pbn, writes the same table).

Pure: the solver (endplay's bindings to DDS, `services.robots.solver`) gives the tricks and
the par contracts; the par score is checked against Law 77's table (`shared.scoring`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.calls import Strain
from shared.scoring import BOOK, Contract, duplicate_score
from shared.seats import Seat, Vulnerability

PBN_DECLARERS = (Seat.N, Seat.S, Seat.E, Seat.W)  # the OptimumResultTable's order
PBN_STRAINS = (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C)
TRICKS = 13


class DoubleDummyError(ValueError):
    """A table or par that cannot be a deal's (a count off 0–13, a seat or strain missing)."""


@dataclass(frozen=True, slots=True)
class DoubleDummy:
    """The tricks each declarer takes in each strain, double dummy: (declarer, strain) →
    tricks, for every one of the 20."""

    tricks: Mapping[tuple[Seat, Strain], int]

    def __post_init__(self) -> None:
        for seat in PBN_DECLARERS:
            for strain in PBN_STRAINS:
                count = self.tricks.get((seat, strain))
                if count is None or not 0 <= count <= TRICKS:
                    raise DoubleDummyError(f"{seat}{strain}: tricks {count!r}, not 0 to 13")

    def of(self, declarer: Seat, strain: Strain) -> int:
        return self.tricks[declarer, strain]

    def to_map(self) -> dict[str, dict[str, int]]:
        """Declarer → strain → tricks (`{"N": {"NT": 9, "S": 10, …}, …}`)."""
        return {s.name: {t.name: self.of(s, t) for t in PBN_STRAINS} for s in PBN_DECLARERS}

    @staticmethod
    def from_map(m: Mapping[str, Mapping[str, int]]) -> DoubleDummy:
        return DoubleDummy({(Seat.parse(s), Strain[t]): int(n)
                            for s, row in m.items() for t, n in row.items()})


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: its level and strain, doubled or not, the seats of the side that
    declare it (both, or the one that makes it), and declarer's tricks over (+) or under (−)
    the contract."""

    level: int
    strain: Strain
    doubled: bool
    declarers: tuple[Seat, ...]
    result: int = 0

    @property
    def text(self) -> str:
        """`4S`, `5DX`, `3NT` as PBN writes a contract."""
        return f"{self.level}{self.strain.name}{'X' if self.doubled else ''}"

    @property
    def by(self) -> str:
        """The declaring side (`NS`) or the one seat (`N`)."""
        seats = sorted(set(self.declarers), key=lambda s: s.index)
        if len(seats) == 2 and seats[0].partner is seats[1]:
            return seats[0].side
        return "".join(s.name for s in seats)

    def to_map(self) -> dict[str, Any]:
        return {"contract": self.text, "by": self.by, "result": self.result,
                "level": self.level, "strain": self.strain.name, "doubled": self.doubled,
                "declarers": [s.name for s in self.declarers]}

    @staticmethod
    def from_map(m: Mapping[str, Any]) -> ParContract:
        return ParContract(int(m["level"]), Strain[m["strain"]], bool(m["doubled"]),
                           tuple(Seat.parse(s) for s in m["declarers"]), int(m["result"]))


@dataclass(frozen=True, slots=True)
class Par:
    """The par of a deal at its vulnerability and dealer: North–South's score and the par
    contracts (none: the deal is passed out, a score of 0)."""

    score_ns: int
    contracts: tuple[ParContract, ...]

    def to_map(self) -> dict[str, Any]:
        return {"score_ns": self.score_ns, "contracts": [c.to_map() for c in self.contracts],
                "text": par_text(self)}

    @staticmethod
    def from_map(m: Mapping[str, Any]) -> Par:
        return Par(int(m["score_ns"]), tuple(ParContract.from_map(c) for c in m["contracts"]))


def side_vulnerable(seat: Seat, vulnerability: Vulnerability) -> bool:
    """Whether `seat`'s side is vulnerable (Law 2's board markings)."""
    return vulnerability is Vulnerability.BOTH or vulnerability.value == seat.side


def par_score(contract: ParContract, vulnerability: Vulnerability) -> int:
    """North–South's score of a par contract at its result, under Law 77's table."""
    seat = contract.declarers[0]
    scored = duplicate_score(Contract(contract.level, contract.strain.name,
                                      "X" if contract.doubled else ""),
                             side_vulnerable(seat, vulnerability),
                             BOOK + contract.level + contract.result)
    return scored if seat.side == "NS" else -scored


def checked_par(par: Par, vulnerability: Vulnerability) -> Par:
    """`par` itself, once each contract is seen to score its score under Law 77 (a solver's
    par read wrongly, say a side's score given the other's sign, is refused)."""
    for contract in par.contracts:
        if par_score(contract, vulnerability) != par.score_ns:
            raise DoubleDummyError(f"par {contract.by} {contract.text} {contract.result:+d} "
                                   f"does not score {par.score_ns} for NS (Law 77)")
    if not par.contracts and par.score_ns != 0:
        raise DoubleDummyError(f"a par of {par.score_ns} with no contract")
    return par


def par_text(par: Par) -> str:
    """The par in words for a page: `NS 4S, NS 4H: NS +420`; `Pass: 0`."""
    if not par.contracts:
        return "Pass: 0"
    contracts = ", ".join(f"{c.by} {c.text}{_result(c.result)}" for c in par.contracts)
    side = par.contracts[0].declarers[0].side
    ours = par.score_ns if side == "NS" else -par.score_ns
    return f"{contracts}: {side} {ours:+d}"


def _result(result: int) -> str:
    return "" if result == 0 else f"{result:+d}"


def optimum_result_table(table: DoubleDummy) -> list[str]:
    """PBN 2.1's `OptimumResultTable` (section 5.7): its tag and 20 lines."""
    rows = [f"{seat.name} {strain.name:>2} {table.of(seat, strain):>2}"
            for seat in PBN_DECLARERS for strain in PBN_STRAINS]
    return ['[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]', *rows]


def par_tags(par: Par) -> list[str]:
    """PBN's `OptimumScore` (North–South's par score) and `ParContract` tags."""
    contracts = "; ".join(f"{c.by} {c.text}" for c in par.contracts) or "Pass"
    return [f'[OptimumScore "NS {par.score_ns}"]', f'[ParContract "{contracts}"]']


def pbn_tags(table: DoubleDummy, par: Par) -> list[str]:
    """A board's hand-record tags in PBN 2.1: `OptimumScore`, `ParContract`, then the
    `OptimumResultTable` section (a section ends a game's tags: it comes last)."""
    return [*par_tags(par), *optimum_result_table(table)]


def read_optimum_result_table(lines: Sequence[str]) -> DoubleDummy:
    """The table of PBN's `OptimumResultTable` lines (after its tag): `N NT  7` and so on, in
    any order. Raises `DoubleDummyError` on a line that is not one."""
    tricks: dict[tuple[Seat, Strain], int] = {}
    for line in lines:
        parts = line.split()
        if len(parts) != 3 or parts[1] not in Strain.__members__ or not parts[2].isdigit():
            raise DoubleDummyError(f"not an OptimumResultTable line: {line!r}")
        tricks[Seat.parse(parts[0]), Strain[parts[1]]] = int(parts[2])
    return DoubleDummy(tricks)
